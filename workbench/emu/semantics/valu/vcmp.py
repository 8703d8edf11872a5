"""VALU compares (VOPC, v_cmp_* / v_cmpx_* over f16/f32/f64 and 16/32/64-bit integers, and
v_cmp_class): the result is a lane mask in an SGPR pair (and EXEC for cmpx).

Semantics: CDNA3 ISA guide, "VOPC" and V_CMP_CLASS_F32. One table (``CMPS``: mnemonic ->
(type, predicate, writes EXEC)) and one builder.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...machine.state import EXEC, NULL
from ...numerics.floats import flush_src
from .table import _TYPED, _typed_reader, src_reader


def cls(x, mask):
    """V_CMP_CLASS: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0, 7 +denorm,
    8 +normal, 9 +inf (CDNA3 ISA V_CMP_CLASS_F32)."""
    x = np.asarray(x)
    mask = np.asarray(mask).astype(np.uint32)
    info = np.finfo(x.dtype)
    nan = np.isnan(x)
    neg = np.signbit(x)
    ax = np.abs(x)
    inf = np.isinf(x)
    zero = ax == 0
    den = (ax < info.tiny) & ~zero
    norm = ~nan & ~inf & ~zero & ~den
    # quiet bit: the top mantissa bit
    ib = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    qbit = ib(1) << ib(info.nmant - 1)
    quiet = (x.view(ib) & qbit) != 0
    res = np.zeros(np.broadcast(x, mask).shape, bool)
    for bit, cond in ((0, nan & ~quiet), (1, nan & quiet), (2, inf & neg), (3, norm & neg),
                      (4, den & neg), (5, zero & neg), (6, zero & ~neg), (7, den & ~neg),
                      (8, norm & ~neg), (9, inf & ~neg)):
        res |= cond & (((mask >> np.uint32(bit)) & np.uint32(1)) != 0)
    return res



FCMP = {
    "f": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "lg": lambda a, b: (a < b) | (a > b), "ge": np.greater_equal,
    "o": lambda a, b: ~np.isnan(a) & ~np.isnan(b),
    "u": lambda a, b: np.isnan(a) | np.isnan(b),
    "nge": lambda a, b: ~(a >= b), "nlg": lambda a, b: ~((a < b) | (a > b)),
    "ngt": lambda a, b: ~(a > b), "nle": lambda a, b: ~(a <= b),
    "neq": lambda a, b: ~(a == b), "nlt": lambda a, b: ~(a < b),
    "tru": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}
_ICMP = {
    "f": FCMP["f"], "lt": np.less, "eq": np.equal, "le": np.less_equal, "gt": np.greater,
    "ne": np.not_equal, "lg": np.not_equal, "ge": np.greater_equal, "t": FCMP["tru"],
}
_pack, _BOOL = np.packbits, np.dtype(bool)
CMPS: dict[str, tuple[str, Callable, bool]] = {}
for _t in ("f16", "f32", "f64"):
    for _c, _f in FCMP.items():
        CMPS[f"v_cmp_{_c}_{_t}"] = (_t, _f, False)
        CMPS[f"v_cmpx_{_c}_{_t}"] = (_t, _f, True)
    CMPS[f"v_cmp_class_{_t}"] = (_t, cls, False)
    CMPS[f"v_cmpx_class_{_t}"] = (_t, cls, True)
for _t in ("i16", "u16", "i32", "u32", "i64", "u64"):
    for _c, _f in _ICMP.items():
        CMPS[f"v_cmp_{_c}_{_t}"] = (_t, _f, False)
        CMPS[f"v_cmpx_{_c}_{_t}"] = (_t, _f, True)



def _build_cmp(d: Decoded):
    t, f, is_x = CMPS[d.base]
    nv = d.kernel.n_vgpr
    ops = list(d.ops)
    allowed = {"clamp"}
    if d.kernel.gen >= 11:
        # GFX11+ VOP3 compares on 16-bit halves print op_sel next to the .h operand
        # ("v_cmp_lt_f16_e64 s2, v3.h, v0.l op_sel:[1,0,0]": LLVM's real-true16 syntax; op_sel
        # bit i selects the high half of source i, RDNA3 ISA "VOP3" OPSEL)
        allowed.add("op_sel")
    if d.encoding == "sdwa":
        allowed |= {"src0_sel", "src1_sel"}
    if d.encoding == "dpp":
        # LLVM 19 neither selects, assembles ("dpp variant of this instruction is not
        # supported") nor disassembles VOPC DPP for gfx942 (objdump prints the words as
        # .long), so no listing can carry one; refuse if one ever appears.
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 "VOPC DPP (not a gfx942 encoding in LLVM 19)")
    for k in d.mods:
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k!r}")
    # e32: "v_cmp_* vcc, a, b"; e64: "v_cmp_* s[n:n+1], a, b"; cmpx e32 on gfx9 also writes vcc?
    # gfx9 V_CMPX writes EXEC and the SGPR destination (vcc for e32) (CDNA3 ISA VOPC).
    if len(ops) == 3:
        sd, a, b = ops
    elif len(ops) == 2 and is_x:
        sd, (a, b) = None, ops
    else:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand count")
    sdwa = d.encoding == "sdwa"
    sel = [6, 6]
    sx = [False, False]
    if sdwa:
        sw = d.inst.words[1]
        sel = [(sw >> 16) & 7, (sw >> 24) & 7]
        sx = [bool((sw >> 19) & 1), bool((sw >> 27) & 1)]
        if (sw >> 15) & 1:  # SD: explicit SGPR destination in bits 14:8
            pass
    fl = flush_src(d.kernel.denorm16_64 if t in ("f16", "f64") else d.kernel.denorm32)
    isf = t[0] == "f"
    opsel = d.mods.get("op_sel", [0, 0])
    opsel = opsel if isinstance(opsel, list) else [opsel]
    hi = [bool(i < len(opsel) and opsel[i]) for i in range(2)]
    if (hi[0] or hi[1]) and t not in ("f16", "i16", "u16"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a 32/64-bit compare")
    ra = src_reader(d, a, t, nv, hi=a.half == "h" or hi[0], sel=sel[0], sext=sx[0],
                    flush_in=fl and isf)
    rb = src_reader(d, b, "u32" if f is cls else t, nv, hi=b.half == "h" or hi[1], sel=sel[1],
                    sext=sx[1])
    if not sdwa and not (fl and isf) and not any(hi) and t in _TYPED and f is not cls and all(
            not (o.neg or o.abs or o.sext or o.half)
            and o.kind in ("v", "a", "s", "imm", "fimm", "const") for o in (a, b)):
        # plain 32-bit sources: read through the typed register views (valu's fast path)
        ra, rb = _typed_reader(a, t, nv), _typed_reader(b, t, nv)
    slot = sd.idx if sd is not None else None
    if sd is not None and sd.kind != "s":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "compare into a non-SGPR")

    # one wave with every lane in EXEC writing an SGPR pair other than exec/null: the mask's
    # bits as one Python int (no EXEC AND, no [w, 64] lane-mask write)
    solo_ok = not is_x and slot is not None and slot not in (EXEC, EXEC + 1, NULL)

    def run(st, g):
        res = f(ra(st, g), rb(st, g))
        if solo_ok and g.w == 1 and st.full[g.ix.start] and getattr(res, "size", 0) == 64 \
                and res.dtype == _BOOL:
            j = g.ix.start
            bits = int.from_bytes(_pack(res, None, "little"), "little")
            st.S[slot, j] = bits & 0xFFFFFFFF
            st.S[slot + 1, j] = bits >> 32
            return
        res = res & st.EM[g.ix]  # broadcasts to [w, 64]
        if slot is not None:
            st.write_lanemask(slot, g, res)
        if is_x:
            st.write_lanemask(126, g, res)

    return run


for _n in CMPS:
    semantic(_n, family="valu.vcmp")(_build_cmp)
