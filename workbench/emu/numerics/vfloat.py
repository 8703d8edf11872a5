"""Float arithmetic the hardware rounds differently from numpy: correctly rounded fma (f16,
f32, f64), unfused mad, fract, med3 and frexp, shared by the VALU float families, valu.vop3p
and valu.dot.

Why here: one correct implementation of single-rounding fma, cited once (Boldo & Melquiond).
"""
from __future__ import annotations

import numpy as np

F32, F64, F16 = np.float32, np.float64, np.float16
U64 = np.uint64


def as_f64(x):
    return np.asarray(x, F64)


def sum_odd(p, c):
    """p + c in float64 rounded to *odd* (inexact results take the neighbour with an odd last
    bit), from TwoSum's exact error term. Rounding to odd in a format of >= p+2 bits and then
    to nearest in p bits equals one rounding to nearest (Boldo & Melquiond, "Emulation of FMA
    and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 57(4), 2008,
    Thm. 1), which makes the f32/f16 FMAs below correctly rounded."""
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c
        bb = s - p
        err = (p - (s - bb)) + (c - bb)
        if not err.any():  # exact: nothing to fix (NaN errors count as nonzero)
            return s
        fix = (err != 0) & np.isfinite(s) & ((np.asarray(s, F64).view(U64) & U64(1)) == 0)
        if not np.any(fix):
            return s
        return np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _narrow_consts(dt, drop):
    """(low-bits mask, midpoint pattern, smallest-normal bits - 1) of f64 values rounded to dt
    (``drop`` = f64 mantissa bits below dt's last bit)."""
    tiny = int(np.array(np.finfo(dt).tiny, F64).view(U64))
    return U64((1 << drop) - 1), U64(1 << (drop - 1)), U64(tiny - 1)


_NARROW = {F32: _narrow_consts(F32, 29), F16: _narrow_consts(F16, 42)}
_ABS64 = U64(0x7FFFFFFFFFFFFFFF)
_ONE64 = U64(1)


def _round_sum(p, c, dt):
    """RN_dt(p + c) for float64 p, c whose sum needs one rounding to ``dt``: the plain f64 sum
    is already right unless it lands exactly on a ``dt`` rounding midpoint (then the f64
    rounding may have moved it there: double rounding) or in ``dt``'s subnormal range; only
    then is the round-to-odd sum used. Rounding is monotonic, so a sum off the midpoint lies on
    the same side of it as the exact value."""
    s = np.asarray(p + c, F64)
    low, half, tiny1 = _NARROW[dt]
    bits = s.view(U64)
    mid = (bits & low) == half
    sub = ((bits & _ABS64) - _ONE64) < tiny1  # 0 < |s| < smallest normal of dt
    if not (mid | sub).any():
        return s.astype(dt)
    return sum_odd(p, c).astype(dt)


def fma32(a, b, c):
    """f32 fused multiply-add with a single rounding: a*b is exact in f64 (48-bit product); the
    sum is rounded once to f32 (``_round_sum``: round-to-odd where double rounding could bite)."""
    return _round_sum(as_f64(a) * as_f64(b), as_f64(c), F32)


def fma16(a, b, c):
    """f16 fma, single rounding: exact f64 product, sum rounded once to f16 (``_round_sum``)."""
    return _round_sum(as_f64(a) * as_f64(b), as_f64(c), F16)


_SPLIT = F64(134217729.0)  # 2^27 + 1: Veltkamp splitting constant for binary64


