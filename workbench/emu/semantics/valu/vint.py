"""VALU integer, bitwise and move rows: v_mov/v_accvgpr moves, add/sub (with carry and
saturation), shifts, bitfields, permutes, min/max/med3, 24/32/64-bit multiplies, mbcnt, and
gfx950's three-input truth-table op v_bitop3_{b32,b16}.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...decoder.common import LANE
from ...decoder.registry import Decoded, semantic
from .table import Op, build_generic, table

U32, I32, U64, I64 = np.uint32, np.int32, np.uint64, np.int64


def imed3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


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
    """V_BFE_I32: (S0.i32 >> S1[4:0]) & ((1 << S2[4:0]) - 1), sign-extended from bit S2 - 1
    (CDNA3 / RDNA3 ISA V_BFE_I32 pseudo-code): the shift is arithmetic, so a field running
    past bit 31 takes S0's sign (LLVM's constantFoldBFE folds that case to `Src0 >> Offset`)."""
    off = (np.asarray(off, U32) & U32(31)).astype(np.int64)
    w = (np.asarray(w, U32) & U32(31)).astype(np.int64)
    sx = np.asarray(x, U32).view(np.int32).astype(np.int64)
    v = (sx >> off) & ((np.int64(1) << w) - 1)
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


def _sad(a, b, w: int):
    """Sum over the w-bit fields of |a - b| (uint32 arrays), as uint32."""
    a, b = _u64(a), _u64(b)
    m = U64((1 << w) - 1)
    s = np.zeros(np.broadcast(a, b).shape, U64)
    for k in range(0, 32, w):
        x, y = (a >> U64(k)) & m, (b >> U64(k)) & m
        s = s + np.where(x > y, x - y, y - x)
    return (s & U64(0xFFFFFFFF)).astype(U32)


def _mask(n):
    return U32((1 << n) - 1)


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


def _msad(a, b):
    """V_MSAD_U8's byte sum: |a - b| over the bytes whose b (reference) byte is nonzero."""
    a, b = _u64(a), _u64(b)
    s = np.zeros(np.broadcast(a, b).shape, U64)
    for k in range(0, 32, 8):
        x, y = (a >> U64(k)) & U64(0xFF), (b >> U64(k)) & U64(0xFF)
        s = s + np.where(y == 0, U64(0), np.where(x > y, x - y, y - x))
    return s.astype(U32)


def _lerp(a, b, c):
    """V_LERP_U8: the four byte averages (a + b + round bit) >> 1."""
    a, b, c = _u64(a), _u64(b), _u64(c)
    out = np.zeros(np.broadcast(a, b, c).shape, U64)
    for k in range(0, 32, 8):
        x, y = (a >> U64(k)) & U64(0xFF), (b >> U64(k)) & U64(0xFF)
        out = out | (((x + y + ((c >> U64(k)) & U64(1))) >> U64(1)) << U64(k))
    return out.astype(U32)


def _ashr_pk(a, b, c, lo: int, hi: int):
    """V_ASHR_PK_*8_I32: the two saturated shifted bytes as one 16-bit value."""
    sh = (np.asarray(c, U32) & U32(31)).astype(np.int64)
    x = np.clip(np.asarray(a, np.int32).astype(np.int64) >> sh, lo, hi) & 0xFF
    y = np.clip(np.asarray(b, np.int32).astype(np.int64) >> sh, lo, hi) & 0xFF
    return (x | (y << 8)).astype(np.uint16)


S5 = U32(31)


op = table("valu.vint")
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
# 16-bit moves, selects and logic: GFX11+ true16 code (v0.l / v0.h operands) uses these where
# gfx9 code moves whole VGPRs (RDNA3 ISA V_MOV_B16, V_CNDMASK_B16, V_AND_B16 ...: the 32-bit
# operations on the low 16 bits); v_mad_u16/i16: D.u16 = S0 * S1 + S2 (CDNA3 ISA V_MAD_U16)
op("v_mov_b16", "u16", "u16", lambda a: a)
op("v_not_b16", "u16", "u16", lambda a: ~a)
op("v_cndmask_b16", "u16", "u16 u16", lambda a, b, m: np.where(m, b, a), "cnd")
op("v_and_b16", "u16", "u16 u16", lambda a, b: a & b)
op("v_or_b16", "u16", "u16 u16", lambda a, b: a | b)
op("v_xor_b16", "u16", "u16 u16", lambda a, b: a ^ b)
op("v_mad_u16", "u16", "u16 u16 u16", lambda a, b, c: a * b + c,
   sat=lambda a, b, c: _i64(a) * _i64(b) + _i64(c))
