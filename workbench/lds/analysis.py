"""Bank-conflict counting for DS instructions: one execution (Access) or a batch (AccessBatch).

Cost model (defined here, used everywhere in workbench.lds):

* A byte address ``a`` lies in dword ``a // 4`` and bank ``(a // 4) mod banks``; an access of
  ``size`` bytes covers the consecutive dwords ``a//4 .. (a+size-1)//4`` and hence consecutive
  banks (bank = (byte address / 4) mod banks: CK-LDS, composable_kernel lds_bank_conflicts.rst;
  HipKittens analysis/paper_experiments/phases README).
* The lanes of a wave are split into phases (``phases.py``); lanes in different phases never
  conflict.  Each bank serves one dword per cycle: "each bank can be read from, written to, or
  atomically updated every cycle, for a total throughput of 128B/clock" (RPC
  pipeline-descriptions.rst, 32 banks x 4 B).
* Lanes reading the same dword are served by one broadcast (RPC: "the result can be efficiently
  broadcasted"); lanes writing the same dword are one write, last writer wins (RPC) - neither is
  a conflict.  So a phase costs ``max over banks of the number of DISTINCT dwords`` it touches
  in that bank: its conflict degree (1 = conflict-free).
* ``extra cycles = degree - 1`` per phase.  Their sum is the model of ``SQ_LDS_BANK_CONFLICT``,
  "the number of cycles the LDS is stalled by bank conflicts" (rocprofiler's gfx908 counter
  description, exact file not traced; the first cycle of a phase is never counted as contended,
  which is why rocprof-compute's conflict rate tops out at 96.875 % = 31/32, RPC
  local-data-share.rst).
* LDS atomics to the same address in one cycle are "address conflicts" (RPC; counter
  SQ_LDS_ADDR_CONFLICT).  Model assumption: a bank applies one atomic per cycle, so an atomic
  phase costs ``max over banks of all lane-accesses``; the cycles beyond the distinct-dword
  degree are reported as ``address_conflict_cycles``, separate from bank-conflict cycles.
* Not modelled: port bandwidth (RPC: a wave gets at most 64 B/clk back; a b32 store of 64 lanes
  takes 8 cycles because address and data share the input port), latency, and the arbitration
  between waves.  ``cycles`` is bank-busy cycles, not instruction latency.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import arch as _arch
from ..errors import ArgumentIndexError, ArgumentTypeError, ArgumentValueError
from .instructions import DsInstruction, ds_instruction
from .phases import PhaseTable, _ranges, phase_table

__all__ = ["Access", "AccessBatch", "PhaseResult", "analyze", "analyze_batch"]

# Executions analysed per numpy pass: bounds the [chunk, phases, banks] count array.
_CHUNK = 4096


@dataclass(frozen=True)
class PhaseResult:
    """One phase of one execution: who took part and how busy each bank was."""

    index: int
    lanes: tuple[int, ...]          # all lanes of this phase (from the phase table)
    active_lanes: tuple[int, ...]   # those with EXEC set
    bank_dwords: tuple[int, ...]    # per bank: distinct dwords touched (len = banks)
    degree: int                     # max of bank_dwords; 0 when no lane is active
    extra_cycles: int               # max(degree - 1, 0): bank-conflict stall cycles
    address_conflict_cycles: int = 0  # atomics only: same-address serialisation beyond degree

    @property
    def cycles(self) -> int:
        return self.degree + self.address_conflict_cycles


# ---------------------------------------------------------------------------------------------
# Input normalisation
# ---------------------------------------------------------------------------------------------
def _resolve(instruction: str | DsInstruction) -> DsInstruction:
    return instruction if isinstance(instruction, DsInstruction) else ds_instruction(instruction)


def _as_addresses(addresses, op: DsInstruction) -> tuple[np.ndarray, bool]:
    """-> (int64 [n, lanes, k], was_batch). k = 1, or 2 for READ2/WRITE2 forms."""
    a = np.asarray(addresses)
    if a.dtype == object or not (np.issubdtype(a.dtype, np.integer) or a.dtype == bool):
        if np.issubdtype(a.dtype, np.floating) and np.all(np.isfinite(a)) and \
                np.all(a == np.floor(a)):
            a = a.astype(np.int64)
        else:
            raise ArgumentTypeError(
                f"{op.name}: addresses must be integer byte addresses, got dtype "
                f"{a.dtype}")
    a = a.astype(np.int64, copy=False)
    if op.addresses == 2:
        if a.ndim not in (2, 3) or a.shape[-1] != 2:
            raise ArgumentValueError(
                f"{op.name} takes two addresses per lane: pass shape (lanes, 2) or "
                f"(executions, lanes, 2), got {a.shape}")
        batch = a.ndim == 3
        a = a if batch else a[None]
    else:
        if a.ndim not in (1, 2):
            raise ArgumentValueError(
                f"{op.name}: addresses must have shape (lanes,) or (executions, "
                f"lanes), got {a.shape}")
        batch = a.ndim == 2
        a = (a if batch else a[None])[..., None]
    return a, batch


def _as_exec(exec_mask, n: int, lanes: int, name: str) -> np.ndarray:
    """EXEC as bool [n, lanes]: None (all), a Python int bitmask, an integer array of bitmasks
    (one per execution), or a bool array broadcastable to (n, lanes)."""
    if exec_mask is None:
        return np.ones((n, lanes), dtype=bool)
    bit = np.arange(lanes, dtype=np.uint64)
    if isinstance(exec_mask, (int, np.integer)) and not isinstance(exec_mask, (bool, np.bool_)):
        m = int(exec_mask)
        if m < 0 or m >> lanes:
            raise ArgumentValueError(f"{name}: exec_mask 0x{m:x} has bits beyond lane {lanes - 1}")
        ex = ((np.uint64(m) >> bit) & np.uint64(1)).astype(bool)
        return np.broadcast_to(ex, (n, lanes))
    e = np.asarray(exec_mask)
    if e.dtype == bool:
        try:
            return np.broadcast_to(e, (n, lanes))
        except ValueError:
            raise ArgumentValueError(f"{name}: bool exec_mask of shape {e.shape} does not fit "
                                     f"({n} executions, {lanes} lanes)") from None
    if np.issubdtype(e.dtype, np.integer):
        if e.ndim != 1 or e.shape[0] != n:
            raise ArgumentValueError(
                f"{name}: an integer exec_mask array is read as one bitmask per "
                f"execution (shape ({n},)), got {e.shape}; pass a bool array for "
                "per-lane masks")
        e = e.astype(np.uint64)
        if lanes < 64 and np.any(e >> np.uint64(lanes)):
            bad = int(np.flatnonzero(e >> np.uint64(lanes))[0])
            raise ArgumentValueError(
                f"{name}: exec_mask[{bad}]=0x{int(e[bad]):x} has bits beyond lane "
                f"{lanes - 1}")
        return ((e[:, None] >> bit[None, :]) & np.uint64(1)).astype(bool)
    raise ArgumentTypeError(f"{name}: exec_mask must be None, an int bitmask, a bool array or an "
                            f"integer array of bitmasks, got {type(exec_mask).__name__}")


# ---------------------------------------------------------------------------------------------
# The vectorised core
# ---------------------------------------------------------------------------------------------
def _lane_dwords(addr: np.ndarray, ex: np.ndarray, op: DsInstruction) -> np.ndarray:
    """Dwords each lane touches: int64 [n, lanes, k*M], -1 where nothing (inactive / unused)."""
    n, lanes, k = addr.shape
    first = addr >> 2
    last = (addr + (op.size - 1)) >> 2
    span = last - first + 1
    active = np.broadcast_to(ex[:, :, None], addr.shape)
    m = int(span[active].max()) if active.any() else 1
    j = np.arange(m, dtype=np.int64)
    d = first[..., None] + j
    valid = active[..., None] & (j < span[..., None])
    return np.where(valid, d, -1).reshape(n, lanes, k * m)


def _gather_index(table: PhaseTable, lanes: int) -> np.ndarray:
    """[phases, max lanes per phase] lane indices; padding points at the empty lane ``lanes``."""
    width = max(len(g) for g in table.groups)
    idx = np.full((len(table.groups), width), lanes, dtype=np.intp)
    for p, g in enumerate(table.groups):
        idx[p, :len(g)] = g
    return idx


def _phase_counts(d: np.ndarray, table: PhaseTable, atomic: bool):
    """Per (execution, phase, bank): distinct dwords, and (atomics) all lane-accesses."""
    n, lanes, w = d.shape
    banks = table.banks
    idx = _gather_index(table, lanes)
    phases, plen = idx.shape
    padded = np.concatenate([d, np.full((n, 1, w), -1, dtype=np.int64)], axis=1)
    g = padded[:, idx, :].reshape(n * phases, plen * w)
    g.sort(axis=1)
    present = g >= 0
    new = np.ones_like(present)
    new[:, 1:] = g[:, 1:] != g[:, :-1]
    row = np.arange(n * phases, dtype=np.int64)[:, None] * banks
    flat = row + (g % banks)
    size = n * phases * banks
    distinct = np.bincount(flat[present & new], minlength=size).reshape(n, phases, banks)
    total = None
    if atomic:
        total = np.bincount(flat[present], minlength=size).reshape(n, phases, banks)
    return distinct, total


def _validate(addr: np.ndarray, ex: np.ndarray, op: DsInstruction, arch_name: str) -> None:
    active = np.broadcast_to(ex[:, :, None], addr.shape)
    bad = active & ((addr < 0) | (addr > 0xFFFFFFFF))
    if bad.any():
        e, lane, which = (int(v[0]) for v in np.nonzero(bad))
        where = f"execution {e}, " if addr.shape[0] > 1 else ""
        pair = f" (address {which})" if addr.shape[2] == 2 else ""
        raise ArgumentValueError(
            f"{op.name} on {arch_name}: {where}lane {lane}{pair} has byte address "
            f"{int(addr[e, lane, which])}, outside 0..0xFFFFFFFF")


def _prepare(addresses, exec_mask, instruction, arch):
    op = _resolve(instruction)
    a = _arch.get(arch)
    addr, batch = _as_addresses(addresses, op)
    n, lanes, _ = addr.shape
    table = phase_table(op, a.name, wave_size=lanes) if lanes in a.wave_sizes else None
    if table is None:
        raise ArgumentValueError(
            f"{op.name} on {a.name}: addresses describe {lanes} lanes but {a.name} "
            f"runs waves of {', '.join(map(str, a.wave_sizes))} lanes")
    ex = _as_exec(exec_mask, n, lanes, op.name)
    if op.touches_banks:
        _validate(addr, ex, op, a.name)
    return op, a, table, addr, ex, batch


def _degrees(addr, ex, op, table):
    """-> (degree [n, P], address-conflict cycles [n, P]) computed chunk by chunk."""
    n = addr.shape[0]
    phases = len(table.groups)
    deg = np.zeros((n, phases), dtype=np.int32)
    adr = np.zeros((n, phases), dtype=np.int32)
    if phases == 0:
        return deg, adr
    atomic = op.kind == "atomic"
    for s in range(0, n, _CHUNK):
        e = min(n, s + _CHUNK)
        d = _lane_dwords(addr[s:e], ex[s:e], op)
        distinct, total = _phase_counts(d, table, atomic)
        deg[s:e] = distinct.max(axis=2)
        if atomic:
            adr[s:e] = total.max(axis=2) - deg[s:e]
    return deg, adr


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------
def bank_char(c: int) -> str:
    """Bank cell: '.' idle, 1-9, a-z for 10-35, '#' above."""
    if c == 0:
        return "."
    if c < 10:
        return str(c)
    if c < 36:
        return chr(ord("a") + c - 10)
    return "#"


class Access:
    """One execution of a DS instruction, analysed: phases, banks hit, conflict cycles.

    Built by ``analyze`` or the pattern generators. ``repr()`` is a phases x banks table (digits
    = distinct dwords per bank, '.' = idle); ``summary()`` is a short deterministic text.
    """

    def __init__(self, op: DsInstruction, arch: str, table: PhaseTable, addresses: np.ndarray,
                 exec_mask: np.ndarray, phases: tuple[PhaseResult, ...],
                 lane_dwords: np.ndarray, label: str = "") -> None:
        self.op = op
        self.arch = arch
        self.table = table
        self.addresses = addresses
        self.exec_mask = exec_mask
        self.phases = phases
        self._lane_dwords = lane_dwords
        self.label = label
        for arr in (self.addresses, self.exec_mask, self._lane_dwords):
            arr.flags.writeable = False

    # -- numbers ---------------------------------------------------------------------------
    @property
    def instruction(self) -> str:
        return self.op.name

    @property
    def lanes(self) -> int:
        return int(self.exec_mask.shape[0])

    @property
    def banks(self) -> int:
        return self.table.banks

    @property
    def active_lanes(self) -> int:
        return int(self.exec_mask.sum())

    @property
    def conflict_cycles(self) -> int:
        """Modelled SQ_LDS_BANK_CONFLICT cycles of this execution (sum of degree - 1)."""
        return sum(p.extra_cycles for p in self.phases)

    @property
    def address_conflict_cycles(self) -> int:
        return sum(p.address_conflict_cycles for p in self.phases)

    @property
    def cycles(self) -> int:
        """Bank-busy cycles: sum over phases of their degree (+ atomic address conflicts)."""
        return sum(p.cycles for p in self.phases)

    @property
    def ideal_cycles(self) -> int:
        """Cycles with no conflict at all: one per phase that has an active lane."""
        return sum(1 for p in self.phases if p.degree > 0)

    @property
    def max_degree(self) -> int:
        return max((p.degree for p in self.phases), default=0)

    @property
    def is_conflict_free(self) -> bool:
        return self.conflict_cycles == 0 and self.address_conflict_cycles == 0

    def bank_matrix(self) -> np.ndarray:
        """int [phases, banks]: distinct dwords each phase touches in each bank."""
        if not self.phases:
            return np.zeros((0, self.banks), dtype=np.int64)
        return np.array([p.bank_dwords for p in self.phases], dtype=np.int64)

    def lane_banks(self, lane: int) -> tuple[int, ...]:
        """Banks that ``lane`` touches (empty when the lane is inactive)."""
        if not 0 <= lane < self.lanes:
            raise ArgumentIndexError(f"lane {lane} out of range 0..{self.lanes - 1}")
        if not self.op.touches_banks:
            return ()
        d = self._lane_dwords[lane]
        return tuple(int(b) for b in d[d >= 0] % self.banks)

    def lane_phase(self, lane: int) -> int:
        """Index of the phase that services ``lane`` (-1 for instructions without bank access)."""
        for p in self.phases:
            if lane in p.lanes:
                return p.index
        if 0 <= lane < self.lanes:
            return -1
        raise ArgumentIndexError(f"lane {lane} out of range 0..{self.lanes - 1}")

    # -- text -----------------------------------------------------------------------------
    def _title(self) -> str:
        label = f"{self.label}: " if self.label else ""
        return (f"{label}{self.instruction} on {self.arch}, {self.active_lanes}/{self.lanes} "
                f"lanes active")

    def summary(self) -> str:
        """Deterministic short text: verdict, per-phase degrees, and where the phases come from."""
        lines = [self._title()]
        if not self.op.touches_banks:
            lines.append("no LDS bank access; conflict cycles 0")
        else:
            degrees = " ".join(str(p.degree) for p in self.phases)
            verdict = "conflict-free" if self.is_conflict_free else \
                f"{self.max_degree}-way worst phase"
            lines.append(f"{len(self.phases)} phases x {self.banks} banks: {verdict}; "
                         f"conflict cycles {self.conflict_cycles}, cycles {self.cycles} "
                         f"(ideal {self.ideal_cycles})")
            if self.op.kind == "atomic":
                lines.append(f"atomic address-conflict cycles {self.address_conflict_cycles}")
            lines.append(f"phase degrees: {degrees}")
        lines.append(self.table.provenance())
        return "\n".join(lines)

    def table_text(self) -> str:
        """Phases x banks text table (the ``repr``)."""
        lines = [self._title()]
        if not self.op.touches_banks:
            lines.append("no LDS bank access (" + self.table.provenance() + ")")
            return "\n".join(lines)
        lines.append(f"conflict cycles {self.conflict_cycles}, cycles {self.cycles}, ideal "
                     f"{self.ideal_cycles}" + (f", atomic address-conflict cycles "
                                               f"{self.address_conflict_cycles}"
                                               if self.op.kind == "atomic" else ""))
        lane_w = max(len(_ranges(p.lanes)) for p in self.phases)
        lane_w = max(lane_w, len("lanes"))
        head = "".join(str(b % 10) for b in range(self.banks))
        lines.append(f"{'ph':>2} {'lanes':<{lane_w}} {'deg':>3}  banks 0..{self.banks - 1}")
        lines.append(f"{'':>2} {'':<{lane_w}} {'':>3}  {head}")
        for p in self.phases:
            cells = "".join(bank_char(c) for c in p.bank_dwords)
            lines.append(f"{p.index:>2} {_ranges(p.lanes):<{lane_w}} {p.degree:>3}  {cells}")
        lines.append("cells: distinct dwords per bank ('.' idle, 1-9, a=10 .. z=35, '#' more)")
        lines.append(self.table.provenance())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.table_text()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Access):
            return NotImplemented
        return (self.op == other.op and self.arch == other.arch and self.table == other.table
                and np.array_equal(self.addresses, other.addresses)
                and np.array_equal(self.exec_mask, other.exec_mask))

    __hash__ = None  # mutable-array contents: values compare, they do not hash


class AccessBatch:
    """Many executions of one DS instruction (e.g. every wave of a trace), analysed together.

    Arrays are per execution: ``degrees`` [n, phases], ``conflict_cycles`` [n]. Index it
    (``batch[i]``) for the full ``Access`` of one execution.
    """

    def __init__(self, op: DsInstruction, arch: str, table: PhaseTable, addresses: np.ndarray,
                 exec_mask: np.ndarray, degrees: np.ndarray, address_conflicts: np.ndarray,
                 label: str = "") -> None:
        self.op, self.arch, self.table, self.label = op, arch, table, label
        self.addresses = addresses   # int64 [n, lanes, k]
        self.exec_mask = exec_mask   # bool [n, lanes]
        self.degrees = degrees       # int32 [n, phases]
        self.address_conflicts = address_conflicts  # int32 [n, phases]
        for arr in (self.addresses, self.exec_mask, self.degrees, self.address_conflicts):
            arr.flags.writeable = False

    @property
    def instruction(self) -> str:
        return self.op.name

    def __len__(self) -> int:
        return int(self.degrees.shape[0])

    @property
    def conflict_cycles(self) -> np.ndarray:
        """int64 [n]: modelled SQ_LDS_BANK_CONFLICT cycles per execution."""
        return np.maximum(self.degrees.astype(np.int64) - 1, 0).sum(axis=1)

    @property
    def address_conflict_cycles(self) -> np.ndarray:
        return self.address_conflicts.astype(np.int64).sum(axis=1)

    @property
    def cycles(self) -> np.ndarray:
        return self.degrees.astype(np.int64).sum(axis=1) + self.address_conflict_cycles

    @property
    def ideal_cycles(self) -> np.ndarray:
        return (self.degrees > 0).sum(axis=1).astype(np.int64)

    @property
    def total_conflict_cycles(self) -> int:
        return int(self.conflict_cycles.sum())

    @property
    def lane_accesses(self) -> int:
        """Active lanes summed over executions."""
        return int(self.exec_mask.sum())

    def __getitem__(self, i: int) -> Access:
        n = len(self)
        if not -n <= i < n:
            raise ArgumentIndexError(f"execution {i} out of range for a batch of {n}")
        i %= n
        addr = self.addresses[i]
        return _single(self.op, self.arch, self.table, addr[None], self.exec_mask[i][None],
                       label=self.label)

    def summary(self) -> str:
        """Deterministic text: totals and the distribution of per-execution conflict cycles."""
        n = len(self)
        label = f"{self.label}: " if self.label else ""
        lines = [f"{label}{self.instruction} on {self.arch}: {n} executions, "
                 f"{self.lane_accesses} lane-accesses"]
        if not self.op.touches_banks:
            lines.append("no LDS bank access; conflict cycles 0")
        else:
            cc = self.conflict_cycles
            conflicted = int((cc > 0).sum())
            worst = int(self.degrees.max()) if self.degrees.size else 0
            mean = float(cc.mean()) if n else 0.0
            lines.append(f"conflict cycles {int(cc.sum())} (mean {mean:.3f}, max "
                         f"{int(cc.max()) if n else 0} per execution); {conflicted} of {n} "
                         f"executions conflict; worst phase {worst}-way")
            lines.append(f"cycles {int(self.cycles.sum())} (ideal {int(self.ideal_cycles.sum())})")
            if self.op.kind == "atomic":
                lines.append("atomic address-conflict cycles "
                             f"{int(self.address_conflict_cycles.sum())}")
        lines.append(self.table.provenance())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()


def _single(op, arch_name, table, addr, ex, label="") -> Access:
    """Full per-phase analysis of one execution (addr [1, lanes, k], ex [1, lanes])."""
    lanes = addr.shape[1]
    if not op.touches_banks:
        dw = np.full((lanes, 0), -1, dtype=np.int64)
        return Access(op, arch_name, table, _squeeze(addr, op), ex[0].copy(), (), dw, label)
    d = _lane_dwords(addr, ex, op)
    atomic = op.kind == "atomic"
    distinct, total = _phase_counts(d, table, atomic)
    results = []
    for p, group in enumerate(table.groups):
        counts = distinct[0, p]
        deg = int(counts.max())
        adr = int(total[0, p].max()) - deg if atomic else 0
        act = tuple(ln for ln in group if ex[0, ln])
        results.append(PhaseResult(p, tuple(group), act, tuple(int(c) for c in counts), deg,
                                   max(deg - 1, 0), adr))
    return Access(op, arch_name, table, _squeeze(addr, op), ex[0].copy(), tuple(results), d[0],
                  label)


def _squeeze(addr: np.ndarray, op: DsInstruction) -> np.ndarray:
    a = addr[0]
    return a.copy() if op.addresses == 2 else a[:, 0].copy()


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------
def analyze(addresses, exec_mask=None, instruction: str | DsInstruction = "ds_read_b32",
            arch: str = "gfx942", *, label: str = "") -> Access | AccessBatch:
    """Bank conflicts of a DS instruction from its per-lane byte addresses.

    ``addresses``: int array ``[lanes]`` (``[lanes, 2]`` for READ2/WRITE2, final byte addresses
    with the offsets applied - see ``DsInstruction.pair_addresses``), or a batch
    ``[executions, lanes(, 2)]``. ``exec_mask``: None (all lanes), an int bitmask, a bool array
    ``[lanes]``/``[executions, lanes]``, or an integer array of one bitmask per execution;
    inactive lanes are ignored. Returns an ``Access`` for one execution, an ``AccessBatch`` for a
    batch. Cost (module docstring): a phase costs the max over banks of the distinct dwords it
    touches; ``conflict_cycles`` = sum over phases of (degree - 1), the model of
    SQ_LDS_BANK_CONFLICT, "cycles the LDS is stalled by bank conflicts" (rocprofiler's counter
    description; rocprofiler-compute local-data-share.rst).
    """
    op, a, table, addr, ex, batch = _prepare(addresses, exec_mask, instruction, arch)
    if batch:
        deg, adr = _degrees(addr, ex, op, table)
        return AccessBatch(op, a.name, table, addr.copy(), ex.copy(), deg, adr, label)
    return _single(op, a.name, table, addr, ex, label)


def analyze_batch(addresses, exec_mask=None, instruction: str | DsInstruction = "ds_read_b32",
                  arch: str = "gfx942", *, label: str = "") -> AccessBatch:
    """Like ``analyze`` but always returns an AccessBatch (a single execution becomes n=1)."""
    op, a, table, addr, ex, _ = _prepare(addresses, exec_mask, instruction, arch)
    deg, adr = _degrees(addr, ex, op, table)
    return AccessBatch(op, a.name, table, addr.copy(), np.array(ex, dtype=bool), deg, adr, label)
