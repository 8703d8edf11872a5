"""The CDNA4 FP8 GEMM blog's early rungs as written for the timing calibration
(tests/kernels/timing/blog/blog_ladder.hip): exact against numpy on the gfx950 emulator.

Why: the calibration (tests/timing/test_timing_calibration.py) times these kernels against the
blog's published numbers, so each must compute C = A . B^T; integer-valued fp8 inputs make every
partial sum exact in fp32, so the check is bit-exact. Shapes include M, N that are not multiples
of the tile (rows past M / N read as zero, C stored only inside M x N).
"""
from __future__ import annotations

import numpy as np
import pytest
from gemm_blog import blog_kernel, blog_launch, steps_module

# (kernel, TILE of the naive / LDS-tiling rungs: 32 is the calibration's, 16 the other reading)
KERNELS = [("blog_naive", 32), ("blog_lds", 32), ("blog_naive", 16), ("blog_lds", 16),
           ("blog_vec", 32), ("blog_direct", 32), ("blog_swizzle", 32), ("blog_dbuf", 32)]


@pytest.mark.parametrize("name,tile", KERNELS, ids=[f"{n}-{t}" for n, t in KERNELS])
@pytest.mark.parametrize("shape", [(64, 96, 256), (40, 72, 256)], ids=["tiles", "edges"])
def test_blog_rung_matches_numpy_on_the_gfx950_emulator(name, tile, shape):
    M, N, K = shape
    steps = steps_module()
    A, B, a, b = steps.inputs(M, N, K, "fp8", seed=M + N)
    C = np.full((M, N), np.nan, np.float32)
    g, blk = blog_launch(name, M, N, tile)
    blog_kernel(name, device="emulator:gfx950", tile=tile)[g, blk](A, B, C, M, N, K)
    np.testing.assert_array_equal(C, steps.reference(a, b))
