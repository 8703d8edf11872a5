"""The float min/max ops that were still numpy fmin/fmax -- v_min_f64 / v_max_f64, v_pk_min_f16 /
v_pk_max_f16 and GFX12's SALU s_min_num_f32/f16 / s_max_num_f32/f16 -- on the emulator against a
reference written from the ISA pseudocode, for every pair of NaN, +-inf, +-0 and ordinary values,
through inline asm on gfx942, gfx950, gfx1100 and gfx1201 (where the op exists). Why: numpy's
fmin(-0, +0) / fmax(+0, -0) return the second operand, the ISA orders -0 below +0.

Sources of the reference: RDNA3.5 ISA section 16.12, V_MIN_F64 (opcode 809) / V_MAX_F64 (810):
"LT_NEG_ZERO ... // Version of comparison where -0.0 < +0.0", "elsif isQuietNAN(S1.f64) then
D0.f64 = S0.f64 elsif isQuietNAN(S0.f64) then D0.f64 = S1.f64" (the V_MIN_F32 text on .f64);
V_PK_MIN_F16 / V_PK_MAX_F16 (VOP3P opcodes 17/18): "tmp[15 : 0].f16 = v_min_f16(S0[15 : 0].f16,
S1[15 : 0].f16); tmp[31 : 16].f16 = v_min_f16(S0[31 : 16].f16, S1[31 : 16].f16)"; the SALU
S_MIN_NUM/S_MAX_NUM ops are the same minNum on SGPRs (LLVM selects them for llvm.minnum).
Only quiet NaNs are used here; signalling NaNs (quieted under MODE.IEEE) are in
test_emu_gaps_snan.py."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import workbench as wb

NAN = float("nan")
VALUES = [NAN, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 3.0, 0.5]
PAIRS = list(itertools.product(VALUES, repeat=2))  # 81: NaN/inf/zero in both positions
ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")


def vmin(x: float, y: float) -> float:
    """V_MIN_F64 / V_MIN_F16 pseudocode, quiet NaNs: NaN -> the other operand; -0 < +0."""
    if math.isnan(y):
        return x
    if math.isnan(x):
        return y
    lt = x < y or (x == 0 and y == 0 and math.copysign(1, x) < 0 < math.copysign(1, y))
    return x if lt else y


def vmax(x: float, y: float) -> float:
    """V_MAX_F64 / V_MAX_F16 pseudocode, quiet NaNs: NaN -> the other operand; +0 > -0."""
    if math.isnan(y):
        return x
    if math.isnan(x):
        return y
    gt = x > y or (x == 0 and y == 0 and math.copysign(1, x) > 0 > math.copysign(1, y))
    return x if gt else y


REF = {"min": vmin, "max": vmax}


def _bits(x: float, dt) -> int:
    ut = {np.float64: np.uint64, np.float32: np.uint32, np.float16: np.uint16}[dt]
    return int(np.array(x, dt).view(ut))


def _check(got_bits: np.ndarray, want: list[float], dt) -> None:
    got = got_bits.view(dt)
    bad = []
    for i, (p, w) in enumerate(zip(PAIRS, want)):
        ok = np.isnan(got[i]) if math.isnan(w) else int(got_bits[i]) == _bits(w, dt)
        if not ok:
            bad.append((p, float(got[i]), float(w)))
    assert not bad, f"{len(bad)} of {len(PAIRS)} differ, e.g. {bad[:6]}"


def _cols(dt, n):
    a, b = np.zeros(n, dt), np.zeros(n, dt)
    a[:len(PAIRS)] = [p[0] for p in PAIRS]
    b[:len(PAIRS)] = [p[1] for p in PAIRS]
    return a, b


F64_SRC = r"""
extern "C" __global__ void k(const double* a, const double* b, double* r) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = a[i], y = b[i], d;
  asm volatile("OP %0, %1, %2" : "=v"(d) : "v"(x), "v"(y));
  r[i] = d;
}
"""
CASES = [(a, op) for a in ARCHS for op in ("min", "max")]


@pytest.mark.parametrize("arch,op", CASES, ids=[f"{a}-{o}" for a, o in CASES])
def test_v_min_max_f64_follow_isa_pseudocode(arch, op):
    name = f"v_{op}_num_f64" if arch == "gfx1201" else f"v_{op}_f64"
    mod = wb.compile(F64_SRC.replace("OP", name), arch)
    n = 128
    a, b = _cols(np.float64, n)
    out = np.zeros(n, np.float64)
    mod.k.on(f"emulator:{arch}")[n // 64, 64](a, b, out)
    _check(out[:len(PAIRS)].view(np.uint64), [REF[op](*p) for p in PAIRS], np.float64)


PK_SRC = r"""
extern "C" __global__ void k(const unsigned* a, const unsigned* b, unsigned* r) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], d;
  asm volatile("OP %0, %1, %2" : "=v"(d) : "v"(x), "v"(y));
  r[i] = d;
}
"""


@pytest.mark.parametrize("arch,op", CASES, ids=[f"{a}-{o}" for a, o in CASES])
def test_v_pk_min_max_f16_follow_isa_pseudocode(arch, op):
    """Low half gets the pair (x, y), high half the swapped pair (y, x): both halves and both
    operand orders are checked in one run."""
    name = f"v_pk_{op}_num_f16" if arch == "gfx1201" else f"v_pk_{op}_f16"
    mod = wb.compile(PK_SRC.replace("OP", name), arch)
    n = 128
    x, y = _cols(np.float16, n)
    xb, yb = x.view(np.uint16).astype(np.uint32), y.view(np.uint16).astype(np.uint32)
    a, b = xb | (yb << 16), yb | (xb << 16)
    out = np.zeros(n, np.uint32)
    mod.k.on(f"emulator:{arch}")[n // 64, 64](a, b, out)
    lo = (out[:len(PAIRS)] & 0xFFFF).astype(np.uint16)
    hi = (out[:len(PAIRS)] >> 16).astype(np.uint16)
    f = REF[op]
    _check(lo, [f(p[0], p[1]) for p in PAIRS], np.float16)
    _check(hi, [f(p[1], p[0]) for p in PAIRS], np.float16)


S_SRC = r"""
extern "C" __global__ void k(const T* a, const T* b, T* r) {
  T x = a[blockIdx.x], y = b[blockIdx.x], d;  // uniform: one pair per workgroup, in SGPRs
  asm volatile("OP %0, %1, %2" : "=s"(d) : "s"(x), "s"(y));
  if (threadIdx.x == 0) r[blockIdx.x] = d;
}
"""
S_CASES = [(op, ty) for op in ("min", "max") for ty in ("f32", "f16")]


@pytest.mark.parametrize("op,ty", S_CASES, ids=[f"{o}-{t}" for o, t in S_CASES])
def test_gfx12_salu_min_max_num_follow_isa_pseudocode(op, ty):
    dt, ut, ct = ((np.float32, np.uint32, "unsigned") if ty == "f32"
                  else (np.float16, np.uint16, "unsigned short"))
    src = S_SRC.replace("OP", f"s_{op}_num_{ty}").replace("T", ct)
    mod = wb.compile(src, "gfx1201")
    a, b = _cols(dt, len(PAIRS))
    out = np.zeros(len(PAIRS), ut)
    mod.k.on("emulator:gfx1201")[len(PAIRS), 32](a.view(ut), b.view(ut), out)
    _check(out, [REF[op](*p) for p in PAIRS], dt)


def test_reference_signed_zero_and_nan_cases():
    """The reference on the cases the pseudocode spells out: -0 < +0 in either operand order,
    a quiet NaN in either position gives the other operand."""
    assert math.copysign(1, vmin(0.0, -0.0)) < 0 and math.copysign(1, vmin(-0.0, 0.0)) < 0
    assert math.copysign(1, vmax(0.0, -0.0)) > 0 and math.copysign(1, vmax(-0.0, 0.0)) > 0
    assert vmin(NAN, 2.0) == 2.0 and vmin(2.0, NAN) == 2.0 and vmax(NAN, -1.0) == -1.0
    assert math.isnan(vmin(NAN, NAN))
