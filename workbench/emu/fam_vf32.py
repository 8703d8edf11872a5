"""VALU f32 arithmetic rows: add/sub/mul, min/max/med3, fma/mad (fused and
unfused, with the FMAMK/FMAAK literal forms), ldexp, fract, rounding, frexp, and gfx950's
NaN-propagating v_maximum3_f32/v_minimum3_f32.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from .valu import table
from .vfloat import (
    fma32,
    fract,
    frexp_exp,
    frexp_mant,
    mad32,
    max3,
    maximum,
    maximum3,
    maxnum,
    med3,
    min3,
    minimum,
    minimum3,
    minnum,
)

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32


op = table("fam_vf32")
op("v_add_f32", "f32", "f32 f32", lambda a, b: a + b)
op("v_sub_f32", "f32", "f32 f32", lambda a, b: a - b)
op("v_subrev_f32", "f32", "f32 f32", lambda a, b: b - a)
op("v_mul_f32", "f32", "f32 f32", lambda a, b: a * b)
op("v_mul_legacy_f32", "f32", "f32 f32", lambda a, b: np.where((a == 0) | (b == 0), F32(0), a * b))
op("v_max_f32", "f32", "f32 f32", maxnum)  # IEEE maxNum: a NaN operand yields the other
op("v_min_f32", "f32", "f32 f32", minnum)
op("v_max3_f32", "f32", "f32 f32 f32", max3)
op("v_min3_f32", "f32", "f32 f32 f32", min3)
op("v_med3_f32", "f32", "f32 f32 f32", med3)
# GFX11+ (RDNA3 ISA V_MAXMIN_F32 "maximum of the first two operands, then the minimum of that
# and the third"; V_MINMAX_F32 the other way round), IEEE maxNum/minNum as v_max/v_min
op("v_maxmin_f32", "f32", "f32 f32 f32", lambda a, b, c: minnum(maxnum(a, b), c))
op("v_minmax_f32", "f32", "f32 f32 f32", lambda a, b, c: maxnum(minnum(a, b), c))
op("v_maximum3_f32", "f32", "f32 f32 f32", maximum3)  # gfx950, IEEE 754-2019 maximum
op("v_minimum3_f32", "f32", "f32 f32 f32", minimum3)
# GFX12 V_MINIMUM_F32 / V_MAXIMUM_F32 (RDNA4 ISA: IEEE minimum()/maximum(), NaN-propagating)
op("v_minimum_f32", "f32", "f32 f32", minimum)
op("v_maximum_f32", "f32", "f32 f32", maximum)
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
op("v_trunc_f32", "f32", "f32", np.trunc)
op("v_ceil_f32", "f32", "f32", np.ceil)
op("v_floor_f32", "f32", "f32", np.floor)
op("v_rndne_f32", "f32", "f32", np.rint)
op("v_frexp_mant_f32", "f32", "f32", frexp_mant)
op("v_frexp_exp_i32_f32", "i32", "f32", frexp_exp)
