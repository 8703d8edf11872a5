"""The CDNA4 FP8 GEMM tutorial's eleven rungs as reconstructed for the timing calibration
(tests/kernels/timing/blog/blog_ladder.hip): exact against numpy on the gfx950 emulator.

Why: the calibration (tests/timing/test_timing_calibration.py) times these kernels against the
blog's published numbers, so each must compute C = alpha * A . B^T (+ beta * C). Integer-valued
fp8 inputs in [-4, 4] make every fp32 partial sum exact, so C must equal the exact product
rounded to bf16 bit for bit: round-to-nearest-even for rungs 1-10, truncation for the ping-pong
(the notebook's kernels store bf16 that way). Each rung runs at 256^3 (its launch configuration
allows it: 256 x 256 tiles for rungs 9-11), rungs 1-10 also at M != N != K (lda, ldb, ldc and the
M / N roles), and the rungs that read C when beta != 0 (1-8) with alpha = 2, beta = 1.
"""
from __future__ import annotations

import numpy as np
import pytest
from gemm_blog import BLOG, kernel_name, ladder_module, launch, launch_args, steps_module

KEYS = [key for _name, key, _tflops in BLOG]
GENERAL = [k for k in KEYS if k != "fp8_pingpong"]        # (A, B, C, M, N, K, ld*, alpha, beta)
READS_C = GENERAL[:8]                                      # rungs 9, 10: the beta == 0 instance


@pytest.fixture(scope="module")
def ladder():
    return ladder_module()


def _bf16_rne(x: np.ndarray) -> np.ndarray:
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def _bf16_trunc(x: np.ndarray) -> np.ndarray:
    return (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _run(ladder, key, M, N, K, C, alpha=1.0, beta=0.0, seed=0):
    import workbench as wb

    steps = steps_module()
    A, B, a, b = steps.inputs(M, N, K, "fp8", seed=seed)
    g, blk = launch(key, M, N)
    k = wb.Kernel(ladder, kernel_name(key, M), device="emulator:gfx950")
    k[g, blk](*launch_args(key, A, B, C, M, N, K, alpha, beta))
    return steps.reference(a, b)


@pytest.mark.parametrize("key", KEYS)
def test_rung_matches_numpy_on_the_gfx950_emulator(ladder, key):
    n = 256
    C = np.full((n, n), 0x7FC0, np.uint16)  # bf16 NaN: every element must be written
    ref = _run(ladder, key, n, n, n, C, seed=1)
    want = _bf16_trunc(ref) if key == "fp8_pingpong" else _bf16_rne(ref)
    np.testing.assert_array_equal(C, want)


@pytest.mark.parametrize("key", GENERAL)
def test_rung_with_m_n_k_all_different(ladder, key):
    M, N, K = 256, 512, 384
    C = np.full((M, N), 0x7FC0, np.uint16)
    ref = _run(ladder, key, M, N, K, C, seed=2)
    np.testing.assert_array_equal(C, _bf16_rne(ref))


@pytest.mark.parametrize("key", READS_C)
def test_rung_with_alpha_and_beta(ladder, key):
    n = 128
    rng = np.random.default_rng(3)
    c0 = rng.integers(-8, 9, (n, n)).astype(np.float32)
    C = _bf16_rne(c0)
    ref = _run(ladder, key, n, n, n, C, alpha=2.0, beta=1.0, seed=3)
    np.testing.assert_array_equal(C, _bf16_rne(2.0 * ref + c0))
