"""VALU division-step rows: v_div_scale, v_div_fmas, v_div_fixup (the pieces of
LLVM's IEEE f32/f64 division sequence; CDNA3 ISA pseudocode cited per helper).

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...numerics.vfloat import as_f64, fma64, sum_odd
from .table import table

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32
U64 = np.uint64


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
        exact = sum_odd(as_f64(a) * as_f64(b), as_f64(c))
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


op = table("valu.vdiv")
op("v_div_scale_f32", "f32", "f32 f32 f32",
   lambda a, b, c: div_scale(a, b, c, F32), "co")
op("v_div_scale_f64", "f64", "f64 f64 f64",
   lambda a, b, c: div_scale(a, b, c, F64), "co")
op("v_div_fmas_f32", "f32", "f32 f32 f32", lambda a, b, c, v: div_fmas(a, b, c, v, F32), "vccin")
op("v_div_fmas_f64", "f64", "f64 f64 f64", lambda a, b, c, v: div_fmas(a, b, c, v, F64), "vccin")
op("v_div_fixup_f32", "f32", "f32 f32 f32", lambda a, b, c: div_fixup(a, b, c, F32))
op("v_div_fixup_f64", "f64", "f64 f64 f64", lambda a, b, c: div_fixup(a, b, c, F64))
op("v_div_fixup_f16", "f16", "f16 f16 f16", lambda a, b, c: div_fixup(a, b, c, F16))
