"""Emulator benchmark: the MFMA bf16 GEMM (tests/kernels/emu/gemm_bf16_mfma.hip; 4 waves per
workgroup, 64x64 tiles, LDS staging, v_mfma_f32_16x16x16_bf16) at 256^3 and 1024^3.

Prints, side by side in one run: emulator wall time, emulated wave-instructions per second,
numpy's float32 matmul time for the same size and the ratio, plus a profile of the 1024^3 run
(top functions) and the opcode coverage of what ran. Target: 1024^3 in <= 2 s.

    .venv/bin/python tests/bench/emulator.py [--profile] [--sizes 256,1024]
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from pathlib import Path

import numpy as np

import workbench as wb
from workbench.emu.coverage import report
from workbench.runtime.kernel import Kernel

KERNEL = Path(__file__).resolve().parents[1] / "kernels" / "emu" / "gemm_bf16_mfma.hip"


def bf16_bits(x: np.ndarray) -> np.ndarray:
    b = x.astype(np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def run(n: int, k: Kernel, profile: bool) -> None:
    rng = np.random.default_rng(0)
    A = bf16_bits(rng.standard_normal((n, n), dtype=np.float32))
    B = bf16_bits(rng.standard_normal((n, n), dtype=np.float32))
    C = np.zeros((n, n), np.float32)
    args = (A.view(np.int16), B.view(np.int16), C, n, n, n)
    k[(n // 64, n // 64), 256](*args)  # warm: decode + caches
    prof = cProfile.Profile() if profile else None
    t0 = time.perf_counter()
    if prof:
        prof.enable()
    res = k[(n // 64, n // 64), 256](*args)
    if prof:
        prof.disable()
    t_emu = time.perf_counter() - t0
    Af = (A.astype(np.uint32) << 16).view(np.float32)
    Bf = (B.astype(np.uint32) << 16).view(np.float32)
    t1 = time.perf_counter()
    ref = Af @ Bf.T
    t_np = time.perf_counter() - t1
    err = float(np.abs(C - ref).max() / max(1e-30, float(np.abs(ref).max())))
    wi = res.stats["wave_instructions"]
    print(f"{n}^3 bf16 GEMM: emulator {t_emu:.3f} s, {wi:,} wave-instructions "
          f"({wi / t_emu:,.0f}/s, {wi * 64 / t_emu:,.0f} lane-ops/s), {res.stats['waves']} "
          f"waves; numpy f32 matmul {t_np * 1e3:.2f} ms; emulator/numpy = {t_emu / t_np:,.0f}x;"
          f" max rel. error vs numpy {err:.1e}")
    if prof:
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(12)
        print(s.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true", help="cProfile the largest size")
    ap.add_argument("--sizes", default="256,1024")
    a = ap.parse_args()
    mod = wb.compile(KERNEL.read_text(), "gfx942")
    k = Kernel(mod, "gemm_bf16", device="emulator")
    sizes = [int(s) for s in a.sizes.split(",")]
    for n in sizes:
        run(n, k, a.profile and n == max(sizes))
    print(report().text())


if __name__ == "__main__":
    main()