def _two_prod(a, b):
    """(p, e) with p = RN(a*b) and p + e = a*b exactly (Dekker), valid without over/underflow."""
    p = a * b
    t = a * _SPLIT
    ah = t - (t - a)
    al = a - ah
    t = b * _SPLIT
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def fma64(a, b, c):
    """f64 fused multiply-add with a single rounding (Boldo & Melquiond 2008, Algorithm
    "emulated FMA"): exact product (p, e), (th, tl) = TwoSum(c, p), v = RO(tl + e),
    result = RN(th + v). Where the error-free transforms could over/underflow (huge or tiny
    operands, inf, NaN) those lanes are computed exactly instead (``_fma64_exact``)."""
    a, b, c = (np.asarray(x, F64) for x in (a, b, c))
    with np.errstate(all="ignore"):
        p, e = _two_prod(a, b)
        th = p + c
        bb = th - c
        tl = (c - (th - bb)) + (p - bb)
        v = sum_odd(tl, e)
        r = np.asarray(th + v, F64)
        aa, ab, ac = np.abs(a), np.abs(b), np.abs(c)
        risky = ~(np.isfinite(r) & np.isfinite(p)) | (aa > 2.0**500) | (ab > 2.0**500) | (
            ac > 2.0**1000) | ((p != 0) & (np.abs(p) < 2.0**-900)) | ((c != 0) & (ac < 2.0**-900))
        if np.any(risky):
            r = np.array(np.broadcast_to(r, np.broadcast(a, b, c).shape))
            ab_ = np.broadcast_arrays(a, b, c, risky)
            for i in zip(*np.nonzero(ab_[3])) if r.ndim else [()]:
                r[i] = _fma64_exact(float(ab_[0][i]), float(ab_[1][i]), float(ab_[2][i]))
    return r


def _fma64_exact(a: float, b: float, c: float) -> float:
    """a*b + c rounded once to binary64, in exact rational arithmetic (CPython's int true
    division rounds correctly, subnormals included). Used for the lanes where the error-free
    transforms of fma64 could over/underflow: Payne-Hanek range reduction (ocml's sin/cos of
    huge doubles) relies on fma(a, b, -a*b) being the exact product error, which x87 long
    double (64-bit significand) does not give. Non-finite inputs follow IEEE a*b + c."""
    import math
    from fractions import Fraction

    if math.isfinite(a) and math.isfinite(b) and not math.isfinite(c):
        return c  # a finite product (however large) plus inf or NaN
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        with np.errstate(all="ignore"):
            return float(F64(a) * F64(b) + F64(c))
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # the sign of an exact zero: -0 only for (-0) + (-0)
        neg = math.copysign(1.0, a) * math.copysign(1.0, b) < 0 and math.copysign(1.0, c) < 0
        return -0.0 if neg and a * b == 0 else 0.0
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def mad32(a, b, c):
    """V_MAD_F32 / V_MAC_F32: multiply then add with a rounding after each (not fused: LLVM
    selects them only for ISD::FMAD, "a * b + c with intermediate rounding",
    llvm/include/llvm/CodeGen/ISDOpcodes.h)."""
    return (np.asarray(a, F32) * np.asarray(b, F32) + np.asarray(c, F32)).astype(F32)


def mad16(a, b, c):
    """V_MAD_F16 / V_MAC_F16: unfused like V_MAD_F32 (two roundings)."""
    return (np.asarray(a, F16) * np.asarray(b, F16) + np.asarray(c, F16)).astype(F16)


def fract(x, dt):
    """V_FRACT: x - floor(x), clamped below 1.0 (CDNA3 ISA V_FRACT_F32); inf -> NaN."""
    r = x - np.floor(x)
    one_minus = np.nextafter(dt(1), dt(0))
    return np.where(np.isinf(x), dt(np.nan), np.minimum(r, one_minus)).astype(dt)


def minnum(a, b):
    """V_MIN_F32 / V_MIN_F16 (CDNA4 ISA section 12.11 and RDNA3 ISA, V_MIN_F32 pseudocode): a
    quiet NaN operand yields the other operand, and -0 counts as less than +0 ("S0 == +0.0 &&
    S1 == -0.0 -> S1"); numpy's fmin alone returns its second operand for a pair of zeros.
    This is the rule without MODE.IEEE (any NaN yields the other; two NaNs give S0); under
    MODE.IEEE see ``minnum_ieee``, on GFX12 (v_min_num_*) ``minnum_g12``."""
    a, b = np.asarray(a), np.asarray(b)
    r = np.fmin(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), a, b), r) if zeros.any() else r


