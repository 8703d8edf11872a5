"""VALU: VOP1/VOP2/VOP3 (and their DPP/SDWA forms) — vector ALU over all lanes of a group.

Semantics follow the AMD "CDNA3 Instruction Set Architecture" guide (chapter "Vector ALU
operations" and the per-opcode descriptions); float behaviour notes are next to each helper.
Every op is a row of ``OPS``: result type, source types, a numpy function over typed arrays and
an operand *form* (where carries and masks sit in the operand list).

Modifiers: ``-x``/``|x|`` (float sources only), ``clamp`` (floats: [0, 1], NaN -> 0 under
DX10_CLAMP; integer add/sub: saturate), ``mul:2``/``mul:4``/``div:2`` (omod), ``op_sel`` for
16-bit VOP3 sources/dst, DPP (quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror, row_mirror,
row_half_mirror, row_bcast:15/31, row_mask, bank_mask, bound_ctrl — decoded from the DPP word),
SDWA (src*_sel, sext, dst_sel, dst_unused — decoded from the SDWA word). Anything else raises.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .common import LANE, T16, T64, from_typed, to_typed
from .errors import UnknownInstruction
from .floats import flush, flush_dst, flush_src
from .operands import Operand, row_of, vread32, vread64
from .registry import Decoded, semantic
from .state import VCC

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32, U64, I64 = np.uint32, np.int32, np.uint64, np.int64


@dataclass
class Op:
    dst: str
    srcs: tuple
    fn: Callable
    form: str = "std"  # std | co | cin | cnd | vccin  (see _layout)
    sat: Callable | None = None  # int clamp variant (computes in int64, saturated by type)


OPS: dict[str, Op] = {}


def op(names, dst, srcs, fn, form="std", sat=None):
    for n in names.split():
        OPS[n] = Op(dst, tuple(srcs.split()), fn, form, sat)


# ---------------------------------------------------------------------------------------------
# float helpers
def _f64(x):
    return np.asarray(x, F64)


def _sum_odd(p, c):
    """p + c in float64 rounded to *odd* (inexact results take the neighbour with an odd last
    bit), from TwoSum's exact error term. Rounding to odd in a format of >= p+2 bits and then
    to nearest in p bits equals one rounding to nearest (Boldo & Melquiond, "Emulation of FMA
    and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 57(4), 2008,
    Thm. 1), which makes the f32/f16 FMAs below correctly rounded."""
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c
        bb = s - p
        err = (p - (s - bb)) + (c - bb)
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
    return _sum_odd(p, c).astype(dt)


def fma32(a, b, c):
    """f32 fused multiply-add with a single rounding: a*b is exact in f64 (48-bit product); the
    sum is rounded once to f32 (``_round_sum``: round-to-odd where double rounding could bite)."""
    return _round_sum(_f64(a) * _f64(b), _f64(c), F32)


def fma16(a, b, c):
    """f16 fma, single rounding: exact f64 product, sum rounded once to f16 (``_round_sum``)."""
    return _round_sum(_f64(a) * _f64(b), _f64(c), F16)


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
    operands, inf, NaN) it falls back to x87 long double, which is not a single rounding."""
    a, b, c = (np.asarray(x, F64) for x in (a, b, c))
    with np.errstate(all="ignore"):
        p, e = _two_prod(a, b)
        th = p + c
        bb = th - c
        tl = (c - (th - bb)) + (p - bb)
        v = _sum_odd(tl, e)
        r = np.asarray(th + v, F64)
        aa, ab, ac = np.abs(a), np.abs(b), np.abs(c)
        risky = ~(np.isfinite(r) & np.isfinite(p)) | (aa > 2.0**500) | (ab > 2.0**500) | (
            ac > 2.0**1000) | ((p != 0) & (np.abs(p) < 2.0**-900)) | ((c != 0) & (ac < 2.0**-900))
        if np.any(risky):
            ld = np.longdouble
            slow = (np.asarray(a, ld) * np.asarray(b, ld) + np.asarray(c, ld)).astype(F64)
            r = np.where(risky, slow, r)
    return r


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


def med3(a, b, c):
    return np.fmax(np.fmin(a, b), np.fmin(np.fmax(a, b), c))


def imed3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def cvt_f2i(x, lo, hi, dt):
    """Float -> int conversions saturate and map NaN to 0 (CDNA3 ISA V_CVT_I32_F32 /
    V_CVT_U32_F32: "out-of-range values are clamped; NaN converts to 0")."""
    x = np.asarray(x, F64)
    return np.where(np.isnan(x), 0, np.trunc(np.clip(x, lo, hi))).astype(dt)


def f32_to_f16_rtz(x):
    """V_CVT_PKRTZ_F16_F32 rounds toward zero: take RNE, step one ulp toward zero if it rounded
    away from zero (also turns an overflow to inf into 65504)."""
    x = np.asarray(x, F32)
    h = x.astype(F16)
    hb = h.view(np.uint16).astype(np.int32)
    away = (np.abs(h.astype(F32)) > np.abs(x)) & ~np.isnan(x)
    hb = np.where(away, hb - 1, hb)
    return hb.astype(np.uint16).view(F16)


def cls(x, mask):
    """V_CMP_CLASS: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0, 7 +denorm,
    8 +normal, 9 +inf (CDNA3 ISA V_CMP_CLASS_F32)."""
    x = np.asarray(x)
    mask = np.asarray(mask).astype(np.uint32)
    info = np.finfo(x.dtype)
    nan = np.isnan(x)
    neg = np.signbit(x)
    ax = np.abs(x)
    inf = np.isinf(x)
    zero = ax == 0
    den = (ax < info.tiny) & ~zero
    norm = ~nan & ~inf & ~zero & ~den
    # quiet bit: the top mantissa bit
    ib = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    qbit = ib(1) << ib(info.nmant - 1)
    quiet = (x.view(ib) & qbit) != 0
    res = np.zeros(np.broadcast(x, mask).shape, bool)
    for bit, cond in ((0, nan & ~quiet), (1, nan & quiet), (2, inf & neg), (3, norm & neg),
                      (4, den & neg), (5, zero & neg), (6, zero & ~neg), (7, den & ~neg),
                      (8, norm & ~neg), (9, inf & ~neg)):
        res |= cond & (((mask >> np.uint32(bit)) & np.uint32(1)) != 0)
    return res


def frexp_mant(x):
    m, _e = np.frexp(x)
    return np.where(np.isfinite(x), m, x).astype(x.dtype)


def frexp_exp(x):
    _m, e = np.frexp(x)
    return np.where(np.isfinite(x), e, 0).astype(np.int32)


def _clz(x):
    x = np.asarray(x, U32).astype(np.uint64)
    lz = np.zeros(x.shape, np.int64)
    v = x
    for s in (16, 8, 4, 2, 1):
        m = v < (np.uint64(1) << np.uint64(32 - s))
        lz = np.where(m, lz + s, lz)
        v = np.where(m, v << np.uint64(s), v)
    lz = np.where(x == 0, 32, lz)
    return lz


def ffbh_u32(x):
    x = np.asarray(x, U32)
    return np.where(x == 0, 0xFFFFFFFF, _clz(x)).astype(np.uint32)


def ffbl_b32(x):
    x = np.asarray(x, U32)
    low = x & (~x + U32(1))  # isolate lowest set bit
    tz = 31 - _clz(low)
    return np.where(x == 0, 0xFFFFFFFF, tz).astype(np.uint32)


