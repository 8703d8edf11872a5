"""MUBUF: buffer_load_* / buffer_store_* / buffer_atomic_* through a V# buffer resource.

The resource (4 SGPRs, CDNA3 ISA "Buffer Resource" table; the same layout LLVM's
``__builtin_amdgcn_make_buffer_rsrc(ptr, stride, num_records, flags)`` packs): dwords 0-1 bits
[47:0] base address, [61:48] stride, [62] cache swizzle, [63] swizzle enable; dword 2
num_records; dword 3 dst_sel/num_format/data_format/add_tid... (``flags``).

Addressing and range check (raw buffers, stride 0 — what the clang builtins produce):
``address = base + soffset + inst_offset + voffset`` (voffset = the VGPR with ``offen``);
``inst_offset + voffset`` is range-checked against num_records and ``soffset`` is not (LLVM
IntrinsicsAMDGPU.td / SIISelLowering.h: "offset (included in bounds checking and swizzling)",
"soffset (excluded from bounds checking and swizzling)"). An access is in range when all its
bytes lie below num_records; dwordx2/x3/x4 are checked per dword and atomics all or nothing
(CDNA3 ISA "Range checking": "Load/store-Dword-x{2,3,4} range-check per component"; atomics
"all or nothing"; LLVM AMDGPUUsage "Relaxed Buffer OOB Mode": each 32-bit word
independently). Out-of-range reads return 0, out-of-range writes and atomics do nothing.
In-range accesses are then bounds-checked against the launch's buffers like global accesses
(a V# whose num_records exceeds its allocation faults, naming the buffer).

Refused with a clear error instead of guessed: structured/swizzled resources (stride != 0,
swizzle_en, add_tid_enable, ``idxen``), an invalid data format (V# dword 3 [18:15] == 0; the
gfx9 untyped-buffer convention is 4 = 32-bit, e.g. flags 0x00020000 as CK sets on gfx9),
``tfe``/``lwe``, and format (buffer_load_format_*) opcodes. ``lds`` loads (global -> LDS) are
``memory.ldsdma``'s.
Atomics return the pre-op value into vdata when ``sc0`` (gfx940 spelling of GLC) is set.
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.operands import row_of, sread32
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
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

U32, U64, I64 = np.uint32, np.uint64, np.int64
_CACHE = {"glc", "slc", "sc0", "sc1", "nt", "offset", "offen"}


def _parse(d: Decoded):
    """(V# reader, offsets reader, VGPR row of vdata) of a buffer instruction; refuses
    modifiers and operand forms that are not modelled."""
    for k in d.mods:
        if k not in _CACHE:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    vdata, vaddr, srsrc, soff = d.ops
    if srsrc.kind != "s" or srsrc.n != 4:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "resource is not s[n:n+3]")
    offen = bool(d.mods.get("offen"))
    if offen != (vaddr.kind == "v"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "vaddr without offen")
    return (_rsrc_reader(d, srsrc), _offsets(d, vaddr, soff, offen),
            row_of(vdata, d.kernel.n_vgpr))


def _rsrc_reader(d: Decoded, srsrc):
    """(base [w] uint64, num_records [w] int64) of the group's waves; refuses V# modes that
    are not modelled."""
    s0 = srsrc.idx
    rdna = d.kernel.gen >= 10

    def rd(st, g):
        w0, w1, w2, w3 = (st.S[s0 + k, g.ix] for k in range(4))
        base = w0.astype(U64) | ((w1 & U32(0xFFFF)).astype(U64) << U64(32))
        stride = (w1 >> U32(16)) & U32(0x3FFF)
        why = None
        if (stride != 0).any():
            why = f"stride {int(stride.max())} (structured buffers are not modelled)"
        elif ((w1 >> U32(31)) != 0).any():
            why = "swizzle_en set"
        elif (((w3 >> U32(23)) & U32(1)) != 0).any():
            why = "add_tid_enable set"
        elif rdna and (((w3 >> U32(28)) & U32(3)) != 3).any():
            # GFX10+ V# OOB_SELECT [29:28] (RDNA3 ISA "Buffer resource"): only 3 (raw: offset
            # < num_records, clang's make_buffer_rsrc 0x31016000 on gfx11) is modelled
            why = f"OOB_SELECT {int(((w3 >> U32(28)) & U32(3)).min())} (only 3, raw, is modelled)"
        elif rdna and (((w3 >> U32(12)) & U32(0x7F)) == 0).any():
            why = "format 0 (BUF_FMT_INVALID) in V# dword 3 [18:12]"
        elif not rdna and (((w3 >> U32(15)) & U32(0xF)) == 0).any():
            why = ("data format 0 (BUF_DATA_FORMAT_INVALID) in V# dword 3; make_buffer_rsrc "
                   "flags 0x00020000 (data format 32) is the gfx9 convention")
        if why is not None:
            raise EmulatorError(f"{d.mnemonic} at pc 0x{d.addr:x}: buffer resource "
                                f"s[{s0}:{s0 + 3}] has {why}: `{d.inst.text}`")
        return base, w2.astype(I64)
    return rd


def _offsets(d: Decoded, vaddr, soff, offen: bool):
    """Reader of (checked offset [w,64] int64 = inst_offset + voffset, soffset [w,1] int64)."""
    imm = int(d.mods.get("offset", 0))
    rv = row_of(vaddr, d.kernel.n_vgpr) if offen else None
    rs = sread32(soff)

    def rd(st, g):
        o = np.full((g.w, 64), imm, I64)
        if rv is not None:
            o = o + st.R[rv, g.ix].astype(I64)
        s = np.broadcast_to(np.asarray(rs(st, g)).astype(I64), (g.w,))[:, None]
        return o, s
    return rd


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


def _pieces(st, g, em, rsrc, offs, comps):
    """(index, width, in-range lanes [w, 64], addresses [w, 64]) of each range-checked piece of
    a load/store by the lanes ``em``."""
    base, nrec = rsrc(st, g)
    o, s = offs(st, g)
    for k, (co, w) in enumerate(comps):
        yield k, w, em & (o + co + w <= nrec[:, None]), base[:, None] + (s + o + co).astype(U64)


def _build_load(d: Decoded):
    if d.mods.get("lds"):
        return _build_load_lds(d)
    kind = d.base[len("buffer_load_"):]
    nbytes, signed, d16 = KINDS[kind]
    rsrc, offs, row = _parse(d)
    comps = _components(nbytes)

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        for k, w, ok, addr in _pieces(st, g, em, rsrc, offs, comps):
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
    if srsrc.kind != "s" or srsrc.n != 4:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "resource is not s[n:n+3]")
    offen = bool(d.mods.get("offen"))
    if offen != (vaddr.kind == "v"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "vaddr without offen")
    return build_buffer_lds(d, _rsrc_reader(d, srsrc), _offsets(d, vaddr, soff, offen), _pieces,
                            _resolve)


def _build_store(d: Decoded):
    kind = d.base[len("buffer_store_"):]
    nbytes, _signed, d16 = KINDS[kind]
    rsrc, offs, row = _parse(d)
    comps = _components(nbytes)

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        for k, w, ok, addr in _pieces(st, g, em, rsrc, offs, comps):
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
    rsrc, offs, row = _parse(d)
    nb = 8 if (x2 or op.endswith("_f64")) else 4
    dw = nb // 4
    ret = bool(d.mods.get("sc0") or d.mods.get("glc"))
    cmpswap = op in ("cmpswap", "cmpst")

    def run(st, g):
        em = st.EM[g.ix]
        if not em.any():
            return
        base, nrec = rsrc(st, g)
        o, s = offs(st, g)
        ok = em & (o + nb <= nrec[:, None])  # all or nothing
        old_full = np.zeros((g.w, 64), U64 if nb == 8 else U32)
        if ok.any():
            addr = base[:, None] + (s + o).astype(U64)
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
