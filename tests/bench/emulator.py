"""Emulator benchmark: bf16 MFMA GEMMs on gfx942 and gfx950 next to numpy.

* gfx942: tests/kernels/emu/gemm_bf16_mfma.hip (C = A·Bᵀ; 4 waves per workgroup, 64x64 tiles,
  LDS staging through VGPRs, v_mfma_f32_16x16x16_bf16);
* gfx950: tests/kernels/emu/gemm_bf16_gfx950.hip (C = A·B; global_load_lds_dwordx4 straight
  into LDS, ds_read_b128 + ds_read_b64_tr_b16 operand reads, v_mfma_f32_16x16x32_bf16).
  Needs LLVM >= 20; skipped (and said so) with an older toolchain.
* gfx950 fp8: tests/kernels/emu/gemm_fp8_f8f6f4.hip (C = A·Bᵀ, OCP E4M3 bytes; LDS DMA dwordx4 /
  dword, ds_read_b128 + ds_read2_b64, v_mfma_f32_16x16x128_f8f6f4) on integer inputs (exact),
  at ``--fp8-sizes`` (default 512,1024).

* gfx1100 / gfx1201: tests/kernels/emu/wmma_gemm.hip (f16 WMMA, RDNA3 / RDNA4 layouts, wave32)
  at ``--wmma-sizes`` (default 512).

Prints, side by side in one run, per size: each kernel's emulator wall time (minimum and median
of ``--repeat`` runs after one warm-up launch), emulated wave-instructions per second, numpy's
float32 matmul time (min / median) and the ratios, the gfx950 / gfx942 ratio, and the largest
relative error vs numpy; optionally a profile of the largest run and the opcode coverage of what
ran. Target: 1024^3 in <= 2 s per kernel. The machine may be shared: read the minima.

    .venv/bin/python tests/bench/emulator.py [--profile] [--sizes 256,1024] [--repeat 3]
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import time
from pathlib import Path

import numpy as np

import workbench as wb
from workbench.emu.observers.coverage import report
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

KDIR = Path(__file__).resolve().parents[1] / "kernels" / "emu"
# arch -> (kernel file, kernel name, B is stored transposed [N, K])
KERNELS = {"gfx942": ("gemm_bf16_mfma.hip", "gemm_bf16", True),
           "gfx950": ("gemm_bf16_gfx950.hip", "gemm_bf16_gfx950", False)}


def bf16_bits(x: np.ndarray) -> np.ndarray:
    b = x.astype(np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def _times(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def run(arch: str, n: int, k: Kernel, repeat: int, profile: bool) -> float:
    """Run one kernel at n^3; print its line; return the minimum emulator time."""
    rng = np.random.default_rng(0)
    A = bf16_bits(rng.standard_normal((n, n), dtype=np.float32))
    B = bf16_bits(rng.standard_normal((n, n), dtype=np.float32))
    C = np.zeros((n, n), np.float32)
    args = (A.view(np.int16), B.view(np.int16), C, n, n, n)
    launch = k[(n // 64, n // 64), 256]
    res = launch(*args)  # warm: decode + caches
    t_emu = _times(lambda: launch(*args), repeat)
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        launch(*args)
        prof.disable()
    Af = (A.astype(np.uint32) << 16).view(np.float32)
    Bf = (B.astype(np.uint32) << 16).view(np.float32)
    transposed = KERNELS[arch][2]
    ref = Af @ (Bf.T if transposed else Bf)
    t_np = _times(lambda: Af @ (Bf.T if transposed else Bf), max(repeat, 5))
    err = float(np.abs(C - ref).max() / max(1e-30, float(np.abs(ref).max())))
    wi = res.stats["wave_instructions"]
    lo, med, np_lo, np_med = min(t_emu), statistics.median(t_emu), min(t_np), \
        statistics.median(t_np)
    print(f"{arch} {n}^3 bf16 GEMM: emulator min {lo:.3f} s / median {med:.3f} s "
          f"({repeat} runs), {wi:,} wave-instructions ({wi / lo:,.0f}/s), {res.stats['waves']} "
          f"waves; numpy f32 matmul min {np_lo * 1e3:.2f} ms / median {np_med * 1e3:.2f} ms; "
          f"emulator/numpy = {lo / np_lo:,.0f}x (min/min); max rel. error vs numpy {err:.1e}")
    if profile:
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(12)
        print(s.getvalue())
    return lo


def run_fp8(n: int, k: Kernel, repeat: int) -> None:
    """The gfx950 fp8 GEMM at n^3 on integers in [-8, 8] (exact): time vs numpy; print a line."""
    import torch

    rng = np.random.default_rng(0)
    a, b = rng.integers(-8, 9, (n, n)), rng.integers(-8, 9, (n, n))
    A, B = (torch.from_numpy(x.astype(np.float32)).to(torch.float8_e4m3fn).view(torch.uint8)
            .numpy() for x in (a, b))
    C = np.zeros((n, n), np.float32)
    launch = k[(n // 64, n // 64), 256]
    res = launch(A, B, C, n, n, n)  # warm: decode + caches
    t_emu = _times(lambda: launch(A, B, C, n, n, n), repeat)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    t_np = _times(lambda: af @ bf.T, max(repeat, 5))
    bad = int((C != af @ bf.T).sum())
    wi = res.stats["wave_instructions"]
    lo, med, np_lo = min(t_emu), statistics.median(t_emu), min(t_np)
    print(f"gfx950 {n}^3 fp8 GEMM (f8f6f4 MFMA): emulator min {lo:.3f} s / median {med:.3f} s "
          f"({repeat} runs), {wi:,} wave-instructions ({wi / lo:,.0f}/s), {res.stats['waves']} "
          f"waves; numpy f32 matmul min {np_lo * 1e3:.2f} ms; emulator/numpy = "
          f"{lo / np_lo:,.0f}x (min/min); {bad} elements differ from numpy (exact inputs)")


def run_wmma(arch: str, n: int, k: Kernel, repeat: int) -> None:
    """The RDNA f16 WMMA GEMM (tests/kernels/emu/wmma_gemm.hip, one wave32 per 16x16 tile) at
    n^3 on small integers (exact): time vs numpy; print a line."""
    rng = np.random.default_rng(0)
    a, b = (rng.integers(-4, 5, (n, n)).astype(np.float16) for _ in range(2))
    C = np.zeros((n, n), np.float32)
    launch = k[(n // 16, n // 16), 32]
    bt = np.ascontiguousarray(b.T)
    res = launch(a, bt, C, n, n)  # warm: decode + caches
    t_emu = _times(lambda: launch(a, bt, C, n, n), repeat)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    t_np = _times(lambda: af @ bf, max(repeat, 5))
    bad = int((C != af @ bf).sum())
    wi = res.stats["wave_instructions"]
    lo, med, np_lo = min(t_emu), statistics.median(t_emu), min(t_np)
    print(f"{arch} {n}^3 f16 WMMA GEMM (wave32): emulator min {lo:.3f} s / median {med:.3f} s "
          f"({repeat} runs), {wi:,} wave-instructions ({wi / lo:,.0f}/s), {res.stats['waves']} "
          f"waves; numpy f32 matmul min {np_lo * 1e3:.2f} ms; emulator/numpy = "
          f"{lo / np_lo:,.0f}x (min/min); {bad} elements differ from numpy (exact inputs)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true", help="cProfile the largest size")
    ap.add_argument("--sizes", default="256,1024")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fp8-sizes", default="512,1024", help="gfx950 fp8 GEMM sizes ('' = none)")
    ap.add_argument("--wmma-sizes", default="512",
                    help="gfx1100/gfx1201 f16 WMMA GEMM sizes ('' = none)")
    a = ap.parse_args()
    archs = ["gfx942"]
    if find_toolchain().clang_major >= 20:
        archs.append("gfx950")
    else:
        print("gfx950 GEMM skipped: it needs LLVM >= 20 (found "
              f"{find_toolchain().clang_major})")
    kernels = {}
    for arch in archs:
        file, name, _ = KERNELS[arch]
        mod = wb.compile((KDIR / file).read_text(), arch)
        kernels[arch] = Kernel(mod, name, device="emulator" if arch == "gfx942"
                               else f"emulator:{arch}")
    sizes = [int(s) for s in a.sizes.split(",")]
    for n in sizes:
        best = {arch: run(arch, n, k, a.repeat, a.profile and n == max(sizes))
                for arch, k in kernels.items()}
        if len(best) == 2:
            print(f"{n}^3: gfx950 / gfx942 emulator time = {best['gfx950'] / best['gfx942']:.2f}"
                  " (minima)")
    if "gfx950" in kernels and a.fp8_sizes:
        mod = wb.compile((KDIR / "gemm_fp8_f8f6f4.hip").read_text(), "gfx950")
        k8 = Kernel(mod, "gemm_fp8_f8f6f4", device="emulator:gfx950")
        for n in (int(x) for x in a.fp8_sizes.split(",")):
            run_fp8(n, k8, a.repeat)
    for arch in ("gfx1100", "gfx1201") if a.wmma_sizes else ():
        mod = wb.compile((KDIR / "wmma_gemm.hip").read_text(), arch)
        kw = Kernel(mod, "wmma_gemm", device=f"emulator:{arch}")
        for n in (int(x) for x in a.wmma_sizes.split(",")):
            run_wmma(arch, n, kw, a.repeat)
    print(report().text())


if __name__ == "__main__":
    main()