def ffbh_i32(x):
    x = np.asarray(x, I32)
    y = np.where(x < 0, ~x, x).view(U32)
    return np.where((x == 0) | (x == -1), 0xFFFFFFFF, _clz(y)).astype(np.uint32)


def bfrev(x):
    """Reverse the 32 bits (V_BFREV_B32), by swapping ever larger bit groups."""
    x = np.asarray(x, U32)
    for sh, m in ((1, 0x55555555), (2, 0x33333333), (4, 0x0F0F0F0F), (8, 0x00FF00FF)):
        x = ((x >> U32(sh)) & U32(m)) | ((x & U32(m)) << U32(sh))
    return ((x >> U32(16)) | (x << U32(16))).astype(U32)


def popc(x):
    return np.bitwise_count(np.asarray(x, U32)).astype(np.uint32)


def bfe_u(x, off, w):
    off = np.asarray(off, U32) & U32(31)
    w = np.asarray(w, U32) & U32(31)
    m = ((U64(1) << w.astype(U64)) - U64(1)).astype(U32)
    return ((np.asarray(x, U32) >> off) & m).astype(U32)


def bfe_i(x, off, w):
    off = np.asarray(off, U32) & U32(31)
    w = (np.asarray(w, U32) & U32(31)).astype(np.int64)
    v = (np.asarray(x, U32) >> off).astype(np.int64) & ((np.int64(1) << w) - 1)
    sign = np.where(w > 0, (v >> np.maximum(w - 1, 0)) & 1, 0)
    v = np.where(sign == 1, v - (np.int64(1) << w), v)
    return np.where(w == 0, 0, v).astype(np.int32)


def perm(a, b, sel):
    """V_PERM_B32: byte_permute({S0, S1}, S2) per selector byte: 0-7 pick a byte (S1 low),
    8-11 sign of bytes 1/3/5/7 replicated, 12 -> 0x00, 13-15 -> 0xff (CDNA3 ISA V_PERM_B32)."""
    data = (np.asarray(a, U32).astype(U64) << U64(32)) | np.asarray(b, U32).astype(U64)
    sel = np.asarray(sel, U32)
    out = np.zeros(np.broadcast(data, sel).shape, U32)
    for k in range(4):
        s = ((sel >> U32(8 * k)) & U32(0xFF)).astype(U64)
        byte = (data >> (U64(8) * np.minimum(s, U64(7)))) & U64(0xFF)
        sign = lambda bit: np.where(((data >> U64(bit)) & U64(1)) != 0, 0xFF, 0)  # noqa: E731
        v = np.where(s < 8, byte, 0)
        v = np.where(s == 8, sign(15), v)
        v = np.where(s == 9, sign(31), v)
        v = np.where(s == 10, sign(47), v)
        v = np.where(s == 11, sign(63), v)
        v = np.where(s == 12, 0, v)
        v = np.where(s >= 13, 0xFF, v)
        out |= (np.asarray(v).astype(U32) << U32(8 * k))
    return out


def _u64(x):
    return np.asarray(x).astype(U64)


def _i64(x):
    return np.asarray(x).astype(I64)


def _bexp(x, dt):
    """Biased exponent field of a float array."""
    if dt is F32:
        return ((np.asarray(x, F32).view(U32) >> U32(23)) & U32(0xFF)).astype(np.int64)
    return ((np.asarray(x, F64).view(U64) >> U64(52)) & U64(0x7FF)).astype(np.int64)


def div_scale(s0, s1, s2, dt):
    """V_DIV_SCALE_F32/F64 (CDNA3 ISA pseudocode): pre-scales numerator or denominator by
    2^±64 (f64: 2^±128) so the Newton-Raphson division cannot under/overflow; VCC tells
    V_DIV_FMAS to undo it. S0 is the value to scale, S1 the denominator, S2 the numerator.
    exponent() is the biased exponent; the "1/S1 is denormal" test is done in f64
    (pseudocode ``1.0 / 64'F(S1) == DENORM.f64``, never true for an f32 S1). Returns
    (result, vcc)."""
    big, lim, tiny_e = (64, 96, 23) if dt is F32 else (128, 768, 53)
    s0, s1, s2 = (np.asarray(v, dt) for v in (s0, s1, s2))
    shape = np.broadcast(s0, s1, s2).shape
    s0, s1, s2 = (np.broadcast_to(v, shape) for v in (s0, s1, s2))
    e1, e2 = _bexp(s1, dt), _bexp(s2, dt)
    up = np.ldexp(s0, big).astype(dt)
    down = np.ldexp(s0, -big).astype(dt)
    with np.errstate(all="ignore"):
        inv = 1 / s1.astype(F64)
        quo = (s2 / s1).astype(dt)
    den = lambda v: (_bexp(v, v.dtype.type) == 0) & (v != 0)  # noqa: E731
    res = s0.copy()
    vcc = np.zeros(shape, bool)
    done = (s2 == 0) | (s1 == 0)
    res = np.where(done, dt(np.nan), res)
    c = ~done & (e2 - e1 >= lim)
    vcc |= c
    res = np.where(c & (s0 == s1), up, res)
    done |= c
    c = ~done & den(s1)
    res = np.where(c, up, res)
    done |= c
    c = ~done & den(inv) & den(quo)
    vcc |= c
    res = np.where(c & (s0 == s1), up, res)
    done |= c
    c = ~done & den(inv)
    res = np.where(c, down, res)
    done |= c
    c = ~done & den(quo)
    vcc |= c
    res = np.where(c & (s0 == s2), up, res)
    done |= c
    c = ~done & (e2 <= tiny_e)
    res = np.where(c, up, res)
    return res.astype(dt), vcc


def div_fmas(a, b, c, vcc, dt):
    """V_DIV_FMAS: fma(S0, S1, S2), scaled by 2^64 (f64: 2^128) where VCC is set if S2's
    exponent says it is >= 2.0, else by 2^-64 (CDNA3 ISA V_DIV_FMAS_F32 pseudocode). f32: the
    scaling is applied to the exact (round-to-odd) sum before the one rounding to f32, so a
    quotient that lands in the denormal range is rounded once — what makes LLVM's f32 division
    sequence correctly rounded. f64: fma then ldexp (a second rounding only for f64 denormal
    quotients)."""
    big, bias = (64, 127) if dt is F32 else (128, 1023)
    scale = np.where(vcc, np.where(_bexp(c, dt) > bias, big, -big), 0)
    if dt is F32:
        exact = _sum_odd(_f64(a) * _f64(b), _f64(c))
        return np.ldexp(exact, scale).astype(F32)
    r = fma64(a, b, c)
    return np.where(vcc, np.ldexp(r, scale).astype(dt), r).astype(dt)


