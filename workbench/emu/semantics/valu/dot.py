"""Dot-product instructions of gfx942: v_dot2_f32_f16, v_dot2_{i32_i16,u32_u16},
v_dot4_{i32_i8,u32_u8}, v_dot8_{i32_i4,u32_u4} (VOP3P) and their accumulate-into-D VOP2 forms
v_dot2c_f32_f16, v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4.

Semantics (CDNA3 ISA guide, opcode descriptions of V_DOT2_F32_F16 ... V_DOT8C_I32_I4;
LLVM IntrinsicsAMDGPU.td int_amdgcn_fdot2/sdot2/udot2/sdot4/udot4/sdot8/udot8):
``D = sum_k S0[k] * S1[k] + S2`` over the 2 / 4 / 8 packed elements (16/8/4-bit, element k in
bits [k*w, (k+1)*w)); the *c forms use D itself as S2. The gfx942 instruction set has no bf16
dot (llvm-mc: v_dot2_f32_bf16 "not supported on this GPU"; the fdot2_*bf16 builtins need
dot9-insts), nor the mixed-sign sudot4/8 (dot8-insts). gfx950 adds v_dot2_f32_bf16 and
v_dot2c_f32_bf16 (llvm-mc -mcpu=gfx950 encodes both; clang's __builtin_amdgcn_fdot2_f32_bf16,
feature dot12-insts, emits v_dot2c_f32_bf16_e32): the f16 rules below with bf16 elements.

Rounding and clamp:
* f16 / bf16 dot: the products of f16 (bf16) values are exact, and the emulator rounds the exact
  ``p0 + p1 + S2`` once to f32 (the ISA does not spell out intermediate rounding; a single
  rounding is the fused reading). ``clamp`` clamps the f32 result to [0, 1] (VOP3P clamp on a
  float result, CDNA3 ISA "Output modifiers"; NaN -> 0 under DX10_CLAMP).
* integer dots: the exact sum wraps to 32 bits; with ``clamp`` it saturates to the signed or
  unsigned 32-bit range (LLVM int_amdgcn_sdot4 "clamp": saturating accumulate).
Modifiers: gfx942 accepts no op_sel/op_sel_hi on the dots (llvm-mc -mcpu=gfx942: "invalid
op_sel operand"), so elements are always in order. ``neg_lo``/``neg_hi`` negate element 0/1 of
an f16 source (VOP3P NEG_LO/NEG_HI, CDNA3 ISA "VOP3P"); on the f32 accumulator ``neg_lo``
negates it, the reading LLVM uses for 32-bit operands of VOP3P (as in v_fma_mix_f32).
Negation of integer elements and ``neg_hi`` on the accumulator are not defined anywhere we
can cite and raise.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import row_of, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...numerics.floats import flush_dst, flush_src
from ...numerics.vfloat import sum_odd
from .table import Op, build_generic
from .vop3p import _mods

U32, I64, F32, F64 = np.uint32, np.int64, np.float32, np.float64

# name -> (element kind, elements, accumulator/result type)
DOTS = {
    "v_dot2_f32_f16": ("f16", 2, "f32"),
    "v_dot2_f32_bf16": ("bf16", 2, "f32"),  # gfx950
    "v_dot2_i32_i16": ("i16", 2, "i32"),
    "v_dot2_u32_u16": ("u16", 2, "u32"),
    "v_dot4_i32_i8": ("i8", 4, "i32"),
    "v_dot4_u32_u8": ("u8", 4, "u32"),
    "v_dot8_i32_i4": ("i4", 8, "i32"),
    "v_dot8_u32_u4": ("u4", 8, "u32"),
}
DOTC = {"v_dot2c_f32_f16": "v_dot2_f32_f16", "v_dot2c_f32_bf16": "v_dot2_f32_bf16",
        "v_dot2c_i32_i16": "v_dot2_i32_i16",
        "v_dot4c_i32_i8": "v_dot4_i32_i8", "v_dot8c_i32_i4": "v_dot8_i32_i4"}


def elements(x, kind: str, n: int) -> list:
    """The n packed elements of uint32 ``x`` as float64 (f16/bf16) or int64 arrays."""
    x = np.asarray(x, U32)
    if kind == "bf16":
        return [(((x >> U32(16 * k)) & U32(0xFFFF)) << U32(16)).view(F32).astype(F64)
                for k in range(n)]
    if kind == "f16":
        return [((x >> U32(16 * k)) & U32(0xFFFF)).astype(np.uint16).view(np.float16)
                .astype(F64) for k in range(n)]
    w = 32 // n
    m = (1 << w) - 1
    out = []
    for k in range(n):
        v = ((x >> U32(w * k)) & U32(m)).astype(I64)
        if kind[0] == "i":
            v = np.where(v >= (1 << (w - 1)), v - (1 << w), v)
        out.append(v)
    return out


def sum_f32(terms) -> np.ndarray:
    """The exact sum of float64 terms (each exact: f16 products, an f32 addend) rounded once to
    float32: TwoSum keeps every error term; the last addition is rounded to odd so that the
    final f32 rounding is correct (see vfloat.sum_odd)."""
    s = terms[0]
    err = np.zeros(np.shape(s), F64)
    for t in terms[1:]:
        n = s + t
        bb = n - s
        err = err + ((s - (n - bb)) + (t - bb))
        s = n
    with np.errstate(invalid="ignore"):
        r = sum_odd(s, err)
    return np.asarray(np.where(np.isfinite(s), r, s), F64).astype(F32)


def dot(a_el: list, b_el: list, c, acc: str, clamp: bool):
    """S0 . S1 + S2 on element lists; c is float32 (f32 acc) or uint32 bits (integer acc)."""
    if acc == "f32":
        with np.errstate(invalid="ignore", over="ignore"):
            prods = [x * y for x, y in zip(a_el, b_el)]
        r = sum_f32(prods + [np.asarray(c, F32).astype(F64)])
        if clamp:
            r = np.where(np.isnan(r), F32(0), np.clip(r, F32(0), F32(1))).astype(F32)
        return r.view(U32)
    cc = np.asarray(c, U32)
    cc = cc.view(np.int32).astype(I64) if acc == "i32" else cc.astype(I64)
    s = cc
    for x, y in zip(a_el, b_el):
        s = s + x * y
    if clamp:
        lo, hi = (-(1 << 31), (1 << 31) - 1) if acc == "i32" else (0, (1 << 32) - 1)
        s = np.clip(s, lo, hi)
    return (s & 0xFFFFFFFF).astype(U32)


def _check_modes(d: Decoded, kind: str, acc: str) -> None:
    """Denormal flushing is not modelled for the dot unit; refuse rather than guess."""
    if kind == "f16" and flush_src(d.kernel.denorm16_64):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "f16 input flush mode")
    if acc == "f32" and (flush_src(d.kernel.denorm32) or flush_dst(d.kernel.denorm32)):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "f32 denormal flush mode")


@semantic(*DOTS)
def _build_dot(d: Decoded):
    kind, n, acc = DOTS[d.base]
    _check_modes(d, kind, acc)
    dst, *srcs = d.ops
    if len(srcs) != 3:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    if "op_sel" in d.mods or "op_sel_hi" in d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a gfx942 dot")
    _sel, _sel_hi, neg_lo, neg_hi, clamp = _mods(d, 3)
    if neg_hi[2]:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg_hi on the accumulator")
    if kind not in ("f16", "bf16") and (any(neg_lo) or any(neg_hi)):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg on integer elements")
    if any(s.neg or s.abs for s in srcs):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "VOP3P uses neg_lo/neg_hi")
    nv = d.kernel.n_vgpr
    fl = kind in ("f16", "bf16")
    if kind == "bf16" and any(x.kind in ("imm", "fimm") for x in srcs[:2]):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 "inline constant on a packed bf16 source")
    rd = [vread32(s, nv, 0, 16 if kind == "f16" and k < 2 else 32, fl or k == 2)
          for k, s in enumerate(srcs)]
    row = row_of(dst, nv)

    def operand(x, k):
        el = elements(np.asarray(x, U32), kind, n)
        if fl:
            el[0] = -el[0] if neg_lo[k] else el[0]
            el[1] = -el[1] if neg_hi[k] else el[1]
        return el

    def run(st, g):
        a = operand(rd[0](st, g), 0)
        b = operand(rd[1](st, g), 1)
        c = np.asarray(rd[2](st, g), U32)
        if acc == "f32":
            c = -c.view(F32) if neg_lo[2] else c.view(F32)
        st.vwrite(row, g, dot(a, b, c, acc, clamp))
    return run


# RDNA3/RDNA4 mixed-sign integer dots (RDNA3 ISA V_DOT4_I32_IU8 / V_DOT8_I32_IU4: "NEG[0]
# indicates S0 is signed, NEG[1] indicates S1 is signed"; LLVM int_amdgcn_sudot4/sudot8 put
# the two sign flags in neg_lo[0]/neg_lo[1]): D.i32 = sum S0[k] * S1[k] + S2, wrapping, or
# saturating with clamp
DOTS_IU = {"v_dot4_i32_iu8": (4, 8), "v_dot8_i32_iu4": (8, 4)}


@semantic(*DOTS_IU)
def _build_dot_iu(d: Decoded):
    n, w = DOTS_IU[d.base]
    dst, *srcs = d.ops
    if len(srcs) != 3:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    if "op_sel" in d.mods or "op_sel_hi" in d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on an integer dot")
    _sel, _sel_hi, neg_lo, neg_hi, clamp = _mods(d, 3)
    if neg_lo[2] or any(neg_hi) or any(s.neg or s.abs for s in srcs):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg on the accumulator")
    nv = d.kernel.n_vgpr
    rd = [vread32(s, nv, 0, 32, False) for s in srcs]
    kinds = [("i" if neg_lo[k] else "u") + str(w) for k in range(2)]
    row = row_of(dst, nv)

    def run(st, g):
        a = elements(np.asarray(rd[0](st, g), U32), kinds[0], n)
        b = elements(np.asarray(rd[1](st, g), U32), kinds[1], n)
        st.vwrite(row, g, dot(a, b, np.asarray(rd[2](st, g), U32), "i32", clamp))
    return run


def _dotc_fn(base: str):
    kind, n, acc = DOTS[base]

    def fn(a, b, c):
        cc = np.asarray(c, F32) if acc == "f32" else np.asarray(c).astype(U32)
        return dot(elements(a, kind, n), elements(b, kind, n), cc, acc, False)
    return fn


DOTC_OPS = {name: Op("u32", ("u32", "u32", "f32" if DOTS[base][2] == "f32" else "u32"),
                     _dotc_fn(base), "acc") for name, base in DOTC.items()}


@semantic(*DOTC)
def _build_dotc(d: Decoded):
    """VOP2 accumulate forms (D = S0 . S1 + D), through the generic VALU builder so that their
    DPP/SDWA variants work; the packed sources are raw 32-bit operands."""
    kind, _n, acc = DOTS[DOTC[d.base]]
    _check_modes(d, kind, acc)
    if d.mods.get("clamp") or "mul" in d.mods or "div" in d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "output modifier")
    return build_generic(d, DOTC_OPS[d.base])
