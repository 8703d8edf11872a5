"""VGPR indexing: M0-relative moves (v_movrels/v_movreld/v_movrelsd/v_movrelsd_2_b32) and
gfx9's VGPR index mode (s_set_gpr_idx_on/off/idx/mode and the v_mov_b32 it governs).

Why: LLVM keeps small private arrays in VGPRs and reads/writes them at a run-time index with
these (SIISelLowering "indirect addressing": SI_INDIRECT_SRC/DST expand to V_MOVREL* on
GFX10+, and to an S_SET_GPR_IDX_ON / V_MOV_B32 / S_SET_GPR_IDX_OFF bundle on gfx9, where
index mode is the default); at -O1 and when a loop over such an array is not unrolled.

Semantics (RDNA3 ISA V_MOVRELS_B32 etc.; CDNA3 ISA "VGPR Indexing" and S_SET_GPR_IDX_ON):
* v_movrels_b32 D, S: D = VGPR[S + M0]; v_movreld_b32 D, S: VGPR[D + M0] = S;
  v_movrelsd_b32: both offset by M0; v_movrelsd_2_b32: S by M0[9:0], D by M0[25:16].
* s_set_gpr_idx_on S0, gpr_idx(...): M0[7:0] = S0[7:0], M0[15:12] = the mode bits (SRC0 1,
  SRC1 2, SRC2 4, DST 8), index mode on; s_set_gpr_idx_idx S0: M0[7:0] = S0[7:0];
  s_set_gpr_idx_mode: M0[15:12] = the mode bits; s_set_gpr_idx_off: index mode off. While on,
  VALU VGPR operands of the enabled fields are offset by M0[7:0]. The decoder tracks the
  region statically (``region_effect``, like scalar.mode's MODE tracking); inside one only
  v_mov_b32 (what LLVM emits there) is accepted, anything else is refused by name.
An index past the wave's VGPRs raises with the lane's register number (the hardware's
behaviour there is not specified).
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from ...decoder.operands import row_of, sread32, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from ...machine.state import EXEC, M0

U32 = np.uint32
_FIELDS = {"SRC0": 1, "SRC1": 2, "SRC2": 4, "DST": 8}


def _mask_of(ins: Any) -> int:
    m = re.search(r"gpr_idx\(([^)]*)\)", ins.text)
    if not m:
        return 0
    return sum(_FIELDS.get(f.strip(), 0) for f in m[1].split(",") if f.strip())


def region_effect(ins: Any, mask: int) -> int:
    """The index-mode field mask in force after ``ins`` (0: index mode off)."""
    if ins.mnemonic == "s_set_gpr_idx_on":
        return _mask_of(ins)
    if ins.mnemonic == "s_set_gpr_idx_mode":
        return _mask_of(ins) if mask else 0
    if ins.mnemonic == "s_set_gpr_idx_off":
        return 0
    return mask


def _waves(g) -> np.ndarray:
    ix = g.ix
    return np.arange(ix.start, ix.stop) if isinstance(ix, slice) else np.asarray(ix)


def _move(st, g, d: Decoded, src_row, dst_row, soff, doff, reader=None) -> None:
    """VGPR[dst_row + doff] = VGPR[src_row + soff] (or ``reader``) per wave, under EXEC."""
    waves = _waves(g)
    n = st.R.shape[0] - d.kernel.n_agpr
    rs, rd = src_row + soff, dst_row + doff
    bad = (rd >= n) | (rd < 0) | (((rs >= n) | (rs < 0)) if reader is None else False)
    if np.any(bad):
        w = int(np.nonzero(np.broadcast_to(bad, waves.shape))[0][0])
        raise EmulatorError(
            f"`{d.inst.text}` at pc 0x{d.addr:x}: the index (M0 = {int(st.S[M0, waves[w]])}) "
            f"reaches v{int(np.broadcast_to(rs, waves.shape)[w])} -> "
            f"v{int(np.broadcast_to(rd, waves.shape)[w])}, past the kernel's {n} VGPRs "
            f"(wave {int(waves[w])})")
    rs = np.broadcast_to(rs, waves.shape)
    rd = np.broadcast_to(rd, waves.shape)
    val = st.R[rs, waves] if reader is None else np.broadcast_to(reader(st, g), (len(waves), 64))
    cur = st.R[rd, waves]
    np.copyto(cur, val, where=st.EM[waves], casting="unsafe")
    st.R[rd, waves] = cur


def _plain(d: Decoded) -> None:
    if d.mods or any(o.neg or o.abs or o.half for o in d.ops):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "modifiers on an indexed move")


@semantic("v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32")
def _build_movrel(d: Decoded):
    _plain(d)
    dst, src = d.ops
    s_rel = d.base != "v_movreld_b32"
    if dst.kind != "v" or (s_rel and src.kind != "v"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operands")
    nv = d.kernel.n_vgpr
    reader = None if s_rel else vread32(src, nv)
    two = d.base == "v_movrelsd_2_b32"
    src_row = row_of(src, nv) if s_rel else 0
    dst_row = row_of(dst, nv)

    def run(st, g):
        m0 = st.S[M0, g.ix].astype(np.int64)
        soff = (m0 & 0x3FF) if two else (m0 if s_rel else 0)
        doff = ((m0 >> 16) & 0x3FF) if two else (0 if d.base == "v_movrels_b32" else m0)
        _move(st, g, d, src_row, dst_row, soff, doff, reader)
    return run


def build_indexed(d: Decoded, mask: int):
    """A VALU instruction inside a gfx9 index-mode region (only v_mov_b32 is accepted)."""
    if d.base != "v_mov_b32" or mask & 6:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 f"in VGPR index mode (gpr_idx mask {mask:#x}); only v_mov_b32 "
                                 "with SRC0/DST indexing is modelled")
    _plain(d)
    dst, src = d.ops
    nv = d.kernel.n_vgpr
    s_rel = bool(mask & 1) and src.kind == "v"
    reader = None if s_rel else vread32(src, nv)
    src_row = row_of(src, nv) if s_rel else 0
    dst_row = row_of(dst, nv)
    d_rel = bool(mask & 8)

    def run(st, g):
        idx = (st.S[M0, g.ix] & U32(0xFF)).astype(np.int64)
        _move(st, g, d, src_row, dst_row, idx if s_rel else 0, idx if d_rel else 0, reader)
    return run


@semantic("s_set_gpr_idx_on", "s_set_gpr_idx_idx", "s_set_gpr_idx_mode", "s_set_gpr_idx_off")
def _build_gpr_idx(d: Decoded):
    mask = _mask_of(d.inst)
    if d.base == "s_set_gpr_idx_off":
        return lambda st, g: None
    if d.base == "s_set_gpr_idx_mode":
        def mode(st, g):
            st.S[M0, g.ix] = (st.S[M0, g.ix] & U32(~0xF000 & 0xFFFFFFFF)) | U32(mask << 12)
        return mode
    ra = sread32(d.ops[0])
    keep = U32(~0xFF & 0xFFFFFFFF) if d.base == "s_set_gpr_idx_idx" else U32(~0xF0FF & 0xFFFFFFFF)
    bits = U32(0) if d.base == "s_set_gpr_idx_idx" else U32(mask << 12)
    assert EXEC != M0

    def on(st, g):
        idx = np.asarray(ra(st, g), U32) & U32(0xFF)
        st.S[M0, g.ix] = (st.S[M0, g.ix] & keep) | bits | idx
    return on