def div_fixup(s0, s1, s2, dt):
    """V_DIV_FIXUP: special cases of a/b (S1 = denominator, S2 = numerator, S0 = quotient
    estimate), first match wins (CDNA3 ISA V_DIV_FIXUP_F32 pseudocode): NaN S2 or S1 -> NaN;
    0/0 and inf/inf -> NaN; S1 == 0 or |S2| == inf -> ±inf; |S1| == inf or S2 == 0 -> ±0;
    exponent(S2) - exponent(S1) < -(bias + mantissa bits) (-150 for f32) -> ±0 (underflow);
    a NaN estimate from finite operands -> ±inf (the quotient overflowed inside the
    Newton-Raphson steps); else |S0| with the sign of S1*S2."""
    s0, s1, s2 = (np.asarray(v, dt) for v in (s0, s1, s2))
    sign = np.signbit(s1) ^ np.signbit(s2)
    inf, zero = dt(np.inf), dt(0)
    ib = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dt).itemsize]
    info = np.finfo(dt)
    ebits, mbits = info.nexp, info.nmant
    emask = ib((1 << ebits) - 1)

    def bexp(v):
        return ((v.view(ib) >> ib(mbits)) & emask).astype(np.int64)

    under = -((1 << (ebits - 1)) - 1 + mbits)
    rules = (
        (np.isnan(s2) | np.isnan(s1), dt(np.nan)),
        (((s1 == 0) & (s2 == 0)) | (np.isinf(s1) & np.isinf(s2)), dt(np.nan)),
        ((s1 == 0) | np.isinf(s2), np.where(sign, -inf, inf)),
        (np.isinf(s1) | (s2 == 0), np.where(sign, -zero, zero)),
        (bexp(s2) - bexp(s1) < under, np.where(sign, -zero, zero)),
        (np.isnan(s0), np.where(sign, -inf, inf)),
    )
    r = np.where(sign, -np.abs(s0), np.abs(s0))
    for cond, val in reversed(rules):
        r = np.where(cond, val, r)
    return r.astype(dt)


# ---------------------------------------------------------------------------------------------
# the table (CDNA3 ISA opcode descriptions)
def _mask(n):
    return U32((1 << n) - 1)


S5 = U32(31)
op("v_mov_b32 v_accvgpr_write_b32 v_accvgpr_read_b32 v_accvgpr_mov_b32", "u32", "u32",
   lambda a: a)
op("v_mov_b64", "u64", "u64", lambda a: a)
op("v_not_b32", "u32", "u32", lambda a: ~a)
op("v_bfrev_b32", "u32", "u32", bfrev)
op("v_ffbh_u32", "u32", "u32", ffbh_u32)
op("v_ffbl_b32", "u32", "u32", ffbl_b32)
op("v_ffbh_i32", "u32", "i32", ffbh_i32)
op("v_add_u32", "u32", "u32 u32", lambda a, b: a + b, sat=lambda a, b: _i64(a) + _i64(b))
op("v_sub_u32", "u32", "u32 u32", lambda a, b: a - b, sat=lambda a, b: _i64(a) - _i64(b))
op("v_subrev_u32", "u32", "u32 u32", lambda a, b: b - a, sat=lambda a, b: _i64(b) - _i64(a))
op("v_add_i32", "i32", "i32 i32", lambda a, b: a + b, sat=lambda a, b: _i64(a) + _i64(b))
op("v_sub_i32", "i32", "i32 i32", lambda a, b: a - b, sat=lambda a, b: _i64(a) - _i64(b))
op("v_add_u16", "u16", "u16 u16", lambda a, b: a + b, sat=lambda a, b: _i64(a) + _i64(b))
op("v_sub_u16", "u16", "u16 u16", lambda a, b: a - b, sat=lambda a, b: _i64(a) - _i64(b))
op("v_subrev_u16", "u16", "u16 u16", lambda a, b: b - a, sat=lambda a, b: _i64(b) - _i64(a))
op("v_add_i16", "i16", "i16 i16", lambda a, b: a + b, sat=lambda a, b: _i64(a) + _i64(b))
op("v_sub_i16", "i16", "i16 i16", lambda a, b: a - b, sat=lambda a, b: _i64(a) - _i64(b))
op("v_mul_lo_u16", "u16", "u16 u16", lambda a, b: a * b)
op("v_add_co_u32", "u32", "u32 u32",
   lambda a, b: (a + b, (_u64(a) + _u64(b)) > U64(0xFFFFFFFF)), "co")
op("v_sub_co_u32", "u32", "u32 u32", lambda a, b: (a - b, _u64(b) > _u64(a)), "co")
op("v_subrev_co_u32", "u32", "u32 u32", lambda a, b: (b - a, _u64(a) > _u64(b)), "co")
op("v_addc_co_u32", "u32", "u32 u32",
   lambda a, b, c: (lambda s: (s.astype(U32), s > U64(0xFFFFFFFF)))(_u64(a) + _u64(b) + c),
   "cin")
op("v_subb_co_u32", "u32", "u32 u32",
   lambda a, b, c: ((_i64(a) - _i64(b) - c).astype(U32), (_i64(b) + c) > _i64(a)), "cin")
op("v_subbrev_co_u32", "u32", "u32 u32",
   lambda a, b, c: ((_i64(b) - _i64(a) - c).astype(U32), (_i64(a) + c) > _i64(b)), "cin")
op("v_cndmask_b32", "u32", "u32 u32", lambda a, b, m: np.where(m, b, a), "cnd")
op("v_and_b32", "u32", "u32 u32", lambda a, b: a & b)
op("v_or_b32", "u32", "u32 u32", lambda a, b: a | b)
op("v_xor_b32", "u32", "u32 u32", lambda a, b: a ^ b)
op("v_xnor_b32", "u32", "u32 u32", lambda a, b: ~(a ^ b))
op("v_lshlrev_b32", "u32", "u32 u32", lambda a, b: b << (a & S5))
op("v_lshrrev_b32", "u32", "u32 u32", lambda a, b: b >> (a & S5))
op("v_ashrrev_i32", "i32", "u32 i32", lambda a, b: b >> (a & S5).astype(I32))
op("v_lshlrev_b16", "u16", "u16 u16", lambda a, b: b << (a & np.uint16(15)))
op("v_lshrrev_b16", "u16", "u16 u16", lambda a, b: b >> (a & np.uint16(15)))
op("v_ashrrev_i16", "i16", "u16 i16", lambda a, b: b >> (a & np.uint16(15)).astype(np.int16))
op("v_lshlrev_b64", "u64", "u32 u64", lambda a, b: b << (_u64(a) & U64(63)))
op("v_lshrrev_b64", "u64", "u32 u64", lambda a, b: b >> (_u64(a) & U64(63)))
op("v_ashrrev_i64", "i64", "u32 i64", lambda a, b: b >> (_i64(a) & 63))
op("v_lshl_add_u64", "u64", "u64 u32 u64", lambda a, s, c: (a << (_u64(s) & U64(63))) + c)
op("v_lshl_add_u32", "u32", "u32 u32 u32", lambda a, s, c: (a << (s & S5)) + c)
op("v_add_lshl_u32", "u32", "u32 u32 u32", lambda a, b, s: (a + b) << (s & S5))
op("v_lshl_or_b32", "u32", "u32 u32 u32", lambda a, s, c: (a << (s & S5)) | c)
op("v_and_or_b32", "u32", "u32 u32 u32", lambda a, b, c: (a & b) | c)
op("v_or3_b32", "u32", "u32 u32 u32", lambda a, b, c: a | b | c)
op("v_xad_u32", "u32", "u32 u32 u32", lambda a, b, c: (a ^ b) + c)
op("v_add3_u32", "u32", "u32 u32 u32", lambda a, b, c: a + b + c)
op("v_bfe_u32", "u32", "u32 u32 u32", bfe_u)
op("v_bfe_i32", "i32", "u32 u32 u32", bfe_i)
op("v_bfi_b32", "u32", "u32 u32 u32", lambda m, a, b: (m & a) | (~m & b))
op("v_bfm_b32", "u32", "u32 u32",
   lambda w, o: (((U64(1) << _u64(w & S5)) - U64(1)) << _u64(o & S5)).astype(U32))
