"""Vectorised gathers, scatters and atomics on byte/dword views (global heap, LDS, scratch).

Offsets are int64 byte offsets into a flat ``uint8`` array whose ``uint32`` view covers the
same bytes. Aligned dword accesses use the dword view (one fancy-index per dword), anything
else goes through bytes. Conflicting atomics are applied in lane order within a wave and wave
order within a group (``memory.serialize_rounds``); ``ufunc.at`` is used where no return value
is needed, which gives the same sequential result.

The register side shared by the DS, global/flat/scratch and buffer families is here too: what a
load writes to its VGPRs (``widen``, ``write_load``), what a store takes (``store_data``), and
an atomic's operands, alignment fault and returned pre-op values.
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import fault
from ...decoder.registry import Decoded
from ...machine.memory import serialize_rounds
from ...machine.state import Group, State
from ...numerics.vfloat import maxnum, minnum

U32, U64 = np.uint32, np.uint64
_UMIN, _UMAX, _BOR = np.minimum.reduce, np.maximum.reduce, np.bitwise_or.reduce
_TWO = U32(2)


def aligned4(off: np.ndarray) -> bool:
    return not (int(np.bitwise_or.reduce(off, axis=None)) & 3)


_WIDE = {8: np.dtype(np.uint64), 16: np.dtype((np.void, 16))}


def _wide_view(b8: np.ndarray, off: np.ndarray, nbytes: int) -> np.ndarray | None:
    """An 8/16-byte element view of ``b8`` when every offset is aligned to it (one fancy index
    per lane instead of one per dword)."""
    dt = _WIDE.get(nbytes)
    if dt is None or b8.size % nbytes or (int(np.bitwise_or.reduce(off, axis=None))
                                          & (nbytes - 1)):
        return None
    return b8.view(dt)


def gather(b8: np.ndarray, b32: np.ndarray, off: np.ndarray, nbytes: int) -> np.ndarray:
    """Load ``nbytes`` per lane: uint32 [..., ceil(nbytes/4)] (sub-dword: zero-extended)."""
    wide = _wide_view(b8, off, nbytes)
    if wide is not None:
        v = wide[off // nbytes]
        return v.view(U32).reshape(off.shape + (nbytes // 4,))
    if nbytes >= 4 and nbytes % 4 == 0 and aligned4(off):
        n = nbytes // 4
        idx = off >> 2
        if n == 1:
            return b32[idx][..., None]
        return b32[idx[..., None] + np.arange(n)]
    if nbytes < 4:
        v = b8[off].astype(U32)
        for k in range(1, nbytes):
            v |= b8[off + k].astype(U32) << U32(8 * k)
        return v[..., None]
    raw = b8[off[..., None] + np.arange(nbytes)]
    return np.ascontiguousarray(raw).view(U32)


def scatter(b8: np.ndarray, b32: np.ndarray, off: np.ndarray, mask: np.ndarray | None,
            data: np.ndarray, nbytes: int) -> None:
    """Store ``nbytes`` per active lane from ``data`` uint32 [..., ceil(nbytes/4)]."""
    if mask is not None:
        off = off[mask]
        data = data[mask]
    else:
        off = off.reshape(-1)
        data = data.reshape(-1, data.shape[-1])
    wide = _wide_view(b8, off, nbytes)
    if wide is not None:
        wide[off // nbytes] = np.ascontiguousarray(data, dtype=U32).view(wide.dtype)[:, 0]
        return
    if nbytes >= 4 and nbytes % 4 == 0 and aligned4(off):
        n = nbytes // 4
        idx = off >> 2
        if n == 1:
            b32[idx] = data[:, 0]
        else:
            b32[idx[:, None] + np.arange(n)] = data[:, :n]
        return
    raw = np.ascontiguousarray(data.astype(U32)).view(np.uint8)[:, :nbytes]
    b8[off[:, None] + np.arange(nbytes)] = raw


# ---- one-wave dword fast path -----------------------------------------------------------------
# A single wave with every lane in EXEC and no observer (state.solo) whose lanes address
# ``base + v`` (``base`` a Python int, ``v`` the lanes' uint32 offsets) at dword-aligned
# addresses inside one buffer: the access is one fancy index of a dword view, ``sub[idx]`` with
# ``idx = v >> 2``. One bitwise-or reduction of ``v`` gives the alignment and an upper bound of
# every offset (or >= max), so the common case costs one reduction; min/max are taken only when
# that bound is not enough. Anything else (misaligned, outside a buffer, an aperture) returns
# None and the instruction takes its general path, which faults or gathers bytes as before.
def solo_dwords(mem, base: int, v: np.ndarray, nbytes: int, write: bool
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """(dword view starting at address ``base``, dword indices) of a checked one-wave access
    of ``nbytes`` (a multiple of 4) per lane at ``base + v``; None: take the general path."""
    o = int(_BOR(v))
    if (o | base) & 3:
        return None
    a0 = base + v.item(0)
    r = mem.span(a0, a0 + nbytes, write)
    if r is None:
        return None
    end = r.base + r.size
    if base < r.base and base + int(_UMIN(v)) < r.base:
        return None
    if base + o + nbytes > end and base + int(_UMAX(v)) + nbytes > end:
        return None
    k = base - r.delta  # heap byte offset of address ``base`` (aligned: deltas are 4 KiB)
    if k < 0:
        return None
    return mem.heap32[k >> 2:], v >> _TWO


def solo_lds(st: State, j: int, a: np.ndarray, nbytes: int) -> tuple[np.ndarray, np.ndarray
                                                                       ] | None:
    """(dword view of wave ``j``'s LDS, dword indices) of a one-wave LDS access of ``nbytes``
    (a multiple of 4) per lane at the uint32 byte addresses ``a``, when every address is
    dword-aligned and inside the allocation; None: take the general path."""
    o = int(_BOR(a))
    if o & 3 or (o + nbytes > st.lds_bytes and int(_UMAX(a)) + nbytes > st.lds_bytes):
        return None
    return st.lds32_flat[(st.wg.item(j) * st.lds.shape[1]) >> 2:], a >> _TWO


def solo_load_rows(st: State, j: int, row: int, nd: int, hit: tuple[np.ndarray, np.ndarray]
                   ) -> None:
    """Write a one-wave fast-path load (``hit`` from solo_dwords / solo_lds) into the ``nd``
    VGPR rows from ``row`` of wave ``j``: dword k of each lane into row + k."""
    sub, idx = hit
    R = st.R
    R[row, j] = sub[idx]
    for k in range(1, nd):
        R[row + k, j] = sub[k:][idx]


def widen(st: State, g: Group, row: int, x: np.ndarray, nbytes: int, signed: bool,
          d16: str | None) -> np.ndarray:
    """The dword a sub-dword load of ``x`` (zero-extended [w, 64]) puts in VGPR ``row``.

    ``signed`` sign-extends; d16 "lo"/"hi" puts the low 16 bits in that half of the register
    and keeps the other half (CDNA3 ISA: *_D16 / *_D16_HI loads).
    """
    if signed:
        sh = U32(32 - 8 * nbytes)
        x = ((x << sh).view(np.int32) >> sh.astype(np.int32)).view(U32)
    if d16 == "lo":
        x = (st.R[row, g.ix] & U32(0xFFFF0000)) | (x & U32(0xFFFF))
    elif d16 == "hi":
        x = (st.R[row, g.ix] & U32(0xFFFF)) | (x << U32(16))
    return x


def write_load(st: State, g: Group, row: int, v: np.ndarray, nbytes: int, signed: bool,
               d16: str | None) -> None:
    """Write a ``gather`` result ``v`` of ``nbytes`` per lane to VGPRs ``row``... under EXEC."""
    if nbytes < 4:
        st.vwrite(row, g, widen(st, g, row, v[..., 0], nbytes, signed, d16))
        return
    for k in range(nbytes // 4):
        st.vwrite(row + k, g, v[..., k])


def store_data(st: State, g: Group, row: int, nbytes: int, d16: str | None) -> np.ndarray:
    """uint32 [w, 64, max(1, nbytes // 4)] data a store of ``nbytes`` takes from VGPRs
    ``row``...; d16 "hi" stores the high half of the dword."""
    ndw = max(1, nbytes // 4)
    if ndw == 1:
        x = st.R[row, g.ix]
        return (x >> U32(16) if d16 == "hi" else x)[..., None]
    return np.stack([st.R[row + k, g.ix] for k in range(ndw)], -1)


# atomic ops on element views: name -> (dtype, fn(old, src[, cmp]) -> new, ufunc for .at or None)
def _inc(old, src):
    return np.where(old >= src, 0, old + 1).astype(old.dtype)


def _dec(old, src):
    return np.where((old == 0) | (old > src), src, old - 1).astype(old.dtype)


def _fmin_atomic(old, src):
    """GFX9-GFX11 float atomic min (CDNA3 ISA BUFFER_ATOMIC_MIN_F64, RDNA3 ISA DS_MIN_F64 /
    DS_MIN_F32: "MEM[ADDR].f64 = src < tmp ? src : tmp", "Floating-point compare handles
    NAN/INF/denorm"): a plain compare, so a tie (+0 vs -0 either way) keeps the memory value and
    a NaN src keeps it too. A NaN in memory takes src: the pseudocode's compare alone would keep
    the NaN, but LLVM selects these ops for atomicrmw fmin, which "perform the same operation as
    llvm.maxnum/minnum which return the other operand if one operand is nan" (LLVM PR #97411,
    AMDGPU, merged) -- a choice between the two sources, not hardware-checked."""
    return np.where(np.isnan(old) | (src < old), src, old)


def _fmax_atomic(old, src):
    """GFX9-GFX11 float atomic max: "src > tmp ? src : tmp" (same sources and NaN rule)."""
    return np.where(np.isnan(old) | (src > old), src, old)


def _fmin_num_atomic(old, src):
    """GFX12 *_MIN_NUM_F32/F64 atomics (RDNA4 ISA DS_MIN_NUM_F32 opcode 18,
    GLOBAL/FLAT/BUFFER_ATOMIC_MIN_NUM_F32 opcode 81: "Select the IEEE minimumNumber()"; "elsif
    isNAN(src) then MEM = tmp elsif isNAN(tmp) then MEM = src elsif ((src < tmp) || (... sign(src)
    && !sign(tmp))) // NOTE: -0<+0 is TRUE in this comparison"): V_MIN_F32's minNum."""
    return minnum(src, old)


def _fmax_num_atomic(old, src):
    """GFX12 *_MAX_NUM_* atomics: IEEE maximumNumber(), +0 > -0 (same sources)."""
    return maxnum(src, old)


def _pk_add_f16(o, s):
    """Two f16 sums per dword (GLOBAL_ATOMIC_PK_ADD_F16, CDNA3 ISA: "tmp[15:0].f16 + DATA[15:0]
    .f16, tmp[31:16].f16 + DATA[31:16].f16"): exact in f64, rounded once to f16 (RNE)."""
    def half(x, sh):
        return ((x >> np.uint32(sh)) & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16)

    with np.errstate(all="ignore"):
        lo = (half(o, 0).astype(np.float64) + half(s, 0)).astype(np.float16)
        hi = (half(o, 16).astype(np.float64) + half(s, 16)).astype(np.float16)
    return lo.view(np.uint16).astype(np.uint32) | (hi.view(np.uint16).astype(np.uint32) << 16)


def _pk_add_bf16(o, s):
    """Two bf16 sums per dword (GLOBAL_ATOMIC_PK_ADD_BF16): the f32 sum (exact whenever the
    result can round differently) rounded to bf16 with round-to-nearest-even."""
    from ...numerics.floats import f32_to_bf16_bits

    def half(x, sh):
        return (((x >> np.uint32(sh)) & np.uint32(0xFFFF)) << np.uint32(16)).view(np.float32)

    with np.errstate(all="ignore"):
        lo = f32_to_bf16_bits(half(o, 0) + half(s, 0))
        hi = f32_to_bf16_bits(half(o, 16) + half(s, 16))
    return (lo & np.uint32(0xFFFF)) | ((hi & np.uint32(0xFFFF)) << np.uint32(16))


ATOMICS = {
    "add": ("u", lambda o, s: o + s, np.add),
    "sub": ("u", lambda o, s: o - s, np.subtract),
    "rsub": ("u", lambda o, s: s - o, None),
    "smin": ("i", np.minimum, np.minimum), "min": ("i", np.minimum, np.minimum),
    "smax": ("i", np.maximum, np.maximum), "max": ("i", np.maximum, np.maximum),
    "umin": ("u", np.minimum, np.minimum), "umax": ("u", np.maximum, np.maximum),
    "and": ("u", lambda o, s: o & s, np.bitwise_and),
    "or": ("u", lambda o, s: o | s, np.bitwise_or),
    "xor": ("u", lambda o, s: o ^ s, np.bitwise_xor),
    "inc": ("u", _inc, None), "dec": ("u", _dec, None),
    "swap": ("u", lambda o, s: s, None), "wrxchg": ("u", lambda o, s: s, None),
    "add_f32": ("f", lambda o, s: o + s, np.add),
    "add_f64": ("f", lambda o, s: o + s, np.add),
    "min_f32": ("f", _fmin_atomic, None), "max_f32": ("f", _fmax_atomic, None),
    "min_f64": ("f", _fmin_atomic, None), "max_f64": ("f", _fmax_atomic, None),
    "min_num_f32": ("f", _fmin_num_atomic, None), "max_num_f32": ("f", _fmax_num_atomic, None),
    "min_num_f64": ("f", _fmin_num_atomic, None), "max_num_f64": ("f", _fmax_num_atomic, None),
    "cmpswap": ("u", None, None), "cmpst": ("u", None, None),
    # packed 16-bit float adds (gfx90a+ / GFX12 global, flat and buffer forms)
    "pk_add_f16": ("u", _pk_add_f16, None), "pk_add_bf16": ("u", _pk_add_bf16, None),
}


def atomic(view: np.ndarray, idx: np.ndarray, src: np.ndarray, op: str, want_old: bool,
           cmp: np.ndarray | None = None) -> np.ndarray | None:
    """Apply an atomic to ``view`` (uint32 or uint64 elements) at element indices ``idx`` (1-D,
    lane order). ``src``/``cmp`` hold raw bit patterns. Returns the old values if asked."""
    kind, fn, uf = ATOMICS[op]
    bits = view.dtype.itemsize * 8
    tdt = {("u", 32): np.uint32, ("i", 32): np.int32, ("f", 32): np.float32,
           ("u", 64): np.uint64, ("i", 64): np.int64, ("f", 64): np.float64}[(kind, bits)]
    tv = view.view(tdt)
    ts = src.astype(view.dtype).view(tdt)
    if not want_old and uf is not None and cmp is None:
        uf.at(tv, idx, ts)
        return None
    old = np.empty(idx.shape, tdt)
    for r in serialize_rounds(idx):
        o = tv[idx[r]]
        old[r] = o
        if op in ("cmpswap", "cmpst"):
            c = cmp.astype(view.dtype).view(tdt)[r]
            tv[idx[r]] = np.where(o == c, ts[r], o)
        else:
            tv[idx[r]] = fn(o, ts[r])
    return old.view(view.dtype) if want_old else None


def atomic_operand(st: State, g: Group, row: int, m: np.ndarray, nbytes: int) -> np.ndarray:
    """Atomic data of the lanes ``m`` in lane order: VGPR ``row`` (4 bytes) or the pair
    ``row``, ``row + 1`` as uint64 (8 bytes, low dword first)."""
    if nbytes == 4:
        return st.R[row, g.ix][m]
    return st.R[row, g.ix][m].astype(U64) | (st.R[row + 1, g.ix][m].astype(U64) << U64(32))


def write_atomic_old(st: State, g: Group, row: int, full: np.ndarray, nbytes: int) -> None:
    """Return the pre-op values ``full`` [w, 64] to VGPR ``row`` (8 bytes: the pair)."""
    if nbytes == 4:
        st.vwrite(row, g, full)
    else:
        st.vwrite(row, g, (full & U64(0xFFFFFFFF)).astype(U32))
        st.vwrite(row + 1, g, (full >> U64(32)).astype(U32))


def check_atomic_aligned(st: State, g: Group, d: Decoded, space: str, off: np.ndarray,
                         m: np.ndarray, addr: np.ndarray, nbytes: int) -> None:
    """Fault on the lanes of ``m`` whose offset is not a multiple of ``nbytes``."""
    if (int(np.bitwise_or.reduce(off[m])) & (nbytes - 1)) != 0:
        bad = m & ((off & (nbytes - 1)) != 0)
        fault(st, g, d, space, bad, int(addr[bad][0]), f"misaligned {nbytes}-byte atomic", True)
