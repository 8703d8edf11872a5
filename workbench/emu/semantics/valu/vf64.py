"""VALU f64 arithmetic rows: add/mul, fma, min/max, ldexp, fract, rounding, frexp.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...numerics.vfloat import (
    fma64,
    fract,
    frexp_exp,
    frexp_mant,
    maximum,
    maxnum,
    maxnum_g12,
    maxnum_ieee,
    minimum,
    minnum,
    minnum_g12,
    minnum_ieee,
)
from .table import table

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32


op = table("valu.vf64")
op("v_add_f64", "f64", "f64 f64", lambda a, b: a + b)
op("v_mul_f64", "f64", "f64 f64", lambda a, b: a * b)
op("v_fma_f64", "f64", "f64 f64 f64", fma64)
op("v_fmac_f64", "f64", "f64 f64 f64", fma64, "acc")  # gfx90a+ VOP2 (LLVM VOP2Instructions.td)
# V_MAX_F64 / V_MIN_F64 (RDNA3.5 ISA section 16.12, opcodes 810/809; CDNA3 ISA VOP3A): the
# V_MAX_F32 pseudocode on .f64 -- a quiet NaN operand gives the other, "+0 > -0 is TRUE in this
# comparison" (GT_NEG_ZERO / LT_NEG_ZERO); numpy's fmax/fmin alone return either zero.
op("v_max_f64", "f64", "f64 f64", maxnum, ieee=maxnum_ieee, g12=maxnum_g12)
op("v_min_f64", "f64", "f64 f64", minnum, ieee=minnum_ieee, g12=minnum_g12)
op("v_minimum_f64", "f64", "f64 f64", minimum)  # GFX12 (RDNA4 ISA): IEEE minimum(), NaN wins
op("v_maximum_f64", "f64", "f64 f64", maximum)
op("v_ldexp_f64", "f64", "f64 i32", lambda a, e: np.ldexp(a, np.clip(e, -3000, 3000)))
op("v_fract_f64", "f64", "f64", lambda a: fract(a, F64))
op("v_trunc_f64", "f64", "f64", np.trunc)
op("v_ceil_f64", "f64", "f64", np.ceil)
op("v_floor_f64", "f64", "f64", np.floor)
op("v_rndne_f64", "f64", "f64", np.rint)
op("v_frexp_mant_f64", "f64", "f64", frexp_mant)
op("v_frexp_exp_i32_f64", "i32", "f64", frexp_exp)


# ---- v_trig_preop_f64: a 53-bit segment of 2/pi for Payne-Hanek range reduction (ocml's
# double sin/cos/tan of large arguments). Semantics as LLVM's constant folder implements them
# (AMDGPUInstCombineIntrinsic.cpp, case Intrinsic::amdgcn_trig_preop), since the ISA guides'
# pseudocode for this opcode is known to be wrong (tinygrad's AMD emulator patches it,
# test/mockgpu/amd/emu.py ``_pcode_fixes``: "the AMD-pdf pcode for these ops is subtly wrong"):
# shift = 53 * S1[4:0], plus (exponent(S0) - 1077) when the biased exponent exceeds 1077; the
# result is the 53 bits of 2/pi that start `shift` bits after the binary point, as an integer,
# times 2^(-53 - shift) (2^(75 - shift) when the exponent is >= 1968, keeping products of
# huge arguments in range); NaN stays NaN. LLVM holds 2/pi as 37 32-bit words and returns 0
# ("outbound segment (hardware behavior)") when word shift/32 + 2 is past them: shift >= 1120.
def _two_over_pi_bits(nbits: int) -> int:
    """floor(2/pi * 2^nbits), from Machin's formula in exact integer arithmetic."""
    guard = nbits + 64
    one = 1 << guard

    def arctan_inv(x: int) -> int:  # arctan(1/x) * 2^guard
        total, term, k, x2 = 0, one // x, 1, x * x
        while term:
            total += term // k if (k // 2) % 2 == 0 else -(term // k)
            term //= x2
            k += 2
        return total
    pi = 16 * arctan_inv(5) - 4 * arctan_inv(239)  # pi * 2^guard (error a few units)
    return (2 * one * (1 << nbits)) // pi


_PREOP_BITS = 1201  # 2/pi = 0.b1200 b1199 ... b0 (RDNA3/CDNA3 ISA V_TRIG_PREOP_F64)
_TWO_OVER_PI = _two_over_pi_bits(_PREOP_BITS)
_PREOP_WORDS = 37
_MAX_SHIFT = 31 * 53 + (2047 - 1077)
_PREOP_SEG = np.array([((_TWO_OVER_PI << 53 << s) >> _PREOP_BITS) & ((1 << 53) - 1)
                       for s in range(_MAX_SHIFT + 1)], np.uint64)


def trig_preop(x, seg):
    """V_TRIG_PREOP_F64 (see the comment above)."""
    x = np.asarray(x, F64)
    e = ((x.view(np.uint64) >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    shift = (np.asarray(seg).astype(np.int64) & 31) * 53 + np.where(e > 1077, e - 1077, 0)
    scale = -53 - shift + np.where(e >= 1968, 128, 0)
    out = np.ldexp(_PREOP_SEG[shift].astype(F64), scale.astype(np.int32))
    out = np.where((shift >> 5) + 2 >= _PREOP_WORDS, F64(0), out)
    return np.where(np.isnan(x), x, out)


op("v_trig_preop_f64", "f64", "f64 u32", trig_preop)