op("v_alignbit_b32", "u32", "u32 u32 u32",
   lambda a, b, c: (((_u64(a) << U64(32)) | _u64(b)) >> _u64(c & S5)).astype(U32))
op("v_alignbyte_b32", "u32", "u32 u32 u32",
   lambda a, b, c: (((_u64(a) << U64(32)) | _u64(b)) >> (U64(8) * _u64(c & U32(3)))
                    ).astype(U32))
op("v_perm_b32", "u32", "u32 u32 u32", perm)
op("v_bcnt_u32_b32", "u32", "u32 u32", lambda a, b: popc(a) + b)
op("v_min_u32", "u32", "u32 u32", np.minimum)
op("v_max_u32", "u32", "u32 u32", np.maximum)
op("v_min_i32", "i32", "i32 i32", np.minimum)
op("v_max_i32", "i32", "i32 i32", np.maximum)
op("v_min_u16", "u16", "u16 u16", np.minimum)
op("v_max_u16", "u16", "u16 u16", np.maximum)
op("v_min_i16", "i16", "i16 i16", np.minimum)
op("v_max_i16", "i16", "i16 i16", np.maximum)
op("v_min3_u32", "u32", "u32 u32 u32", lambda a, b, c: np.minimum(np.minimum(a, b), c))
op("v_max3_u32", "u32", "u32 u32 u32", lambda a, b, c: np.maximum(np.maximum(a, b), c))
op("v_min3_i32", "i32", "i32 i32 i32", lambda a, b, c: np.minimum(np.minimum(a, b), c))
op("v_max3_i32", "i32", "i32 i32 i32", lambda a, b, c: np.maximum(np.maximum(a, b), c))
op("v_med3_i32", "i32", "i32 i32 i32", imed3)
op("v_med3_u32", "u32", "u32 u32 u32", imed3)
op("v_mul_lo_u32", "u32", "u32 u32", lambda a, b: (_u64(a) * _u64(b)).astype(U32))
op("v_mul_hi_u32", "u32", "u32 u32", lambda a, b: ((_u64(a) * _u64(b)) >> U64(32)).astype(U32))
op("v_mul_hi_i32", "i32", "i32 i32", lambda a, b: ((_i64(a) * _i64(b)) >> 32).astype(I32))
op("v_mul_u32_u24", "u32", "u32 u32",
   lambda a, b: (_u64(a & _mask(24)) * _u64(b & _mask(24))).astype(U32))
op("v_mul_hi_u32_u24", "u32", "u32 u32",
   lambda a, b: ((_u64(a & _mask(24)) * _u64(b & _mask(24))) >> U64(32)).astype(U32))
op("v_mul_i32_i24", "i32", "u32 u32",
   lambda a, b: (_sx24(a) * _sx24(b)).astype(I32))
op("v_mul_hi_i32_i24", "i32", "u32 u32",
   lambda a, b: ((_sx24(a) * _sx24(b)) >> 32).astype(I32))
op("v_mad_u32_u24", "u32", "u32 u32 u32",
   lambda a, b, c: (_u64(a & _mask(24)) * _u64(b & _mask(24)) + _u64(c)).astype(U32))
op("v_mad_i32_i24", "i32", "u32 u32 i32",
   lambda a, b, c: (_sx24(a) * _sx24(b) + _i64(c)).astype(I32))
op("v_mad_u64_u32", "u64", "u32 u32 u64", lambda a, b, c: _mad_u64(a, b, c), "co")
op("v_mad_i64_i32", "i64", "i32 i32 i64", lambda a, b, c: _mad_i64(a, b, c), "co")
op("v_mbcnt_lo_u32_b32", "u32", "u32 u32",
   lambda m, b: popc(m & _MBLO) + b)
op("v_mbcnt_hi_u32_b32", "u32", "u32 u32",
   lambda m, b: popc(m & _MBHI) + b)

# f32
op("v_add_f32", "f32", "f32 f32", lambda a, b: a + b)
op("v_sub_f32", "f32", "f32 f32", lambda a, b: a - b)
op("v_subrev_f32", "f32", "f32 f32", lambda a, b: b - a)
op("v_mul_f32", "f32", "f32 f32", lambda a, b: a * b)
op("v_mul_legacy_f32", "f32", "f32 f32", lambda a, b: np.where((a == 0) | (b == 0), F32(0), a * b))
op("v_max_f32", "f32", "f32 f32", np.fmax)  # IEEE maxNum: a NaN operand yields the other
op("v_min_f32", "f32", "f32 f32", np.fmin)
op("v_max3_f32", "f32", "f32 f32 f32", lambda a, b, c: np.fmax(np.fmax(a, b), c))
op("v_min3_f32", "f32", "f32 f32 f32", lambda a, b, c: np.fmin(np.fmin(a, b), c))
op("v_med3_f32", "f32", "f32 f32 f32", med3)
op("v_fma_f32", "f32", "f32 f32 f32", fma32)
op("v_fmac_f32", "f32", "f32 f32 f32", fma32, "acc")
op("v_mad_f32", "f32", "f32 f32 f32", mad32)
op("v_mac_f32", "f32", "f32 f32 f32", mad32, "acc")
# VOP2 with an inline literal K (operand order as printed: dst, src0, K, src1 / dst, src0,
# src1, K): FMAMK D = S0 * K + S1, FMAAK D = S0 * S1 + K (CDNA3 ISA V_FMAMK_F32)
op("v_fmamk_f32 v_fmaak_f32", "f32", "f32 f32 f32", fma32)
op("v_madmk_f32 v_madak_f32", "f32", "f32 f32 f32", mad32)
op("v_ldexp_f32", "f32", "f32 i32", lambda a, e: np.ldexp(a, np.clip(e, -1000, 1000)).astype(F32))
op("v_rcp_f32", "f32", "f32", lambda a: (F32(1) / a))  # HW: ≤1 ulp; we give correctly rounded
op("v_rcp_iflag_f32", "f32", "f32", lambda a: (F32(1) / a))
op("v_rsq_f32", "f32", "f32", lambda a: (1 / np.sqrt(_f64(a))).astype(F32))
op("v_sqrt_f32", "f32", "f32", np.sqrt)
op("v_exp_f32", "f32", "f32", lambda a: np.exp2(_f64(a)).astype(F32))
op("v_log_f32", "f32", "f32", lambda a: np.log2(_f64(a)).astype(F32))
op("v_sin_f32", "f32", "f32", lambda a: np.sin(_f64(a) * 2 * np.pi).astype(F32))  # S0 in turns
op("v_cos_f32", "f32", "f32", lambda a: np.cos(_f64(a) * 2 * np.pi).astype(F32))
op("v_fract_f32", "f32", "f32", lambda a: fract(a, F32))
op("v_trunc_f32", "f32", "f32", np.trunc)
op("v_ceil_f32", "f32", "f32", np.ceil)
op("v_floor_f32", "f32", "f32", np.floor)
op("v_rndne_f32", "f32", "f32", np.rint)
op("v_frexp_mant_f32", "f32", "f32", frexp_mant)
op("v_frexp_exp_i32_f32", "i32", "f32", frexp_exp)
op("v_cvt_f32_u32", "f32", "u32", lambda a: a.astype(F32))
op("v_cvt_f32_i32", "f32", "i32", lambda a: a.astype(F32))
op("v_cvt_u32_f32", "u32", "f32", lambda a: cvt_f2i(a, 0, 4294967295, U32))
op("v_cvt_i32_f32", "i32", "f32", lambda a: cvt_f2i(a, -2147483648, 2147483647, I32))
op("v_cvt_flr_i32_f32", "i32", "f32",
   lambda a: cvt_f2i(np.floor(a), -2147483648, 2147483647, I32))
