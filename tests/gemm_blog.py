"""The CDNA4 FP8 GEMM blog's ladder (shared/reference/tutorial_perf_anchors.md §3.2) and the
kernels of kernels/gemm that implement each rung, for the timing model's calibration.

Published: ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture" (MI355X, 4096^3, FP8
E4M3 inputs, TFLOP/s). Used by tests/test_timing_calibration.py and tests/bench/timing.py.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# (blog rung, kernels/gemm step key, published TFLOP/s at 4096^3)
BLOG = [
    ("naive", 1, 1.15),
    ("LDS tiling", 2, 4.80),
    ("MFMA 16x16x128", 3, 30.05),
    ("+ vectorized 16-byte loads", 5, 336.9),
    ("+ direct global->LDS", 6, 506.7),
    ("+ XOR LDS swizzle", 7, 497.4),
    ("+ double buffering", 8, 1166.4),
    ("multi-wave 128x128, 512 threads", "9a", 1828.7),
    ("multi-wave 256x256x128, 512 threads", 9, 2288.2),
    ("multi-wave 256x256, 1024 threads", "9b", 2228.0),
    ("8-wave ping-pong", 10, 2680.3),
]


def steps_module():
    sys.path.insert(0, str(ROOT / "kernels" / "gemm"))
    try:
        import steps
    finally:
        sys.path.pop(0)
    return steps


def predict(key, n: int = 4096, dtype: str = "fp8", arch: str = "gfx950", chip: str = "mi355x"):
    """(TimingReport, wall seconds) of one step at n^3."""
    steps = steps_module()
    s = steps.step(key)
    k = steps.kernel(s, arch, dtype)
    g, b = steps.launch(s, n, n, n)
    A, B, _, _ = steps.inputs(n, n, n, dtype)
    C = np.zeros((n, n), np.float32)
    t0 = time.perf_counter()
    r = k.timing[g, b](A, B, C, n, n, n, chip=chip, flops=2.0 * n ** 3)
    return r, time.perf_counter() - t0


def spearman(a, b) -> float:
    """Spearman rank correlation (no ties expected)."""
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    ra -= ra.mean()
    rb -= rb.mean()
    return float((ra * rb).sum() / np.sqrt((ra ** 2).sum() * (rb ** 2).sum()))
