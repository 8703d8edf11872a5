"""The emulated flat (global) address space of one launch, with a bounds checker.

Memory map: every launch buffer (arguments, kernarg segment, dispatch packet, queue) is copied
into one host ``uint8`` heap and mapped at ``HEAP_BASE + offset``; buffers start 256-byte
aligned and are separated by ``GUARD`` unmapped bytes, so an overrun of any buffer lands in a
gap and faults instead of silently touching a neighbour. The code object's loadable segments
(``.rodata`` tables, ``__device__``/``__constant__`` data, see ``elfmap``) are regions at the
fixed address ``CODE_BASE + vaddr`` (their bytes still live in the heap; a region maps its
address range onto its heap range). LDS lives per workgroup in the State
(``State.lds``) and scratch per lane (``State.scratch``); the flat apertures for them are in
``operands``.

Checking is vectorised: the fast path takes the min and max address of the active lanes and
accepts when both ends fall in one buffer (buffers are contiguous); only then-failing accesses
are examined lane by lane to build the ``KernelFault`` message.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

import numpy as np

HEAP_BASE = 0x0000_7F00_0000_0000
# Load address of the code object (its vaddr 0). Not 0, so that a null pointer still faults;
# s_getpc_b64 / s_swappc_b64 / s_call_b64 return addresses in this range (scalar.salu).
CODE_BASE = 0x0000_7E00_0000_0000
GUARD = 4096
ALIGN = 256


# Addresses below one 4 KiB page are a null pointer plus a small offset: no buffer is ever
# placed there (the emulator's heap starts far above), so name the cause instead of a distance.
_NULL_PAGE = 4096


@dataclass
class Region:
    """One mapped buffer."""

    name: str
    base: int  # emulated address
    size: int
    offset: int  # into the heap
    writable: bool = True

    @property
    def delta(self) -> int:
        """address - heap offset, for every byte of the region."""
        return self.base - self.offset


class Memory:
    """Buffers of a launch in one heap; call ``add`` for each, then ``finalize``."""

    def __init__(self) -> None:
        self.regions: list[Region] = []
        self._next = GUARD
        self.heap = np.zeros(0, np.uint8)
        self.heap32 = self.heap.view(np.uint32)
        self._bases: list[int] = []
        self.bytes_read = 0
        self.bytes_written = 0

    def add(self, name: str, size: int, writable: bool = True, base: int | None = None
            ) -> Region:
        """Map ``size`` bytes at the next heap address, or at the fixed address ``base``."""
        size = int(size)
        off = self._next
        if base is not None:  # same address and heap offset modulo 4 KiB: aligned views agree
            off += (int(base) - off) % 4096
        r = Region(name, HEAP_BASE + off if base is None else int(base), size, off, writable)
        self.regions.append(r)
        self._next = (off + max(size, 1) + GUARD + ALIGN - 1) // ALIGN * ALIGN
        return r

    def finalize(self) -> None:
        self.heap = np.zeros((self._next + 15) // 16 * 16, np.uint8)
        self.heap32 = self.heap.view(np.uint32)
        self.regions.sort(key=lambda r: r.base)
        for a, b in zip(self.regions, self.regions[1:]):
            if a.base + a.size > b.base:
                raise ValueError(f"emulator memory map: {a.name!r} overlaps {b.name!r}")
        self._bases = [r.base for r in self.regions]

    def view(self, r: Region) -> np.ndarray:
        """The heap bytes of one region (a writable numpy view)."""
        return self.heap[r.offset:r.offset + r.size]

    # ---- lookups -----------------------------------------------------------------------------
    def region_at(self, addr: int) -> Region | None:
        i = bisect.bisect_right(self._bases, addr) - 1
        if i >= 0:
            r = self.regions[i]
            if r.base <= addr < r.base + r.size:
                return r
        return None

    def span(self, lo: int, hi: int, write: bool) -> Region | None:
        """The region holding every byte of [lo, hi), writable when ``write``; else None."""
        i = bisect.bisect_right(self._bases, lo) - 1
        if i >= 0:
            r = self.regions[i]
            if r.base <= lo and hi <= r.base + r.size and (r.writable or not write):
                return r
        return None

    def nearest(self, addr: int) -> tuple[Region | None, int]:
        """The buffer nearest to ``addr`` and the signed byte offset of addr from its base."""
        best, dist = None, None
        for r in self.regions:
            d = 0 if r.base <= addr < r.base + r.size else min(abs(addr - r.base),
                                                                 abs(addr - (r.base + r.size)))
            if dist is None or d < dist:
                best, dist = r, d
        return best, (addr - best.base) if best else 0

    def describe(self, addr: int, width: int) -> str:
        if 0 <= addr < _NULL_PAGE:
            return (f"a null pointer: address 0x{addr:x} is in the first {_NULL_PAGE} bytes, "
                    f"which no buffer occupies (a pointer argument or struct field passed as "
                    f"None or 0, or never set)")
        if CODE_BASE <= addr < CODE_BASE + (1 << 32) and self.region_at(addr) is None:
            if not any(CODE_BASE <= r.base < CODE_BASE + (1 << 32) for r in self.regions):
                return (f"code object address (vaddr 0x{addr - CODE_BASE:x}) — this launch did "
                        f"not map the code object's segments (workbench.emu.engine.launch.execute "
                        f"needs elf=)")
            return f"vaddr 0x{addr - CODE_BASE:x} is outside the code object's loaded segments"
        r, off = self.nearest(addr)
        if r is None:
            return "no buffer is mapped"
        if 0 <= off < r.size:
            return (f"{off} bytes into buffer {r.name!r} (size {r.size}); a {width}-byte access "
                    f"ends {off + width - r.size} bytes past its end")
        if off >= r.size:
            return f"{off - r.size} bytes past the end of buffer {r.name!r} (size {r.size})"
        return f"{-off} bytes before the start of buffer {r.name!r} (size {r.size})"

    # ---- checked access ----------------------------------------------------------------------
    def offsets(self, addr: np.ndarray, mask: np.ndarray | None, width: int, fault, write: bool
                ) -> np.ndarray:
        """Heap byte offsets (int64, same shape as addr) of a checked access of ``width`` bytes.

        ``addr`` is uint64; ``mask`` the active lanes (None = all). Inactive lanes get offset 0.
        ``fault(lanes_mask, message_fn)`` raises the KernelFault with instruction context.
        """
        act = addr if mask is None else addr[mask]
        if act.size == 0:
            return np.zeros(addr.shape, np.int64)
        lo = int(act.min())
        hi = int(act.max()) + width
        i = bisect.bisect_right(self._bases, lo) - 1
        ok = False
        if i >= 0:
            r = self.regions[i]
            ok = r.base <= lo and hi <= r.base + r.size and (r.writable or not write)
        if not ok:
            self._fault(addr, mask, width, fault, write)
        off = (addr - np.uint64(r.delta)).view(np.int64)
        if mask is not None:
            off = np.where(mask, off, 0)
        return off

    def _fault(self, addr, mask, width, fault, write) -> None:
        a = addr.astype(np.uint64)
        bases = np.array(self._bases, np.uint64)
        ends = np.array([r.base + r.size for r in self.regions], np.uint64)
        wr = np.array([r.writable for r in self.regions], bool)
        i = np.searchsorted(bases, a, side="right").astype(np.int64) - 1
        ic = np.clip(i, 0, len(bases) - 1)
        inside = (i >= 0) & (a >= bases[ic]) & (a + np.uint64(width) <= ends[ic])
        if write:
            inside &= wr[ic]
        bad = ~inside if mask is None else (~inside & mask)
        if not bad.any():
            return
        first = int(a[bad].ravel()[0])
        r = self.region_at(first)
        if r is not None and write and not r.writable and first + width <= r.base + r.size:
            why = f"write to read-only buffer {r.name!r} (offset {first - r.base})"
        else:
            why = self.describe(first, width)
        fault(bad, first, why)


def serialize_rounds(keys: np.ndarray) -> list[np.ndarray]:
    """Split flat lane positions into rounds in which every key (address) occurs at most once.

    Order within one key is preserved (lane order, then wave order), which is the order the
    emulator gives conflicting atomics.
    """
    n = keys.size
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    start = np.ones(n, bool)
    start[1:] = sk[1:] != sk[:-1]
    seg_start = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    rank = np.arange(n) - seg_start
    rounds = []
    for k in range(int(rank.max()) + 1 if n else 0):
        rounds.append(order[rank == k])
    return rounds
