"""A 512^3 f16 WMMA GEMM (tests/kernels/emu/wmma_gemm.hip, B passed transposed; one source,
RDNA3 and RDNA4 operand layouts behind __GFX11__ / __GFX12__) runs on emulator:gfx1100 and
emulator:gfx1201 and matches numpy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "wmma_gemm.hip").read_text()


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_wmma_gemm_512_matches_numpy(arch):
    n = 512
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, (n, n)).astype(np.float16)  # small integers: f32 sums are exact
    b = rng.integers(-4, 5, (n, n)).astype(np.float16)
    c = np.zeros((n, n), np.float32)
    k = wb.Kernel(wb.compile(SRC, arch), "wmma_gemm", device=f"emulator:{arch}")
    res = k[(n // 16, n // 16), 32](a, np.ascontiguousarray(b.T), c, n, n)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    assert any(i.mnemonic.startswith("v_wmma_f32_16x16x16_f16") for i in k.isa_for(arch))
    assert res.stats["waves"] == (n // 16) ** 2