op("v_cvt_rpi_i32_f32", "i32", "f32",
   lambda a: cvt_f2i(np.floor(_f64(a) + 0.5), -2147483648, 2147483647, I32))
op("v_cvt_f32_ubyte0", "f32", "u32", lambda a: (a & U32(0xFF)).astype(F32))
op("v_cvt_f32_ubyte1", "f32", "u32", lambda a: ((a >> U32(8)) & U32(0xFF)).astype(F32))
op("v_cvt_f32_ubyte2", "f32", "u32", lambda a: ((a >> U32(16)) & U32(0xFF)).astype(F32))
op("v_cvt_f32_ubyte3", "f32", "u32", lambda a: (a >> U32(24)).astype(F32))
op("v_cvt_f16_f32", "f16", "f32", lambda a: a.astype(F16))  # RNE (round mode 0)
op("v_cvt_f32_f16", "f32", "f16", lambda a: a.astype(F32))
op("v_cvt_f64_f32", "f64", "f32", lambda a: a.astype(F64))
op("v_cvt_f32_f64", "f32", "f64", lambda a: a.astype(F32))
op("v_cvt_f64_i32", "f64", "i32", lambda a: a.astype(F64))
op("v_cvt_f64_u32", "f64", "u32", lambda a: a.astype(F64))
op("v_cvt_i32_f64", "i32", "f64", lambda a: cvt_f2i(a, -2147483648, 2147483647, I32))
op("v_cvt_u32_f64", "u32", "f64", lambda a: cvt_f2i(a, 0, 4294967295, U32))
op("v_cvt_pkrtz_f16_f32", "u32", "f32 f32",
   lambda a, b: (f32_to_f16_rtz(a).view(np.uint16).astype(U32)
                 | (f32_to_f16_rtz(b).view(np.uint16).astype(U32) << U32(16))))
op("v_cvt_pk_u16_u32", "u32", "u32 u32",
   lambda a, b: (a & U32(0xFFFF)) | ((b & U32(0xFFFF)) << U32(16)))
op("v_pack_b32_f16", "u32", "b16 b16",
   lambda a, b: a.astype(U32) | (b.astype(U32) << U32(16)))
op("v_div_scale_f32", "f32", "f32 f32 f32",
   lambda a, b, c: div_scale(a, b, c, F32), "co")
op("v_div_scale_f64", "f64", "f64 f64 f64",
   lambda a, b, c: div_scale(a, b, c, F64), "co")
op("v_div_fmas_f32", "f32", "f32 f32 f32", lambda a, b, c, v: div_fmas(a, b, c, v, F32), "vccin")
op("v_div_fmas_f64", "f64", "f64 f64 f64", lambda a, b, c, v: div_fmas(a, b, c, v, F64), "vccin")
op("v_div_fixup_f32", "f32", "f32 f32 f32", lambda a, b, c: div_fixup(a, b, c, F32))
op("v_div_fixup_f64", "f64", "f64 f64 f64", lambda a, b, c: div_fixup(a, b, c, F64))
# f64
op("v_add_f64", "f64", "f64 f64", lambda a, b: a + b)
op("v_mul_f64", "f64", "f64 f64", lambda a, b: a * b)
op("v_fma_f64", "f64", "f64 f64 f64", fma64)
op("v_fmac_f64", "f64", "f64 f64 f64", fma64, "acc")  # gfx90a+ VOP2 (LLVM VOP2Instructions.td)
op("v_max_f64", "f64", "f64 f64", np.fmax)
op("v_min_f64", "f64", "f64 f64", np.fmin)
op("v_ldexp_f64", "f64", "f64 i32", lambda a, e: np.ldexp(a, np.clip(e, -3000, 3000)))
op("v_rcp_f64", "f64", "f64", lambda a: 1 / a)
op("v_rsq_f64", "f64", "f64", lambda a: 1 / np.sqrt(a))
op("v_sqrt_f64", "f64", "f64", np.sqrt)
op("v_fract_f64", "f64", "f64", lambda a: fract(a, F64))
op("v_trunc_f64", "f64", "f64", np.trunc)
op("v_ceil_f64", "f64", "f64", np.ceil)
op("v_floor_f64", "f64", "f64", np.floor)
op("v_rndne_f64", "f64", "f64", np.rint)
op("v_frexp_mant_f64", "f64", "f64", frexp_mant)
op("v_frexp_exp_i32_f64", "i32", "f64", frexp_exp)
# f16 (numpy f16 arithmetic rounds once from f32, which is exact for + - * of f16 inputs)
op("v_add_f16", "f16", "f16 f16", lambda a, b: a + b)
op("v_sub_f16", "f16", "f16 f16", lambda a, b: a - b)
op("v_subrev_f16", "f16", "f16 f16", lambda a, b: b - a)
op("v_mul_f16", "f16", "f16 f16", lambda a, b: a * b)
op("v_max_f16", "f16", "f16 f16", np.fmax)
op("v_min_f16", "f16", "f16 f16", np.fmin)
op("v_fma_f16", "f16", "f16 f16 f16", fma16)
op("v_fmac_f16", "f16", "f16 f16 f16", fma16, "acc")
op("v_mad_f16", "f16", "f16 f16 f16", mad16)
op("v_mac_f16", "f16", "f16 f16 f16", mad16, "acc")
op("v_max3_f16", "f16", "f16 f16 f16", lambda a, b, c: np.fmax(np.fmax(a, b), c))
op("v_min3_f16", "f16", "f16 f16 f16", lambda a, b, c: np.fmin(np.fmin(a, b), c))
op("v_med3_f16", "f16", "f16 f16 f16", med3)
op("v_ldexp_f16", "f16", "f16 i16", lambda a, e: np.ldexp(a.astype(F32), e).astype(F16))
op("v_rcp_f16", "f16", "f16", lambda a: (F32(1) / a.astype(F32)).astype(F16))
op("v_sqrt_f16", "f16", "f16", lambda a: np.sqrt(a.astype(F32)).astype(F16))
op("v_rsq_f16", "f16", "f16", lambda a: (1 / np.sqrt(a.astype(F64))).astype(F16))
op("v_exp_f16", "f16", "f16", lambda a: np.exp2(a.astype(F64)).astype(F16))
op("v_log_f16", "f16", "f16", lambda a: np.log2(a.astype(F64)).astype(F16))
op("v_trunc_f16", "f16", "f16", np.trunc)
op("v_ceil_f16", "f16", "f16", np.ceil)
op("v_floor_f16", "f16", "f16", np.floor)
op("v_rndne_f16", "f16", "f16", np.rint)
op("v_fract_f16", "f16", "f16", lambda a: fract(a, F16))
op("v_cvt_f16_u16", "f16", "u16", lambda a: a.astype(F16))
op("v_cvt_f16_i16", "f16", "i16", lambda a: a.astype(F16))
op("v_cvt_u16_f16", "u16", "f16", lambda a: cvt_f2i(a, 0, 65535, np.uint16))
op("v_cvt_i16_f16", "i16", "f16", lambda a: cvt_f2i(a, -32768, 32767, np.int16))
op("v_div_fixup_f16", "f16", "f16 f16 f16", lambda a, b, c: div_fixup(a, b, c, F16))


