"""Vector memory: global_*, flat_*, scratch_* loads, stores and global atomics.

Addressing (CDNA3 ISA "Flat, Scratch and Global instructions"): global with SADDR:
``SADDR(64) + zext(VADDR32) + signed offset``; global with ``off``: ``VADDR(64) + offset``;
flat: ``VADDR(64) + offset``, routed by aperture (our LDS/private apertures in ``operands``);
scratch: per-lane private byte address ``VADDR + SADDR + offset`` (each lane's private
memory; the hardware swizzle is invisible to the program). Every access is bounds-checked
(``memory.Memory.offsets``; LDS and scratch against their allocations) and faults with the
instruction, lanes and nearest buffer. d16 loads write one half and keep the other.
Atomics return the pre-op value when the instruction has a destination (gfx940: sc0 = return).
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.operands import PRIVATE_APERTURE, SHARED_APERTURE, row_of
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...machine.state import solo
from .memops import (
    ATOMICS,
    atomic,
    atomic_operand,
    check_atomic_aligned,
    gather,
    scatter,
    solo_dwords,
    solo_load_rows,
    store_data,
    write_atomic_old,
    write_load,
)

U32, U64 = np.uint32, np.uint64
CACHE_MODS = {"glc", "slc", "sc0", "sc1", "nt", "offset", "lds", "dlc"}

# load/store data kinds: suffix -> (bytes, signed, d16: None | "lo" | "hi")
KINDS = {
    "dword": (4, False, None), "dwordx2": (8, False, None), "dwordx3": (12, False, None),
    "dwordx4": (16, False, None), "ubyte": (1, False, None), "sbyte": (1, True, None),
    "ushort": (2, False, None), "sshort": (2, True, None), "byte": (1, False, None),
    "short": (2, False, None), "ubyte_d16": (1, False, "lo"), "sbyte_d16": (1, True, "lo"),
    "short_d16": (2, False, "lo"), "ubyte_d16_hi": (1, False, "hi"),
    "sbyte_d16_hi": (1, True, "hi"), "short_d16_hi": (2, False, "hi"),
    "byte_d16_hi": (1, False, "hi"),
}


def _check_mods(d: Decoded):
    for k in d.mods:
        if k not in CACHE_MODS:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")


def _addr_fn(d: Decoded, vaddr, saddr, seg: str):
    """Reader of the per-lane 64-bit address (global/flat) or private offset (scratch)."""
    nv = d.kernel.n_vgpr
    off = int(d.mods.get("offset", 0))
    if seg == "scratch":
        rv = row_of(vaddr, nv) if vaddr.kind == "v" else None
        ss = saddr.idx if saddr is not None and saddr.kind == "s" else None

        def rd(st, g):
            a = np.full((g.w, 1), off, np.int64)
            if rv is not None:
                a = a + st.R[rv, g.ix].astype(np.int64)
            if ss is not None:
                a = a + st.S[ss, g.ix].astype(np.int64)[:, None]
            return a
        return rd
    rv = row_of(vaddr, nv)
    if saddr is not None and saddr.kind == "s":
        s0 = saddr.idx

        def rd(st, g):
            base = st.S[s0, g.ix].astype(U64) | (st.S[s0 + 1, g.ix].astype(U64) << U64(32))
            return (base[:, None] + st.R[rv, g.ix].astype(U64)) + U64(off % (1 << 64))
        return rd

    def rd64(st, g):
        a = (st.R[rv + 1, g.ix].astype(U64) << U64(32)) | st.R[rv, g.ix]
        return a + U64(off % (1 << 64)) if off else a
    return rd64


def _solo_addr(d: Decoded, vaddr, saddr, seg: str):
    """``f(st, j) -> (base, v) | None`` for the one-wave fast path (``memops.solo_dwords``):
    wave ``j``'s lanes address the Python int ``base`` plus the uint32 row ``v``. SADDR form:
    base = SADDR + offset, v = VADDR; 64-bit VADDR form: when the high dwords of the lanes are
    equal (one 4 GiB window), base = high << 32 + offset, v = the low dwords (the addresses are
    the same integers, so the bounds check is the same). Scratch: None (general path)."""
    if seg == "scratch":
        return None
    rv = row_of(vaddr, d.kernel.n_vgpr)
    off = int(d.mods.get("offset", 0))
    if saddr is not None and saddr.kind == "s":
        s0 = saddr.idx

        def rd_s(st, j):
            S = st.S
            return (S.item(s0, j) | S.item(s0 + 1, j) << 32) + off, st.R[rv, j]
        return rd_s

    def rd_v(st, j):
        hi = st.R[rv + 1, j]
        if hi.tobytes() != hi[:1].tobytes() * 64:  # the lanes' high dwords differ
            return None
        return (hi.item(0) << 32) + off, st.R[rv, j]
    return rd_v


def _space(seg):
    return {"global": "global", "flat": "flat", "scratch": "scratch"}[seg]


def _resolve(st, g, d, seg, addr, mask, nbytes, write):
    """(bytes view, dword view, int64 offsets) for an access; raises KernelFault if invalid."""
    if seg == "scratch":
        return _scratch(st, g, d, addr, mask, nbytes, write)
    if seg == "flat":
        act = addr[mask] if mask is not None else addr
        if act.size and (act.min() >= U64(SHARED_APERTURE)):
            hi = act.max()
            if act.min() >= U64(PRIVATE_APERTURE) and hi < U64(PRIVATE_APERTURE + (1 << 32)):
                return _scratch(st, g, d, (addr - U64(PRIVATE_APERTURE)).view(np.int64), mask,
                                nbytes, write)
            if hi < U64(SHARED_APERTURE + (1 << 32)):
                from .ds import lds_offsets
                la = (addr - U64(SHARED_APERTURE)).astype(np.int64)
                if st.trace is not None and st.trace.check is not None:  # check mode
                    st.trace.check.ds(st, g, d, la, nbytes, None, "atomic" if "atomic" in
                                      d.mnemonic else "w" if write else "r", mask)
                o = lds_offsets(st, g, d, la, mask, nbytes, write)
                return st.lds.reshape(-1), st.lds32.reshape(-1), o
    mem = st.mem

    def f(bad, a, why):
        fault(st, g, d, _space(seg), bad, a, why, write)
    off = mem.offsets(addr, mask, nbytes, f, write)
    if st.trace is not None:
        n = int(mask.sum()) if mask is not None else addr.size
        st.trace.global_io(n * nbytes, write, g, addr, mask, nbytes)
    return mem.heap, mem.heap32, off


def _scratch(st, g, d, a, mask, nbytes, write):
    P = st.scratch_bytes
    a = np.broadcast_to(a, (g.w, 64))
    bad = (a < 0) | (a + nbytes > P)
    if mask is not None:
        bad &= mask
    if bad.any():
        first = int(a[bad][0])
        why = f"private offset {first} outside the {P}-byte per-lane scratch allocation"
        if getattr(st, "dynamic_stack", False):
            # recursion or indirect calls: the stack is HIP's hipLimitStackSize (emu.launch)
            why += (" (a call stack overflow? the kernel has a dynamic call stack, which gets "
                    "HIP's default stack size, hipLimitStackSize = 1024 bytes per thread; a GPU "
                    "would overrun it the same way)")
        fault(st, g, d, "scratch", bad, first, why, write)
    waves = np.asarray(g.waves)[:, None]
    base = (waves * 64 + np.arange(64)[None, :]) * st.scratch_stride
    flat = base + (np.where(mask, a, 0) if mask is not None else a)
    if st.trace is not None and st.trace.check is not None:  # check mode
        st.trace.check.scratch(st, g, d, flat, mask, nbytes, write)
    return st.scratch, st.scratch32, flat.astype(np.int64)


def _setup(d: Decoded, kind: str):
    """(segment, KINDS entry, VGPR row of the destination (load) or data (store), address
    reader, one-wave address reader or None) of a ``kind`` = "load" / "store" instruction."""
    _check_mods(d)
    seg, _, suffix = d.base.partition(f"_{kind}_")
    entry = KINDS[suffix]
    ops = list(d.ops)
    if kind == "load":
        reg = ops.pop(0)
    vaddr = ops.pop(0)
    if kind == "store":
        reg = ops.pop(0)
    saddr = ops.pop(0) if ops else None
    if ops:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "unexpected operands")
    return (seg, entry, row_of(reg, d.kernel.n_vgpr), _addr_fn(d, vaddr, saddr, seg),
            _solo_addr(d, vaddr, saddr, seg))


def _locate(st, g, d, seg, rd, mask, nbytes, write):
    """(bytes view, dword view, offsets) of a load/store by the lanes ``mask`` (None: all)."""
    addr = rd(st, g)
    if seg != "scratch" and addr.shape != (g.w, 64):
        addr = np.broadcast_to(addr, (g.w, 64))
    return _resolve(st, g, d, seg, addr, mask, nbytes, write)


def _build_load(d: Decoded):
    seg, (nbytes, signed, d16), row, rd, srd = _setup(d, "load")
    # one-wave fast path (state.solo, memops.solo_dwords): whole dwords into whole rows
    nd = nbytes // 4 if srd is not None and nbytes % 4 == 0 and d16 is None else 0

    def run(st, g):
        if nd:
            j = solo(st, g)
            if j >= 0:
                bv = srd(st, j)
                hit = solo_dwords(st.mem, bv[0], bv[1], nbytes, False) if bv else None
                if hit is not None:
                    solo_load_rows(st, j, row, nd, hit)
                    return
        m = st.EM[g.ix]
        mask = None if m.all() else m
        b8, b32, off = _locate(st, g, d, seg, rd, mask, nbytes, False)
        write_load(st, g, row, gather(b8, b32, off, nbytes), nbytes, signed, d16)
    return run


def _build_store(d: Decoded):
    seg, (nbytes, _signed, d16), drow, rd, srd = _setup(d, "store")
    # one-wave fast path for single dwords (wider stores keep the general path's order of
    # overlapping lanes)
    fast = srd is not None and nbytes == 4 and d16 is None

    def run(st, g):
        if fast:
            j = solo(st, g)
            if j >= 0:
                bv = srd(st, j)
                hit = solo_dwords(st.mem, bv[0], bv[1], 4, True) if bv else None
                if hit is not None:
                    sub, idx = hit
                    sub[idx] = st.R[drow, j]
                    return
        m = st.EM[g.ix]
        if not m.any():
            return
        mask = None if m.all() else m
        b8, b32, off = _locate(st, g, d, seg, rd, mask, nbytes, True)
        scatter(b8, b32, off, mask, store_data(st, g, drow, nbytes, d16), nbytes)
    return run


def _build_atomic(d: Decoded):
    _check_mods(d)
    seg, _, name = d.base.partition("_atomic_")
    x2 = name.endswith("_x2")
    op = name[:-3] if x2 else name
    if op not in ATOMICS or seg == "scratch":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"atomic {op}")
    wide = x2 or op.endswith("_f64")
    nb = 8 if wide else 4
    ops = list(d.ops)
    ret = len(ops) == (4 if seg == "global" else 3)
    dst = ops.pop(0) if ret else None
    vaddr, data = ops.pop(0), ops.pop(0)
    saddr = ops.pop(0) if ops else None
    rd = _addr_fn(d, vaddr, saddr, seg)
    nv = d.kernel.n_vgpr
    drow = row_of(data, nv)
    cmpswap = op == "cmpswap"
    dw = nb // 4

    def run(st, g):
        m = st.EM[g.ix]
        if not m.any():
            return
        addr = np.broadcast_to(rd(st, g), (g.w, 64))
        b8, b32, off = _resolve(st, g, d, seg, addr, m, nb, True)
        check_atomic_aligned(st, g, d, seg, off, m, addr, nb)
        view = b32 if nb == 4 else b8.view(U64)
        idx = off[m] // nb
        src = atomic_operand(st, g, drow, m, nb)
        cmp = atomic_operand(st, g, drow + dw, m, nb) if cmpswap else None
        old = atomic(view, idx, src, op, ret, cmp)
        if ret:
            full = np.zeros((g.w, 64), U64 if nb == 8 else U32)
            full[m] = old
            write_atomic_old(st, g, row_of(dst, nv), full, nb)
    return run


def opcodes(prefix: str) -> tuple[list[str], list[str], list[str]]:
    """(load, store, atomic) mnemonics of a vector-memory family (``global``, ``flat``,
    ``scratch``, ``buffer``): the KINDS each direction has, and the ATOMICS it spells."""
    loads, stores, atomics = [], [], []
    for k in KINDS:
        if k in ("byte", "short", "byte_d16_hi"):
            stores.append(f"{prefix}_store_{k}")
        elif k == "short_d16_hi" or k.startswith("dword"):
            stores.append(f"{prefix}_store_{k}")
            loads.append(f"{prefix}_load_{k}")
        else:
            loads.append(f"{prefix}_load_{k}")
    for op in ATOMICS:
        if op in ("rsub", "min", "max", "wrxchg", "cmpst"):
            continue
        atomics.append(f"{prefix}_atomic_{op}")
        if not op.endswith(("f32", "f64", "f16")):
            atomics.append(f"{prefix}_atomic_{op}_x2")
    return loads, stores, atomics


for _seg in ("global", "flat", "scratch"):
    _loads, _stores, _atomics = opcodes(_seg)
    semantic(*_loads)(_build_load)
    semantic(*_stores)(_build_store)
    if _seg != "scratch":
        semantic(*_atomics)(_build_atomic)