def maxnum(a, b):
    """V_MAX_F32 / V_MAX_F16 (same sources): a quiet NaN operand yields the other; +0 > -0."""
    a, b = np.asarray(a), np.asarray(b)
    r = np.fmax(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), b, a), r) if zeros.any() else r


def _quieted_snan(x):
    """(which elements are signalling NaNs, x with the quiet bit set): cvtToQuietNAN keeps the
    sign and payload and sets the top fraction bit."""
    x = np.asarray(x)
    ut = {np.dtype(np.float64): np.uint64, np.dtype(np.float32): np.uint32,
          np.dtype(np.float16): np.uint16}[x.dtype]
    quiet = ut({np.uint64: 0x0008000000000000, np.uint32: 0x00400000, np.uint16: 0x0200}[ut])
    bits = x.view(ut)
    return np.isnan(x) & ((bits & quiet) == 0), (bits | quiet).view(x.dtype)


def _ieee_nan_first(pick):
    """V_MIN_F32 / V_MAX_F32 under WAVE_MODE.IEEE (RDNA3.5 ISA section 16.7 pseudocode, the
    same for f16/f64): a signalling NaN in S0, else in S1, gives that NaN quieted; otherwise the
    non-IEEE selection (a quiet NaN yields the other operand)."""
    def fn(a, b):
        a, b = np.asarray(a), np.asarray(b)
        r = pick(a, b)
        sa, qa = _quieted_snan(a)
        sb, qb = _quieted_snan(b)
        if not (sa.any() or sb.any()):
            return r
        return np.where(sa, qa, np.where(sb, qb, r)).astype(r.dtype)
    return fn


def min3(a, b, c):
    """V_MIN3_F32/F16: "D0 = v_min_f32(v_min_f32(S0, S1), S2)" (RDNA3 ISA 16.12, CDNA4 12.11)."""
    return minnum(minnum(a, b), c)


def max3(a, b, c):
    """V_MAX3_F32/F16: v_max_f32(v_max_f32(S0, S1), S2) (same sources)."""
    return maxnum(maxnum(a, b), c)


def _same_bits(x, y):
    ut = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    return np.asarray(x, x.dtype).view(ut) == np.asarray(y, x.dtype).view(ut)


def med3(a, b, c):
    """V_MED3_F32 / V_MED3_F16 (RDNA3 ISA section 16.12 opcodes 543/591, CDNA4 ISA section 12.11
    opcode 470): "if (isNAN(S0) || isNAN(S1) || isNAN(S2)) D0 = v_min3_f32(S0, S1, S2) elsif
    v_max3_f32(S0, S1, S2) == S0 then D0 = v_max_f32(S1, S2) elsif ... == S1 then
    v_max_f32(S0, S2) else v_max_f32(S0, S1)". So a NaN anywhere gives the *minimum* of the
    other two (LLVM's AMDGPUInstCombineIntrinsic.cpp folds amdgcn.fmed3 with a quiet NaN in
    src0/src1/src2 to minnum of the others, "med3 with a nan input acts like
    v_min_f32(v_min_f32(s0, s1), s2)"), not their median or maximum. The "==" is taken
    bitwise, so -0 sorts below +0 (fmed3(-0, -0, +0) = -0: LLVM PR #201896, merged, "hardware
    v_med3_f32 sorts with -0 < +0")."""
    a, b, c = np.broadcast_arrays(*(np.asarray(x) for x in (a, b, c)))
    hi = max3(a, b, c)
    mid = np.where(_same_bits(hi, a), maxnum(b, c),
                   np.where(_same_bits(hi, b), maxnum(a, c), maxnum(a, b)))
    nan = np.isnan(a) | np.isnan(b) | np.isnan(c)
    return np.where(nan, min3(a, b, c), mid).astype(a.dtype) if nan.any() else mid.astype(a.dtype)


def frexp_mant(x):
    m, _e = np.frexp(x)
    return np.where(np.isfinite(x), m, x).astype(x.dtype)


def frexp_exp(x):
    _m, e = np.frexp(x)
    return np.where(np.isfinite(x), e, 0).astype(np.int32)



