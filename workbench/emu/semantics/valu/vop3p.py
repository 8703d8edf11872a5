"""VOP3P: packed math (v_pk_* on 16-bit halves and, gfx90a+, on 32-bit register pairs) and the
mixed-precision v_fma_mix*.

Source selection (CDNA3 ISA "VOP3P"): the low result takes source i's half (or dword, for
packed f32) ``op_sel[i]``, the high result takes ``op_sel_hi[i]`` (default 1); ``neg_lo[i]`` /
``neg_hi[i]`` negate the source for the low / high result. A constant operand fills the low
half/dword only (LLVM selects it for both results with op_sel_hi = 0, as clang emits).
v_fma_mix*: ``op_sel_hi[i] = 1`` makes source i an f16 taken from half ``op_sel[i]``, else f32
(default 0: without op_sel_hi every source is an f32); mixlo/mixhi write an f16 into the
low/high half and keep the other half.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import row_of, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...numerics.floats import flush, flush_dst, flush_src
from ...numerics.vfloat import fma16, fma32, maximum, maximum3, maxnum, minimum, minimum3, minnum

U32, F16, F32 = np.uint32, np.float16, np.float32

PK16 = {  # name: (element type, number of sources, fn)
    "v_pk_add_f16": ("f16", 2, lambda a, b: a + b),
    "v_pk_mul_f16": ("f16", 2, lambda a, b: a * b),
    "v_pk_fma_f16": ("f16", 3, fma16),
    # V_PK_MIN_F16 / V_PK_MAX_F16: per half "D0[15:0].f16 = v_min_f16(S0[15:0].f16, ...)"
    # (RDNA3.5 ISA, VOP3P opcodes 17/18), i.e. V_MIN_F16: NaN -> other operand, -0 < +0
    "v_pk_min_f16": ("f16", 2, minnum), "v_pk_max_f16": ("f16", 2, maxnum),
    # RDNA4 ISA V_PK_MINIMUM_F16 / V_PK_MAXIMUM_F16: "tmp[15 : 0].f16 = v_minimum_f16(S0[15 : 0]
    # .f16, S1[15 : 0].f16)" per half; CDNA4 ISA V_PK_MINIMUM3_F16 / V_PK_MAXIMUM3_F16 (opcodes
    # 27/28): v_minimum3_f16 per half -- IEEE minimum(), a NaN in any operand gives NaN
    "v_pk_minimum_f16": ("f16", 2, minimum), "v_pk_maximum_f16": ("f16", 2, maximum),
    "v_pk_minimum3_f16": ("f16", 3, minimum3), "v_pk_maximum3_f16": ("f16", 3, maximum3),
    "v_pk_add_u16": ("u16", 2, lambda a, b: a + b), "v_pk_sub_u16": ("u16", 2, lambda a, b: a - b),
    "v_pk_add_i16": ("i16", 2, lambda a, b: a + b), "v_pk_sub_i16": ("i16", 2, lambda a, b: a - b),
    "v_pk_mul_lo_u16": ("u16", 2, lambda a, b: a * b),
    "v_pk_min_u16": ("u16", 2, np.minimum), "v_pk_max_u16": ("u16", 2, np.maximum),
    "v_pk_min_i16": ("i16", 2, np.minimum), "v_pk_max_i16": ("i16", 2, np.maximum),
    "v_pk_lshlrev_b16": ("u16", 2, lambda a, b: b << (a & np.uint16(15))),
    "v_pk_lshrrev_b16": ("u16", 2, lambda a, b: b >> (a & np.uint16(15))),
    "v_pk_ashrrev_i16": ("i16", 2, lambda a, b: b >> (a & np.int16(15))),
    "v_pk_mad_u16": ("u16", 3, lambda a, b, c: a * b + c),
    "v_pk_mad_i16": ("i16", 3, lambda a, b, c: a * b + c),
}
PK32 = {  # packed f32 on register pairs (gfx90a+)
    "v_pk_add_f32": (2, lambda a, b: a + b),
    "v_pk_mul_f32": (2, lambda a, b: a * b),
    "v_pk_fma_f32": (3, fma32),
    "v_pk_mov_b32": (2, None),
}
_T = {"f16": F16, "u16": np.uint16, "i16": np.int16}


def _mods(d: Decoded, n: int, sel_hi_default: int = 1):
    """(op_sel, op_sel_hi, neg_lo, neg_hi, clamp) of a VOP3P instruction's disassembly. LLVM
    leaves out op_sel_hi when it has its default: all 1s for packed math, all 0s (every source
    an f32) for v_fma_mix* (llvm-mc encodes `v_fma_mixlo_f16 v0, s0, v0, 0` with OPSEL_HI = 0)."""
    allowed = {"op_sel", "op_sel_hi", "neg_lo", "neg_hi", "clamp"}
    for k in d.mods:
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")

    def lst(name, default):
        v = d.mods.get(name, [default] * n)
        v = v if isinstance(v, list) else [v]
        return [int(x) for x in v] + [default] * (n - len(v))
    return (lst("op_sel", 0), lst("op_sel_hi", sel_hi_default), lst("neg_lo", 0), lst("neg_hi", 0),
            bool(d.mods.get("clamp")))


def _half(x, hi: int):
    return ((x >> U32(16)) if hi else x) & U32(0xFFFF)


def _build_pk16(d: Decoded):
    t, n, fn = PK16[d.base]
    dst, *srcs = d.ops
    if len(srcs) != n:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    sel, sel_hi, neg_lo, neg_hi, clamp = _mods(d, n)
    if clamp and t != "f16":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "integer clamp")
    nv = d.kernel.n_vgpr
    rd = [vread32(s, nv, 0, 16, t == "f16") for s in srcs]
    for s in srcs:
        if s.neg or s.abs:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "VOP3P uses neg_lo/hi")
    dt = _T[t]
    fs = t == "f16" and flush_src(d.kernel.denorm16_64)
    fd = t == "f16" and flush_dst(d.kernel.denorm16_64)
    row = row_of(dst, nv)

    def part(xs, sels, negs):
        vals = []
        for x, s, ng in zip(xs, sels, negs):
            v = _half(x, s).astype(np.uint16).view(dt)
            if ng:
                v = -v
            if fs:
                v = flush(v)
            vals.append(v)
        r = np.asarray(fn(*vals), dt)
        if clamp:
            r = np.where(np.isnan(r), dt(0), np.clip(r, 0, 1)).astype(dt)
        if fd:
            r = flush(r)
        return r.view(np.uint16).astype(U32)

    def run(st, g):
        xs = [np.asarray(r(st, g), U32) for r in rd]
        lo = part(xs, sel, neg_lo)
        hi = part(xs, sel_hi, neg_hi)
        st.vwrite(row, g, lo | (hi << U32(16)))
    return run


def _build_pk32(d: Decoded):
    n, fn = PK32[d.base]
    dst, *srcs = d.ops
    if len(srcs) != n:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    sel, sel_hi, neg_lo, neg_hi, clamp = _mods(d, n)
    nv = d.kernel.n_vgpr
    rd = [(vread32(s, nv, 0, 32, True), vread32(s, nv, 1, 32, True) if s.kind != "imm"
           and s.kind != "fimm" else None) for s in srcs]
    fs = flush_src(d.kernel.denorm32)
    fd = flush_dst(d.kernel.denorm32)
    row = row_of(dst, nv)
    mov = fn is None

    def pick(st, g, k, s):
        r0, r1 = rd[k]
        return r0(st, g) if (s == 0 or r1 is None) else r1(st, g)

    def part(st, g, sels, negs):
        vals = []
        for k, (s, ng) in enumerate(zip(sels, negs)):
            v = pick(st, g, k, s)
            if mov:
                vals.append(v)
                continue
            v = np.asarray(v, U32).view(F32)
            if ng:
                v = -v
            vals.append(flush(v) if fs else v)
        if mov:  # v_pk_mov_b32: lo <- src0[op_sel[0]], hi <- src1[op_sel[1]]
            return None
        r = np.asarray(fn(*vals), F32)
        if clamp:
            r = np.where(np.isnan(r), F32(0), np.clip(r, 0, 1)).astype(F32)
        return (flush(r) if fd else r).view(U32)

    def run(st, g):
        if mov:
            lo = pick(st, g, 0, sel[0])
            hi = pick(st, g, 1, sel[1])
        else:
            lo = part(st, g, sel, neg_lo)
            hi = part(st, g, sel_hi, neg_hi)
        lo = np.broadcast_to(lo, (g.w, 64)).copy()  # read both before writing either half
        hi = np.broadcast_to(hi, (g.w, 64)).copy()
        st.vwrite(row, g, lo)
        st.vwrite(row + 1, g, hi)
    return run


@semantic("v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16")
def _build_mix(d: Decoded):
    dst, *srcs = d.ops
    sel, sel_hi, neg_lo, _neg_hi, clamp = _mods(d, 3, sel_hi_default=0)
    nv = d.kernel.n_vgpr
    rd = [vread32(s, nv, 0, 32, True) for s in srcs]
    absf = [s.abs for s in srcs]
    negf = [s.neg for s in srcs]
    row = row_of(dst, nv)
    out = d.base

    def run(st, g):
        vals = []
        for k in range(3):
            x = np.asarray(rd[k](st, g), U32)
            if sel_hi[k]:  # f16 source from half op_sel[k]
                v = _half(x, sel[k]).astype(np.uint16).view(F16).astype(np.float64)
            else:
                v = x.view(F32).astype(np.float64)
            if absf[k]:
                v = np.abs(v)
            if negf[k] or neg_lo[k]:
                v = -v
            vals.append(v)
        r = vals[0] * vals[1] + vals[2]  # exact product in f64, one rounding below
        if out == "v_fma_mix_f32":
            res = r.astype(F32)
            if clamp:
                res = np.where(np.isnan(res), F32(0), np.clip(res, 0, 1)).astype(F32)
            st.vwrite(row, g, res.view(U32))
            return
        h = r.astype(F16)
        if clamp:
            h = np.where(np.isnan(h), F16(0), np.clip(h, 0, 1)).astype(F16)
        hb = h.view(np.uint16).astype(U32)
        old = st.R[row, g.ix]
        val = (old & U32(0xFFFF0000)) | hb if out == "v_fma_mixlo_f16" else \
            (old & U32(0xFFFF)) | (hb << U32(16))
        st.vwrite(row, g, val)
    return run


for _n in PK16:
    semantic(_n)(_build_pk16)
for _n in PK32:
    semantic(_n)(_build_pk32)
