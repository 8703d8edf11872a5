"""gfx950 scaled conversions whose destination overlaps a source: the v_cvt_scalef32_* family
(and the unscaled v_cvt_pk_f32_fp8 beside it) must read every source before writing D.

Why: the CDNA4 ISA's pseudo-code of these instructions reads S0 (and the scale S1) into
temporaries before assigning D, so ``v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, s`` decodes both
values from the *old* v2. The emulator wrote ``v2`` first and then decoded the second value
from the new ``v2`` (its source reader was a view of the register file), which clang's register
allocation produces for ``__hip_fp4x2_e2m1 -> float2`` (tests/prelude/test_ocp_emu.py).

Each case runs one instruction in inline asm over fixed VGPRs v2/v3 (clobbered, so clang puts
nothing else there) and compares with values decoded by torch's float8 codecs and the OCP MX
v1.0 E2M1 value list (as tests/emu/test_emu_cvt_ocp.py does). Encode cases use values that are
exact in the target format times the scale, so no rounding choice enters the expectation.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

import workbench as wb

SRC = r"""
extern "C" __global__ void k(const unsigned* a, const unsigned* b, const float* s,
                             unsigned* lo, unsigned* hi) {
  unsigned i = threadIdx.x, x = a[i], y = b[i], r0, r1;
  float sc = s[i];
  asm volatile("v_mov_b32 v2, %2\n\tv_mov_b32 v3, %3\n\tOP\n\tv_mov_b32 %0, v2\n\t"
               "v_mov_b32 %1, v3"
               : "=v"(r0), "=v"(r1) : "v"(x), "v"(y), "v"(sc) : "v2", "v3");
  lo[i] = r0;
  hi[i] = r1;
}
"""
FP4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])  # OCP MX v1.0 §5.3.3 E2M1 magnitudes, codes 0..7
TORCH = {"fp8": torch.float8_e4m3fn, "bf8": torch.float8_e5m2}
N = 64


def _dec8(codes, kind):
    t = torch.from_numpy(np.asarray(codes, np.uint8)).view(TORCH[kind])
    return t.to(torch.float64).numpy()


def _dec4(nib):
    nib = np.asarray(nib, np.int64)
    return np.where(nib & 8, -1.0, 1.0) * FP4[nib & 7]


def _enc8(v, kind):
    return torch.from_numpy(np.asarray(v, np.float32)).to(TORCH[kind]).view(torch.uint8) \
        .numpy().astype(np.uint32)


def _f32(v):
    return np.asarray(v, np.float32).view(np.uint32)


def _byte(w, k):
    return (w >> np.uint32(8 * k)) & np.uint32(0xFF)


# name -> (instruction text, expected (v2, v3) from (a, b, scale)); a and b are the sources'
# old v2 / v3 words
def _pk8(kind, first):
    return lambda a, b, s: (_f32(_dec8(_byte(a, first), kind) * s),
                            _f32(_dec8(_byte(a, first + 1), kind) * s))


def _pk4(byte):
    return lambda a, b, s: (_f32(_dec4(_byte(a, byte) & 15) * s),
                            _f32(_dec4(_byte(a, byte) >> 4) * s))


CASES = {
    "pk_f32_fp4": ("v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, %4", _pk4(0)),
    "pk_f32_fp4 byte 3": ("v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, %4 op_sel:[1,1,0]", _pk4(3)),
    "pk_f32_fp8": ("v_cvt_scalef32_pk_f32_fp8 v[2:3], v2, %4", _pk8("fp8", 0)),
    "pk_f32_fp8 word 1": ("v_cvt_scalef32_pk_f32_fp8 v[2:3], v2, %4 op_sel:[1,0,0]",
                          _pk8("fp8", 2)),
    "pk_f32_bf8": ("v_cvt_scalef32_pk_f32_bf8 v[2:3], v2, %4", _pk8("bf8", 0)),
    "pk_f32_bf8 word 1": ("v_cvt_scalef32_pk_f32_bf8 v[2:3], v2, %4 op_sel:[1,0,0]",
                          _pk8("bf8", 2)),
    "pk_f32_fp4 from v3": ("v_cvt_scalef32_pk_f32_fp4 v[2:3], v3, %4 op_sel:[0,1,0]",
                           lambda a, b, s: _pk4(2)(b, a, s)),
    "f32_fp8 byte 3": ("v_cvt_scalef32_f32_fp8 v2, v2, %4 op_sel:[1,1,0]",
                       lambda a, b, s: (_f32(_dec8(_byte(a, 3), "fp8") * s), b)),
    "unscaled pk_f32_fp8": ("v_cvt_pk_f32_fp8 v[2:3], v2",
                            lambda a, b, s: (_f32(_dec8(_byte(a, 0), "fp8")),
                                             _f32(_dec8(_byte(a, 1), "fp8")))),
}
# encodes: D = v2 is also source 0; the bytes outside the selected word/byte keep old v2
ENCODES = {
    "pk_fp8_f32 word 1": ("v_cvt_scalef32_pk_fp8_f32 v2, v2, v3, %4 op_sel:[0,0,0,1]", "fp8"),
    "pk_bf8_f32 word 1": ("v_cvt_scalef32_pk_bf8_f32 v2, v2, v3, %4 op_sel:[0,0,0,1]", "bf8"),
    "pk_fp4_f32 byte 3": ("v_cvt_scalef32_pk_fp4_f32 v2, v2, v3, %4 op_sel:[0,0,1,1]", "fp4"),
    # stochastic rounding (seed: source b's word, any value): exact inputs round to their code
    "sr_pk_fp4_f32 byte 3": ("v_cvt_scalef32_sr_pk_fp4_f32 v2, v[2:3], %3, %4 op_sel:[0,0,1,1]",
                             "fp4"),
    "sr_fp8_f32 byte 3": ("v_cvt_scalef32_sr_fp8_f32 v2, v2, %3, %4 op_sel:[0,0,1,1]", "sr-fp8"),
}


def _run(op, a, b, s):
    mod = wb.compile(SRC.replace("OP", op), "gfx950")
    lo, hi = np.zeros(N, np.uint32), np.zeros(N, np.uint32)
    wb.Kernel(mod, "k", device="emulator:gfx950")[1, N](a, b, s, lo, hi)
    return lo, hi


def _scales(rng):
    return np.exp2(rng.integers(-2, 3, N)).astype(np.float32)


def _show(got, want):
    bad = np.flatnonzero(got != want)
    return f"{bad.size} lanes differ, first {bad[:3]}: {got[bad[:3]]} vs {want[bad[:3]]}"


@pytest.mark.parametrize("name", list(CASES))
def test_decode_reads_its_source_before_writing(name):
    op, expect = CASES[name]
    rng = np.random.default_rng(7)
    # codes without the fp8 NaN (S.1111.111) or bf8 inf/NaN, so every value compares exactly
    a = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32) & np.uint32(0x3F3F3F3F)
    b = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32) & np.uint32(0x3F3F3F3F)
    s = _scales(rng)
    lo, hi = _run(op, a, b, s)
    want_lo, want_hi = expect(a, b, s.astype(np.float64))
    assert np.array_equal(lo, want_lo), "v2: " + _show(lo, want_lo)
    assert np.array_equal(hi, want_hi), "v3: " + _show(hi, want_hi)


@pytest.mark.parametrize("name", list(ENCODES))
def test_encode_over_its_source_keeps_the_old_bits(name):
    op, kind = ENCODES[name]
    rng = np.random.default_rng(8)
    s = _scales(rng).astype(np.float64)
    if kind == "fp4":
        c0, c1 = rng.integers(0, 16, N), rng.integers(0, 16, N)
        v0, v1 = _dec4(c0) * s, _dec4(c1) * s
        want = (_f32(v0) & np.uint32(0x00FFFFFF)) | ((c0 | c1 << 4).astype(np.uint32) << 24)
        # -0 encodes as code 8 and +0 as 0: both decode to a zero of the right sign
    elif kind == "sr-fp8":  # one value into byte 3
        c0, c1 = (rng.integers(0, 0x70, N) | rng.integers(0, 2, N) << 7 for _ in range(2))
        v0, v1 = _dec8(c0, "fp8") * s, _dec8(c1, "fp8") * s
        want = (_f32(v0) & np.uint32(0x00FFFFFF)) | (_enc8(v0 / s, "fp8") << np.uint32(24))
    else:
        c0, c1 = (rng.integers(0, 0x70, N) | rng.integers(0, 2, N) << 7 for _ in range(2))
        v0, v1 = _dec8(c0, kind) * s, _dec8(c1, kind) * s
        want = (_f32(v0) & np.uint32(0xFFFF)) | ((_enc8(v0 / s, kind) | _enc8(v1 / s, kind) << 8)
                                                 << np.uint32(16))
    lo, hi = _run(op, _f32(v0), _f32(v1), s.astype(np.float32))
    assert np.array_equal(lo, want), "v2: " + _show(lo, want)
    assert np.array_equal(hi, _f32(v1)), "v3 must be untouched: " + _show(hi, _f32(v1))
