"""v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16 on the emulator, per lane, against the ISA's
rule (CDNA3 ISA "VOP3P"; RDNA3 ISA, same encoding): source i is an f16 taken from half
``op_sel[i]`` when ``op_sel_hi[i]`` is 1 and an f32 otherwise; the result is one fused
multiply-add rounded once; mixlo/mixhi write the f16 into the low/high half and keep the other.

LLVM prints op_sel_hi only when it is not all 0s for these (llvm-mc encodes
``v_fma_mixlo_f16 v0, s0, v0, 0`` with OPSEL_HI = 0), the reverse of packed math: clang emits that
form for `half = float * float` (an f32 product rounded to f16 in one instruction), which rocWMMA's
`fragC.x[i] = alpha * acc.x[i]` compiles to. Operands have at most 11 significant bits, so the
exact a * b + c is a float64 and the reference rounds it once."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb

SRC = r"""
#define K(name, op, mods)                                                        \
  extern "C" __global__ void name(const unsigned* x, unsigned* r) {              \
    unsigned t = threadIdx.x, a = x[t], b = x[64 + t], c = x[128 + t],           \
             d = x[192 + t];                                                     \
    asm volatile(op " %0, %1, %2, %3" mods : "+v"(d) : "v"(a), "v"(b), "v"(c));  \
    r[t] = d; }
K(lo_f32, "v_fma_mixlo_f16", "")
K(hi_f32, "v_fma_mixhi_f16", "")
K(f32_f32, "v_fma_mix_f32", "")
K(lo_f16, "v_fma_mixlo_f16", " op_sel_hi:[1,1,1]")
K(f32_mixed, "v_fma_mix_f32", " op_sel:[1,0,0] op_sel_hi:[1,1,0]")
K(hi_mixed, "v_fma_mixhi_f16", " op_sel:[0,1,1] op_sel_hi:[0,1,1]")

// what clang emits for a half computed from floats (v_fma_mixlo_f16 without op_sel_hi)
extern "C" __global__ void scaled(const float* x, float alpha, _Float16* h) {
  h[threadIdx.x] = (_Float16)(alpha * x[threadIdx.x]);
}
"""
CASES = {  # name: (op_sel, op_sel_hi, destination half: None = f32 result, 0 = lo, 1 = hi)
    "lo_f32": ([0, 0, 0], [0, 0, 0], 0), "hi_f32": ([0, 0, 0], [0, 0, 0], 1),
    "f32_f32": ([0, 0, 0], [0, 0, 0], None), "lo_f16": ([0, 0, 0], [1, 1, 1], 0),
    "f32_mixed": ([1, 0, 0], [1, 1, 0], None), "hi_mixed": ([0, 1, 1], [0, 1, 1], 1),
}
ARCHS = ["gfx942", "gfx1100"]


@pytest.fixture(scope="module", params=ARCHS)
def mod(request):
    return wb.compile(SRC, request.param), request.param


def _short(rng, n):
    """floats of at most 11 significant bits, magnitudes 2^-4..2^4 (exact as f16 and f32)"""
    return np.float16(rng.integers(-2047, 2048, n) * 2.0 ** rng.integers(-14, -6, n))


def _operands(rng):
    """x[0..2]: sources as f32 bits with f16 bits packed in both halves too; x[3]: old dest"""
    f16 = [_short(rng, 128).reshape(2, 64) for _ in range(3)]  # [low half, high half]
    f32 = [_short(rng, 64).astype(np.float32) for _ in range(3)]
    return f16, f32


@pytest.mark.parametrize("name", list(CASES))
def test_fma_mix_per_lane(mod, name):
    m, arch = mod
    sel, sel_hi, half = CASES[name]
    rng = np.random.default_rng(7)
    f16, f32 = _operands(rng)
    x = np.zeros((4, 64), np.uint32)
    for i in range(3):
        if sel_hi[i]:  # an f16 source: both halves hold f16s, op_sel picks one
            x[i] = f16[i][0].view(np.uint16).astype(np.uint32) | \
                (f16[i][1].view(np.uint16).astype(np.uint32) << 16)
        else:
            x[i] = f32[i].view(np.uint32)
    x[3] = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    vals = [f16[i][sel[i]].astype(np.float64) if sel_hi[i] else f32[i].astype(np.float64)
            for i in range(3)]
    exact = vals[0] * vals[1] + vals[2]
    r = np.zeros(64, np.uint32)
    getattr(m, name).on(f"emulator:{arch}")[1, 64](x.ravel(), r)
    if half is None:
        np.testing.assert_array_equal(r, exact.astype(np.float32).view(np.uint32))
    else:
        bits = exact.astype(np.float16).view(np.uint16).astype(np.uint32)
        keep = x[3] & (0xFFFF0000 if half == 0 else 0xFFFF)
        np.testing.assert_array_equal(r, keep | (bits << (16 * half)))


def test_clangs_half_from_floats_uses_mixlo_without_op_sel_hi(mod):
    m, arch = mod
    isa = [i.text for i in m.scaled.isa_for(arch)]
    mix = [t for t in isa if t.startswith("v_fma_mixlo_f16")]
    assert mix and not any("op_sel_hi" in t for t in mix), isa
    x = _short(np.random.default_rng(1), 64).astype(np.float32)
    h = np.zeros(64, np.float16)
    m.scaled.on(f"emulator:{arch}")[1, 64](x, np.float32(-2.5), h)
    np.testing.assert_array_equal(h, (np.float64(-2.5) * x).astype(np.float16))
