"""The gfx950 bf16 GEMM (tests/kernels/emu/gemm_bf16_gfx950.hip: global_load_lds_dwordx4,
ds_read_b128, ds_read_b64_tr_b16, v_mfma_f32_16x16x32_bf16) on the emulator matches numpy
exactly: integer-valued bf16 inputs make every product and partial sum exact in fp32.
The 1024^3 run and its timing are in tests/bench/emulator.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

pytestmark = pytest.mark.skipif(find_toolchain().clang_major < 20,
                                reason="gfx950 needs LLVM >= 20")
SRC = Path(__file__).parents[1] / "kernels" / "emu" / "gemm_bf16_gfx950.hip"


@pytest.fixture(scope="module")
def kernel():
    return Kernel(wb.compile(SRC.read_text(), "gfx950"), "gemm_bf16_gfx950",
                  device="emulator:gfx950")


def test_the_kernel_uses_the_gfx950_paths(kernel):
    seen = {i.mnemonic for i in kernel.isa_for("gfx950")}
    assert {"global_load_lds_dwordx4", "ds_read_b128", "ds_read_b64_tr_b16",
            "v_mfma_f32_16x16x32_bf16"} <= seen


@pytest.mark.parametrize(("m", "n", "k"), [(64, 128, 96), (512, 512, 512)])
def test_gemm_matches_numpy_exactly(kernel, m, n, k):
    rng = np.random.default_rng(m + n + k)
    a = rng.integers(-8, 9, (m, k)).astype(np.float32)
    b = rng.integers(-8, 9, (k, n)).astype(np.float32)
    # bf16 bits of small integers: the top half of their f32 pattern, exactly
    abits = (a.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)
    bbits = (b.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)
    c = np.full((m, n), np.nan, np.float32)
    kernel[(n // 64, m // 64), 256](abits, bbits, c, m, n, k)
    np.testing.assert_array_equal(c, (a.astype(np.float64) @ b).astype(np.float32))