def _sx24(x):
    v = _i64(np.asarray(x) & _mask(24))
    return np.where(v >= (1 << 23), v - (1 << 24), v)


def _mad_u64(a, b, c):
    p = _u64(a) * _u64(b)
    s = p + c
    return s, s < p  # carry out of the 64-bit add


def _mad_i64(a, b, c):
    p = _i64(a) * _i64(b)
    s = (p.astype(U64) + np.asarray(c).astype(U64)).view(I64) if np.ndim(p) else p + c
    # signed overflow of the 64-bit add sets the carry (CDNA3 ISA V_MAD_I64_I32)
    ovf = ((p >= 0) == (np.asarray(c) >= 0)) & ((s >= 0) != (p >= 0))
    return s, ovf


_MBLO = np.where(LANE < 32, (np.uint64(1) << LANE.astype(np.uint64)) - np.uint64(1),
                 np.uint64(0xFFFFFFFF)).astype(U32)
_MBHI = np.where(LANE < 32, np.uint64(0),
                 (np.uint64(1) << (LANE - 32).astype(np.uint64)) - np.uint64(1)).astype(U32)

# ---------------------------------------------------------------------------------------------
# VOPC
_FCMP = {
    "f": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "lg": lambda a, b: (a < b) | (a > b), "ge": np.greater_equal,
    "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~(a >= b), "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b), "nle": lambda a, b: ~(a <= b),
    "neq": lambda a, b: ~(a == b), "nlt": lambda a, b: ~(a < b),
    "tru": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}
_ICMP = {
    "f": _FCMP["f"], "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "ne": np.not_equal, "lg": np.not_equal, "ge": np.greater_equal, "t": _FCMP["tru"],
}
CMPS: dict[str, tuple[str, Callable, bool]] = {}
for _t in ("f16", "f32", "f64"):
    for _c, _f in _FCMP.items():
        CMPS[f"v_cmp_{_c}_{_t}"] = (_t, _f, False)
        CMPS[f"v_cmpx_{_c}_{_t}"] = (_t, _f, True)
    CMPS[f"v_cmp_class_{_t}"] = (_t, cls, False)
    CMPS[f"v_cmpx_class_{_t}"] = (_t, cls, True)
for _t in ("i16", "u16", "i32", "u32", "i64", "u64"):
    for _c, _f in _ICMP.items():
        CMPS[f"v_cmp_{_c}_{_t}"] = (_t, _f, False)
        CMPS[f"v_cmpx_{_c}_{_t}"] = (_t, _f, True)


# ---------------------------------------------------------------------------------------------
# DPP / SDWA decoding from the encoding word (CDNA3 ISA "VOP_DPP" / "VOP_SDWA" formats)
def dpp_lanes(ctrl: int) -> tuple[np.ndarray, np.ndarray]:
    """(source lane per lane, source-in-range per lane) for a gfx9 DPP_CTRL value."""
    lane = np.arange(64)
    row, r16 = lane // 16, lane % 16
    valid = np.ones(64, bool)
    if ctrl <= 0xFF:  # quad_perm
        sel = [(ctrl >> (2 * i)) & 3 for i in range(4)]
        src = (lane & ~3) + np.array(sel)[lane & 3]
    elif 0x101 <= ctrl <= 0x10F:  # row_shl: lane reads lane + n within its row
        n = ctrl & 0xF
        src = lane + n
        valid = r16 + n < 16
    elif 0x111 <= ctrl <= 0x11F:  # row_shr: reads lane - n
        n = ctrl & 0xF
        src = lane - n
        valid = r16 - n >= 0
    elif 0x121 <= ctrl <= 0x12F:  # row_ror
        n = ctrl & 0xF
        src = row * 16 + (r16 - n) % 16
    elif ctrl == 0x130:  # wave_shl:1
        src, valid = lane + 1, lane < 63
    elif ctrl == 0x134:  # wave_rol:1
        src = (lane + 1) % 64
    elif ctrl == 0x138:  # wave_shr:1
        src, valid = lane - 1, lane > 0
    elif ctrl == 0x13C:  # wave_ror:1
        src = (lane - 1) % 64
    elif ctrl == 0x140:  # row_mirror
        src = row * 16 + 15 - r16
    elif ctrl == 0x141:  # row_half_mirror
        src = (lane & ~7) + 7 - (lane & 7)
    elif ctrl == 0x142:  # row_bcast:15 — lane 15 of each row feeds the next row
        src, valid = row * 16 - 1, row > 0
    elif ctrl == 0x143:  # row_bcast:31 — lane 31 feeds rows 2 and 3
        src, valid = np.full(64, 31), row >= 2
    elif 0x150 <= ctrl <= 0x15F:  # row_newbcast:n (gfx90a+): lane n of the row to the row
        src = row * 16 + (ctrl & 0xF)
    else:
        raise ValueError(f"DPP control 0x{ctrl:x} is not defined on gfx9")
    src = np.where(valid, src, lane)
    return src.astype(np.int64), np.asarray(valid)


SDWA_SEL = {"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5,
            "DWORD": 6}


def sdwa_extract(x, sel: int, sext: bool):
    if sel == 6:
        return x
    if sel <= 3:
        v = (x >> U32(8 * sel)) & U32(0xFF)
        return ((v ^ U32(0x80)) - U32(0x80)) if sext else v
    v = (x >> U32(16 * (sel - 4))) & U32(0xFFFF)
    return ((v ^ U32(0x8000)) - U32(0x8000)) if sext else v


# ---------------------------------------------------------------------------------------------
def _float_t(t: str) -> bool:
    return t[0] == "f" or t == "bf16"


