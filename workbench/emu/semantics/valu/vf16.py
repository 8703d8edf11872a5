"""VALU f16 arithmetic rows: add/sub/mul, min/max/med3, fma/mad, ldexp, rounding,
fract. numpy f16 arithmetic rounds once from f32, which is exact for + - * of f16 inputs.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...numerics.vfloat import (
    fma16,
    fract,
    mad16,
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


op = table("valu.vf16")
op("v_add_f16", "f16", "f16 f16", lambda a, b: a + b)
op("v_sub_f16", "f16", "f16 f16", lambda a, b: a - b)
op("v_subrev_f16", "f16", "f16 f16", lambda a, b: b - a)
op("v_mul_f16", "f16", "f16 f16", lambda a, b: a * b)
# CDNA4 ISA V_MAX_F16: +0 > -0; MODE.IEEE / GFX12 NaN variants as the f32 rows (valu.vf32)
op("v_max_f16", "f16", "f16 f16", maxnum, ieee=maxnum_ieee, g12=maxnum_g12)
op("v_min_f16", "f16", "f16 f16", minnum, ieee=minnum_ieee, g12=minnum_g12)
op("v_fma_f16", "f16", "f16 f16 f16", fma16)
op("v_fmac_f16", "f16", "f16 f16 f16", fma16, "acc")
op("v_mad_f16", "f16", "f16 f16 f16", mad16)
op("v_mac_f16", "f16", "f16 f16 f16", mad16, "acc")
op("v_max3_f16", "f16", "f16 f16 f16", max3, ieee=max3_ieee, g12=max3_g12)
op("v_min3_f16", "f16", "f16 f16 f16", min3, ieee=min3_ieee, g12=min3_g12)
op("v_med3_f16", "f16", "f16 f16 f16", med3)
op("v_maxmin_f16", "f16", "f16 f16 f16", lambda a, b, c: minnum(maxnum(a, b), c),  # RDNA3
   ieee=maxmin_ieee, g12=maxmin_g12)
op("v_minmax_f16", "f16", "f16 f16 f16", lambda a, b, c: maxnum(minnum(a, b), c),
   ieee=minmax_ieee, g12=minmax_g12)
# GFX12 V_MINIMUM_F16 / V_MAXIMUM_F16 and the 3-input forms (RDNA4 ISA: IEEE minimum()/maximum(),
# "A signaling NaN in either argument is propagated"; V_PK_MINIMUM3_F16 is v_minimum3_f16 per half)
op("v_minimum_f16", "f16", "f16 f16", minimum)
op("v_maximum_f16", "f16", "f16 f16", maximum)
op("v_minimum3_f16", "f16", "f16 f16 f16", minimum3)
op("v_maximum3_f16", "f16", "f16 f16 f16", maximum3)
# GFX12 V_MAXIMUMMINIMUM_F16 / V_MINIMUMMAXIMUM_F16: as the f32 forms (valu.vf32), per f16
op("v_maximumminimum_f16", "f16", "f16 f16 f16", lambda a, b, c: minimum(maximum(a, b), c))
op("v_minimummaximum_f16", "f16", "f16 f16 f16", lambda a, b, c: maximum(minimum(a, b), c))
op("v_ldexp_f16", "f16", "f16 i16", lambda a, e: np.ldexp(a.astype(F32), e).astype(F16))
op("v_trunc_f16", "f16", "f16", np.trunc)
op("v_ceil_f16", "f16", "f16", np.ceil)
op("v_floor_f16", "f16", "f16", np.floor)
op("v_rndne_f16", "f16", "f16", np.rint)
op("v_fract_f16", "f16", "f16", lambda a: fract(a, F16))