def _ieee_extreme(a, b, pick_max: bool):
    """IEEE 754-2019 maximum/minimum of two float arrays: a NaN operand gives NaN (the first
    NaN operand with its quiet bit set -- which NaN bits the hardware returns is not documented
    in any source we have), and -0 < +0."""
    a, b = np.asarray(a), np.asarray(b)
    r = np.maximum(a, b) if pick_max else np.minimum(a, b)
    zeros = (a == 0) & (b == 0)
    if zeros.any():
        neg_a, neg_b = np.signbit(a), np.signbit(b)
        neg = (neg_a & neg_b) if pick_max else (neg_a | neg_b)
        r = np.where(zeros, np.where(neg, -np.zeros_like(r), np.zeros_like(r)), r)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if (nan_a | nan_b).any():
        r = np.where(nan_a | nan_b, _quieted_snan(np.where(nan_a, a, b))[1], r)
    return r


def maximum3(a, b, c):
    """V_MAXIMUM3_* (gfx950): llvm.maximum semantics, NaN-propagating (LLVM selects it for
    fmaximum; AMDGPU SIInstructions.td / VOP3Instructions.td HasMinimum3Maximum3F32)."""
    return _ieee_extreme(_ieee_extreme(a, b, True), c, True)


def minimum3(a, b, c):
    """V_MINIMUM3_* (gfx950): llvm.minimum semantics, NaN-propagating."""
    return _ieee_extreme(_ieee_extreme(a, b, False), c, False)


def minimum(a, b):
    """V_MINIMUM_F32/F16/F64 (GFX12; RDNA4 ISA "IEEE minimum()": "A signaling NaN in either
    argument is propagated to the result"): a NaN operand gives NaN, -0 < +0."""
    return _ieee_extreme(a, b, False)


def maximum(a, b):
    """V_MAXIMUM_F32/F16/F64 (GFX12): IEEE 754-2019 maximum, NaN-propagating, +0 > -0."""
    return _ieee_extreme(a, b, True)


def _num_nan_pair(pick):
    """GFX12 V_MIN_NUM_F32 / V_MAX_NUM_F32 (RDNA4 ISA section 16.7 pseudocode, also f16/f64):
    any NaN operand yields the other operand, signalling or quiet alike; two NaNs give S0
    quieted (cvtToQuietNAN)."""
    def fn(a, b):
        a, b = np.asarray(a), np.asarray(b)
        r = pick(a, b)
        both = np.isnan(a) & np.isnan(b)
        if not both.any():
            return r
        return np.where(both, _quieted_snan(a)[1], r).astype(r.dtype)
    return fn


minnum_ieee = _ieee_nan_first(minnum)
maxnum_ieee = _ieee_nan_first(maxnum)
minnum_g12 = _num_nan_pair(minnum)
maxnum_g12 = _num_nan_pair(maxnum)


def _chained(inner, outer):
    """outer(inner(S0, S1), S2): how the ISA pseudocode defines the three-operand forms."""
    def fn(a, b, c):
        return outer(inner(a, b), c)
    return fn


# V_MIN3 / V_MAX3 / V_MAXMIN / V_MINMAX under MODE.IEEE: v_min(v_min(S0, S1), S2) and so on,
# each step quieting sNaNs; V_MAXMIN_* (RDNA3) is v_min(v_max(S0, S1), S2)
min3_ieee = _chained(minnum_ieee, minnum_ieee)
max3_ieee = _chained(maxnum_ieee, maxnum_ieee)
maxmin_ieee = _chained(maxnum_ieee, minnum_ieee)
minmax_ieee = _chained(minnum_ieee, maxnum_ieee)
# GFX12 V_MIN3_NUM_* / V_MAX3_NUM_* / V_MAXMIN_NUM_* / V_MINMAX_NUM_*: the same over v_*_num
min3_g12 = _chained(minnum_g12, minnum_g12)
max3_g12 = _chained(maxnum_g12, maxnum_g12)
maxmin_g12 = _chained(maxnum_g12, minnum_g12)
minmax_g12 = _chained(minnum_g12, maxnum_g12)