op("v_mad_i16", "i16", "i16 i16 i16", lambda a, b, c: a * b + c,
   sat=lambda a, b, c: _i64(a) * _i64(b) + _i64(c))
# gfx9's VI-encoded forms (LLVM emits v_mad_legacy_u16 for 16-bit index math in Wave's conv):
# the same product and sum; op_sel[3] = 0 zeroes bits 31:16, op_sel[3] = 1 writes them and keeps
# 15:0 (CDNA4 ISA §12.11 V_MAD_LEGACY_U16 / V_MAD_LEGACY_I16: "D0 = { 16'0, tmp.u16 }"), which is
# build_generic's 16-bit write
op("v_mad_legacy_u16", "u16", "u16 u16 u16", lambda a, b, c: a * b + c,
   sat=lambda a, b, c: _i64(a) * _i64(b) + _i64(c))
op("v_mad_legacy_i16", "i16", "i16 i16 i16", lambda a, b, c: a * b + c,
   sat=lambda a, b, c: _i64(a) * _i64(b) + _i64(c))
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
op("v_xor3_b32", "u32", "u32 u32 u32", lambda a, b, c: a ^ b ^ c)  # GFX10+ (RDNA3 ISA V_XOR3_B32)
# sums of absolute differences (CDNA3 ISA V_SAD_U32 "ABSDIFF(S0, S1) + S2", V_SAD_U16 and
# V_SAD_U8 over the 2 / 4 packed elements, V_SAD_HI_U8 the byte sum shifted left by 16); the
# sum wraps, or saturates with clamp
op("v_sad_u32", "u32", "u32 u32 u32", lambda a, b, c: _sad(a, b, 32) + c,
   sat=lambda a, b, c: _i64(_sad(a, b, 32)) + _i64(c))
op("v_sad_u16", "u32", "u32 u32 u32", lambda a, b, c: _sad(a, b, 16) + c,
   sat=lambda a, b, c: _i64(_sad(a, b, 16)) + _i64(c))
op("v_sad_u8", "u32", "u32 u32 u32", lambda a, b, c: _sad(a, b, 8) + c,
   sat=lambda a, b, c: _i64(_sad(a, b, 8)) + _i64(c))
op("v_sad_hi_u8", "u32", "u32 u32 u32", lambda a, b, c: (_sad(a, b, 8) << U32(16)) + c,
   sat=lambda a, b, c: (_i64(_sad(a, b, 8)) << 16) + _i64(c))
# masked SAD (__builtin_amdgcn_msad_u8): bytes where the reference S1 is 0 add nothing
# (RDNA3 ISA V_MSAD_U8: "tmp += S1.u32[7:0] == 8'0U ? 0U : ABSDIFF(S0[7:0], S1[7:0])" per byte)
op("v_msad_u8", "u32", "u32 u32 u32", lambda a, b, c: _msad(a, b) + c,
   sat=lambda a, b, c: _i64(_msad(a, b)) + _i64(c))
