"""VALU f32 arithmetic rows: add/sub/mul, min/max/med3, fma/mad (fused and
unfused, with the FMAMK/FMAAK literal forms), ldexp, fract, rounding, frexp, and gfx950's
NaN-propagating v_maximum3_f32/v_minimum3_f32.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...numerics.vfloat import (
    fma32,
    fract,
    frexp_exp,
    frexp_mant,
    mad32,
    max3,
    max3_g12,
    max3_ieee,
    maximum,
    maximum3,
    maxmin_g12,
    maxmin_ieee,
    maxnum,
    maxnum_g12,
    maxnum_ieee,
    med3,
    min3,
    min3_g12,
    min3_ieee,
    minimum,
    minimum3,
    minmax_g12,
    minmax_ieee,
    minnum,
    minnum_g12,
    minnum_ieee,
)
from .table import table

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32


def _cube_axes(x, y, z):
    """(z is the major axis, y is) per lane: the cube-map face choice of RDNA3 ISA V_CUBEID_F32
    (z wins ties with x and y, then y wins a tie with x)."""
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    zm = (az >= ax) & (az >= ay)
    return zm, ~zm & (ay >= ax)


def cubeid(x, y, z):
    """V_CUBEID_F32: the face 0..5 (+x, -x, +y, -y, +z, -z) a direction points at."""
    zm, ym = _cube_axes(x, y, z)
    return np.where(zm, np.where(z < 0, 5, 4), np.where(ym, np.where(y < 0, 3, 2),
                                                        np.where(x < 0, 1, 0))).astype(F32)


def cubema(x, y, z):
    """V_CUBEMA_F32: 2 * the major-axis component (signed)."""
    zm, ym = _cube_axes(x, y, z)
    return (F32(2) * np.where(zm, z, np.where(ym, y, x))).astype(F32)


def cubesc(x, y, z):
    """V_CUBESC_F32: the face's s coordinate (z face: +-x; y face: x; x face: -+z)."""
    zm, ym = _cube_axes(x, y, z)
    return np.where(zm, np.where(z < 0, -x, x),
                    np.where(ym, x, np.where(x < 0, z, -z))).astype(F32)


def cubetc(x, y, z):
    """V_CUBETC_F32: the face's t coordinate (z and x faces: -y; y face: +-z)."""
    zm, ym = _cube_axes(x, y, z)
    return np.where(ym, np.where(y < 0, -z, z), -y).astype(F32)


op = table("valu.vf32")
op("v_add_f32", "f32", "f32 f32", lambda a, b: a + b)
op("v_sub_f32", "f32", "f32 f32", lambda a, b: a - b)
op("v_subrev_f32", "f32", "f32 f32", lambda a, b: b - a)
op("v_mul_f32", "f32", "f32 f32", lambda a, b: a * b)
op("v_mul_legacy_f32", "f32", "f32 f32", lambda a, b: np.where((a == 0) | (b == 0), F32(0), a * b))
# a NaN operand yields the other; MODE.IEEE quiets and returns a signalling one (``ieee=``);
# GFX12's v_*_num_f32 (rdna.py aliases) quiet a NaN pair (``g12=``): vfloat.minnum_ieee / _g12
op("v_max_f32", "f32", "f32 f32", maxnum, ieee=maxnum_ieee, g12=maxnum_g12)
op("v_min_f32", "f32", "f32 f32", minnum, ieee=minnum_ieee, g12=minnum_g12)
op("v_max3_f32", "f32", "f32 f32 f32", max3, ieee=max3_ieee, g12=max3_g12)
op("v_min3_f32", "f32", "f32 f32 f32", min3, ieee=min3_ieee, g12=min3_g12)
op("v_med3_f32", "f32", "f32 f32 f32", med3)
# GFX11+ (RDNA3 ISA V_MAXMIN_F32 "maximum of the first two operands, then the minimum of that
# and the third"; V_MINMAX_F32 the other way round), IEEE maxNum/minNum as v_max/v_min
op("v_maxmin_f32", "f32", "f32 f32 f32", lambda a, b, c: minnum(maxnum(a, b), c),
   ieee=maxmin_ieee, g12=maxmin_g12)
op("v_minmax_f32", "f32", "f32 f32 f32", lambda a, b, c: maxnum(minnum(a, b), c),
   ieee=minmax_ieee, g12=minmax_g12)
op("v_maximum3_f32", "f32", "f32 f32 f32", maximum3)  # gfx950, IEEE 754-2019 maximum
op("v_minimum3_f32", "f32", "f32 f32 f32", minimum3)
# GFX12 V_MINIMUM_F32 / V_MAXIMUM_F32 (RDNA4 ISA: IEEE minimum()/maximum(), NaN-propagating)
op("v_minimum_f32", "f32", "f32 f32", minimum)
op("v_maximum_f32", "f32", "f32 f32", maximum)
# GFX12 only (llvm-mc accepts them for gfx1201/gfx1250, not gfx950/gfx11): the IEEE 754-2019
# forms of v_maxmin/v_minmax, named like them inner operation first (RDNA4 ISA
# V_MAXIMUMMINIMUM_F32 = minimum(maximum(S0, S1), S2); LLVM 22 selects
# v_maximumminimum_f32 a, b, c for fminimum(fmaximum(a, b), c) on gfx1201)
op("v_maximumminimum_f32", "f32", "f32 f32 f32", lambda a, b, c: minimum(maximum(a, b), c))
op("v_minimummaximum_f32", "f32", "f32 f32 f32", lambda a, b, c: maximum(minimum(a, b), c))
op("v_fma_f32", "f32", "f32 f32 f32", fma32)
op("v_fmac_f32", "f32", "f32 f32 f32", fma32, "acc")
op("v_mad_f32", "f32", "f32 f32 f32", mad32)
op("v_mac_f32", "f32", "f32 f32 f32", mad32, "acc")
# VOP2 with an inline literal K (operand order as printed: dst, src0, K, src1 / dst, src0,
# src1, K): FMAMK D = S0 * K + S1, FMAAK D = S0 * S1 + K (CDNA3 ISA V_FMAMK_F32)
op("v_fmamk_f32 v_fmaak_f32", "f32", "f32 f32 f32", fma32)
op("v_madmk_f32 v_madak_f32", "f32", "f32 f32 f32", mad32)
op("v_ldexp_f32", "f32", "f32 i32", lambda a, e: np.ldexp(a, np.clip(e, -1000, 1000)).astype(F32))
op("v_fract_f32", "f32", "f32", lambda a: fract(a, F32))
# cube-map face selection (__builtin_amdgcn_cubeid/ma/sc/tc; RDNA3 ISA V_CUBEID_F32,
# V_CUBEMA_F32, V_CUBESC_F32, V_CUBETC_F32 pseudo-code, the same table on CDNA3)
op("v_cubeid_f32", "f32", "f32 f32 f32", cubeid)
op("v_cubema_f32", "f32", "f32 f32 f32", cubema)
op("v_cubesc_f32", "f32", "f32 f32 f32", cubesc)
op("v_cubetc_f32", "f32", "f32 f32 f32", cubetc)
op("v_trunc_f32", "f32", "f32", np.trunc)
op("v_ceil_f32", "f32", "f32", np.ceil)
op("v_floor_f32", "f32", "f32", np.floor)
op("v_rndne_f32", "f32", "f32", np.rint)
op("v_frexp_mant_f32", "f32", "f32", frexp_mant)
op("v_frexp_exp_i32_f32", "i32", "f32", frexp_exp)
