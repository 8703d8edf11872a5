"""An fp8 GEMM for gfx950 with the f8f6f4 MFMA (tests/kernels/emu/gemm_fp8_f8f6f4.hip) on the
emulator against numpy: plain fp8 (v_mfma_f32_16x16x128_f8f6f4) and MXFP8 with E8M0 block
scales (v_mfma_scale_f32_16x16x128_f8f6f4), fed by LDS DMA (global_load_lds_dwordx4 / _dword)
and 128-bit / 64-bit LDS reads, at 512^3 and 1024^3.

Exactness: elements are integers in [-8, 8] (all OCP E4M3 values, encoded with torch's
float8_e4m3fn), so products are at most 64 and every partial sum of a 1024-long dot product is
an integer below 2^17: exact in fp32 whatever the summation order. With scales 2^-2 .. 2^2 per
32-element block (A and B), products are multiples of 2^-4 below 2^10 and sums below 2^20, still
exact (24-bit significand). So C must equal the numpy result bit for bit.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import workbench as wb
from workbench.runtime.kernel import Kernel

SRC = Path(__file__).parents[1] / "kernels" / "emu" / "gemm_fp8_f8f6f4.hip"


@pytest.fixture(scope="module")
def module():
    return wb.compile(SRC.read_text(), "gfx950")


def _fp8(x: np.ndarray) -> np.ndarray:
    """Exact fp8 E4M3 (OCP) bytes of ``x`` (torch's encoder, independent of the emulator)."""
    t = torch.from_numpy(x.astype(np.float32)).to(torch.float8_e4m3fn)
    assert (t.to(torch.float32).numpy() == x).all()
    return t.view(torch.uint8).numpy()


def test_instructions(module):
    """The kernel uses what it is about: the f8f6f4 MFMAs, both LDS DMA widths, 128- and 64-bit
    LDS reads; no spills."""
    for name, mfma in (("gemm_fp8_f8f6f4", "v_mfma_f32_16x16x128_f8f6f4"),
                       ("gemm_mxfp8_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4")):
        seen = {i.mnemonic for i in module["gfx950"].listing(name)}
        for want in (mfma, "global_load_lds_dwordx4", "global_load_lds_dword", "ds_read_b128"):
            assert want in seen, (name, want)
        assert seen & {"ds_read_b64", "ds_read2_b64"}, name
        res = module.kernels[name].resources
        assert res.vgpr_spills == 0 and res.scratch_bytes == 0


@pytest.mark.parametrize("n", [512, 1024])
def test_fp8_gemm_matches_numpy(module, n):
    M = N = K = n
    rng = np.random.default_rng(n)
    a, b = rng.integers(-8, 9, (M, K)), rng.integers(-8, 9, (N, K))
    C = np.full((M, N), np.nan, np.float32)
    Kernel(module, "gemm_fp8_f8f6f4", device="emulator:gfx950")[(N // 64, M // 64), 256](
        _fp8(a), _fp8(b), C, M, N, K)
    bad = np.argwhere(C != a @ b.T)
    assert bad.size == 0, f"{len(bad)} wrong elements, first {bad[:3].tolist()}"


@pytest.mark.parametrize("n", [512, 1024])
def test_mxfp8_gemm_matches_numpy(module, n):
    M = N = K = n
    rng = np.random.default_rng(n + 1)
    a, b = rng.integers(-8, 9, (M, K)), rng.integers(-8, 9, (N, K))
    sa = rng.integers(125, 130, (M, K // 32)).astype(np.uint8)  # E8M0: 2^-2 .. 2^2
    sb = rng.integers(125, 130, (N, K // 32)).astype(np.uint8)
    scaled_a = a * np.exp2(np.repeat(sa.astype(np.int64) - 127, 32, axis=1))
    scaled_b = b * np.exp2(np.repeat(sb.astype(np.int64) - 127, 32, axis=1))
    C = np.full((M, N), np.nan, np.float32)
    Kernel(module, "gemm_mxfp8_f8f6f4", device="emulator:gfx950")[(N // 64, M // 64), 256](
        _fp8(a), _fp8(b), sa, sb, C, M, N, K)
    want = scaled_a @ scaled_b.T
    assert (want.astype(np.float32) == want).all()
    bad = np.argwhere(C != want)
    assert bad.size == 0, f"{len(bad)} wrong elements, first {bad[:3].tolist()}"