# per-byte rounded average (__builtin_amdgcn_lerp): byte k = (S0[k] + S1[k] + S2[8k]) >> 1, the
# rounding bit being bit 0 of S2's byte k (RDNA3 ISA V_LERP_U8 pseudo-code)
op("v_lerp_u8", "u32", "u32 u32 u32", lambda a, b, c: _lerp(a, b, c))
# gfx950 (__builtin_amdgcn_ashr_pk_i8_i32 / _u8_i32): both i32 sources shifted right
# arithmetically by S2[4:0], saturated to i8 / u8 and packed, S0 in the low byte (CDNA4 ISA
# V_ASHR_PK_I8_I32: a 16-bit result {SAT8(S1 >> S2), SAT8(S0 >> S2)})
op("v_ashr_pk_i8_i32", "u16", "i32 i32 u32", lambda a, b, c: _ashr_pk(a, b, c, -128, 127))
op("v_ashr_pk_u8_i32", "u16", "i32 i32 u32", lambda a, b, c: _ashr_pk(a, b, c, 0, 255))
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
# the shift amount (S2[4:0] / S2[1:0]) is read as a 16-bit operand: GFX11+ true16 code passes
# it as a register half (`v_alignbyte_b32 v1, v2, v3, v1.l`; LLVM VOP3Instructions.td gives
# V_ALIGNBIT/ALIGNBYTE_B32 a t16 src2 on GFX11+); only its low bits count on every arch
op("v_alignbit_b32", "u32", "u32 u32 u16",
   lambda a, b, c: (((_u64(a) << U64(32)) | _u64(b)) >> _u64(c & 31)).astype(U32))
op("v_alignbyte_b32", "u32", "u32 u32 u16",
   lambda a, b, c: (((_u64(a) << U64(32)) | _u64(b)) >> (U64(8) * _u64(c & 3))
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
# GFX11+ fused clamps (RDNA3 ISA V_MAXMIN_I32: "D0.i32 = v_min_i32(v_max_i32(S0.i32, S1.i32),
# S2.i32)", V_MINMAX_*: the max of the min); LLVM selects them for min(max(x, lo), hi)
op("v_maxmin_i32", "i32", "i32 i32 i32", lambda a, b, c: np.minimum(np.maximum(a, b), c))
op("v_minmax_i32", "i32", "i32 i32 i32", lambda a, b, c: np.maximum(np.minimum(a, b), c))
op("v_maxmin_u32", "u32", "u32 u32 u32", lambda a, b, c: np.minimum(np.maximum(a, b), c))
op("v_minmax_u32", "u32", "u32 u32 u32", lambda a, b, c: np.maximum(np.minimum(a, b), c))
op("v_med3_i32", "i32", "i32 i32 i32", imed3)
op("v_med3_i16", "i16", "i16 i16 i16", imed3)  # CDNA3 ISA V_MED3_I16 / V_MED3_U16
op("v_med3_u16", "u16", "u16 u16 u16", imed3)
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
# gfx950 LFSR step (CDNA4 ISA V_PRNG_B32: D = (S0 << 1) ^ (S0[31] ? 197 : 0))
op("v_prng_b32", "u32", "u32",
   lambda a: (a << U32(1)) ^ np.where((a >> U32(31)) != 0, U32(197), U32(0)).astype(U32))


def bitop3(a, b, c, ttbl: int):
    """V_BITOP3 (gfx950): result bit = bit (s0 << 2 | s1 << 1 | s2) of the 8-bit truth table,
    i.e. 0xf0 selects S0, 0xcc S1, 0xaa S2 (LLVM AMDGPUISelDAGToDAG BitOp3_Op, "Define truth
    table given Src0, Src1, Src2 bits permutations": SrcBits = {0xf0, 0xcc, 0xaa})."""
    out = np.zeros(np.broadcast(a, b, c).shape, np.result_type(a, b, c))
    for i in range(8):
        if (ttbl >> i) & 1:
            out |= (a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
    return out


@semantic("v_bitop3_b32", "v_bitop3_b16", family="valu.vint")
def _build_bitop3(d: Decoded):
    """The truth table is the ``bitop3:`` modifier (absent = 0); the rest is a VOP3 row."""
    ttbl = int(d.mods.get("bitop3", 0)) & 0xFF
    t = "u32" if d.base.endswith("_b32") else "u16"
    mods = {k: v for k, v in d.mods.items() if k != "bitop3"}
    return build_generic(replace(d, mods=mods),
                         Op(t, (t, t, t), lambda a, b, c: bitop3(a, b, c, ttbl)))
