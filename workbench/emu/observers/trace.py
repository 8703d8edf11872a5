"""Launch trace: every DS (LDS) instruction execution as numpy columns, dynamic counts, bytes.

Cheap when off (handlers test one attribute); bounded when on: at most ``max_ds_rows`` wave-level
DS records are kept, after which ``truncated`` is set and later records are counted but dropped.

``Trace.ds`` columns (one row per wave per executed DS instruction):
``pc`` int64, ``mnemonic`` (str array), ``wave`` (wave number in the launch), ``workgroup``
[n, 3], ``exec`` [n, 64] bool, ``addr`` [n, 64] or [n, 64, 2] uint32 (per-lane LDS byte address
after the instruction's offset; read2/write2 carry both addresses), ``width`` (bytes per lane
per address), ``source_line``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...display import Displayable

DEFAULT_MAX_DS_ROWS = 100_000


@dataclass
class DSRecords:
    """DS accesses as columns (see module docstring)."""

    pc: np.ndarray
    mnemonic: np.ndarray
    wave: np.ndarray
    workgroup: np.ndarray
    exec: np.ndarray
    addr: np.ndarray  # [n, 64, 2]; column 1 equals column 0 unless the op has two addresses
    two_addr: np.ndarray  # [n] bool: read2/write2 rows
    width: np.ndarray
    source_line: np.ndarray

    def __len__(self) -> int:
        return len(self.pc)


@dataclass
class Trace(Displayable):
    """What one emulated launch did (in Jupyter: its LDS bank heatmap when it has DS records)."""

    kernel: str
    ds: DSRecords
    truncated: bool
    ds_dropped: int
    pc_counts: dict[int, int]  # wave-instructions executed per instruction address
    mnemonic_counts: Counter
    global_bytes_read: int
    global_bytes_written: int
    wave_instructions: int
    instructions: list = field(default_factory=list, repr=False)  # workbench.isa.Instruction
    arch: str = "gfx942"  # the ISA that ran (selects LDS bank/phase tables in analyses)

    def summary(self) -> str:
        return (f"{self.kernel}: {self.wave_instructions:,} wave-instructions, "
                f"{len(self.ds):,} DS records{' (truncated)' if self.truncated else ''}, "
                f"global read {self.global_bytes_read:,} B, "
                f"written {self.global_bytes_written:,} B")


def ds_kind(mnemonic: str) -> str:
    """"r" (LDS read), "w" (write), "atomic", or "" (lane exchanges that touch no LDS)."""
    if mnemonic.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
        return ""
    if mnemonic.startswith(("ds_read", "ds_load")):
        return "r"
    if mnemonic.startswith("ds_storexchg"):  # GFX11+ name of the atomic ds_wrxchg
        return "atomic"
    if mnemonic.startswith(("ds_write", "ds_store")):
        return "w"
    return "atomic"


class TraceRecorder:
    """Collects records during a launch; ``finish`` turns them into a ``Trace``."""

    def __init__(self, max_ds_rows: int = DEFAULT_MAX_DS_ROWS) -> None:
        self.max_rows = max_ds_rows
        self.rows = 0
        self.dropped = 0
        self.chunks: list[tuple] = []
        self.bytes_read = 0
        self.bytes_written = 0
        self.stream: Any = None  # workbench.emu.observers.stream.StreamRecorder in stream mode
        self.check: Any = None  # workbench.emu.observers.check.Checker in check mode

    def ds(self, st: Any, g: Any, d: Any, addr: np.ndarray, width: int,
           addr2: np.ndarray | None = None) -> None:
        if self.check is not None:
            kind = ds_kind(d.mnemonic)
            if kind:
                self.check.ds(st, g, d, addr, width, addr2, kind)
        n = g.w
        if self.rows + n > self.max_rows:
            keep = max(0, self.max_rows - self.rows)
            self.dropped += n - keep
            if keep == 0:
                return
        else:
            keep = n
        waves = g.waves[:keep]
        a = np.broadcast_to(addr, (n, 64))[:keep].astype(np.uint32)
        a2 = a if addr2 is None else np.broadcast_to(addr2, (n, 64))[:keep].astype(np.uint32)
        self.chunks.append((d.addr, d.mnemonic, st.wave_global[waves].copy(),
                            st.wg_global[waves].copy(), st.EM[g.ix][:keep].copy(),
                            np.stack([a, a2], -1), addr2 is not None, width,
                            d.inst.source_line or 0))
        self.rows += keep

    def global_io(self, nbytes: int, write: bool, g: Any = None, addr: Any = None,
                  mask: Any = None, width: int = 0) -> None:
        if self.stream is not None and g is not None:
            self.stream.vmem(g, addr, mask, width)
        if self.check is not None:
            if write:
                self.check.global_write()
            elif g is not None:
                self.check.global_read(g, addr)
        if write:
            self.bytes_written += nbytes
        else:
            self.bytes_read += nbytes

    def finish(self, kernel: str, program: Any, counts: list, executed: int) -> Trace:
        c = self.chunks
        if c:
            lens = [len(x[2]) for x in c]
            ds = DSRecords(
                pc=np.repeat([x[0] for x in c], lens).astype(np.int64),
                mnemonic=np.repeat(np.array([x[1] for x in c], dtype=object), lens),
                wave=np.concatenate([x[2] for x in c]),
                workgroup=np.concatenate([x[3] for x in c]),
                exec=np.concatenate([x[4] for x in c]),
                addr=np.concatenate([x[5] for x in c]),
                two_addr=np.repeat([x[6] for x in c], lens).astype(bool),
                width=np.repeat([x[7] for x in c], lens).astype(np.int64),
                source_line=np.repeat([x[8] for x in c], lens).astype(np.int64),
            )
        else:
            ds = DSRecords(np.zeros(0, np.int64), np.zeros(0, object), np.zeros(0, np.int64),
                           np.zeros((0, 3), np.int64), np.zeros((0, 64), bool),
                           np.zeros((0, 64, 2), np.uint32), np.zeros(0, bool),
                           np.zeros(0, np.int64), np.zeros(0, np.int64))
        pcc = {ins.addr: n for ins, n in zip(program.insts, counts) if n}
        mc: Counter = Counter()
        for ins, n in zip(program.insts, counts):
            if n:
                mc[ins.mnemonic] += n
        return Trace(kernel, ds, self.dropped > 0, self.dropped, pcc, mc, self.bytes_read,
                     self.bytes_written, executed, list(program.insts),
                     arch=getattr(getattr(program, "info", None), "arch", "gfx942"))
