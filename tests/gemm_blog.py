"""The CDNA4 FP8 GEMM blog's ladder and the kernels that implement each rung, for the timing
model's calibration.

Published: ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture" (ROCm/rocm-blogs @
c9ef8066, blogs/software-tools-optimization/cdna4-gemm-kernels/README.md; MI355X, 4096^3, FP8
E4M3 inputs, bf16 C, TFLOP/s). Used by tests/timing/test_timing_calibration.py and
tests/bench/timing.py.

Which kernel runs a rung: every rung is a kernel of tests/kernels/timing/blog/blog_ladder.hip,
our reconstruction of the corresponding kernel of the blog's tutorial notebook (ROCm/gpuaidev @
da0b2b5, docs/notebooks/gpu_dev_optimize/fp8_gemm_hip_cdna4.ipynb) with the notebook's tiles,
loads, LDS layout and launch configuration (BLOG_SRC's header lists them; `launch` gives them).
Rungs 1-10 take (A, B, C, M, N, K, lda, ldb, ldc, alpha, beta), the ping-pong (A, B, C) and is
compiled per square shape (PINGPONG_SIZES).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BLOG_SRC = ROOT / "tests" / "kernels" / "timing" / "blog" / "blog_ladder.hip"

# (blog rung, kernel of BLOG_SRC, published TFLOP/s: the blog's Table 5, ROCm 7.1.0)
BLOG = [
    ("naive", "fp8_naive", 1.15),
    ("LDS tiling", "fp8_lds_tiled", 4.80),
    ("MFMA 16x16x128", "fp8_mfma", 30.05),
    ("+ vectorized 16-byte loads", "fp8_mfma_vec", 336.9),
    ("+ direct global->LDS", "fp8_bufferload", 506.7),
    ("+ XOR LDS swizzle", "fp8_bufferload_swz", 497.4),
    ("+ double buffering", "fp8_double_buffer", 1166.4),
    ("multi-wave 128x128, 512 threads", "fp8_mw128_t512", 1828.7),
    ("multi-wave 256x256x128, 512 threads", "fp8_mw256_t512", 2288.2),
    ("multi-wave 256x256, 1024 threads", "fp8_mw256_t1024", 2228.0),
    ("8-wave ping-pong", "fp8_pingpong", 2680.3),
]

# the notebook's stored re-run of the same kernels (ROCm/gpuaidev @ da0b2b5, the tutorial
# notebook's final benchmark cell output: avg TFLOP/s, ROCm 7.1.1, 5 warm-up + 50 timed launches)
NOTEBOOK_RERUN = (1.148, 4.803, 29.92, 340.8, 501.2, 494.8, 1149.9, 1808.2, 2002.8, 2083.9,
                  2650.1)

# The ping-pong read the other way: the tutorial says its `#pragma unroll 2` hot loop avoids
# register spilling (ROCm's compiler), while upstream LLVM 22 spills 68 VGPRs of it (and of our
# faithful reconstruction); kernels/gemm step 10 is an 8-wave ping-pong of the same tile and
# launch that LLVM 22 allocates without spills (246 VGPRs).
PINGPONG_NO_SPILL = 10

# M = N = K of the ping-pong instances BLOG_SRC compiles (fp8_pingpong_<n>)
PINGPONG_SIZES = (256, 512, 1024, 4096, 8192)

# C tile of one workgroup (M rows, N columns) and its block, per rung kernel
_TILE = {
    "fp8_naive": ((16, 16), (16, 16)),
    "fp8_lds_tiled": ((16, 16), (16, 16)),
    "fp8_mfma": ((32, 32), (64, 4)),
    "fp8_mfma_vec": ((32, 32), (64, 4)),
    "fp8_bufferload": ((32, 32), (64, 4)),
    "fp8_bufferload_swz": ((32, 32), (64, 4)),
    "fp8_double_buffer": ((64, 64), (64, 4)),
    "fp8_mw128_t512": ((128, 128), (512,)),
    "fp8_mw256_t512": ((256, 256), (512,)),
    "fp8_mw256_t1024": ((256, 256), (1024,)),
    "fp8_pingpong": ((256, 256), (512,)),
}


def steps_module():
    """kernels/gemm/steps.py (inputs, reference; the tutorial's own steps for non-BLOG keys)."""
    sys.path.insert(0, str(ROOT / "kernels" / "gemm"))
    try:
        import steps
    finally:
        sys.path.pop(0)
    return steps


def ladder_module():
    """BLOG_SRC compiled for gfx950 (a ``workbench.Module``; the compile cache makes repeats
    cheap)."""
    import workbench as wb

    return wb.compile(BLOG_SRC.read_text(), arch="gfx950", options=["-std=c++17"],
                      filename=BLOG_SRC.name)


def kernel_name(key: str, n: int | None = None) -> str:
    """The BLOG_SRC kernel of a rung key; the ping-pong's is per size (M = N = K = n)."""
    if key not in _TILE:
        raise KeyError(f"{key!r} is not a kernel of {BLOG_SRC.name} (known: {', '.join(_TILE)})")
    if key != "fp8_pingpong":
        return key
    if n not in PINGPONG_SIZES:
        raise ValueError(f"the ping-pong is compiled for M = N = K in {PINGPONG_SIZES}, not {n}")
    return f"fp8_pingpong_{n}"


def blog_kernel(key: str, n: int | None = None, device: str | None = None):
    """A rung kernel of BLOG_SRC (gfx950, fp8) as a ``workbench.Kernel``."""
    import workbench as wb

    return wb.Kernel(ladder_module(), kernel_name(key, n), device=device)


def launch(key: str, M: int, N: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(grid, block) of a rung kernel for an M x N output, as the notebook launches it (M, N
    multiples of the rung's C tile)."""
    (tm, tn), block = _TILE[key]
    if M % tm or N % tn:
        raise ValueError(f"{key} needs M % {tm} == 0 and N % {tn} == 0, got M={M}, N={N}")
    if key == "fp8_pingpong":
        return (M * N // (tm * tn),), block
    return (N // tn, M // tm), block


def launch_args(key: str, A, B, C, M: int, N: int, K: int, alpha: float = 1.0,
                beta: float = 0.0) -> tuple:
    """The kernel arguments of a rung (row-major A M x K, B N x K, C M x N)."""
    if key == "fp8_pingpong":
        return (A, B, C)
    return (A, B, C, M, N, K, K, K, N, np.float32(alpha), np.float32(beta))


def rung_kernel(key, n: int, device: str | None = None):
    """(kernel, grid, block) of one rung at n^3 (fp8, gfx950). A key that is not a BLOG_SRC
    kernel names a kernels/gemm step (C fp32, arguments (A, B, C, M, N, K))."""
    if key in _TILE:
        g, b = launch(key, n, n)
        return blog_kernel(key, n, device), g, b
    steps = steps_module()
    s = steps.step(key)
    g, b = steps.launch(s, n, n, n)
    return steps.kernel(s, "gfx950", "fp8", device), g, b


def predict(key, n: int = 4096, chip: str = "mi355x"):
    """(TimingReport, wall seconds) of one rung at n^3."""
    k, g, b = rung_kernel(key, n)
    A, B, _, _ = steps_module().inputs(n, n, n, "fp8")
    if key in _TILE:
        C = np.zeros((n, n), np.uint16)  # bf16 bits
        args = launch_args(key, A, B, C, n, n, n)
    else:
        args = (A, B, np.zeros((n, n), np.float32), n, n, n)
    t0 = time.perf_counter()
    r = k.timing[g, b](*args, chip=chip, flops=2.0 * n ** 3)
    return r, time.perf_counter() - t0


def spearman(a, b) -> float:
    """Spearman rank correlation (no ties expected)."""
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    ra -= ra.mean()
    rb -= rb.mean()
    return float((ra * rb).sum() / np.sqrt((ra ** 2).sum() * (rb ** 2).sum()))
