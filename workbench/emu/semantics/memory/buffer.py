"""MUBUF: buffer_load_* / buffer_store_* / buffer_atomic_* through a V# buffer resource.

The resource is 4 SGPRs (the layout LLVM's ``__builtin_amdgcn_make_buffer_rsrc(ptr, stride,
num_records, flags)`` packs: dwords 0-1 base and stride, dword 2 num_records, dword 3 ``flags``).
Where each lane's access goes and whether it is in range — raw, structured (``idxen``, stride
!= 0), private (``add_tid_enable``) and swizzled buffers, per ISA generation — is
``memory.buffer_address``'s job (its docstring names the ISA guide sections); this module reads
and writes the data. The vaddr operand is ``off``, one VGPR (``offen``: the offset, ``idxen``:
the index) or a pair (``idxen offen``: index, then offset; LLVM AMDGPU asm syntax "vaddr").

An access is range-checked per dword for dwordx2/x3/x4 and all or nothing for atomics (CDNA4
ISA §9.1.5.1 / RDNA4 ISA §9.4.1 notes: "Load/store-Dword-x{2,3,4} range-check per component",
atomics "all or nothing"; LLVM AMDGPUUsage "Relaxed Buffer OOB Mode": each 32-bit word
independently). Out-of-range reads return 0, out-of-range writes and atomics do nothing.
In-range accesses are then bounds-checked against the launch's buffers like global accesses
(a V# whose num_records exceeds its allocation faults, naming the buffer). The soffset operand
is added to the address; on gfx9/gfx11 it is outside the range check (LLVM
IntrinsicsAMDGPU.td: "soffset (excluded from bounds checking and swizzling)"), on gfx12 it
reduces num_records of a raw OOB_SELECT 3 resource (RDNA4 ISA Table 56).

Refused with a clear error instead of guessed: the V#s and addresses ``buffer_address`` names
(``workbench.emu.errors.BufferResourceError``, naming the kernel, pc, instruction, the V#'s
dwords and fields, wave and lanes), an unbound resource (data format 0; the gfx9 untyped-buffer
convention is 4 = 32-bit, e.g. flags 0x00020000 as CK sets on gfx9), ``tfe``/``lwe``, and
format (buffer_load_format_*) opcodes. ``lds`` loads (global -> LDS) are ``memory.ldsdma``'s.
Atomics return the pre-op value into vdata when ``sc0`` (gfx940 spelling of GLC) is set.
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.operands import row_of
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from .buffer_address import Access
from .memops import (
    ATOMICS,
    atomic,
    atomic_operand,
    check_atomic_aligned,
    gather,
    scatter,
    store_data,
    widen,
    write_atomic_old,
)
from .vmem import KINDS, opcodes

U32, U64 = np.uint32, np.uint64
_CACHE = {"glc", "slc", "sc0", "sc1", "nt", "offset", "offen", "idxen"}


def _parse(d: Decoded, payload: int):
    """(Access, VGPR row of vdata) of a buffer instruction; refuses modifiers and operand
    forms that are not modelled."""
    for k in d.mods:
        if k not in _CACHE:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    vdata, vaddr, srsrc, soff = d.ops
    return Access(d, vaddr, srsrc, soff, payload), row_of(vdata, d.kernel.n_vgpr)


def _resolve(st, g, d, addr, mask, nbytes, write):
    def f(bad, a, why):
        fault(st, g, d, "global", bad, a, why, write)
    off = st.mem.offsets(addr, mask, nbytes, f, write)
    if st.trace is not None:
        st.trace.global_io(int(mask.sum()) * nbytes, write, g, addr, mask, nbytes)
    return off


def _components(nbytes: int) -> list[tuple[int, int]]:
    """(byte offset, width) of each independently range-checked piece."""
    return [(4 * k, min(4, nbytes - 4 * k)) for k in range((nbytes + 3) // 4)]


def _build_load(d: Decoded):
    if d.mods.get("lds"):
        return _build_load_lds(d)
    kind = d.base[len("buffer_load_"):]
    nbytes, signed, d16 = KINDS[kind]
    acc, row = _parse(d, nbytes)
    comps = _components(nbytes)

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        for k, w, ok, addr in acc.pieces(st, g, em, comps):
            v = np.zeros((g.w, 64), U32)
            if ok.any():
                off = _resolve(st, g, d, addr, ok, w, False)
                v = np.where(ok, gather(st.mem.heap, st.mem.heap32, off, w)[..., 0], U32(0))
            if nbytes < 4:
                v = widen(st, g, row, v, nbytes, signed, d16)
            st.vwrite(row + k, g, v)
    return run


def _build_load_lds(d: Decoded):
    """``lds``: no vdata operand; the data goes to LDS (``memory.ldsdma``)."""
    from .ldsdma import build_buffer_lds

    if len(d.ops) != 3:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "expected vaddr, srsrc, soffset")
    vaddr, srsrc, soff = d.ops
    nbytes = KINDS.get(d.base[len("buffer_load_"):], (0,))[0]
    return build_buffer_lds(d, Access(d, vaddr, srsrc, soff, nbytes), _resolve)


def _build_store(d: Decoded):
    kind = d.base[len("buffer_store_"):]
    nbytes, _signed, d16 = KINDS[kind]
    acc, row = _parse(d, nbytes)
    comps = _components(nbytes)

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        for k, w, ok, addr in acc.pieces(st, g, em, comps):
            if not ok.any():
                continue
            off = _resolve(st, g, d, addr, ok, w, True)
            scatter(st.mem.heap, st.mem.heap32, off, ok, store_data(st, g, row + k, w, d16), w)
    return run


def _build_atomic(d: Decoded):
    name = d.base[len("buffer_atomic_"):]
    x2 = name.endswith("_x2")
    op = name[:-3] if x2 else name
    if op not in ATOMICS:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"atomic {op}")
    nb = 8 if (x2 or op.endswith("_f64")) else 4
    acc, row = _parse(d, nb)
    dw = nb // 4
    ret = bool(d.mods.get("sc0") or d.mods.get("glc"))
    cmpswap = op in ("cmpswap", "cmpst")

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        _k, _w, ok, addr = next(acc.pieces(st, g, em, [(0, nb)]))  # all or nothing
        old_full = np.zeros((g.w, 64), U64 if nb == 8 else U32)
        if ok.any():
            off = _resolve(st, g, d, addr, ok, nb, True)
            check_atomic_aligned(st, g, d, "global", off, ok, addr, nb)
            view = st.mem.heap32 if nb == 4 else st.mem.heap.view(U64)
            src = atomic_operand(st, g, row, ok, nb)
            cmp = atomic_operand(st, g, row + dw, ok, nb) if cmpswap else None
            old = atomic(view, off[ok] // nb, src, op, ret, cmp)
            if ret:
                old_full[ok] = old
        if ret:  # out-of-range lanes read 0
            write_atomic_old(st, g, row, old_full, nb)
    return run


_loads, _stores, _atomics = opcodes("buffer")
semantic(*_loads)(_build_load)
semantic(*_stores)(_build_store)
semantic(*_atomics)(_build_atomic)