def build_generic(d: Decoded, o: Op):
    nv = d.kernel.n_vgpr
    ops = list(d.ops)
    enc = d.encoding
    mods = dict(d.mods)
    allowed = {"clamp", "mul", "div", "op_sel"}
    dpp = enc == "dpp"
    sdwa = enc == "sdwa"
    if dpp:
        allowed |= {"quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol",
                    "wave_shr", "wave_ror", "row_mirror", "row_half_mirror", "row_bcast",
                    "row_newbcast", "row_mask", "bank_mask", "bound_ctrl", "fi"}
    if sdwa:
        allowed |= {"dst_sel", "dst_unused", "src0_sel", "src1_sel"}
    for k in mods:
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k!r}")
    # operand layout
    dst = ops.pop(0)
    sdst = None
    cin = None
    if o.form in ("co", "cin"):
        if enc == "e32" or enc in ("dpp", "sdwa"):
            sdst = ops.pop(0)  # printed vcc
        else:
            sdst = ops.pop(0)
    if o.form in ("cin", "cnd"):
        cin = ops.pop()  # trailing lane mask (vcc or s[n:n+1])
    srcs = ops
    if o.form == "acc":
        if len(srcs) == 2:
            srcs = srcs + [dst]  # v_fmac: D = S0 * S1 + D
    if len(srcs) != len(o.srcs):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 f"expected {len(o.srcs)} sources, got {len(srcs)}")
    opsel = mods.get("op_sel", [0, 0, 0, 0])
    if not isinstance(opsel, list):
        opsel = [opsel]
    n = len(srcs)
    dst_hi = bool(opsel[n]) if len(opsel) > n else False
    for i, t in enumerate(o.srcs):
        if i < len(opsel) and opsel[i] and t not in T16:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     "op_sel on a 32/64-bit operand")
    if dst_hi and o.dst not in T16:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a 32-bit dst")
    # SDWA fields from the SDWA dword (VOP_SDWA: dst_sel[10:8], dst_unused[12:11], clamp[13],
    # omod[15:14], src0_sel[18:16], src0_sext[19], src1_sel[26:24], src1_sext[27])
    sdw = d.inst.words[1] if sdwa else 0
    src_sel = [6, 6]
    src_sext = [False, False]
    if sdwa:
        src_sel = [(sdw >> 16) & 7, (sdw >> 24) & 7]
        src_sext = [bool((sdw >> 19) & 1), bool((sdw >> 27) & 1)]
        dst_sel, dst_unused = (sdw >> 8) & 7, (sdw >> 11) & 3
    readers = []
    den_src = [flush_src(d.kernel.denorm16_64 if t in ("f16", "f64") else d.kernel.denorm32)
               and _float_t(t) for t in o.srcs]
    for i, (s, t) in enumerate(zip(srcs, o.srcs)):
        readers.append(_src_reader(d, s, t, nv, hi=bool(i < len(opsel) and opsel[i]),
                                   sel=src_sel[i] if (sdwa and i < 2) else 6,
                                   sext=src_sext[i] if i < 2 else False,
                                   flush_in=den_src[i]))
    if dpp:
        readers[0] = _dpp_reader(d, srcs[0], o.srcs[0], nv, readers[0])
    fn = o.fn
    clamp = bool(mods.get("clamp"))
    if sdwa and (sdw >> 13) & 1:
        clamp = True
    omod = 1.0
    if "mul" in mods:
        omod = float(mods["mul"])
    if "div" in mods:
        omod = 1.0 / float(mods["div"])
    if sdwa and (sdw >> 14) & 3:
        omod = {1: 2.0, 2: 4.0, 3: 0.5}[(sdw >> 14) & 3]
    if clamp and not _float_t(o.dst):
        if o.sat is None:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "integer clamp")
        fn = o.sat
        info = np.iinfo({"u32": U32, "i32": I32, "u16": np.uint16, "i16": np.int16}[o.dst])
        sat_fn = fn
        fn = lambda *a: np.clip(sat_fn(*a), info.min, info.max)  # noqa: E731
        clamp = False
    if omod != 1.0 and not _float_t(o.dst):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "omod on an integer result")
    dt = o.dst
    fdst = _float_t(dt) and flush_dst(d.kernel.denorm16_64 if dt in ("f16", "f64")
                                      else d.kernel.denorm32)
    ftype = {"f32": F32, "f64": F64, "f16": F16}.get(dt)
    rows = [row_of(dst, nv, k) for k in range(dst.n)]
    mask_src = None
    if o.form in ("cin", "cnd"):
        mask_src = _mask_reader(cin)
    elif o.form == "vccin":
        mask_src = lambda st, g: st.lanemask(VCC, g.ix)  # noqa: E731
    sdst_slot = sdst.idx if sdst is not None else None
    if sdst is not None and sdst.kind != "s":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "carry-out to a non-SGPR")
    has_carry = o.form in ("co", "cin")
    rmask = _dpp_write_mask(d) if dpp else None
    dst16 = dt in T16

    def compute(st, g):
        args = [r(st, g) for r in readers]
        if mask_src is not None:
            args.append(mask_src(st, g))
        res = fn(*args)
        carry = None
        if has_carry:
            res, carry = res
        if ftype is not None:
            if omod != 1.0:
                res = (np.asarray(res, ftype) * ftype(omod)).astype(ftype)
            if clamp:
                res = np.where(np.isnan(res), ftype(0), np.clip(res, 0, 1)).astype(ftype)
            if fdst:
                res = flush(np.asarray(res, ftype))
        return res, carry

    def run(st, g):
        res, carry = compute(st, g)
        bits = from_typed(res, dt)
        mask = st.EM[g.ix]
        if rmask is not None:
            mask = mask & rmask(st, g)
        if carry is not None:
            st.write_lanemask(sdst_slot, g, np.broadcast_to(carry, mask.shape) & mask
                              | (st.lanemask(sdst_slot, g.ix) & ~mask))
        if len(rows) == 2:
            b64 = np.asarray(bits, U64)
            st.vwrite_masked(rows[0], g, (b64 & U64(0xFFFFFFFF)).astype(U32), mask)
            st.vwrite_masked(rows[1], g, (b64 >> U64(32)).astype(U32), mask)
            return
        if sdwa:
            old = st.R[rows[0], g.ix]
            bits = _sdwa_place(np.asarray(bits, U32), old, dst_sel, dst_unused)
        elif dst16:
            if dst_hi:
                old = st.R[rows[0], g.ix]
                bits = (old & U32(0xFFFF)) | (np.asarray(bits, U32) << U32(16))
            # gfx9: 16-bit VALU results without op_sel zero the high half
        st.vwrite_masked(rows[0], g, bits, mask)

    return run


def _sdwa_place(bits, old, sel, unused):
    """SDWA destination: put the selected field; other bits zero (PAD), sign-extended (SEXT) or
    kept (PRESERVE) (CDNA3 ISA SDWA dst_unused)."""
    if sel == 6:
        return bits
    if sel <= 3:
        sh, w = 8 * sel, 8
    else:
        sh, w = 16 * (sel - 4), 16
    fmask = U32(((1 << w) - 1) << sh)
    field = (bits << U32(sh)) & fmask
    if unused == 2:
        return (old & ~fmask) | field
    if unused == 1:
        top = U32(0xFFFFFFFF) << U32(sh + w) if sh + w < 32 else U32(0)
        neg = ((bits >> U32(w - 1)) & U32(1)) != 0
        return field | np.where(neg, top, U32(0))
    return field


_SIGN_MOD_OK = {"v_cndmask_b32", "v_mov_b32"}


def _src_reader(d, s: Operand, t: str, nv: int, hi=False, sel=6, sext=False, flush_in=False):
    isf = _float_t(t)
    if t in T64:
        raw = vread64(s, nv, isf)
    else:
        raw = vread32(s, nv, 0, 16 if t in T16 else 32, isf)
    sign_bits = False
    if s.neg or s.abs:
        if t in ("u32", "b32") and d.base in _SIGN_MOD_OK:
            # VOP3 float modifiers on a bitwise select act on bit 31 (LLVM folds fneg/fabs
            # into v_cndmask_b32_e64 operands; CDNA3 ISA "input modifiers")
            sign_bits = True
        elif not isf:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     f"neg/abs on integer operand {s.text}")
    if s.sext and sel == 6:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "sext without SDWA select")
    neg, ab = s.neg, s.abs

    def rd(st, g):
        x = raw(st, g)
        if hi:
            x = x >> U32(16)
        if sel != 6:
            x = sdwa_extract(x, sel, sext)
        v = to_typed(x, t)
        if sign_bits:
            if ab:
                v = v & U32(0x7FFFFFFF)
            if neg:
                v = v ^ U32(0x80000000)
            return v
        if ab:
            v = np.abs(v)
        if neg:
            v = -v
        if flush_in:
            v = flush(v)
        return v

    return rd


def _mask_reader(op: Operand):
    if op.kind != "s":
        raise ValueError(f"lane-mask operand {op.text} must be an SGPR pair")
    r = op.idx
    return lambda st, g: st.lanemask(r, g.ix)


