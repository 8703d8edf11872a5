"""The catalog of matrix instructions per arch (dense MFMA / WMMA and RDNA4's sparse SWMMAC)
and the lookup API (`get`, `instructions`).

Sources (tags as in docs/sources.md):
  CALC      ROCm/amd_matrix_instruction_calculator v1.3.1 ``dict_insts``: M/N/K/blocks, types,
            cycles, BLGP and CBSZ/ABID support, sparsity per instruction (cdna2, cdna3, rdna3,
            rdna4); v1.3.2 prints the same for every instruction used here.
  SCHED     LLVM SISchedule.td pass counts (1 pass = 4 cycles); the only timing for gfx950.
  BUILTINS  clang/include/clang/Basic/BuiltinsAMDGPU.def (LLVM 19) builtin names and argument
            vector types. Mnemonics and the builtin -> mnemonic map were measured by compiling
            one probe per builtin with LLVM 19 clang (``workbench.layouts.probes``; the tests
            redo it) -- e.g. on gfx942 ``__builtin_amdgcn_mfma_f32_16x16x16bf16_1k`` emits
            ``v_mfma_f32_16x16x16_bf16``, and LLVM 19's assembler accepts the gfx90a spelling
            as an alias there (llvm-mc -mcpu=gfx942), but not the reverse on gfx90a.
  CK        composable_kernel lane constants for the gfx950 16x16x32 / 32x32x16 shapes
            (CK-MFMA, warp_gemm_attribute_mfma_impl.hpp); gfx950 builtin names/argument types
            from clang's gfx950 builtin Sema test. The calculator has no gfx950 support: gfx950
            lists the new shapes a cited source gives layouts for, plus the gfx942 MFMAs it
            keeps with gfx942's (CALC cdna3) layouts and the SCHED gfx950 pass counts.
  CK-MX     composable_kernel test/mx_mfma_op: mx_mfma_op.hpp register-mapping tables of the
            gfx950 f8f6f4 MFMAs (fp8 / fp6 / fp4 A and B, per lane and register) and
            scale_mapping_{16x16x128,32x32x64}.{cpp,txt}, a hardware run that prints which lane's
            E8M0 scale scales each A/B element; formulas in ``formulas.F8f6f4Input``.
"""

from __future__ import annotations

import builtins
import difflib
from functools import cache

from ..arch import ARCHS
from ..arch import get as get_arch
from ..argument_types import checked
from ..errors import ArgumentTypeError, ArgumentValueError
from .formulas import (
    CdnaInput,
    CdnaOutput,
    F8f6f4Input,
    Gfx11Input,
    Gfx11Output,
    Gfx12Input,
    Gfx12Output,
    Gfx12SparseB,
    Gfx12SparseIndex,
)
from .instruction import MatrixInstruction

__all__ = ["archs", "get", "instructions", "names"]

