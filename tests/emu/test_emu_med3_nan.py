"""v_med3 / v_min3 / v_max3 (f32 and f16) on the emulator against a reference written from the
ISA pseudocode, with a NaN in each operand position, +-inf, +-0 and ordinary values: every
triple over VALUES, run through inline asm on gfx942, gfx950, gfx1100 and gfx1201 (GFX12's
v_*3_num_* spelling). Why: the emulator's med3 was max(min(a, b), min(max(a, b), c)) with
NaN-dropping min/max, which gives b for med3(NaN, b, c) and max(a, b) for med3(a, b, NaN);
the ISA says a NaN anywhere gives the minimum of the others.

Sources of the reference (quoted in workbench/emu/numerics/vfloat.py): RDNA3 ISA section 16.12 and
CDNA4 ISA section 12.11, V_MED3_F32 / V_MED3_F16 ("if (isNAN(S0) || isNAN(S1) || isNAN(S2))
then D0 = v_min3_f32(S0, S1, S2) elsif v_max3_f32(S0, S1, S2) == S0 then D0 = v_max_f32(S1,
S2) ..."), V_MIN3/V_MAX3 (v_min_f32(v_min_f32(S0, S1), S2)), V_MIN_F32/V_MAX_F32 (a NaN operand
yields the other; -0 < +0); the "==" read bitwise as in LLVM PR #201896. Only quiet NaNs are
used: the emulator does not tell signalling NaNs apart (MODE.IEEE quieting is not modelled)."""
from __future__ import annotations

import itertools
import math
import struct

import numpy as np
import pytest

import workbench as wb

SRC = r"""
extern "C" __global__ void k(const T* a, const T* b, const T* c, T* r) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], z = c[i], d;
  asm volatile("OP %0, %1, %2, %3" : "=v"(d) : "v"(x), "v"(y), "v"(z));
  r[i] = (T)d;
}
"""
NAN = float("nan")
VALUES = [NAN, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 3.0, 0.5]
TRIPLES = list(itertools.product(VALUES, repeat=3))  # 729: NaN/inf/zero in every position


def _bits(x: float, dt) -> int:
    return int(np.array(x, dt).view(np.uint16 if dt == np.float16 else np.uint32))


def vmin(x: float, y: float) -> float:
    """V_MIN_F32 pseudocode for quiet NaNs: NaN -> the other operand; -0 < +0."""
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == 0 and y == 0:
        return x if math.copysign(1, x) < 0 else y
    return x if x < y else y


def vmax(x: float, y: float) -> float:
    """V_MAX_F32 pseudocode for quiet NaNs: NaN -> the other operand; +0 > -0."""
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == 0 and y == 0:
        return y if math.copysign(1, x) < 0 else x
    return x if x >= y else y


def min3(a: float, b: float, c: float) -> float:
    return vmin(vmin(a, b), c)


def max3(a: float, b: float, c: float) -> float:
    return vmax(vmax(a, b), c)


def med3(a: float, b: float, c: float) -> float:
    """V_MED3_F32 pseudocode, "==" as bit equality (-0 and +0 differ)."""
    if math.isnan(a) or math.isnan(b) or math.isnan(c):
        return min3(a, b, c)
    same = lambda x, y: struct.pack("<d", x) == struct.pack("<d", y)  # noqa: E731
    hi = max3(a, b, c)
    if same(hi, a):
        return vmax(b, c)
    if same(hi, b):
        return vmax(a, c)
    return vmax(a, b)


REF = {"med3": med3, "min3": min3, "max3": max3}
CASES = [(arch, op, ty) for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201")
         for op in ("med3", "min3", "max3") for ty in ("f32", "f16")]


def _run(arch: str, op: str, ty: str) -> tuple[np.ndarray, np.ndarray]:
    dt, ut = (np.float32, np.uint32) if ty == "f32" else (np.float16, np.uint16)
    name = f"v_{op}_num_{ty}" if arch == "gfx1201" else f"v_{op}_{ty}"
    src = SRC.replace("OP", name).replace("T", "unsigned" if ty == "f32" else "unsigned short")
    mod = wb.compile(src, arch)
    n = -(-len(TRIPLES) // 64) * 64
    cols = [np.zeros(n, dt) for _ in range(3)]
    for j, col in enumerate(cols):
        col[:len(TRIPLES)] = [t[j] for t in TRIPLES]
    out = np.zeros(n, ut)
    mod.k.on(f"emulator:{arch}")[n // 64, 64](*(c.view(ut) for c in cols), out)
    return out[:len(TRIPLES)], np.array([REF[op](*t) for t in TRIPLES], np.float64).astype(dt)


@pytest.mark.parametrize("arch,op,ty", CASES, ids=[f"{a}-{o}-{t}" for a, o, t in CASES])
def test_med3_min3_max3_follow_isa_pseudocode(arch, op, ty):
    got, want = _run(arch, op, ty)
    dt = want.dtype
    got_f = got.view(dt)
    bad = []
    for i, t in enumerate(TRIPLES):
        ok = (np.isnan(got_f[i]) if np.isnan(want[i])
              else int(got[i]) == _bits(float(want[i]), dt))
        if not ok:
            bad.append((t, float(got_f[i]), hex(int(got[i])), float(want[i])))
    assert not bad, f"{len(bad)} of {len(TRIPLES)} differ, e.g. {bad[:6]}"


def test_reference_cases_from_the_sources():
    """The reference itself, on the cases the sources spell out: LLVM's fmed3 fold comments
    (AMDGPUInstCombineIntrinsic.cpp, ieee=1, quiet NaN: "s0 qnan: min(s1, s2) / s1 qnan:
    min(s0, s2) / s2 qnan: min(s0, s1)"; "s0 +inf: max(s1, s2)", "s0 -inf: min(s1, s2)") and
    LLVM PR #201896 (fmed3(-0, -0, +0) = -0)."""
    assert med3(NAN, 3.0, 1.0) == 1.0 and med3(3.0, NAN, 1.0) == 1.0
    assert med3(3.0, 1.0, NAN) == 1.0
    assert med3(math.inf, 3.0, 1.0) == 3.0 and med3(-math.inf, 3.0, 1.0) == 1.0
    assert math.copysign(1, med3(-0.0, -0.0, 0.0)) < 0
    assert math.isnan(med3(NAN, NAN, NAN))
