"""VALU transcendental rows: rcp, rsq, sqrt, exp2, log2, sin/cos (in turns) for
f32/f64/f16. Known deviation: these are correctly rounded here; the hardware is specified
at about 1 ulp (CDNA3 ISA V_RCP_F32 ...).

Semantics: CDNA3 ISA guide, per-opcode descriptions; rows run through ``valu.build_generic``.
"""
from __future__ import annotations

import numpy as np

from ...numerics.vfloat import as_f64
from .table import table

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32 = np.uint32, np.int32


op = table("valu.vtrans")
op("v_rcp_f32", "f32", "f32", lambda a: (F32(1) / a))  # HW: ≤1 ulp; we give correctly rounded
op("v_rcp_iflag_f32", "f32", "f32", lambda a: (F32(1) / a))
op("v_rsq_f32", "f32", "f32", lambda a: (1 / np.sqrt(as_f64(a))).astype(F32))
op("v_sqrt_f32", "f32", "f32", np.sqrt)
op("v_exp_f32", "f32", "f32", lambda a: np.exp2(as_f64(a)).astype(F32))
op("v_log_f32", "f32", "f32", lambda a: np.log2(as_f64(a)).astype(F32))
op("v_sin_f32", "f32", "f32", lambda a: np.sin(as_f64(a) * 2 * np.pi).astype(F32))  # S0 in turns
op("v_cos_f32", "f32", "f32", lambda a: np.cos(as_f64(a) * 2 * np.pi).astype(F32))
op("v_rcp_f64", "f64", "f64", lambda a: 1 / a)
op("v_rsq_f64", "f64", "f64", lambda a: 1 / np.sqrt(a))
op("v_sqrt_f64", "f64", "f64", np.sqrt)
op("v_rcp_f16", "f16", "f16", lambda a: (F32(1) / a.astype(F32)).astype(F16))
op("v_sqrt_f16", "f16", "f16", lambda a: np.sqrt(a.astype(F32)).astype(F16))
op("v_rsq_f16", "f16", "f16", lambda a: (1 / np.sqrt(a.astype(F64))).astype(F16))
op("v_exp_f16", "f16", "f16", lambda a: np.exp2(a.astype(F64)).astype(F16))
op("v_log_f16", "f16", "f16", lambda a: np.log2(a.astype(F64)).astype(F16))
