"""Generate the layout reference data in this folder from AMD's published closed forms.

Written independently of ``workbench.layouts`` (imports nothing from it): every formula below is
the per-shape closed form that the AMD Matrix Instruction Calculator gives with
``--detail-instruction`` (CDNA2/3, RDNA3, RDNA4), the lane constants of composable_kernel's
``warp_gemm_attribute_mfma_impl.hpp`` (gfx950, which the calculator does not cover), or, for the
remaining shapes, the equation string that the AMD Matrix Instruction Calculator prints for that
instruction (matrix_calculator.py v1.3.1, ``InstCalcGfx9._coord_to_lane_eqn`` /
``_coord_to_input_reg_eqn`` / ``_coord_to_output_reg_eqn`` and the ``InstCalcGfx12`` dense/wave64
branches; for the RDNA4 sparse SWMMACs the A, B and compression-index equations that
``--detail-instruction`` prints). The ``formula`` and ``source`` strings stored with every entry
say which.

Run ``python tests/data/layouts/gen_reference.py`` to rewrite ``reference_layouts.json``.
Each entry: archs, instruction names, wave size, operand(s), shape [blocks, rows, cols], element
bits, and per element (C order over block, row, col) its lanes (one list per replica), register
offset and low bit. ``appendix_a.json`` (hand-copied, verbatim) and ``ck_gfx950.json`` are not
generated.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ENTRIES: list[dict] = []

CD = ("C", "D")
G90, G942, G950, RDNA3, RDNA4 = ("gfx90a",), ("gfx942",), ("gfx950",), \
    ("gfx1100", "gfx1102", "gfx1151"), ("gfx1201",)


def add(archs, names, operands, shape, bits, fn, formula, source, wave=64, opsel=0):
    """Evaluate fn(b, r, c) -> (lanes list, reg, bit) over the whole shape and store it."""
    b, r, c = np.indices(shape)
    lanes, reg, bit = fn(b, r, c)
    lanes = [np.broadcast_to(x, shape).ravel().tolist() for x in lanes]
    ENTRIES.append({
        "archs": list(archs), "names": list(names), "wave": wave, "operands": list(operands),
        "opsel": opsel, "shape": list(shape), "bits": bits, "formula": formula, "source": source,
        "lanes": lanes, "reg": np.broadcast_to(reg, shape).ravel().tolist(),
        "bit_lo": np.broadcast_to(bit, shape).ravel().tolist(),
    })


def z(x):
    return np.zeros_like(x)


# ---- CDNA C/D closed forms -------------------------------------------------------------------
def o_16x16(b, i, j):  # CALC closed form: GPR = i mod 4, lane = 16*floor(i/4) + j
    return [16 * (i // 4) + j], i % 4, z(i)


def o_32x32(b, i, j):  # CALC: GPR = 4*floor(i/8) + (i mod 4), lane = 32*(floor(i/4) mod 2)+j
    return [32 * ((i // 4) % 2) + j], 4 * (i // 8) + i % 4, z(i)


def o_4x4_16b(b, i, j):  # CALC README (4x4x1f32 example): GPR = i, lane = 4*b + j
    return [4 * b + j], i, z(i)


def o_16x16_4b(b, i, j):  # CALC: reg '4 * block + (i % 4)', lane '16 * floor(i / 4) + j'
    return [16 * (i // 4) + j], 4 * b + i % 4, z(i)


def o_32x32_2b(b, i, j):  # CALC: '16 * block + 4 * floor(i / 8) + (i % 4)', '(32*floor(i/4))%64+j'
    return [(32 * (i // 4)) % 64 + j], 16 * b + 4 * (i // 8) + i % 4, z(i)


def o_f64_16x16(b, i, j):  # CALC closed form: pair [2*floor(i/4)+1 : 2*floor(i/4)], lane 16*(i%4)+j
    return [16 * (i % 4) + j], 2 * (i // 4), z(i)


def o_f64_4x4_4b(b, i, j):  # CALC: pair '[1:0]', lane '16 * (i % 4) + 4 * block + j'
    return [16 * (i % 4) + 4 * b + j], z(i), z(i)


F = "AMD Matrix Instruction Calculator (CALC) closed form"
E = "CALC v1.3.1 printed equation"


def cdna(names90, names942, m, n, k, blocks, bits, a_fn, a_text, a_src, out_fn, out_text,
         out_src, out_bits=32, archs_extra=()):
    """A and B share the formula with i -> j (the calculator's B formula is A's with j for i).
    gfx950 executes the gfx942 MFMAs it keeps with gfx942's operand layouts (same encodings;
    LLVM dropped only the xf32 ones for gfx950), so those entries name both archs."""
    kept = [n for n in names942 if "xf32" not in n]
    groups = [(G90, names90), (G942 + G950, kept), (G942, [n for n in names942 if n not in kept]),
              *archs_extra]
    for archs, names in groups:
        if not names:
            continue
        add(archs, names, ("A",), (blocks, m, k), bits,
            lambda b, r, c: a_fn(b, r, c), "A[i][k]: " + a_text, a_src)
        add(archs, names, ("B",), (blocks, k, n), bits,
            lambda b, r, c: a_fn(b, c, r), "B[k][j]: " + a_text.replace("i", "j"), a_src)
        add(archs, names, CD, (blocks, m, n), out_bits, out_fn, "C/D[i][j]: " + out_text, out_src)


def h16(k):  # 16-bit halves: bits [16*(k%2)+15 : 16*(k%2)]
    return 16 * (k % 2)


cdna(["v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16bf16_1k"],
     ["v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x16_bf16"], 16, 16, 16, 1, 16,
     lambda b, i, k: ([16 * (k // 4) + i], (k // 2) % 2, h16(k)),
     "lane 16*floor(k/4)+i, GPR floor(k/2)%2, half k%2", F, o_16x16,
     "GPR i%4, lane 16*floor(i/4)+j", F)
cdna(["v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8bf16_1k"],
     ["v_mfma_f32_32x32x8_f16", "v_mfma_f32_32x32x8_bf16"], 32, 32, 8, 1, 16,
     lambda b, i, k: ([32 * (k // 4) + i], (k // 2) % 2, h16(k)),
     "lane 32*floor(k/4)+i, GPR floor(k/2)%2, half k%2", F, o_32x32,
     "GPR 4*floor(i/8)+i%4, lane 32*(floor(i/4)%2)+j", F)
cdna(["v_mfma_f32_16x16x4f32"], ["v_mfma_f32_16x16x4_f32"], 16, 16, 4, 1, 32,
     lambda b, i, k: ([16 * k + i], z(k), z(k)), "lane 16*k+i, GPR 0", F, o_16x16,
     "GPR i%4, lane 16*floor(i/4)+j", F)
cdna(["v_mfma_f32_32x32x2f32"], ["v_mfma_f32_32x32x2_f32"], 32, 32, 2, 1, 32,
     lambda b, i, k: ([32 * k + i], z(k), z(k)), "lane 32*k+i, GPR 0", F, o_32x32,
     "as 32x32x8", F)
cdna([], ["v_mfma_f32_16x16x8_xf32"], 16, 16, 8, 1, 32,
     lambda b, i, k: ([16 * (k // 2) + i], k % 2, z(k)), "lane 16*floor(k/2)+i, GPR k%2", F,
     o_16x16, "as 16x16", F)
cdna([], ["v_mfma_f32_32x32x4_xf32"], 32, 32, 4, 1, 32,
     lambda b, i, k: ([32 * (k // 2) + i], k % 2, z(k)),
     "lane '32 * floor(k / 2) + i', GPR '(k % 2)'", E, o_32x32, "as 32x32x8", F)
fp8 = [f"v_mfma_f32_{{}}_{a}_{b}" for a in ("fp8", "bf8") for b in ("fp8", "bf8")]
cdna([], [n.format("16x16x32") for n in fp8] + ["v_mfma_i32_16x16x32_i8"], 16, 16, 32, 1, 8,
     lambda b, i, k: ([16 * (k // 8) + i], (k // 4) % 2, 8 * (k % 4)),
     "lane 16*floor(k/8)+i, GPR floor(k/4)%2, byte k%4", F, o_16x16, "as 16x16", F)
cdna([], [n.format("32x32x16") for n in fp8] + ["v_mfma_i32_32x32x16_i8"], 32, 32, 16, 1, 8,
     lambda b, i, k: ([32 * (k // 8) + i], (k // 4) % 2, 8 * (k % 4)),
     "lane 32*floor(k/8)+i, GPR floor(k/4)%2, byte k%4", F, o_32x32, "as 32x32", F)
cdna(["v_mfma_f64_16x16x4f64"], ["v_mfma_f64_16x16x4_f64"], 16, 16, 4, 1, 64,
     lambda b, i, k: ([16 * k + i], z(k), z(k)), "lane 16*k+i, pair [1:0]", F, o_f64_16x16,
     "pair [2*floor(i/4)+1 : 2*floor(i/4)], lane 16*(i%4)+j", F, out_bits=64)
cdna(["v_mfma_f64_4x4x4f64"], ["v_mfma_f64_4x4x4_4b_f64"], 4, 4, 4, 4, 64,
     lambda b, i, k: ([4 * b + 16 * k + i], z(k), z(k)),
     "lane '4 * block + 16 * k + i', pair [1:0]", E, o_f64_4x4_4b,
     "pair '[1:0]', lane '16 * (i % 4) + 4 * block + j'", E, out_bits=64)
cdna(["v_mfma_f32_4x4x1f32"], ["v_mfma_f32_4x4x1_16b_f32"], 4, 4, 1, 16, 32,
     lambda b, i, k: ([4 * b + i], z(k), z(k)), "lane 4*b+i", F, o_4x4_16b, "GPR i, lane 4*b+j", F)
cdna(["v_mfma_f32_16x16x1f32"], ["v_mfma_f32_16x16x1_4b_f32"], 16, 16, 1, 4, 32,
     lambda b, i, k: ([16 * b + i], z(k), z(k)), "lane '16 * block + i', GPR '0'", E, o_16x16_4b,
     "GPR '4 * block + (i % 4)', lane '16 * floor(i / 4) + j'", E)
cdna(["v_mfma_f32_32x32x1f32"], ["v_mfma_f32_32x32x1_2b_f32"], 32, 32, 1, 2, 32,
     lambda b, i, k: ([32 * b + i], z(k), z(k)), "lane '32 * block + i', GPR '0'", E, o_32x32_2b,
     "GPR '16 * block + 4 * floor(i / 8) + (i % 4)', lane '(32 * floor(i / 4)) % 64 + j'", E)
for nm90, nm942, m, blocks, out_fn in (
        ("4x4x4{}", "4x4x4_16b_{}", 4, 16, o_4x4_16b),
        ("16x16x4{}", "16x16x4_4b_{}", 16, 4, o_16x16_4b),
        ("32x32x4{}", "32x32x4_2b_{}", 32, 2, o_32x32_2b)):
    cdna([f"v_mfma_f32_{nm90.format('f16')}", f"v_mfma_f32_{nm90.format('bf16_1k')}"],
         [f"v_mfma_f32_{nm942.format('f16')}", f"v_mfma_f32_{nm942.format('bf16')}"],
         m, m, 4, blocks, 16,
         lambda b, i, k, m=m: ([m * b + i], k // 2, h16(k)),
         f"lane '{m} * block + i', reg 'floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]'", E, out_fn,
         "multi-block C/D", E)
    cdna([f"v_mfma_i32_{nm90.format('i8')}"], [f"v_mfma_i32_{nm942.format('i8')}"],
         m, m, 4, blocks, 8,
         lambda b, i, k, m=m: ([m * b + i], z(k), 8 * k),
         f"lane '{m} * block + i', reg '0.[8*k+7 : 8*k]'", E, out_fn, "multi-block C/D", E)
    cdna([f"v_mfma_f32_{nm90.replace('4{}', '2{}').format('bf16')}"], [], m, m, 2, blocks, 16,
         lambda b, i, k, m=m: ([m * b + i], z(k), 16 * k),
         f"lane '{m} * block + i', reg '0.[16*k+15 : 16*k]'", E, out_fn, "multi-block C/D", E)
cdna(["v_mfma_i32_16x16x16i8"], [], 16, 16, 16, 1, 8,
     lambda b, i, k: ([16 * (k // 4) + i], z(k), 8 * (k % 4)),
     "lane '16 * floor(k / 4) + i', reg '0.[8*(k % 4)+7 : 8*(k % 4)]'", E, o_16x16, "as 16x16", F)
cdna(["v_mfma_i32_32x32x8i8"], [], 32, 32, 8, 1, 8,
     lambda b, i, k: ([32 * (k // 4) + i], z(k), 8 * (k % 4)),
     "lane '32 * floor(k / 4) + i', reg '0.[8*(k % 4)+7 : 8*(k % 4)]'", E, o_32x32, "as 32x32", F)
cdna(["v_mfma_f32_16x16x8bf16"], [], 16, 16, 8, 1, 16,
     lambda b, i, k: ([16 * (k // 2) + i], z(k), h16(k)),
     "lane '16 * floor(k / 2) + i', reg '0.[16*(k % 2)+15 : 16*(k % 2)]'", E, o_16x16,
     "as 16x16", F)
cdna(["v_mfma_f32_32x32x4bf16"], [], 32, 32, 4, 1, 16,
     lambda b, i, k: ([32 * (k // 2) + i], z(k), h16(k)),
     "lane '32 * floor(k / 2) + i', reg '0.[16*(k % 2)+15 : 16*(k % 2)]'", E, o_32x32,
     "as 32x32", F)
# gfx950 (composable_kernel warp_gemm_attribute_mfma_impl.hpp lane constants): 8 consecutive k
# per lane, 2 per VGPR, low first.
S950 = "CK-MFMA (composable_kernel warp_gemm_attribute_mfma_impl.hpp lane constants)"
cdna([], [], 16, 16, 32, 1, 16, lambda b, i, k: ([16 * (k // 8) + i], (k % 8) // 2, h16(k)),
     "lane 16*floor(k/8)+i, element k%8 (2 per VGPR, low half first)", S950, o_16x16,
     "identical to 16x16x16", S950,
     archs_extra=[(G950, ["v_mfma_f32_16x16x32_f16", "v_mfma_f32_16x16x32_bf16"])])
cdna([], [], 32, 32, 16, 1, 16, lambda b, i, k: ([32 * (k // 8) + i], (k % 8) // 2, h16(k)),
     "lane 32*floor(k/8)+i, element k%8", S950, o_32x32, "identical to 32x32x8", S950,
     archs_extra=[(G950, ["v_mfma_f32_32x32x16_f16", "v_mfma_f32_32x32x16_bf16"])])

# gfx950 int8 with K doubled (IREE compiler/src/iree/compiler/Codegen/Dialect/GPU/IR/
# IREEGPUAttrs.cpp getSingleSubgroupLayout, MFMA_I32_16x16x64_I8 / MFMA_I32_32x32x32_I8:
# mfmaLhs16xK(64) / mfmaLhs32xK(32), 16 consecutive k per lane, 4 per VGPR, low byte first).
SI8 = "IREE IREEGPUAttrs.cpp getSingleSubgroupLayout (MFMA_I32_16x16x64_I8, _32x32x32_I8)"
cdna([], [], 16, 16, 64, 1, 8, lambda b, i, k: ([16 * (k // 16) + i], (k % 16) // 4, 8 * (k % 4)),
     "lane 16*floor(k/16)+i, GPR floor(k%16/4), byte k%4", SI8, o_16x16, "as 16x16", SI8,
     archs_extra=[(G950, ["v_mfma_i32_16x16x64_i8"])])
cdna([], [], 32, 32, 32, 1, 8, lambda b, i, k: ([32 * (k // 16) + i], (k % 16) // 4, 8 * (k % 4)),
     "lane 32*floor(k/16)+i, GPR floor(k%16/4), byte k%4", SI8, o_32x32, "as 32x32", SI8,
     archs_extra=[(G950, ["v_mfma_i32_32x32x32_i8"])])

# gfx950 f8f6f4, default selection cbsz = blgp = 0 (fp8 x fp8): composable_kernel
# test/mx_mfma_op/mx_mfma_op.hpp "Register Mapping for 16x128 / 32x64 for FP8" tables -- lanes
# 0-15 | 16-31 | 32-47 | 48-63 hold K0-15 | K16-31 | K32-47 | K48-63 in Reg 0-3 (byte k%4 of Reg
# (k%16)/4) and K64-79 | ... | K112-127 in Reg 4-7; 32x64: lanes 0-31 | 32-63, K0-15 | K16-31 in
# Reg 0-3 and K32-47 | K48-63 in Reg 4-7. B the same with j for i.
SMX = "CK test/mx_mfma_op/mx_mfma_op.hpp FP8 register-mapping tables"
cdna([], [], 16, 16, 128, 1, 8,
     lambda b, i, k: ([i + 16 * ((k % 64) // 16)], 4 * (k // 64) + (k % 16) // 4, 8 * (k % 4)),
     "K0-63: lane i+16*floor(k/16), Reg floor(k%16/4); K64-127: same lanes, Reg 4+..; byte k%4",
     SMX, o_16x16, "identical to 16x16x32", SMX,
     archs_extra=[(G950, ["v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4"])])
cdna([], [], 32, 32, 64, 1, 8,
     lambda b, i, k: ([i + 32 * ((k % 32) // 16)], 4 * (k // 32) + (k % 16) // 4, 8 * (k % 4)),
     "K0-31: lane i+32*floor(k/16), Reg floor(k%16/4); K32-63: same lanes, Reg 4+..; byte k%4",
     SMX, o_32x32, "identical to 32x32x16", SMX,
     archs_extra=[(G950, ["v_mfma_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"])])

# ---- RDNA3 (CALC) -------------------------------------------------------------------------------
S3 = "AMD Matrix Instruction Calculator (CALC), RDNA3"
R3_IN = {16: (["v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_f16_16x16x16_f16",
               "v_wmma_bf16_16x16x16_bf16"], 2), 8: (["v_wmma_i32_16x16x16_iu8"], 4),
         4: (["v_wmma_i32_16x16x16_iu4"], 8)}
for w in (32, 64):
    copies = w // 16
    for bits, (names, per) in R3_IN.items():
        for op, swap in (("A", False), ("B", True)):
            def fn(b, r, c, swap=swap, per=per, bits=bits, copies=copies):
                i, k = (c, r) if swap else (r, c)
                return [i + 16 * n for n in range(copies)], k // per, bits * (k % per)
            add(RDNA3, names, (op,), (1, 16, 16), bits, fn,
                f"{op}: lanes i+16n (n<{copies}), GPR floor(k/{per}), element k%{per}", S3, wave=w)
    rows = w // 16  # w32: GPR floor(i/2), lane 16*(i%2)+j ; w64: GPR floor(i/4), lane 16*(i%4)+j
    out = lambda b, i, j, rows=rows: ([16 * (i % rows) + j], i // rows, z(i))  # noqa: E731
    add(RDNA3, ["v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_i32_16x16x16_iu8",
                "v_wmma_i32_16x16x16_iu4"], CD, (1, 16, 16), 32, out,
        f"GPR floor(i/{rows}), lane 16*(i%{rows})+j", S3, wave=w)
    for opsel in (0, 4):  # OPSEL[2] picks the half of each register (CALC README)
        out16 = lambda b, i, j, rows=rows, o=opsel: (  # noqa: E731
            [16 * (i % rows) + j], i // rows, z(i) + (16 if o else 0))
        add(RDNA3, ["v_wmma_f16_16x16x16_f16", "v_wmma_bf16_16x16x16_bf16"], CD, (1, 16, 16), 16,
            out16, f"as 32-bit output, bits [{'31:16' if opsel else '15:0'}]", S3, wave=w,
            opsel=opsel)

# ---- RDNA4 (CALC; iu4 and wave64 16-bit output from CALC's InstCalcGfx12 equations) ----------
S4 = "AMD Matrix Instruction Calculator (CALC), RDNA4"
S4C = "CALC v1.3.1 InstCalcGfx12 printed equation"
F16N = ["v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_f16_16x16x16_f16",
        "v_wmma_bf16_16x16x16_bf16"]
B8N = ["v_wmma_i32_16x16x16_iu8"] + [f"v_wmma_f32_16x16x16_{a}_{b}" for a in ("fp8", "bf8")
                                      for b in ("fp8", "bf8")]
R4_IN = [
    (32, F16N, 16, 16, lambda i, k: (16 * ((k // 4) % 2) + i, 2 * (k // 8) + (k // 2) % 2, h16(k)),
     "lane 16*(floor(k/4)%2)+i, GPR 2*floor(k/8)+floor(k/2)%2, half k%2", S4),
    (64, F16N, 16, 16, lambda i, k: (32 * ((k // 8) % 2) + 16 * ((k // 4) % 2) + i, (k // 2) % 2,
                                     h16(k)),
     "lane 32*(floor(k/8)%2)+16*(floor(k/4)%2)+i, GPR floor(k/2)%2", S4),
    (32, B8N, 8, 16, lambda i, k: (16 * (k // 8) + i, (k // 4) % 2, 8 * (k % 4)),
     "lane 16*floor(k/8)+i, GPR floor(k/4)%2, byte k%4", S4),
    (64, B8N, 8, 16,
     lambda i, k: (32 * ((k // 4) % 2) + 16 * ((k // 8) % 2) + i, z(k), 8 * (k % 4)),
     "lane 32*(floor(k/4)%2)+16*(floor(k/8)%2)+i, GPR 0", S4),
    (32, ["v_wmma_i32_16x16x16_iu4"], 4, 16, lambda i, k: (16 * (k // 8) + i, z(k), 4 * (k % 8)),
     "lane 16*floor(k/8)+i, GPR 0, nibble k%8", S4C),
    (64, ["v_wmma_i32_16x16x16_iu4"], 4, 16, lambda i, k: (16 * (k // 8) + i, z(k), 4 * (k % 8)),
     "lane 16*floor(k/8)+i (only lanes 0-31 used), GPR 0, nibble k%8", S4C),
    (32, ["v_wmma_i32_16x16x32_iu4"], 4, 32, lambda i, k: (16 * (k // 16) + i, (k // 8) % 2,
                                                           4 * (k % 8)),
     "lane 16*floor(k/16)+i, GPR floor(k/8)%2, nibble k%8", S4C),
    (64, ["v_wmma_i32_16x16x32_iu4"], 4, 32,
     lambda i, k: (32 * ((k // 8) % 2) + 16 * ((k // 16) % 2) + i, z(k), 4 * (k % 8)),
     "lane 32*(floor(k/8)%2)+16*(floor(k/16)%2)+i, GPR 0, nibble k%8", S4C),
]
for w, names, bits, kk, f, text, src in R4_IN:
    add(RDNA4, names, ("A",), (1, 16, kk), bits,
        lambda b, r, c, f=f: (lambda t: ([t[0]], t[1], t[2]))(f(r, c)), "A: " + text, src, wave=w)
    add(RDNA4, names, ("B",), (1, kk, 16), bits,
        lambda b, r, c, f=f: (lambda t: ([t[0]], t[1], t[2]))(f(c, r)), "B: same with j", src,
        wave=w)
# ---- RDNA4 sparse WMMA, v_swmmac_* (CALC v1.3.1 InstCalcGfx12: the equations it prints with
# --detail-instruction; index sets per VGPR from get_num_compression_sets) --------------------
# The calculator addresses A and the compression index K[] by the *logical* k (0..K-1): the 4 k
# of a group floor(k/4) share one slot holding the group's 2 stored values (16-bit: the whole
# VGPR; narrower types: a 2*bits wide field) and one 4-bit index field. The reference stores the
# compressed A (M x K/2): stored element c = 2g + s is the s-th kept value of group g, in the
# low half of the group's slot for s = 0 (calculator README: the first stored value's index is
# in the low 2 bits of the field, the second's in the high 2). Index: 2 bits per stored value.
SC = "CALC v1.3.1 InstCalcGfx12 printed sparse equations (SWMMAC)"
SW = {  # name suffix -> (A/B bits, logical K)
    "f32_16x16x32_f16": (16, 32), "f32_16x16x32_bf16": (16, 32), "f16_16x16x32_f16": (16, 32),
    "bf16_16x16x32_bf16": (16, 32), "i32_16x16x32_iu8": (8, 32), "i32_16x16x32_iu4": (4, 32),
    "i32_16x16x64_iu4": (4, 64),
    **{f"f32_16x16x32_{a}_{b}": (8, 32) for a in ("fp8", "bf8") for b in ("fp8", "bf8")}}


def sw_a(bits, kk, w, i, k):
    """Printed A[i][k] (logical k): (GPR, low bit of the group's field, lane)."""
    if bits == 16:
        return ((2 * (k // 16) + (k // 4) % 2, z(k), 16 * ((k // 8) % 2) + i) if w == 32 else
                ((k // 4) % 2, z(k), 16 * (k // 8) + i))
    if bits == 8:
        return (((k // 8) % 2, 16 * ((k // 4) % 2), 16 * (k // 16) + i) if w == 32 else
                (z(k), 16 * ((k // 4) % 2), 32 * ((k // 8) % 2) + 16 * (k // 16) + i))
    if kk == 32:  # iu4, K = 32 (wave64: lanes 0-31 only)
        return z(k), 8 * ((k // 4) % 4), 16 * (k // 16) + i
    return (((k // 16) % 2, 8 * ((k // 4) % 4), 16 * (k // 32) + i) if w == 32 else
            (z(k), 8 * ((k // 4) % 4), 32 * ((k // 16) % 2) + 16 * (k // 32) + i))


def sw_index(bits, kk, w, k):
    """Printed compression[i][k] low bit (index set 0), and the number of index sets."""
    if w == 32:
        if bits == 16:
            return 8 * (k // 16) + 4 * ((k // 4) % 2), 2
        return (4 * ((k // 4) % 8), 1) if kk == 64 else (4 * ((k // 4) % 4), 2)
    if bits in (8, 16):
        return 4 * ((k // 4) % 2), 4
    return 4 * ((k // 4) % 4), 2


def sw_b(bits, kk, w, j, k):
    """Printed B[k][j]: (GPR, low bit, lane)."""
    lo = bits * (k % (32 // bits))
    if bits == 16:
        return ((4 * (k // 16) + (k // 2) % 4, lo, 16 * ((k // 8) % 2) + j) if w == 32 else
                ((k // 2) % 4, lo, 16 * (k // 8) + j))
    if bits == 8 or kk == 32:
        lane = 16 * (k // 16) + j if w == 32 else 32 * ((k // 8) % 2) + 16 * (k // 16) + j
        if bits == 8:
            return ((k // 4) % 4 if w == 32 else (k // 4) % 2), lo, lane
        return ((k // 8) % 2 if w == 32 else z(k)), lo, lane
    return (((k // 8) % 4, lo, 16 * (k // 32) + j) if w == 32 else
            ((k // 8) % 2, lo, 32 * ((k // 16) % 2) + 16 * (k // 32) + j))


for w in (32, 64):
    for bits, kk in sorted(set(SW.values())):
        names = ["v_swmmac_" + n for n, shape in SW.items() if shape == (bits, kk)]
        step = 16 if bits == 16 else bits  # offset of a group's second stored value

        def a_fn(b, i, c, bits=bits, kk=kk, w=w, step=step):
            gpr, lo, lane = sw_a(bits, kk, w, i, 4 * (c // 2))
            return [lane], gpr, lo + step * (c % 2)
        add(RDNA4, names, ("A",), (1, 16, kk // 2), bits, a_fn,
            "stored A[i][c]: value c%2 of group floor(c/2), in the slot printed for "
            "A[i][4*floor(c/2)]", SC, wave=w)

        def b_fn(b, k, j, bits=bits, kk=kk, w=w):
            gpr, lo, lane = sw_b(bits, kk, w, j, k)
            return [lane], gpr, lo
        add(RDNA4, names, ("B",), (1, kk, 16), bits, b_fn, "printed B[k][j]", SC, wave=w)
        sets = sw_index(bits, kk, w, 0)[1]
        for key in range(sets):
            def i_fn(b, i, c, bits=bits, kk=kk, w=w, key=key, sets=sets):
                k = 4 * (c // 2)
                lane = sw_a(bits, kk, w, i, k)[2]
                return [lane], z(c), sw_index(bits, kk, w, k)[0] + 2 * (c % 2) + key * 32 // sets
            add(RDNA4, names, ("I",), (1, 16, kk // 2), 2, i_fn,
                f"printed compression[i][4*floor(c/2)] + 2*(c%2), index set {key} of {sets}",
                SC, wave=w, opsel=key)

O32 = ["v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_i32_16x16x16_iu8",
       "v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x32_iu4"] + B8N[1:] + [
    "v_swmmac_" + n for n in SW if not n.startswith(("f16_", "bf16_"))]
add(RDNA4, O32, CD, (1, 16, 16), 32, lambda b, i, j: ([16 * (i // 8) + j], i % 8, z(i)),
    "GPR i%8, lane 16*floor(i/8)+j", S4, wave=32)
add(RDNA4, O32, CD, (1, 16, 16), 32,
    lambda b, i, j: ([32 * ((i // 4) % 2) + 16 * (i // 8) + j], i % 4, z(i)),
    "GPR i%4, lane 32*(floor(i/4)%2)+16*floor(i/8)+j", S4, wave=64)
O16 = ["v_wmma_f16_16x16x16_f16", "v_wmma_bf16_16x16x16_bf16", "v_swmmac_f16_16x16x32_f16",
       "v_swmmac_bf16_16x16x32_bf16"]
add(RDNA4, O16, CD, (1, 16, 16), 16,
    lambda b, i, j: ([16 * (i // 8) + j], (i // 2) % 4, 16 * (i % 2)),
    "GPR floor(i/2)%4, half i%2, lane 16*floor(i/8)+j", S4, wave=32)
add(RDNA4, O16, CD, (1, 16, 16), 16,
    lambda b, i, j: ([32 * ((i // 4) % 2) + 16 * (i // 8) + j], (i // 2) % 2, 16 * (i % 2)),
    "GPR floor(i/2)%2, half i%2, lane 32*(floor(i/4)%2)+16*floor(i/8)+j", S4C, wave=64)


def main() -> None:
    out = HERE / "reference_layouts.json"
    text = json.dumps({"generator": "tests/data/layouts/gen_reference.py", "entries": ENTRIES},
                      separators=(",", ":"))
    out.write_text(text + "\n")
    print(f"wrote {len(ENTRIES)} entries, {out.stat().st_size} bytes to {out}")


if __name__ == "__main__":
    main()