def _dpp_info(d):
    """(source lane [64], source-in-range [64], bound_ctrl, row&bank write mask [64]) from the
    DPP dword: dpp_ctrl[16:8], bound_ctrl[19], bank_mask[27:24], row_mask[31:28]."""
    w = d.inst.words[1]
    src_lane, valid = dpp_lanes((w >> 8) & 0x1FF)
    bound = bool((w >> 19) & 1)
    row_mask, bank_mask = (w >> 28) & 0xF, (w >> 24) & 0xF
    lane = np.arange(64)
    rb = (((row_mask >> (lane // 16)) & 1) & ((bank_mask >> ((lane % 16) // 4)) & 1)) == 1
    return src_lane, valid, bound, rb


def _dpp_invalid(st, g, src_lane, valid):
    """Lanes whose DPP source is out of range or disabled in EXEC (CDNA3/GCN3 ISA "DPP":
    such a source is 'invalid'; with BOUND_CTRL it reads 0, otherwise the lane does not
    write; LLVM GCNDPPCombine relies on the same rule)."""
    return ~valid[None, :] | ~st.EM[g.ix][:, src_lane]


def _dpp_reader(d, s: Operand, t: str, nv: int, base_reader):
    """DPP src0: each lane reads another lane's value."""
    src_lane, valid, bound, _rb = _dpp_info(d)
    if s.kind not in ("v", "a"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "DPP src0 must be a VGPR")
    r = row_of(s, nv)
    isf = _float_t(t)
    neg, ab = s.neg, s.abs
    wide = t in T64

    def rd(st, g):
        x = st.R[r, g.ix][:, src_lane]
        if wide:
            x = x.astype(U64) | (st.R[r + 1, g.ix][:, src_lane].astype(U64) << U64(32))
        if bound:
            x = np.where(_dpp_invalid(st, g, src_lane, valid), x.dtype.type(0), x)
        v = to_typed(x, t)
        if isf and ab:
            v = np.abs(v)
        if isf and neg:
            v = -v
        return v

    return rd


def _dpp_write_mask(d):
    """Lanes that write: row_mask/bank_mask and, without BOUND_CTRL, valid-source lanes."""
    src_lane, valid, bound, rb = _dpp_info(d)

    def m(st, g):
        if bound:
            return np.broadcast_to(rb, (g.w, 64))
        return rb[None, :] & ~_dpp_invalid(st, g, src_lane, valid)
    return m


# ---------------------------------------------------------------------------------------------
def _build_valu(d: Decoded):
    o = OPS.get(d.base)
    if o is None:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text)
    return build_generic(d, o)


for _n in OPS:
    semantic(_n, family="fam_valu")(_build_valu)


# ---------------------------------------------------------------------------------------------
def _build_cmp(d: Decoded):
    t, f, is_x = CMPS[d.base]
    nv = d.kernel.n_vgpr
    ops = list(d.ops)
    allowed = {"clamp"}
    if d.encoding == "sdwa":
        allowed |= {"src0_sel", "src1_sel"}
    if d.encoding == "dpp":
        # LLVM 19 neither selects, assembles ("dpp variant of this instruction is not
        # supported") nor disassembles VOPC DPP for gfx942 (objdump prints the words as
        # .long), so no listing can carry one; refuse if one ever appears.
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 "VOPC DPP (not a gfx942 encoding in LLVM 19)")
    for k in d.mods:
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k!r}")
    # e32: "v_cmp_* vcc, a, b"; e64: "v_cmp_* s[n:n+1], a, b"; cmpx e32 on gfx9 also writes vcc?
    # gfx9 V_CMPX writes EXEC and the SGPR destination (vcc for e32) (CDNA3 ISA VOPC).
    if len(ops) == 3:
        sd, a, b = ops
    elif len(ops) == 2 and is_x:
        sd, (a, b) = None, ops
    else:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    sdwa = d.encoding == "sdwa"
    sel = [6, 6]
    sx = [False, False]
    if sdwa:
        sw = d.inst.words[1]
        sel = [(sw >> 16) & 7, (sw >> 24) & 7]
        sx = [bool((sw >> 19) & 1), bool((sw >> 27) & 1)]
        if (sw >> 15) & 1:  # SD: explicit SGPR destination in bits 14:8
            pass
    fl = flush_src(d.kernel.denorm16_64 if t in ("f16", "f64") else d.kernel.denorm32)
    isf = t[0] == "f"
    ra = _src_reader(d, a, t, nv, sel=sel[0], sext=sx[0], flush_in=fl and isf)
    rb = _src_reader(d, b, "u32" if f is cls else t, nv, sel=sel[1], sext=sx[1])
    slot = sd.idx if sd is not None else None
    if sd is not None and sd.kind != "s":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "compare into a non-SGPR")

    def run(st, g):
        em = st.EM[g.ix]
        res = np.broadcast_to(f(ra(st, g), rb(st, g)), em.shape) & em
        if slot is not None:
            st.write_lanemask(slot, g, res)
        if is_x:
            st.write_lanemask(126, g, res)

    return run


for _n in CMPS:
    semantic(_n, family="fam_valu")(_build_cmp)


# ---------------------------------------------------------------------------------------------
# cross-lane scalar reads/writes
@semantic("v_readfirstlane_b32")
def _readfirstlane(d: Decoded):
    dst, src = d.ops
    if d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "modifiers")
    rd = vread32(src, d.kernel.n_vgpr)
    slot = dst.idx

    def run(st, g):
        x = np.broadcast_to(rd(st, g), (g.w, 64))
        em = st.EM[g.ix]
        first = np.where(em.any(-1), em.argmax(-1), 0)  # EXEC == 0: lane 0 (CDNA3 ISA)
        st.swrite(slot, g, x[np.arange(g.w), first])
    return run


@semantic("v_readlane_b32")
def _readlane(d: Decoded):
    from .operands import sread32
    dst, src, lane = d.ops
    rd = vread32(src, d.kernel.n_vgpr)
    rl = sread32(lane)
    slot = dst.idx

    def run(st, g):
        x = np.broadcast_to(rd(st, g), (g.w, 64))
        ln = np.broadcast_to(rl(st, g) & U32(63), (g.w,)).astype(np.int64)
        st.swrite(slot, g, x[np.arange(g.w), ln])
    return run


@semantic("v_writelane_b32")
def _writelane(d: Decoded):
    from .operands import sread32
    dst, src, lane = d.ops
    rs = sread32(src)
    rl = sread32(lane)
    r = row_of(dst, d.kernel.n_vgpr)

    def run(st, g):
        v = np.broadcast_to(rs(st, g), (g.w,))
        ln = np.broadcast_to(rl(st, g) & U32(63), (g.w,)).astype(np.int64)
        m = np.zeros((g.w, 64), bool)
        m[np.arange(g.w), ln] = True  # ignores EXEC (CDNA3 ISA V_WRITELANE_B32)
        st.vwrite_masked(r, g, v[:, None], m)
    return run


@semantic("v_swap_b32")
def _swap(d: Decoded):
    a, b = d.ops
    nv = d.kernel.n_vgpr
    ra, rb = row_of(a, nv), row_of(b, nv)

    def run(st, g):
        x = st.R[ra, g.ix].copy()
        y = st.R[rb, g.ix].copy()
        st.vwrite(ra, g, y)
        st.vwrite(rb, g, x)
    return run


@semantic("v_nop")
def _vnop(d: Decoded):
    return lambda st, g: None
