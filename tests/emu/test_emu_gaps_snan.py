"""Signalling NaNs through the float min/max ops, per lane against the ISA pseudocode:

* gfx9..gfx11 with MODE.IEEE (the compute default): V_MIN_F32 / V_MAX_F32 return a signalling
  NaN in S0, else in S1, quieted; a quiet NaN yields the other operand (RDNA3.5 ISA section 16.7
  pseudocode, "if WAVE_MODE.IEEE then if isSignalNAN(S0) then D0 = cvtToQuietNAN(S0) ...").
* MODE.IEEE off (clang -mno-amdgpu-ieee): any NaN yields the other operand, S1 checked first.
* GFX12 (no IEEE mode): V_MIN_NUM_F32 / V_MAX_NUM_F32 give the other operand for any one NaN and
  S0 quieted for two (RDNA4 ISA section 16.7 pseudocode).

Also __builtin_canonicalizef, which LLVM lowers to v_max_f32 x, x (v_max_num_f32 on GFX12): under
MODE.IEEE it turns a signalling NaN quiet. Before, the emulator returned signalling NaNs as they
came in every mode (numpy fmin/fmax). Expected bits come from a scalar model of the pseudocode.
"""
from __future__ import annotations

import itertools
import struct

import numpy as np
import pytest

import workbench as wb

SNAN, NSNAN, QNAN, NQNAN = 0x7FA00001, 0xFF800005, 0x7FC00002, 0xFFC00003
VALUES = [SNAN, NSNAN, QNAN, NQNAN, 0x3F800000, 0xC0000000, 0x00000000, 0x80000000, 0x7F800000]
PAIRS = list(itertools.product(VALUES, repeat=2))  # 81
SRC = """
#if defined(__gfx1201__)
#define MIN "v_min_num_f32"
#define MAX "v_max_num_f32"
#else
#define MIN "v_min_f32"
#define MAX "v_max_f32"
#endif
extern "C" __global__ void mm(const unsigned* a, const unsigned* b, unsigned* o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float x = __builtin_bit_cast(float, a[t]), y = __builtin_bit_cast(float, b[t]), lo, hi;
  asm volatile(MIN " %0, %1, %2" : "=v"(lo) : "v"(x), "v"(y));
  asm volatile(MAX " %0, %1, %2" : "=v"(hi) : "v"(x), "v"(y));
  o[3 * t] = __builtin_bit_cast(unsigned, lo);
  o[3 * t + 1] = __builtin_bit_cast(unsigned, hi);
  o[3 * t + 2] = __builtin_bit_cast(unsigned, __builtin_canonicalizef(x));
}
"""


def _f(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _nan(b: int) -> bool:
    return (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF) != 0


def _snan(b: int) -> bool:
    return _nan(b) and not b & 0x400000


def _pick(a: int, b: int, want_max: bool) -> int:
    """LT_NEG_ZERO / GT_NEG_ZERO selection of two non-NaN values (-0 < +0)."""
    fa, fb = _f(a), _f(b)
    if fa == 0 and fb == 0:
        a_neg = bool(a >> 31)
        return (b if a_neg else a) if want_max else (a if a_neg else b)
    return (a if fa > fb else b) if want_max else (a if fa < fb else b)


def ref(a: int, b: int, want_max: bool, mode: str) -> int:
    if mode == "ieee":
        if _snan(a):
            return a | 0x400000
        if _snan(b):
            return b | 0x400000
        if _nan(b):
            return a
        if _nan(a):
            return b
    elif mode == "off":
        if _nan(b):
            return a
        if _nan(a):
            return b
    else:  # gfx12 *_num_*
        if _nan(a) and _nan(b):
            return a | 0x400000
        if _nan(a):
            return b
        if _nan(b):
            return a
    return _pick(a, b, want_max)


@pytest.mark.parametrize("arch,opts,mode", [
    ("gfx942", [], "ieee"), ("gfx1100", [], "ieee"),
    ("gfx942", ["-fno-honor-nans", "-mno-amdgpu-ieee"], "off"), ("gfx1201", [], "g12")],
    ids=["gfx942", "gfx1100", "gfx942-ieee-off", "gfx1201"])
def test_min_max_signalling_nan_per_lane(arch, opts, mode):
    kern = wb.compile(SRC, arch, opts).mm
    text = [i.text for i in kern.isa_for(arch)]
    canon = [t for t in text if t.startswith(("v_max_f32", "v_max_num_f32"))
             and t.split(", ")[-1] == t.split(", ")[-2]]  # canonicalize: v_max x, x
    assert canon, text
    n = 128
    a = np.array([p[0] for p in PAIRS] + [SNAN] * (n - len(PAIRS)), np.uint32)
    b = np.array([p[1] for p in PAIRS] + [QNAN] * (n - len(PAIRS)), np.uint32)
    out = np.zeros(3 * n, np.uint32)
    kern.on(f"emulator:{arch}")[n // 64, 64](a, b, out)
    got = out.reshape(n, 3)
    for t in range(n):
        x, y = int(a[t]), int(b[t])
        want = (ref(x, y, False, mode), ref(x, y, True, mode), ref(x, x, True, mode))
        for k, name in enumerate(("min", "max", "canonicalize")):
            assert int(got[t, k]) == want[k], (
                f"{arch} ({mode}) {name}(0x{x:08x}, 0x{y:08x}): got 0x{int(got[t, k]):08x}, "
                f"want 0x{want[k]:08x}")
