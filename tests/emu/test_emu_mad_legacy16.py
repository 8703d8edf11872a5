"""gfx9's v_mad_legacy_u16 / v_mad_legacy_i16 (the VI-encoded 16-bit multiply-add LLVM emits
for 16-bit index arithmetic, as in Wave's igemm conv2d reading its operands from global memory)
on the emulator, per lane against the CDNA4 ISA §12.11 pseudocode: ``tmp = S0 * S1 + S2`` in 16
bits (wrapping, or saturating with clamp), written as ``{16'0, tmp}``: the high half zeroed,
unlike v_mad_u16, whatever the destination held (LLVM's assembler takes no op_sel on the legacy
forms, so the ISA's op_sel[3] = 1 case cannot be written)."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb

SRC = r"""
#define K(name, op)                                                              \
  extern "C" __global__ void name(const unsigned* x, unsigned* r) {              \
    unsigned t = threadIdx.x, a = x[t], b = x[64 + t], c = x[128 + t],           \
             d = x[192 + t];                                                     \
    asm volatile(op " %0, %1, %2, %3" OPSEL : "+v"(d) : "v"(a), "v"(b), "v"(c)); \
    r[t] = d; }
#define OPSEL ""
K(u16, "v_mad_legacy_u16")
K(i16, "v_mad_legacy_i16")
#undef OPSEL
#define OPSEL " clamp"
K(u16_clamp, "v_mad_legacy_u16")
K(i16_clamp, "v_mad_legacy_i16")
"""


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def _operands():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2**32, (4, 64), dtype=np.uint64).astype(np.uint32)
    x[:3, :8] = [[0xFFFF, 0x8000, 0x7FFF, 2, 0x1234FFFF, 0xFFFF8000, 1, 0x100],
                 [0xFFFF, 2, 2, 0x8000, 3, 0x7FFF, 0, 0x100],
                 [0xFFFF, 0, 0x7FFF, 0x8000, 5, 0x8000, 0xFFFF, 0]]
    return x


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    a, b, c = (x[i] & 0xFFFF for i in range(3))
    if name.startswith("i16"):
        a, b, c = ((v.astype(np.int64) ^ 0x8000) - 0x8000 for v in (a, b, c))
    tmp = a.astype(np.int64) * b + c
    if name.endswith("clamp"):
        tmp = np.clip(tmp, -2**15, 2**15 - 1) if name.startswith("i16") else np.minimum(tmp,
                                                                                       0xFFFF)
    return (tmp & 0xFFFF).astype(np.uint32)  # bits 31:16 zero, whatever D held


@pytest.mark.parametrize("name", ["u16", "i16", "u16_clamp", "i16_clamp"])
def test_mad_legacy16_per_lane(mod, name):
    kern = getattr(mod, name)
    mnem = "v_mad_legacy_" + name[:3]
    assert any(i.mnemonic == mnem for i in kern.isa_for("gfx942")), mnem
    x = _operands()
    r = np.zeros(64, np.uint32)
    kern.on("emulator:gfx942")[1, 64](x.reshape(-1), r)
    np.testing.assert_array_equal(r, _reference(name, x))
