"""VALU conversion rows: float <-> int (saturating, NaN -> 0), f16/f32/f64 widths,
ubyte -> f32, packs (v_cvt_pkrtz_f16_f32 rounds toward zero, v_cvt_pk_u16_u32,
v_pack_b32_f16, gfx950's v_cvt_pk_bf16_f32 and v_cvt_pk_f16_f32).

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...numerics.floats import f32_to_bf16_bits, f32_to_f16_bits, flush_dst
from ...numerics.vfloat import as_f64
from .table import Op, build_generic, table

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32
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


def _norm16(x, lo: float, scale: float):
    """One f32 -> snorm16 / unorm16 bit pattern (uint32 low half): clamp to [lo, 1], scale,
    round to nearest even; NaN -> 0."""
    x = np.asarray(x, F64)
    q = np.rint(np.clip(np.where(np.isnan(x), 0.0, x), lo, 1.0) * scale)
    return (q.astype(np.int64) & 0xFFFF).astype(U32)


op = table("valu.vcvt")
op("v_cvt_f32_u32", "f32", "u32", lambda a: a.astype(F32))
op("v_cvt_f32_i32", "f32", "i32", lambda a: a.astype(F32))
op("v_cvt_u32_f32", "u32", "f32", lambda a: cvt_f2i(a, 0, 4294967295, U32))
op("v_cvt_i32_f32", "i32", "f32", lambda a: cvt_f2i(a, -2147483648, 2147483647, I32))
op("v_cvt_flr_i32_f32", "i32", "f32",
   lambda a: cvt_f2i(np.floor(a), -2147483648, 2147483647, I32))
op("v_cvt_rpi_i32_f32", "i32", "f32",
   lambda a: cvt_f2i(np.floor(as_f64(a) + 0.5), -2147483648, 2147483647, I32))
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
# normalised packs (__builtin_amdgcn_cvt_pknorm_i16/u16): each f32 clamped to [-1, 1] / [0, 1],
# scaled by 32767 / 65535 and rounded to nearest even, NaN -> 0; S0 in the low half (CDNA3 ISA
# V_CVT_PKNORM_I16_F32 "D = {(snorm)S1.f, (snorm)S0.f}", RDNA3 ISA pseudo-code f32_to_snorm /
# f32_to_unorm; GFX11 spells them v_cvt_pk_norm_*)
op("v_cvt_pknorm_i16_f32", "u32", "f32 f32",
   lambda a, b: (_norm16(a, -1.0, 32767.0) | (_norm16(b, -1.0, 32767.0) << U32(16))))
op("v_cvt_pknorm_u16_f32", "u32", "f32 f32",
   lambda a, b: (_norm16(a, 0.0, 65535.0) | (_norm16(b, 0.0, 65535.0) << U32(16))))
op("v_cvt_pk_u16_u32", "u32", "u32 u32",
   lambda a, b: (a & U32(0xFFFF)) | ((b & U32(0xFFFF)) << U32(16)))
op("v_pack_b32_f16", "u32", "b16 b16",
   lambda a, b: a.astype(U32) | (b.astype(U32) << U32(16)))
op("v_cvt_f16_u16", "f16", "u16", lambda a: a.astype(F16))
op("v_cvt_f16_i16", "f16", "i16", lambda a: a.astype(F16))
op("v_cvt_u16_f16", "u16", "f16", lambda a: cvt_f2i(a, 0, 65535, np.uint16))
op("v_cvt_i16_f16", "i16", "f16", lambda a: cvt_f2i(a, -32768, 32767, np.int16))
# gfx950: two f32 -> bf16 with round-to-nearest-even, S0 in the low half (LLVM
# VOP3Instructions.td V_CVT_PK_BF16_F32, selected for fptrunc v2f32 -> v2bf16 with
# HasBF16ConversionInsts; NaN stays a quiet NaN like the gfx942 software lowering)
op("v_cvt_pk_bf16_f32", "u32", "f32 f32",
   lambda a, b: f32_to_bf16_bits(a) | (f32_to_bf16_bits(b) << U32(16)))


@semantic("v_cvt_pk_f16_f32", family="valu.vcvt")
def _build_cvt_pk_f16(d: Decoded):
    """gfx950 V_CVT_PK_F16_F32 (LLVM VOP3Instructions.td, selected for fptrunc v2f32 -> v2f16
    with HasCvtPkF16F32Inst): D = {f16(S1), f16(S0)}, round to nearest even. Its packed f16
    results bypass the generic f16 flush, so a kernel whose FP16 mode flushes denormal
    results is refused rather than guessed."""
    if flush_dst(d.kernel.denorm16_64):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 "f16 output flushing (FLOAT_DENORM_MODE_16_64) with a packed "
                                 "result is not modelled")
    return build_generic(d, Op("u32", ("f32", "f32"), lambda a, b: (
        f32_to_f16_bits(a) | (f32_to_f16_bits(b) << U32(16))).astype(U32)))
