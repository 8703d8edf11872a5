"""VALU cross-lane moves: v_readfirstlane/v_readlane (VGPR lane -> SGPR), v_writelane (SGPR ->
one VGPR lane, ignoring EXEC), v_swap_b32, gfx950's v_permlane16_swap_b32/v_permlane32_swap_b32
and v_nop.

Semantics: CDNA3 ISA guide, per-opcode descriptions.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import row_of, sread32, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction

U32 = np.uint32


@semantic("v_readfirstlane_b32")
def _readfirstlane(d: Decoded):
    dst, src = d.ops
    if d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "modifiers")
    rd = vread32(src, d.kernel.n_vgpr)
    slot = dst.idx

    def run(st, g):
        x = np.broadcast_to(rd(st, g), (g.w, 64))
        em = st.EM[g.ix]
        first = np.where(em.any(-1), em.argmax(-1), 0)  # EXEC == 0: lane 0 (CDNA3 ISA)
        st.swrite(slot, g, x[np.arange(g.w), first])
    return run


@semantic("v_readlane_b32")
def _readlane(d: Decoded):
    dst, src, lane = d.ops
    rd = vread32(src, d.kernel.n_vgpr)
    rl = sread32(lane)
    slot = dst.idx

    def run(st, g):
        x = np.broadcast_to(rd(st, g), (g.w, 64))
        ln = np.broadcast_to(rl(st, g) & U32(63), (g.w,)).astype(np.int64)
        st.swrite(slot, g, x[np.arange(g.w), ln])
    return run


@semantic("v_writelane_b32")
def _writelane(d: Decoded):
    dst, src, lane = d.ops
    rs = sread32(src)
    rl = sread32(lane)
    r = row_of(dst, d.kernel.n_vgpr)

    def run(st, g):
        v = np.broadcast_to(rs(st, g), (g.w,))
        ln = np.broadcast_to(rl(st, g) & U32(63), (g.w,)).astype(np.int64)
        m = np.zeros((g.w, 64), bool)
        m[np.arange(g.w), ln] = True  # ignores EXEC (CDNA3 ISA V_WRITELANE_B32)
        st.vwrite_masked(r, g, v[:, None], m)
    return run


@semantic("v_swap_b32")
def _swap(d: Decoded):
    a, b = d.ops
    nv = d.kernel.n_vgpr
    ra, rb = row_of(a, nv), row_of(b, nv)

    def run(st, g):
        x = st.R[ra, g.ix].copy()
        y = st.R[rb, g.ix].copy()
        st.vwrite(ra, g, y)
        st.vwrite(rb, g, x)
    return run


@semantic("v_permlane16_swap_b32", "v_permlane32_swap_b32")
def _permlane_swap(d: Decoded):
    """CDNA4 ISA V_PERMLANE16_SWAP_B32: "odd rows of the first operand are swapped with even
    rows of the second operand (one row is 16 lanes)" -- for pass 0..1, lane 0..15: swap
    SRC0[32*pass + lane] with VDST[32*pass + lane + 16]; V_PERMLANE32_SWAP_B32: "rows 2 and 3
    of the first operand are swapped with rows 0 and 1 of the second". Both registers are
    written. The fi/bound_ctrl bits only matter for inactive lanes, so a partial EXEC is
    refused rather than guessed."""
    for k in d.mods:
        if k not in ("fi", "bound_ctrl"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    vdst, src0 = d.ops
    if vdst.kind not in ("v", "a") or src0.kind not in ("v", "a"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operands must be VGPRs")
    nv = d.kernel.n_vgpr
    rd, rs = row_of(vdst, nv), row_of(src0, nv)
    lanes = np.arange(64)
    if d.base == "v_permlane16_swap_b32":
        hi = lanes[(lanes // 16) % 2 == 1]  # VDST's odd rows ...
        lo = hi - 16  # ... meet SRC0's even rows
    else:
        hi, lo = lanes[32:], lanes[:32]

    def run(st, g):
        if not st.EM[g.ix].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; the swap with inactive lanes (fi/bound_ctrl) is "
                                "not modelled")
        x = st.R[rd, g.ix].copy()
        y = x if rs == rd else st.R[rs, g.ix].copy()  # one register: its rows trade places
        x_hi, y_lo = x[:, hi].copy(), y[:, lo].copy()
        x[:, hi] = y_lo
        y[:, lo] = x_hi
        st.vwrite(rd, g, x)
        if rs != rd:
            st.vwrite(rs, g, y)
    return run


@semantic("v_nop")
def _vnop(d: Decoded):
    return lambda st, g: None