_BITS = {"f64": 64, "f32": 32, "xf32": 32, "i32": 32, "f16": 16, "bf16": 16, "i8": 8, "iu8": 8,
         "iu4": 4, "float8_e4m3fnuz": 8, "float8_e5m2fnuz": 8, "float8_e4m3fn": 8,
         "float8_e5m2": 8, "float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4}

# Matrix-instruction family of an arch in workbench.arch: its `family`, except that gfx1150-1153
# (RDNA3.5) use the RDNA3 WMMA set (CALC dict_isas lists gfx1150/1151 under 'rdna3').
_WMMA_FAMILY = {"rdna3.5": "rdna3"}


def _family(arch: str) -> str | None:
    a = get_arch(arch)
    if not (a.has_mfma or a.has_wmma):
        return None
    return _WMMA_FAMILY.get(a.family, a.family)


# fp8 flavours: gfx942 is FNUZ only (HIP FP8 numbers docs); gfx950 runs the same fp8/bf8 MFMAs
# on OCP E4M3 / E5M2 (triton PR 7186 "starting gfx950, we switch to OCP FP8 variants";
# ROCm/rocm-libraries PR 9113); RDNA4 WMMA fp8/bf8 are OCP (CALC dict_math_types 'fp8'/'bf8' =
# OCP E4M3/E5M2; workbench.arch gfx1201.has_ocp_fp8).
_FP8 = {"cdna3": {"fp8": "float8_e4m3fnuz", "bf8": "float8_e5m2fnuz"},
        "cdna4": {"fp8": "float8_e4m3fn", "bf8": "float8_e5m2"},
        "rdna4": {"fp8": "float8_e4m3fn", "bf8": "float8_e5m2"}}

_LANES = "lanes"
_NEG = "negate"

# CDNA rows: builtin suffix, gfx90a mnemonic, gfx942 mnemonic, M, N, K, blocks, in, out,
#   A/B C type, C/D C type, gfx90a cycles, gfx942 cycles, CBSZ/ABID, BLGP gfx90a, BLGP gfx942.
# Cycles and modifier support: CALC dict_insts 'cdna2'/'cdna3' (consistent with SCHED passes:
# gfx90a 4x4/16x16/32x32 = 2/8/16 passes, f64 4x4 = 4; gfx942 SIDPGFX942FullSpeedModel).
_CDNA = (
    ("mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1f32", "v_mfma_f32_32x32x1_2b_f32",
     32, 32, 1, 2, "f32", "f32", "float", "v32f", 64, 64, True, _LANES, _LANES),
    ("mfma_f32_16x16x1f32", "v_mfma_f32_16x16x1f32", "v_mfma_f32_16x16x1_4b_f32",
     16, 16, 1, 4, "f32", "f32", "float", "v16f", 32, 32, True, _LANES, _LANES),
    ("mfma_f32_4x4x1f32", "v_mfma_f32_4x4x1f32", "v_mfma_f32_4x4x1_16b_f32",
     4, 4, 1, 16, "f32", "f32", "float", "v4f", 8, 8, True, _LANES, _LANES),
    ("mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2f32", "v_mfma_f32_32x32x2_f32",
     32, 32, 2, 1, "f32", "f32", "float", "v16f", 64, 64, False, _LANES, _LANES),
    ("mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32",
     16, 16, 4, 1, "f32", "f32", "float", "v4f", 32, 32, False, _LANES, _LANES),
    ("mfma_f32_32x32x4f16", "v_mfma_f32_32x32x4f16", "v_mfma_f32_32x32x4_2b_f16",
     32, 32, 4, 2, "f16", "f32", "v4h", "v32f", 64, 64, True, _LANES, _LANES),
    ("mfma_f32_16x16x4f16", "v_mfma_f32_16x16x4f16", "v_mfma_f32_16x16x4_4b_f16",
     16, 16, 4, 4, "f16", "f32", "v4h", "v16f", 32, 32, True, _LANES, _LANES),
    ("mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4f16", "v_mfma_f32_4x4x4_16b_f16",
     4, 4, 4, 16, "f16", "f32", "v4h", "v4f", 8, 8, True, _LANES, _LANES),
    ("mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16",
     32, 32, 8, 1, "f16", "f32", "v4h", "v16f", 64, 32, False, _LANES, None),
    ("mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16",
     16, 16, 16, 1, "f16", "f32", "v4h", "v4f", 32, 16, False, _LANES, None),
    ("mfma_i32_32x32x4i8", "v_mfma_i32_32x32x4i8", "v_mfma_i32_32x32x4_2b_i8",
     32, 32, 4, 2, "i8", "i32", "int", "v32i", 64, 64, True, _LANES, _LANES),
    ("mfma_i32_16x16x4i8", "v_mfma_i32_16x16x4i8", "v_mfma_i32_16x16x4_4b_i8",
     16, 16, 4, 4, "i8", "i32", "int", "v16i", 32, 32, True, _LANES, _LANES),
    ("mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4i8", "v_mfma_i32_4x4x4_16b_i8",
     4, 4, 4, 16, "i8", "i32", "int", "v4i", 8, 8, True, _LANES, _LANES),
    ("mfma_i32_32x32x8i8", "v_mfma_i32_32x32x8i8", None,
     32, 32, 8, 1, "i8", "i32", "int", "v16i", 64, None, False, _LANES, None),
    ("mfma_i32_16x16x16i8", "v_mfma_i32_16x16x16i8", None,
     16, 16, 16, 1, "i8", "i32", "int", "v4i", 32, None, False, _LANES, None),
    ("mfma_i32_32x32x16_i8", None, "v_mfma_i32_32x32x16_i8",
     32, 32, 16, 1, "i8", "i32", "long", "v16i", None, 32, False, None, None),
    ("mfma_i32_16x16x32_i8", None, "v_mfma_i32_16x16x32_i8",
     16, 16, 32, 1, "i8", "i32", "long", "v4i", None, 16, False, None, None),
    # The original bf16 MFMAs (one VGPR of 2 bf16 per lane) exist on gfx90a only.
    ("mfma_f32_32x32x2bf16", "v_mfma_f32_32x32x2bf16", None,
     32, 32, 2, 2, "bf16", "f32", "v2s", "v32f", 64, None, True, _LANES, None),
    ("mfma_f32_16x16x2bf16", "v_mfma_f32_16x16x2bf16", None,
     16, 16, 2, 4, "bf16", "f32", "v2s", "v16f", 32, None, True, _LANES, None),
    ("mfma_f32_4x4x2bf16", "v_mfma_f32_4x4x2bf16", None,
     4, 4, 2, 16, "bf16", "f32", "v2s", "v4f", 8, None, True, _LANES, None),
    ("mfma_f32_32x32x4bf16", "v_mfma_f32_32x32x4bf16", None,
     32, 32, 4, 1, "bf16", "f32", "v2s", "v16f", 64, None, False, _LANES, None),
    ("mfma_f32_16x16x8bf16", "v_mfma_f32_16x16x8bf16", None,
     16, 16, 8, 1, "bf16", "f32", "v2s", "v4f", 32, None, False, _LANES, None),
    ("mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4_2b_bf16",
     32, 32, 4, 2, "bf16", "f32", "v4s", "v32f", 64, 64, True, _LANES, _LANES),
    ("mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4_4b_bf16",
     16, 16, 4, 4, "bf16", "f32", "v4s", "v16f", 32, 32, True, _LANES, _LANES),
    ("mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4_16b_bf16",
     4, 4, 4, 16, "bf16", "f32", "v4s", "v4f", 8, 8, True, _LANES, _LANES),
    ("mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8_bf16",
     32, 32, 8, 1, "bf16", "f32", "v4s", "v16f", 64, 32, False, _LANES, None),
    ("mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16",
     16, 16, 16, 1, "bf16", "f32", "v4s", "v4f", 32, 16, False, _LANES, None),
    # f64: CDNA2 disallows BLGP; on CDNA3 BLGP is a negate mask (CALC README, CDNA3-ISA).
    ("mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64",
     16, 16, 4, 1, "f64", "f64", "double", "v4d", 32, 32, False, None, _NEG),
    ("mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4f64", "v_mfma_f64_4x4x4_4b_f64",
     4, 4, 4, 4, "f64", "f64", "double", "double", 16, 16, False, None, _NEG),
    ("mfma_f32_16x16x8_xf32", None, "v_mfma_f32_16x16x8_xf32",
     16, 16, 8, 1, "xf32", "f32", "v2f", "v4f", None, 16, False, None, None),
    ("mfma_f32_32x32x4_xf32", None, "v_mfma_f32_32x32x4_xf32",
     32, 32, 4, 1, "xf32", "f32", "v2f", "v16f", None, 32, False, None, None),
) + tuple(
    (f"mfma_f32_{shape}_{a}_{b}", None, f"v_mfma_f32_{shape}_{a}_{b}", m, m, k, 1, a, b,
     "long", ct, None, cyc, False, None, None)
    for shape, m, k, ct, cyc in (("16x16x32", 16, 32, "v4f", 16), ("32x32x16", 32, 16, "v16f", 32))
    for a in ("fp8", "bf8") for b in ("fp8", "bf8")
)

# gfx950 (CDNA4) new f16/bf16 shapes: layouts from CK-MFMA (same rule as CdnaInput),
# passes from SCHED (16x16x32: 4, 32x32x16: 8); needs LLVM >= 20.
_GFX950 = (
    ("v_mfma_f32_16x16x32_f16", 16, 32, "f16", ("v4f", "v8h", "v8h", "v4f"), 4),
    ("v_mfma_f32_16x16x32_bf16", 16, 32, "bf16", ("v4f", "v8bf", "v8bf", "v4f"), 4),
    ("v_mfma_f32_32x32x16_f16", 32, 16, "f16", ("v16f", "v8h", "v8h", "v16f"), 8),
    ("v_mfma_f32_32x32x16_bf16", 32, 16, "bf16", ("v16f", "v8bf", "v8bf", "v16f"), 8),
    # int8 with K doubled (CDNA4-ISA V_MFMA_I32_16X16X64_I8 / V_MFMA_I32_32X32X32_I8; builtins
    # int4/int16 (int4 a, int4 b, C), clang's gfx950 builtin Sema test): 16 consecutive k per
    # lane, the CdnaInput rule (IREE IREEGPUAttrs.cpp mfmaLhs16xK(64) / mfmaLhs32xK(32): 16
    # elements per thread along K), int32 C/D in the f32 layout; passes SCHED (llvm-mca 4 / 8).
    ("v_mfma_i32_16x16x64_i8", 16, 64, "i8", ("v4i", "v4i", "v4i", "v4i"), 4),
    ("v_mfma_i32_32x32x32_i8", 32, 32, "i8", ("v16i", "v4i", "v4i", "v16i"), 8),
)

# gfx950 f8f6f4 MFMAs: one builtin (__builtin_amdgcn_mfma_scale_f32_*_f8f6f4(A, B, C, fmtA,
# fmtB, opselA, scaleA, opselB, scaleB), clang 22) emits the unscaled mnemonic when both scales
# are the constant 0 with op_sel 0 and the v_mfma_scale_* one otherwise (seen in llvm-objdump).
# CBSZ/BLGP select A/B formats (codes: ROCDL-TEST); OCP flavours on gfx950 (fp8 = E4M3FN,
# bf8 = E5M2; CDNA4-ISA, PRECISION). Passes (SCHED): 16x16x128 8 with an fp8/bf8 side,
# else 4; 32x32x64 16 / 8. Rows: mnemonic, M, K, C/D vector type, (passes 8-bit, passes other).
F8F6F4_FORMATS = ("float8_e4m3fn", "float8_e5m2", "float6_e2m3fn", "float6_e3m2fn",
                  "float4_e2m1fn")
_GFX950_F8F6F4 = (
    ("v_mfma_f32_16x16x128_f8f6f4", 16, 128, "v4f", (8, 4)),
    ("v_mfma_scale_f32_16x16x128_f8f6f4", 16, 128, "v4f", (8, 4)),
    ("v_mfma_f32_32x32x64_f8f6f4", 32, 64, "v16f", (16, 8)),
    ("v_mfma_scale_f32_32x32x64_f8f6f4", 32, 64, "v16f", (16, 8)),
)

# gfx950 (CDNA4) keeps the gfx942 MFMAs -- same mnemonics, builtins and encodings (llvm-mc
# -show-encoding gives the gfx942 words for -mcpu=gfx950, LLVM 22) -- except the xf32 ones,
# which LLVM removed for gfx950 (its assembler: "instruction not supported on this GPU").
# tests/layouts/test_layouts_gfx950.py asks llvm-mc about every gfx942 mnemonic. Their layouts are
# gfx942's (CALC cdna3); passes: SCHED SIDPGFX950FullSpeedModel, read with llvm-mca -mcpu=gfx950
# (LLVM 22): the gfx942 counts except f64 16x16x4, 16 passes (gfx942: 8).
_GFX950_DROPPED = frozenset({"v_mfma_f32_16x16x8_xf32", "v_mfma_f32_32x32x4_xf32"})
_GFX950_PASSES = {"v_mfma_f64_16x16x4_f64": 16}
_SCHED950 = ("LLVM SISchedule.td SIDPGFX950FullSpeedModel passes (llvm-mca -mcpu=gfx950); "
             "cycles = 4 x passes")

# RDNA3 rows: mnemonic, in, out, (w32 types), (w64 types), builtin form, cycles (CALC: 32, iu4 16).
_RDNA3 = (
    ("v_wmma_f32_16x16x16_f16", "f16", "f32", ("v8f", "v16h", "v16h", "v8f"),
     ("v4f", "v16h", "v16h", "v4f"), "wmma", 32),
    ("v_wmma_f32_16x16x16_bf16", "bf16", "f32", ("v8f", "v16s", "v16s", "v8f"),
     ("v4f", "v16s", "v16s", "v4f"), "wmma", 32),
    ("v_wmma_f16_16x16x16_f16", "f16", "f16", ("v16h", "v16h", "v16h", "v16h"),
     ("v8h", "v16h", "v16h", "v8h"), "wmma_opsel", 32),
    ("v_wmma_bf16_16x16x16_bf16", "bf16", "bf16", ("v16s", "v16s", "v16s", "v16s"),
     ("v8s", "v16s", "v16s", "v8s"), "wmma_opsel", 32),
    ("v_wmma_i32_16x16x16_iu8", "iu8", "i32", ("v8i", "v4i", "v4i", "v8i"),
     ("v4i", "v4i", "v4i", "v4i"), "wmma_int", 32),
    ("v_wmma_i32_16x16x16_iu4", "iu4", "i32", ("v8i", "v2i", "v2i", "v8i"),
     ("v4i", "v2i", "v2i", "v4i"), "wmma_int", 16),
)

# RDNA4 rows: mnemonic, A type, B type, out, K, (w32 types), (w64 types), form, cycles
# (CALC: f16/bf16 16 cycles; fp8/bf8/iu8/iu4 8). Sources disagree on units here: LLVM's GFX12
# model (SCHED) puts FP8/BF8/BF16/F16 WMMA in a 2-pass and IU8/IU4 in a 4-pass XDL class
# (SISchedule.td, GFX12). We follow CALC, which states cycles per instruction and matches the
# AMD peak rates (2048 / 4096 FLOP per WGP per clock); `passes` stays None for RDNA.
_RDNA4 = (
    ("v_wmma_f32_16x16x16_f16", "f16", "f16", "f32", 16, ("v8f", "v8h", "v8h", "v8f"),
     ("v4f", "v4h", "v4h", "v4f"), "wmma", 16),
    ("v_wmma_f32_16x16x16_bf16", "bf16", "bf16", "f32", 16, ("v8f", "v8s", "v8s", "v8f"),
     ("v4f", "v4s", "v4s", "v4f"), "wmma", 16),
    ("v_wmma_f16_16x16x16_f16", "f16", "f16", "f16", 16, ("v8h", "v8h", "v8h", "v8h"),
     ("v4h", "v4h", "v4h", "v4h"), "wmma", 16),
    ("v_wmma_bf16_16x16x16_bf16", "bf16", "bf16", "bf16", 16, ("v8s", "v8s", "v8s", "v8s"),
     ("v4s", "v4s", "v4s", "v4s"), "wmma", 16),
    ("v_wmma_i32_16x16x16_iu8", "iu8", "iu8", "i32", 16, ("v8i", "v2i", "v2i", "v8i"),
     ("v4i", "int", "int", "v4i"), "wmma_int", 8),
    ("v_wmma_i32_16x16x16_iu4", "iu4", "iu4", "i32", 16, ("v8i", "int", "int", "v8i"),
     ("v4i", "int", "int", "v4i"), "wmma_int", 8),
    ("v_wmma_i32_16x16x32_iu4", "iu4", "iu4", "i32", 32, ("v8i", "v2i", "v2i", "v8i"),
     ("v4i", "int", "int", "v4i"), "wmma_int", 8),
) + tuple(
    (f"v_wmma_f32_16x16x16_{a}_{b}", a, b, "f32", 16, ("v8f", "v2i", "v2i", "v8f"),
     ("v4f", "int", "int", "v4f"), "wmma", 8)
    for a in ("fp8", "bf8") for b in ("fp8", "bf8")
)

# RDNA4 sparse WMMA (SWMMAC) rows: mnemonic, A type, B type, out, K (logical), (w32 types),
# (w64 types), builtin form, cycles. CALC dict_insts 'rdna4' v_swmmac_* (sparse: True; cycles 16
# for f16/bf16, 8 for fp8/bf8/iu8/iu4); builtins __builtin_amdgcn_swmmac_*_w32/_w64 with A, B, C,
# then the index (integer forms: A sign, A, B sign, B, C, index, clamp) -- clang
# BuiltinsAMDGPU.def, checked by compiling every probe (tests/layouts/test_layouts_probes.py).
_RDNA4_SPARSE = (
    ("v_swmmac_f32_16x16x32_f16", "f16", "f16", "f32", 32, ("v8f", "v8h", "v16h", "v8f"),
     ("v4f", "v4h", "v8h", "v4f"), "swmmac", 16),
    ("v_swmmac_f32_16x16x32_bf16", "bf16", "bf16", "f32", 32, ("v8f", "v8s", "v16s", "v8f"),
     ("v4f", "v4s", "v8s", "v4f"), "swmmac", 16),
    ("v_swmmac_f16_16x16x32_f16", "f16", "f16", "f16", 32, ("v8h", "v8h", "v16h", "v8h"),
     ("v4h", "v4h", "v8h", "v4h"), "swmmac", 16),
    ("v_swmmac_bf16_16x16x32_bf16", "bf16", "bf16", "bf16", 32, ("v8s", "v8s", "v16s", "v8s"),
     ("v4s", "v4s", "v8s", "v4s"), "swmmac", 16),
    ("v_swmmac_i32_16x16x32_iu8", "iu8", "iu8", "i32", 32, ("v8i", "v2i", "v4i", "v8i"),
     ("v4i", "int", "v2i", "v4i"), "swmmac_int", 8),
    ("v_swmmac_i32_16x16x32_iu4", "iu4", "iu4", "i32", 32, ("v8i", "int", "v2i", "v8i"),
     ("v4i", "int", "int", "v4i"), "swmmac_int", 8),
    ("v_swmmac_i32_16x16x64_iu4", "iu4", "iu4", "i32", 64, ("v8i", "v2i", "v4i", "v8i"),
     ("v4i", "int", "v2i", "v4i"), "swmmac_int", 8),
) + tuple(
    (f"v_swmmac_f32_16x16x32_{a}_{b}", a, b, "f32", 32, ("v8f", "v2i", "v4i", "v8f"),
     ("v4f", "int", "v2i", "v4f"), "swmmac", 8)
    for a in ("fp8", "bf8") for b in ("fp8", "bf8")
)

_CALC = "AMD Matrix Instruction Calculator v1.3.1 (ROCm/amd_matrix_instruction_calculator)"
_CALC_CYCLES = "CALC cycles; SCHED passes = cycles/4"  # tags of docs/sources.md


def _cdna(arch: str, family: str) -> list[MatrixInstruction]:
    """The CDNA rows of one family: cdna2 (gfx90a), cdna3 (gfx942) or cdna4 (gfx950: the gfx942
    instructions it keeps, with its own fp8 flavour and pass counts)."""
    out = []
    cdna4 = family == "cdna4"
    for row in _CDNA:
        (suffix, n90, n942, m, n, k, blocks, tin, tout, abt, ct, cyc90, cyc942, cbsz,
         blgp90, blgp942) = row
        name, cyc, blgp = (n90, cyc90, blgp90) if family == "cdna2" else (n942, cyc942, blgp942)
        if name is None or (cdna4 and name in _GFX950_DROPPED):
            continue
        passes, timing = cyc // 4, _CALC_CYCLES
        if cdna4:
            passes, timing = _GFX950_PASSES.get(name, passes), _SCHED950
            cyc = 4 * passes
        ta = tb = tin
        if tin in ("fp8", "bf8"):  # fp8 rows carry the B type in the `out` column
            ta, tb, tout = _FP8[family][tin], _FP8[family][tout], "f32"
        bits_a = _BITS[ta]
        out.append(MatrixInstruction(
            name=name, arch=arch, family=family, m=m, n=n, k=k, blocks=blocks,
            a_type=ta, b_type=tb, c_type=tout, d_type=tout, wave_size=64,
            cycles=cyc, passes=passes, timing_source=timing,
            builtin=f"__builtin_amdgcn_{suffix}", builtin_types=(ct, abt, abt, ct),
            builtin_form="mfma",
            a_placer=CdnaInput(m, k, blocks, bits_a), b_placer=CdnaInput(n, k, blocks, bits_a),
            cd_placer=CdnaOutput(m, n, blocks, _BITS[tout]),
            aliases=(n90,) if family != "cdna2" and n90 and n90 != name else (),
            cbsz_abid=cbsz, blgp=blgp, min_llvm=20 if cdna4 else 19,
            source=_CALC + ("; gfx950: the gfx942 layout" if cdna4 else "")))
    return out


_ACC = {"f16": "f32", "bf16": "f32", "i8": "i32"}  # the accumulator of a _GFX950 input type


def _gfx950(arch: str) -> list[MatrixInstruction]:
    return [MatrixInstruction(
        name=name, arch=arch, family="cdna4", m=m, n=m, k=k, blocks=1, a_type=t, b_type=t,
        c_type=_ACC[t], d_type=_ACC[t], wave_size=64, cycles=4 * passes, passes=passes,
        timing_source=_SCHED950,
        builtin="__builtin_amdgcn_" + name[2:], builtin_types=types, builtin_form="mfma",
        a_placer=CdnaInput(m, k, 1, _BITS[t]), b_placer=CdnaInput(m, k, 1, _BITS[t]),
        cd_placer=CdnaOutput(m, m, 1, 32), min_llvm=20,
        source="composable_kernel warp_gemm_attribute_mfma_impl.hpp lane constants" if t != "i8"
        else "IREE-MMA (IREEGPUAttrs.cpp getSingleSubgroupLayout): the CdnaInput rule")
        for name, m, k, t, types, passes in _GFX950]


def _gfx950_f8f6f4(arch: str) -> list[MatrixInstruction]:
    out = []
    for name, m, k, ct, passes in _GFX950_F8F6F4:
        scaled = name.startswith("v_mfma_scale_")
        shape = name.split("_")[-2]
        out.append(MatrixInstruction(
            name=name, arch=arch, family="cdna4", m=m, n=m, k=k, blocks=1,
            a_type=F8F6F4_FORMATS[0], b_type=F8F6F4_FORMATS[0], c_type="f32", d_type="f32",
            wave_size=64, cycles=4 * passes[0], passes=passes[0],
            timing_source=_SCHED950,
            builtin=f"__builtin_amdgcn_mfma_scale_f32_{shape}_f8f6f4",
            builtin_types=(ct, "v8i", "v8i", ct),
            builtin_form="f8f6f4_scale" if scaled else "f8f6f4",
            a_placer=F8f6f4Input(m, k, 8), b_placer=F8f6f4Input(m, k, 8),
            cd_placer=CdnaOutput(m, m, 1, 32), blgp="format", min_llvm=20,
            formats=F8F6F4_FORMATS, scaled=scaled, passes_by_bits=passes,
            source="CK-MX register-mapping tables and hardware scale mapping; C/D as "
                   "16x16x32 / 32x32x16 (CK xdlops_gemm.hpp)"))
    return out


def _rdna3(arch: str) -> list[MatrixInstruction]:
    out = []
    for w in (32, 64):
        for name, tin, tout, t32, t64, form, cyc in _RDNA3:
            out.append(MatrixInstruction(
                name=name, arch=arch, family="rdna3", m=16, n=16, k=16, blocks=1,
                a_type=tin, b_type=tin, c_type=tout, d_type=tout, wave_size=w, cycles=cyc,
                passes=None, timing_source="Matrix Instruction Calculator cycles (rdna3)",
                builtin=f"__builtin_amdgcn_{name[2:]}_w{w}", builtin_types=t32 if w == 32 else t64,
                builtin_form=form, a_placer=Gfx11Input(_BITS[tin], w),
                b_placer=Gfx11Input(_BITS[tin], w), cd_placer=Gfx11Output(_BITS[tout], w),
                cd_opsel=_BITS[tout] == 16, source="Matrix Instruction Calculator InstCalcGfx11"))
    return out


def _rdna4(arch: str) -> list[MatrixInstruction]:
    out = []
    for w in (32, 64):
        for name, ta, tb, tout, k, t32, t64, form, cyc in _RDNA4:
            ta, tb = _FP8["rdna4"].get(ta, ta), _FP8["rdna4"].get(tb, tb)
            out.append(MatrixInstruction(
                name=name, arch=arch, family="rdna4", m=16, n=16, k=k, blocks=1,
                a_type=ta, b_type=tb, c_type=tout, d_type=tout, wave_size=w, cycles=cyc,
                passes=None, timing_source="Matrix Instruction Calculator cycles (rdna4)",
                builtin=f"__builtin_amdgcn_{name[2:]}_w{w}_gfx12",
                builtin_types=t32 if w == 32 else t64, builtin_form=form,
                a_placer=Gfx12Input(_BITS[ta], k, w), b_placer=Gfx12Input(_BITS[tb], k, w),
                cd_placer=Gfx12Output(_BITS[tout], w),
                source="Matrix Instruction Calculator InstCalcGfx12"))
    return out


def _rdna4_sparse(arch: str) -> list[MatrixInstruction]:
    """The SWMMAC entries: compressed A (M x K/2) placed like a dense K/2 A, B and the index
    by the sparse formulas (formulas.py, "RDNA4 sparse WMMA")."""
    out = []
    for w in (32, 64):
        for name, ta, tb, tout, k, t32, t64, form, cyc in _RDNA4_SPARSE:
            ta, tb = _FP8["rdna4"].get(ta, ta), _FP8["rdna4"].get(tb, tb)
            out.append(MatrixInstruction(
                name=name, arch=arch, family="rdna4", m=16, n=16, k=k, blocks=1,
                a_type=ta, b_type=tb, c_type=tout, d_type=tout, wave_size=w, cycles=cyc,
                passes=None, timing_source="Matrix Instruction Calculator cycles (rdna4)",
                builtin=f"__builtin_amdgcn_{name[2:]}_w{w}",
                builtin_types=t32 if w == 32 else t64, builtin_form=form,
                a_placer=Gfx12Input(_BITS[ta], k // 2, w), b_placer=Gfx12SparseB(_BITS[tb], k, w),
                cd_placer=Gfx12Output(_BITS[tout], w), sparse=True,
                index_placer=Gfx12SparseIndex(_BITS[ta], k, w),
                source="Matrix Instruction Calculator InstCalcGfx12, sparse A / B / index"))
    return out


@cache
def _table(arch: str) -> tuple[MatrixInstruction, ...]:
    family = _family(arch)
    if family in ("cdna2", "cdna3"):
        return tuple(_cdna(arch, family))
    if family == "cdna4":
        return tuple(_gfx950(arch) + _gfx950_f8f6f4(arch) + _cdna(arch, family))
    if family == "rdna3":
        return tuple(_rdna3(arch))
    if family == "rdna4":
        return tuple(_rdna4(arch) + _rdna4_sparse(arch))
    return ()


def archs() -> tuple[str, ...]:
    """Archs that have matrix instructions in this catalog."""
    return tuple(a for a in ARCHS if _family(a))


@checked(public="matrix_instructions")
def instructions(arch: str = "gfx942", *, wave_size: int | None = None) -> list[MatrixInstruction]:
    """All catalog instructions of `arch` for one wave size (default: the arch's default)."""
    a = get_arch(arch)  # raises a clear ValueError for unknown archs
    ws = a.check_wave_size(wave_size)
    return [i for i in _table(a.name) if i.wave_size == ws]


def names(arch: str = "gfx942", *, wave_size: int | None = None) -> list[str]:
    """Mnemonics of `instructions(arch, wave_size=...)`."""
    return [i.name for i in instructions(arch, wave_size=wave_size)]


@checked(public="matrix_instruction")
def get(name: str, arch: str = "gfx942", *, wave_size: int | None = None) -> MatrixInstruction:
    """Look up a matrix instruction by mnemonic (or an LLVM alias spelling) on `arch`."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"instruction name must be a str, got {type(name).__name__}")
    key = name.strip().lower()
    table = instructions(arch, wave_size=wave_size)
    for ins in table:
        if key == ins.name or key in ins.aliases:
            return ins
    arch_name = get_arch(arch).name
    if not _table(arch_name):
        raise ArgumentValueError(f"{arch_name} has no matrix (MFMA/WMMA) instructions; archs with "
                                 f"them: {', '.join(archs())}")
    hint = ""
    other = [a for a in archs() if a != arch_name
             and builtins.any(key == i.name or key in i.aliases for i in _table(a))]
    if other:
        hint = f"; {name!r} exists on {', '.join(other)}"
    known = [i.name for i in table]
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.6)
    sugg = f"; did you mean {', '.join(close)}?" if close else ""
    raise ArgumentValueError(f"unknown matrix instruction {name!r} on {arch_name}"
                             f"{sugg}{hint} (see workbench.layouts.names({arch_name!r}))")
