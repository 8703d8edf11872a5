"""Check mode's cost: the same launches plain and with ``kernel.check``, side by side.

Why: check mode should be cheap enough to leave on at tutorial sizes. Kernels: GEMM steps 2
(LDS tiling, 256 waves of LDS traffic), 4 (register-blocked MFMA) and 9 (8 waves, 256x256
tiles) at 256x256x128 on gfx942, softmax step 2 (a workgroup per row, LDS reductions). Each
is launched plain and in check mode, alternating ``--rounds`` times (best of each); prints
seconds and the ratio with the machine's load average (the machine is shared: compare
ratios from one run).

    PYTHONPATH=$PWD .venv/bin/python tests/bench/check_overhead.py [--rounds 3]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import time
from pathlib import Path

import numpy as np

import workbench as wb

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cases():
    """(label, plain launch, check launch) per kernel."""
    G = _load("gemm_steps_bench", ROOT / "kernels/gemm/steps.py")
    out = []
    for key in (2, 4, 9):
        s = G.step(key)
        M, N, K = 256, 256, 128
        A, B, _, _ = G.inputs(M, N, K, "bf16", seed=1)
        C = np.zeros((M, N), np.float32)
        grid, block = G.launch(s, M, N, K)
        k = G.kernel(s, "gfx942", "bf16", device="emulator")
        args = (A, B, C, M, N, K)
        out.append((f"gemm step {key} {s['name']} 256x256x128",
                    lambda k=k, g=grid, b=block, a=args: k[g, b](*a),
                    lambda k=k, g=grid, b=block, a=args: k.check[g, b](*a)))
    SM = _load("softmax_steps_bench", ROOT / "kernels/softmax/steps.py")
    s = SM.step("block_row")
    mod = SM.compile_file(s["file"], "gfx942")
    (name,) = s["kernels"]
    k = wb.Kernel(mod, name, device="emulator")
    x = SM.inputs(64, 1024, seed=1)
    y = np.zeros_like(x)
    grid = 64  # one workgroup per row
    out.append(("softmax step 2 block_row 64x1024",
                lambda: k[grid, s["block"]](x, y, 64, 1024),
                lambda: k.check[grid, s["block"]](x, y, 64, 1024)))
    return out


def best(fn, rounds: int) -> float:
    t = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return min(t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'kernel':38s} {'plain s':>8s} {'check s':>8s} {'ratio':>6s}")
    for label, plain, check in cases():
        plain(), check()  # compile, decode, warm caches
        p, c = [], []
        for _ in range(a.rounds):
            p.append(best(plain, 1))
            c.append(best(check, 1))
        print(f"{label:38s} {min(p):8.3f} {min(c):8.3f} {min(c) / min(p):6.2f}x")


if __name__ == "__main__":
    main()
