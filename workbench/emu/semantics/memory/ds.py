"""DS: LDS loads/stores (incl. read2/write2/st64), LDS atomics, and the cross-lane DS ops.

Address = VADDR + OFFSET (16-bit; read2/write2: two 8-bit offsets scaled by the element size,
×64 more for *st64) — CDNA3 ISA "Data Share Operations". Offsets are taken from the DS
encoding word (bits 15:0), which the text agrees with. Every access is checked against the
workgroup's LDS allocation (static + dynamic); outside it the emulator faults by default. The
hardware does not: an LDS access outside the allocation is not a memory violation (CDNA3 ISA
guide §3.11 "Memory Violations" lists only LDS *alignment* errors; buffer-to-LDS masks the
lanes off), an out-of-range read returns 0 and an out-of-range write is discarded (RDNA2 ISA
guide §3.6.1, the same LDS range check) — launch with ``lds_oob="hardware"`` to emulate that
(reads then get 0, writes and atomics are dropped; an atomic's returned value is not
modelled). Each execution is recorded in the trace.

ds_bpermute_b32: lane i reads lane ((addr_i + offset) / 4) % 64; ds_permute_b32: lane i writes
its data to lane ((addr_i + offset) / 4) % 64; EXEC applies to both the read and the write, a
disabled source lane gives 0 (CDNA3 ISA DS_BPERMUTE_B32). ds_swizzle_b32: see ``swizzle_lanes``
(FFT, rotate, quad-permute and bit-mask modes; a disabled source lane gives 0).
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.operands import row_of
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...machine.state import M0, solo
from .memops import (
    atomic,
    atomic_operand,
    check_atomic_aligned,
    gather,
    scatter,
    solo_lds,
    solo_load_rows,
    store_data,
    write_atomic_old,
    write_load,
)

U32, U64 = np.uint32, np.uint64


HARDWARE_NOTE = ("on an AMD GPU this {what} (an LDS access outside the allocation is not a "
                 "memory violation: CDNA3 ISA guide §3.11; out-of-range LDS reads return 0 and "
                 "writes are discarded: RDNA2 ISA guide §3.6.1); launch with lds_oob='hardware' "
                 "to emulate that")


def lds_offsets(st, g, d, a, mask, nbytes, write):
    """Flat offsets into ``st.lds`` for LDS byte addresses ``a`` [w, 64]; out of the
    allocation: a fault (default), or with ``st.lds_oob == "hardware"`` the zero pad (reads)
    / the junk pad (writes), as the hardware returns 0 and drops the write."""
    a = np.asarray(a, np.int64)
    L = st.lds_bytes
    act = a if mask is None else a[mask]
    # one reduction: negative addresses are huge as unsigned
    if act.size and int(act.view(np.uint64).max()) + nbytes > L:
        bad = (a < 0) | (a + nbytes > L)
        if mask is not None:
            bad &= mask
        if st.lds_oob == "hardware":
            a = np.where(bad, st.lds_junk_pad if write else st.lds_zero_pad, a)
        else:
            first = int(a[bad][0])
            what = "write would be dropped" if write else "read would return 0"
            fault(st, g, d, "LDS", bad, first,
                  f"LDS address {first} (+{nbytes} bytes) is outside the workgroup's {L}-byte "
                  f"LDS allocation; " + HARDWARE_NOTE.format(what=what), write)
    row = st.lds.shape[1]
    if g.w == 1:
        base = int(st.wg[g.waves[0]]) * row
    else:
        base = (st.wg[g.waves] * row)[:, None]
    return base + (np.where(mask, a, 0) if mask is not None else a)


def _offset(d: Decoded) -> int:
    w0 = d.inst.words[0]
    if (w0 >> 16) & 1:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "GDS is not emulated")
    return w0 & 0xFFFF


def _addr_reader(d: Decoded, vaddr, off: int = 0):
    """LDS byte address VADDR + offset, computed in 32 bits (wraps like the hardware adder)."""
    r = row_of(vaddr, d.kernel.n_vgpr)
    if off:
        o = U32(off)
        return lambda st, g: (st.R[r, g.ix] + o).astype(np.int64)
    return lambda st, g: st.R[r, g.ix].astype(np.int64)


def _mask(st, g):
    m = st.EM[g.ix]
    return (None if m.all() else m), m


_READ = {"b32": (4, False, None), "b64": (8, False, None), "b96": (12, False, None),
         "b128": (16, False, None), "u8": (1, False, None), "i8": (1, True, None),
         "u16": (2, False, None), "i16": (2, True, None), "u8_d16": (1, False, "lo"),
         "i8_d16": (1, True, "lo"), "u16_d16": (2, False, "lo"), "u8_d16_hi": (1, False, "hi"),
         "i8_d16_hi": (1, True, "hi"), "u16_d16_hi": (2, False, "hi")}
_WRITE = {"b32": (4, None), "b64": (8, None), "b96": (12, None), "b128": (16, None),
          "b8": (1, None), "b16": (2, None), "b8_d16_hi": (1, "hi"), "b16_d16_hi": (2, "hi")}


def _allowed(d: Decoded, extra=()):
    for k in d.mods:
        if k not in ("offset", "offset0", "offset1", *extra):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")


def _build_read(d: Decoded):
    _allowed(d)
    nbytes, signed, d16 = _READ[d.base[len("ds_read_"):]]
    dst, vaddr = d.ops
    off = _offset(d)
    ra = _addr_reader(d, vaddr, off)
    row = row_of(dst, d.kernel.n_vgpr)
    # one-wave fast path (state.solo, memops.solo_lds): whole dwords into whole rows
    nd = nbytes // 4 if nbytes % 4 == 0 and d16 is None else 0
    rv, o32 = row_of(vaddr, d.kernel.n_vgpr), U32(off)

    def run(st, g):
        if nd:
            j = solo(st, g)
            if j >= 0:
                hit = solo_lds(st, j, st.R[rv, j] + o32 if off else st.R[rv, j], nbytes)
                if hit is not None:
                    solo_load_rows(st, j, row, nd, hit)
                    return
        mask, m = _mask(st, g)
        a = ra(st, g)
        if st.trace is not None:
            st.trace.ds(st, g, d, a, nbytes)
        o = lds_offsets(st, g, d, a, mask, nbytes, False)
        write_load(st, g, row, gather(st.lds_flat, st.lds32_flat, o, nbytes), nbytes, signed,
                   d16)
    return run


def _build_write(d: Decoded):
    _allowed(d)
    nbytes, d16 = _WRITE[d.base[len("ds_write_"):]]
    vaddr, data = d.ops
    off = _offset(d)
    ra = _addr_reader(d, vaddr, off)
    drow = row_of(data, d.kernel.n_vgpr)
    # one-wave fast path for single dwords (wider writes keep the general path's order of
    # overlapping lanes)
    fast = nbytes == 4 and d16 is None
    rv, o32 = row_of(vaddr, d.kernel.n_vgpr), U32(off)

    def run(st, g):
        if fast:
            j = solo(st, g)
            if j >= 0:
                hit = solo_lds(st, j, st.R[rv, j] + o32 if off else st.R[rv, j], 4)
                if hit is not None:
                    sub, idx = hit
                    sub[idx] = st.R[drow, j]
                    return
        mask, m = _mask(st, g)
        a = ra(st, g)
        if st.trace is not None:
            st.trace.ds(st, g, d, a, nbytes)
        if not m.any():
            return
        o = lds_offsets(st, g, d, a, mask, nbytes, True)
        scatter(st.lds_flat, st.lds32_flat, o, mask, store_data(st, g, drow, nbytes, d16), nbytes)
    return run


def _two(d: Decoded):
    w0 = d.inst.words[0]
    if (w0 >> 16) & 1:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "GDS is not emulated")
    size = 8 if d.base.endswith("b64") else 4
    scale = size * (64 if "st64" in d.base else 1)
    return w0 & 0xFF, (w0 >> 8) & 0xFF, size, scale


def _build_read2(d: Decoded):
    _allowed(d)
    o0, o1, size, scale = _two(d)
    dst, vaddr = d.ops
    ra = _addr_reader(d, vaddr)
    row = row_of(dst, d.kernel.n_vgpr)
    ndw = size // 4

    def run(st, g):
        mask, m = _mask(st, g)
        a = ra(st, g)
        a0, a1 = (a + o0 * scale) & 0xFFFFFFFF, (a + o1 * scale) & 0xFFFFFFFF
        if st.trace is not None:
            st.trace.ds(st, g, d, a0, size, a1)
        for k, ak in enumerate((a0, a1)):
            o = lds_offsets(st, g, d, ak, mask, size, False)
            write_load(st, g, row + k * ndw, gather(st.lds_flat, st.lds32_flat, o, size), size,
                       False, None)
    return run


def _build_write2(d: Decoded):
    _allowed(d)
    o0, o1, size, scale = _two(d)
    vaddr, d0, d1 = d.ops
    ra = _addr_reader(d, vaddr)
    nv = d.kernel.n_vgpr
    rows = (row_of(d0, nv), row_of(d1, nv))

    def run(st, g):
        mask, m = _mask(st, g)
        a = ra(st, g)
        a0, a1 = (a + o0 * scale) & 0xFFFFFFFF, (a + o1 * scale) & 0xFFFFFFFF
        if st.trace is not None:
            st.trace.ds(st, g, d, a0, size, a1)
        if not m.any():
            return
        for ak, r in ((a0, rows[0]), (a1, rows[1])):
            o = lds_offsets(st, g, d, ak, mask, size, True)
            scatter(st.lds_flat, st.lds32_flat, o, mask, store_data(st, g, r, size, None), size)
    return run


def _atomic_op(base: str) -> tuple[str, bool, int]:
    """ds_add_rtn_u32 -> (memops op "add", returns old value, 32 bits)."""
    name = base[3:].replace("_rtn", "")
    stem, _, t = name.rpartition("_")
    ret = "_rtn_" in base
    bits = int(t[1:])
    if stem in ("add", "sub", "rsub", "inc", "dec") and t[0] == "u":
        return stem, ret, bits
    if stem in ("min", "max"):
        return ({"i": "s", "u": "u"}[t[0]] + stem if t[0] != "f" else f"{stem}_{t}"), ret, bits
    if stem in ("min_num", "max_num") and t[0] == "f":  # GFX12 minimumNumber/maximumNumber
        return f"{stem}_{t}", ret, bits
    if stem in ("and", "or", "xor"):
        return stem, ret, bits
    if stem == "wrxchg":
        return "swap", True, bits
    if stem == "cmpst":
        return "cmpst", ret, bits
    if stem == "add" and t[0] == "f":
        return f"add_{t}", ret, bits
    raise KeyError(base)


def _build_atomic(d: Decoded):
    _allowed(d)
    op, ret, bits = _atomic_op(d.base)
    off = _offset(d)
    ops = list(d.ops)
    dst = ops.pop(0) if ret else None
    vaddr = ops.pop(0)
    data = ops.pop(0)
    data2 = ops.pop(0) if op == "cmpst" else None
    # gfx9 DS_CMPST: DATA = compare, DATA2 = new; GFX11+ DS_CMPSTORE: DATA = new, DATA2 =
    # compare (RDNA3 ISA DS_CMPSTORE_B32; rdna.RENAMES maps the name onto gfx9's)
    cmp, new = (data2, data) if d.kernel.gen >= 11 else (data, data2)
    ra = _addr_reader(d, vaddr, off)
    nv = d.kernel.n_vgpr
    nb = bits // 8

    def val(st, g, o, m):
        return atomic_operand(st, g, row_of(o, nv), m, nb)

    def run(st, g):
        m = st.EM[g.ix]
        a = ra(st, g)
        if st.trace is not None:
            st.trace.ds(st, g, d, a, nb)
        if not m.any():
            return
        o = lds_offsets(st, g, d, a, m, nb, True)
        check_atomic_aligned(st, g, d, "LDS", o, m, a, nb)
        view = st.lds32_flat if nb == 4 else st.lds_flat.view(U64)
        if op == "cmpst":  # DS_CMPST: DATA = compare value, DATA2 = new value
            old = atomic(view, o[m] // nb, val(st, g, new, m), op, ret, val(st, g, cmp, m))
        else:
            old = atomic(view, o[m] // nb, val(st, g, data, m), op, ret)
        if ret:
            full = np.zeros((g.w, 64), U64 if nb == 8 else U32)
            full[m] = old
            write_atomic_old(st, g, row_of(dst, nv), full, nb)
    return run


@semantic("ds_bpermute_b32", "ds_permute_b32")
def _build_permute(d: Decoded):
    _allowed(d)
    off = _offset(d)
    dst, vaddr, data = d.ops
    nv = d.kernel.n_vgpr
    ra, rd, rr = row_of(vaddr, nv), row_of(data, nv), row_of(dst, nv)
    back = d.base == "ds_bpermute_b32"

    def run(st, g):
        m = st.EM[g.ix]
        a = st.R[ra, g.ix].astype(np.int64) + off
        if st.trace is not None:
            st.trace.ds(st, g, d, a, 4)
        lane = (a >> 2) & (st.wave - 1)  # wave32: lanes wrap at 32 (RDNA3 ISA DS_BPERMUTE)
        src = np.where(m, st.R[rd, g.ix], U32(0))  # disabled lanes contribute 0
        if back:
            out = np.take_along_axis(src, lane, axis=1)
        else:
            out = np.zeros_like(src)
            w_idx = np.broadcast_to(np.arange(g.w)[:, None], lane.shape)
            out[w_idx[m], lane[m]] = src[m]
        st.vwrite(rr, g, out)
    return run


def _rev5(x: np.ndarray) -> np.ndarray:
    """Bit-reverse the low 5 bits of each value."""
    return sum(((x >> b) & 1) << (4 - b) for b in range(5))


def swizzle_lanes(offset: int) -> np.ndarray:
    """Source lane of each of the 64 lanes for ds_swizzle_b32 ``offset`` (RDNA3 ISA §16.15
    DS_SWIZZLE_B32 pseudocode; the RDNA3.5 guide has the same; LLVM prints and assembles the FFT
    and rotate modes for every GFX9+ target, AMDGPUInstPrinter::printSwizzle):

    * offset >= 0xE000, FFT: mask = offset[4:0]; j = reverse5(i & 31) >> popcount(mask), then
      j |= i & mask, within each 32-lane half.
    * 0xC000 <= offset < 0xE000, rotate by offset[9:5] lanes, left (lane i reads i + n) or, with
      offset[10], right, within each 32-lane half. Only mask = offset[4:0] = 0 is modelled (what
      LLVM's swizzle(ROTATE, dir, n) encodes): for mask != 0 the guide's pseudocode
      (j = (i & mask) | ((i + n) & ~mask)) and its own example table disagree, so it is refused.
    * offset[15] = 1: quad permute by offset[7:0]; else bit-mask mode within 32-lane halves:
      and[4:0], or[9:5], xor[14:10].

    Raises ValueError naming what is not modelled."""
    lane = np.arange(64)
    if offset >= 0xE000:
        mask = offset & 0x1F
        j = (_rev5(lane & 0x1F) >> bin(mask).count("1")) | (lane & mask)
        return (lane & 0x20) | j
    if offset >= 0xC000:
        if offset & 0x1F:
            raise ValueError(f"rotate mode with mask {offset & 0x1F:#x} (offset {offset:#06x}): "
                             "the ISA guide's pseudocode and its examples disagree")
        n = (offset >> 5) & 0x1F
        step = -n if offset & 0x400 else n
        return (lane & 0x20) | ((lane + step) & 0x1F)
    if offset & 0x8000:
        sel = np.array([(offset >> (2 * i)) & 3 for i in range(4)])
        return (lane & ~3) + sel[lane & 3]
    and_m, or_m, xor_m = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    return (lane & 0x20) | ((((lane & 0x1F) & and_m) | or_m) ^ xor_m)


@semantic("ds_swizzle_b32")
def _build_swizzle(d: Decoded):
    _allowed(d)
    off = _offset(d)
    dst, src = d.ops
    nv = d.kernel.n_vgpr
    rs, rr = row_of(src, nv), row_of(dst, nv)
    try:
        lanes = swizzle_lanes(off)
    except ValueError as e:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, str(e)) from None

    def run(st, g):
        m = st.EM[g.ix]
        x = np.where(m, st.R[rs, g.ix], U32(0))
        st.vwrite(rr, g, x[:, lanes])
    return run


# DS_APPEND / DS_CONSUME (__builtin_amdgcn_ds_append/consume): the LDS dword at M0 + offset
# (LLVM SIISelLowering copies the pointer into M0 for these) is increased / decreased by the
# number of lanes in EXEC, and every active lane gets its value from before (CDNA3 ISA
# DS_APPEND "RETURN_DATA = MEM[ADDR]; MEM[ADDR] += countbits(EXEC)"). Waves run one by one.
@semantic("ds_append", "ds_consume")
def _build_append(d: Decoded):
    _allowed(d)
    off = _offset(d)
    dst = row_of(d.ops[0], d.kernel.n_vgpr)
    sign = 1 if d.base == "ds_append" else -1

    def run(st, g):
        m = st.EM[g.ix]
        a = np.broadcast_to((st.S[M0, g.ix].astype(np.int64) + off)[:, None], m.shape)
        if st.trace is not None:
            st.trace.ds(st, g, d, a, 4)
        if not m.any():
            return
        o = lds_offsets(st, g, d, a, m, 4, True)
        check_atomic_aligned(st, g, d, "LDS", o, m, a, 4)
        old = np.zeros(m.shape, U32)
        for i in range(m.shape[0]):
            if m[i].any():
                k = int(o[i][m[i]][0]) // 4
                old[i] = st.lds32_flat[k]
                st.lds32_flat[k] = U32((int(old[i, 0]) + sign * int(m[i].sum())) & 0xFFFFFFFF)
        st.vwrite(dst, g, old)
    return run


@semantic("ds_nop")
def _ds_nop(d: Decoded):
    return lambda st, g: None


for _k in _READ:
    semantic(f"ds_read_{_k}")(_build_read)
for _k in _WRITE:
    semantic(f"ds_write_{_k}")(_build_write)
for _n in ("ds_read2_b32", "ds_read2_b64", "ds_read2st64_b32", "ds_read2st64_b64"):
    semantic(_n)(_build_read2)
for _n in ("ds_write2_b32", "ds_write2_b64", "ds_write2st64_b32", "ds_write2st64_b64"):
    semantic(_n)(_build_write2)
for _stem in ("add", "sub", "rsub", "inc", "dec"):
    for _b in ("u32", "u64"):
        semantic(f"ds_{_stem}_{_b}", f"ds_{_stem}_rtn_{_b}")(_build_atomic)
for _stem in ("min", "max"):
    for _b in ("i32", "u32", "i64", "u64", "f32", "f64"):
        semantic(f"ds_{_stem}_{_b}", f"ds_{_stem}_rtn_{_b}")(_build_atomic)
for _stem in ("min_num", "max_num"):
    for _b in ("f32", "f64"):
        semantic(f"ds_{_stem}_{_b}", f"ds_{_stem}_rtn_{_b}")(_build_atomic)
for _stem in ("and", "or", "xor"):
    for _b in ("b32", "b64"):
        semantic(f"ds_{_stem}_{_b}", f"ds_{_stem}_rtn_{_b}")(_build_atomic)
semantic("ds_wrxchg_rtn_b32", "ds_wrxchg_rtn_b64", "ds_cmpst_b32", "ds_cmpst_rtn_b32",
         "ds_cmpst_b64", "ds_cmpst_rtn_b64", "ds_add_f32", "ds_add_rtn_f32",
         "ds_add_f64", "ds_add_rtn_f64")(_build_atomic)

