"""SMEM: scalar loads through the kernarg/global address space (one address per wave).

Address = SBASE (64-bit SGPR pair) + offset (immediate and/or SOFFSET SGPR), low two bits
ignored (CDNA3 ISA "Scalar Memory Operations": "the address is dword aligned, bits 1:0 are
ignored"). s_buffer_load takes the base from the buffer resource (V# bits 47:0).
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.operands import sread32, sread64
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction

_N = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16}
# dwordx3: GFX12's s_load_b96 (RDNA4 ISA S_LOAD_B96; emu.rdna renames it)


def _offset_reader(d: Decoded, ops):
    """Reader for the sum of the immediate / SGPR offsets (signed 21-bit immediate on gfx9)."""
    parts = []
    imm = int(d.mods.get("offset", 0))
    for o in ops:
        if o.kind == "imm":
            imm += int(o.value)
        elif o.kind == "s":
            parts.append(sread32(o))
        else:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"offset {o.text}")

    def rd(st, g):
        v = np.full(g.w, imm, np.int64)
        for p in parts:
            v = v + np.asarray(p(st, g)).astype(np.int64)
        return v
    return rd


def _scalar_fault(st, g, d, bad_w, addr, why):
    bad = np.zeros((g.w, 64), bool)
    bad[:, 0] = bad_w if np.ndim(bad_w) == 1 else bad_w.any(-1)
    fault(st, g, d, "scalar memory", bad, addr, why, False)


@semantic(*[f"s_load_{k}" for k in _N], *[f"s_buffer_load_{k}" for k in _N])
def _build_sload(d: Decoded):
    for k in d.mods:
        if k not in ("offset", "glc", "sc0", "sc1", "nt", "dlc"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    n = _N[d.base.rsplit("_", 1)[1]]
    dst, base, *offs = d.ops
    buffer = d.base.startswith("s_buffer")
    rb = sread64(base)
    ro = _offset_reader(d, offs)
    slot = dst.idx
    if dst.kind != "s" or dst.n != n:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "destination size")

    def run(st, g):
        b = np.broadcast_to(rb(st, g), (g.w,)).astype(np.uint64)
        if buffer:
            b = b & np.uint64((1 << 48) - 1)
        addr = (b + ro(st, g).astype(np.uint64)) & ~np.uint64(3)
        mem = st.mem

        def f(bad, a, why):
            _scalar_fault(st, g, d, bad, a, why)
        off = mem.offsets(addr, None, 4 * n, lambda bad, a, why: f(bad, a, why), False)
        idx = (off >> 2)[:, None] + np.arange(n)[None, :]
        vals = mem.heap32[idx]  # [w, n]
        for k in range(n):
            st.S[slot + k, g.ix] = vals[:, k]
    return run


# GFX12 sub-dword scalar loads (RDNA4 ISA S_LOAD_U8/I8/U16/I16, S_BUFFER_LOAD_*: one byte or
# short at the byte address, zero- or sign-extended into one SGPR); LLVM uses them for uniform
# sub-dword values such as a bool kernel argument
_SUB = {"u8": (1, False), "i8": (1, True), "u16": (2, False), "i16": (2, True)}


@semantic(*[f"s_load_{k}" for k in _SUB], *[f"s_buffer_load_{k}" for k in _SUB])
def _build_sload_sub(d: Decoded):
    for k in d.mods:
        if k not in ("offset", "th", "scope", "nv"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    nb, signed = _SUB[d.base.rsplit("_", 1)[1]]
    dst, base, *offs = d.ops
    buffer = d.base.startswith("s_buffer")
    rb = sread64(base)
    ro = _offset_reader(d, offs)
    dt = {(1, False): np.uint8, (1, True): np.int8, (2, False): np.uint16,
          (2, True): np.int16}[(nb, signed)]

    def run(st, g):
        b = np.broadcast_to(rb(st, g), (g.w,)).astype(np.uint64)
        if buffer:
            b = b & np.uint64((1 << 48) - 1)
        addr = b + ro(st, g).astype(np.uint64)
        off = st.mem.offsets(addr, None, nb, lambda bad, a, why: _scalar_fault(st, g, d, bad,
                                                                             a, why), False)
        raw = st.mem.heap[off[:, None] + np.arange(nb)[None, :]]  # [w, nb] bytes
        v = np.ascontiguousarray(raw).view(dt)[:, 0]
        st.S[dst.idx, g.ix] = v.astype(np.int32).view(np.uint32)
    return run


def clock_now(st) -> int:
    """The emulator's clock: wave-instructions the launch has executed so far, a monotonically
    increasing counter: the per-instruction counts, which the engine keeps current (its
    ``executed`` total is only settled when a batch ends). s_memtime / s_memrealtime here, and
    RDNA's SHADER_CYCLES register and MSG_RTN_GET_REALTIME (scalar.mode, rdna.scalar) read it."""
    if st.launch is None:
        return 0
    return int(sum(st.launch.counts))


@semantic("s_memtime", "s_memrealtime")
def _build_time(d: Decoded):
    (dst,) = d.ops

    def run(st, g):
        t = np.uint64(clock_now(st))
        st.S[dst.idx, g.ix] = np.uint32(int(t) & 0xFFFFFFFF)
        st.S[dst.idx + 1, g.ix] = np.uint32(int(t) >> 32)
    return run
