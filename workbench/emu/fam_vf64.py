"""VALU f64 arithmetic rows: add/mul, fma, min/max, ldexp, fract, rounding, frexp.

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from .valu import table
from .vfloat import fma64, fract, frexp_exp, frexp_mant

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32


op = table("fam_vf64")
op("v_add_f64", "f64", "f64 f64", lambda a, b: a + b)
op("v_mul_f64", "f64", "f64 f64", lambda a, b: a * b)
op("v_fma_f64", "f64", "f64 f64 f64", fma64)
op("v_fmac_f64", "f64", "f64 f64 f64", fma64, "acc")  # gfx90a+ VOP2 (LLVM VOP2Instructions.td)
op("v_max_f64", "f64", "f64 f64", np.fmax)
op("v_min_f64", "f64", "f64 f64", np.fmin)
op("v_ldexp_f64", "f64", "f64 i32", lambda a, e: np.ldexp(a, np.clip(e, -3000, 3000)))
op("v_fract_f64", "f64", "f64", lambda a: fract(a, F64))
op("v_trunc_f64", "f64", "f64", np.trunc)
op("v_ceil_f64", "f64", "f64", np.ceil)
op("v_floor_f64", "f64", "f64", np.floor)
op("v_rndne_f64", "f64", "f64", np.rint)
op("v_frexp_mant_f64", "f64", "f64", frexp_mant)
op("v_frexp_exp_i32_f64", "i32", "f64", frexp_exp)
