"""LDS DMA: global_load_lds_* and buffer_load_* ... lds copy global memory straight into LDS.

Semantics (LLVM docs "AMDGPU DMA Operations", GFX9 LDS DMA Instructions, for
``llvm.amdgcn.global.load.lds`` / ``raw.ptr.buffer.load.lds``): each active lane loads
``size`` bytes (4 = dword on gfx942 and gfx950; 12/16 = dwordx3/x4 on gfx950 only) from its
global (or buffer) address, and the data is written to LDS at

    LDS address = M0 + inst_offset + lane * stride,  stride = 4 for size <= 4, 16 for 12/16

(M0 holds the wave-uniform LDS base the compiler materialises, e.g. ``s_mov_b32 m0, 0x400``;
"the LDS address is implicitly offset by 4 * lane_id bytes for sizes up to 4 bytes, and by
16 * lane_id bytes for larger sizes"; the immediate offset is "applied to both global and LDS
address"). For the buffer form the global address and its range check are those of
``memory.buffer`` (out-of-range dwords read 0, and that 0 is written to LDS); that the immediate
offset also moves the buffer form's LDS address is the same rule (GCN3/CDNA ISA MUBUF
"LDS_ADDR = LDSbase + LDS_offset + inst_offset + TID*4"). The buffer form takes every V# and
operand form ``memory.buffer_address`` models — structured (stride != 0, ``idxen``, ``idxen
offen``), private (add_tid_enable) — with its range check; the LDS side always adds the lane
("TIDinWave is only added if the resource (T#) has the ADD_TID_ENABLE field set to 1, whereas
LDS adds it", CDNA4 ISA §9.1.9 "Memory Buffer Load to LDS"). M0 is taken as a byte address and
every lane's LDS range is checked against the workgroup's allocation (faults otherwise).

Not modelled, refused at decode: the sub-dword sizes (ubyte/sbyte/ushort/sshort, whose LDS
data layout no source we have states) and inactive-lane write behaviour beyond "not written".
The accesses are recorded as global reads in the trace; their LDS writes are not DS
instructions and are not fed to the bank-conflict analysis.
"""
from __future__ import annotations

import numpy as np

from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...machine.state import M0
from .ds import lds_offsets
from .memops import gather, scatter

U32 = np.uint32
SIZES = {"dword": 4, "dwordx3": 12, "dwordx4": 16}
_MODS = {"offset", "glc", "slc", "sc0", "sc1", "nt", "offen", "idxen", "lds"}


def lds_stride(nbytes: int) -> int:
    """Bytes between consecutive lanes' LDS destinations."""
    return 4 if nbytes <= 4 else 16


def _size(d: Decoded, kind: str) -> int:
    for k in d.mods:
        if k not in _MODS:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    if kind not in SIZES:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 f"LDS DMA of {kind} (sub-dword data layout in LDS) is not "
                                 "modelled")
    return SIZES[kind]


def _lds_write(st, g, d, nbytes: int, inst_off: int, data, mask):
    """Write ``data`` uint32 [w, 64, n] of the ``mask`` lanes to M0 + offset + lane*stride."""
    m0 = st.S[M0, g.ix].astype(np.int64)[:, None]
    a = m0 + inst_off + lds_stride(nbytes) * np.arange(64, dtype=np.int64)[None, :]
    full = None if mask.all() else mask
    if st.trace is not None and st.trace.check is not None:
        st.trace.check.lds_dma(st, g, d, a, nbytes, mask)
    o = lds_offsets(st, g, d, a, full, nbytes, True)
    scatter(st.lds_flat, st.lds32_flat, o, full, data, nbytes)


def _build_global(d: Decoded):
    from .vmem import _addr_fn, _resolve

    nbytes = _size(d, d.base[len("global_load_lds_"):])
    ops = list(d.ops)
    if len(ops) != 2:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "expected vaddr, saddr|off")
    vaddr, saddr = ops
    rd = _addr_fn(d, vaddr, saddr, "global")
    inst_off = int(d.mods.get("offset", 0))

    def run(st, g):
        m = st.EM[g.ix]
        if not m.any():
            return
        mask = None if m.all() else m
        addr = np.broadcast_to(rd(st, g), (g.w, 64))
        b8, b32, off = _resolve(st, g, d, "global", addr, mask, nbytes, False)
        _lds_write(st, g, d, nbytes, inst_off, gather(b8, b32, off, nbytes), m)
    return run


def build_buffer_lds(d: Decoded, access, resolve):
    """buffer_load_{dword,dwordx3,dwordx4} ... lds (called by ``memory.buffer`` with the
    instruction's ``buffer_address.Access`` and its resolve helper)."""
    nbytes = _size(d, d.base[len("buffer_load_"):])
    comps = [(4 * k, 4) for k in range(nbytes // 4)]
    inst_off = int(d.mods.get("offset", 0))

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        data = np.zeros((g.w, 64, nbytes // 4), U32)
        for k, w, ok, addr in access.pieces(st, g, em, comps):
            if ok.any():
                off = resolve(st, g, d, addr, ok, w, False)
                data[..., k] = np.where(ok, gather(st.mem.heap, st.mem.heap32, off, w)[..., 0],
                                        U32(0))
        _lds_write(st, g, d, nbytes, inst_off, data, em)
    return run


semantic(*(f"global_load_lds_{k}" for k in
           ("ubyte", "sbyte", "ushort", "sshort", *SIZES)))(_build_global)
