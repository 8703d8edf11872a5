"""The CDNA4 FP8 GEMM blog's ladder (shared/reference/tutorial_perf_anchors.md §3.2) and the
kernels that implement each rung, for the timing model's calibration.

Published: ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture" (MI355X, 4096^3, FP8
E4M3 inputs, TFLOP/s). Used by tests/timing/test_timing_calibration.py and tests/bench/timing.py.

Which kernel runs a rung: the blog's early rungs (naive, LDS tiling, and the single-tile MFMA
rungs 4-7: 4 waves, one 16 x 16 C tile per wave, 32 x 32 workgroup tiles) are the kernels of
tests/kernels/timing/blog/blog_ladder.hip, written to the blog's description (the tutorial's
kernels/gemm steps 4-8 are deliberately better: 128 x 128 tiles, 4 x 4 MFMA tiles per wave). The
MFMA baseline and the multi-wave / ping-pong rungs are kernels/gemm's steps, which have the
blog's configuration (step 3: 32 x 32, 4 waves, element loads; 9a/9/9b: 128x128x8 waves,
256x256x8 waves, 256x256x16 waves; 10: the 8-wave ping-pong).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BLOG_SRC = ROOT / "tests" / "kernels" / "timing" / "blog" / "blog_ladder.hip"

# (blog rung, kernel: a kernels/gemm step key or ("blog", kernel of BLOG_SRC), published TFLOP/s)
BLOG = [
    ("naive", ("blog", "blog_naive"), 1.15),
    ("LDS tiling", ("blog", "blog_lds"), 4.80),
    ("MFMA 16x16x128", 3, 30.05),
    ("+ vectorized 16-byte loads", ("blog", "blog_vec"), 336.9),
    ("+ direct global->LDS", ("blog", "blog_direct"), 506.7),
    ("+ XOR LDS swizzle", ("blog", "blog_swizzle"), 497.4),
    ("+ double buffering", ("blog", "blog_dbuf"), 1166.4),
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


# the workgroup of the naive and LDS-tiling rungs is EARLY_TILE x EARLY_TILE (BLOG_SRC says why 32)
EARLY_TILE = 32


def blog_kernel(name: str, device: str | None = None, tile: int = EARLY_TILE):
    """A kernel of BLOG_SRC (gfx950, fp8) as a ``workbench.Kernel``; ``tile``: the naive and
    LDS-tiling rungs' TILE."""
    import workbench as wb

    mod = wb.compile(BLOG_SRC.read_text(), arch="gfx950",
                     defines={"GEMM_FP8": "1", "BLOG_TILE": str(tile)},
                     include_dirs=[ROOT / "kernels" / "gemm"], filename=BLOG_SRC.name)
    return wb.Kernel(mod, name, device=device)


def blog_launch(name: str, M: int, N: int,
                tile: int = EARLY_TILE) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(grid, block) of a BLOG_SRC kernel for an M x N output."""
    if name in ("blog_naive", "blog_lds"):
        return (-(-N // tile), -(-M // tile)), (tile, tile)
    return (-(-M // 32) * -(-N // 32),), (256,)


def rung_kernel(key, n: int, device: str | None = None, tile: int = EARLY_TILE):
    """(kernel, grid, block) of one rung at n^3 (fp8, gfx950)."""
    if isinstance(key, tuple):
        g, b = blog_launch(key[1], n, n, tile)
        return blog_kernel(key[1], device, tile), g, b
    steps = steps_module()
    s = steps.step(key)
    g, b = steps.launch(s, n, n, n)
    return steps.kernel(s, "gfx950", "fp8", device), g, b


def predict(key, n: int = 4096, chip: str = "mi355x", tile: int = EARLY_TILE):
    """(TimingReport, wall seconds) of one rung at n^3."""
    k, g, b = rung_kernel(key, n, tile=tile)
    A, B, _, _ = steps_module().inputs(n, n, n, "fp8")
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
