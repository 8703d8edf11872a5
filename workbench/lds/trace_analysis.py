"""Bank conflicts of an emulated launch, per DS instruction: where the conflict cycles are.

Why: a kernel author needs to know which source line's LDS access conflicts, how often and how
badly. The emulator records every wave's per-lane LDS addresses (``Trace.ds``); this module runs
them through the cost model of ``workbench.lds.analysis`` (``analyze_batch``), grouped by
instruction address, and ranks the instructions by conflict cycles.

The input is duck-typed, so this stays a pure model: any object whose ``ds`` attribute has
equal-length columns ``pc`` [n], ``mnemonic`` [n], ``exec`` [n, lanes] bool, ``addr``
[n, lanes] or [n, lanes, 2] (byte addresses with the instruction offsets applied; column 1 is
the second address of READ2/WRITE2 forms), ``two_addr`` [n], ``width`` [n] (bytes per lane per
address), ``source_line`` [n] (0 = unknown) and optionally ``wave`` [n] and ``workgroup``
[n, 3]. The trace may also carry ``kernel``, ``arch``, ``truncated``, ``ds_dropped`` and
``instructions`` (objects with ``addr``, ``text``, ``source_file``), as ``workbench.emu``'s
``Trace`` does.

What the total means: the sum over all DS executions of (phase degree - 1) is this model's
``SQ_LDS_BANK_CONFLICT``, the hardware counter of "cycles the LDS is stalled by bank conflicts",
summed over the kernel (rocprofiler's gfx908 counter description of SQ_LDS_BANK_CONFLICT, exact
file not traced; rocprofiler-compute's local-data-share.rst also counts bank conflicts in cycles).
What the model cannot see: waves competing for the LDS (the two SIMDs of a pair share it and only
one issues at a time: rocprofiler-compute pipeline-descriptions.rst), port bandwidth (a wave gets
at most 64 B/clk), latency and queueing; and a truncated trace holds only its first rows.
"""
from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..argument_types import checked
from ..errors import ArgumentIndexError, ArgumentKeyError, ArgumentTypeError, ArgumentValueError
from ..text_table import text_table
from .analysis import Access, _lane_dwords, _phase_counts, analyze, analyze_batch
from .instructions import DsInstruction, UnsupportedInstruction, ds_instruction
from .phases import PhaseTable, _ranges

__all__ = ["InstructionConflicts", "LineConflicts", "TraceConflicts", "UnmodelledDs",
           "WorstPhase", "trace_conflicts"]

# Emulator traces carry the code object's arch (gfx942, gfx950 or RDNA,
# workbench.emu.observers.trace.Trace
# .arch); a trace-like object that does not say is taken to come from gfx942.
EMULATOR_ARCH = "gfx942"

# Executions per numpy pass when summing bank hits (bounds the [chunk, phases, banks] array).
_CHUNK = 4096

COUNTER_NOTE = ("conflict cycles model SQ_LDS_BANK_CONFLICT, 'cycles the LDS is stalled by bank "
                "conflicts', summed over the kernel (rocprofiler counter description; "
                "rocprofiler-compute local-data-share.rst): per wave instruction, sum over "
                "phases of (degree - 1)")
NOT_SEEN_NOTE = ("not modelled: waves competing for the LDS (a SIMD pair shares it), port "
                 "bandwidth, latency and queueing; hardware counts can only be higher")


# ---------------------------------------------------------------------------------------------
# Result records
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WorstPhase:
    """The most conflicted phase of one instruction in a trace (the first such, in trace order)."""

    row: int                      # row of trace.ds
    execution: int                # index among this instruction's executions
    wave: int | None
    workgroup: tuple[int, int, int] | None
    phase: int
    degree: int
    lanes: tuple[int, ...]        # the phase's active lanes
    banks: tuple[int, ...]        # banks where `degree` distinct dwords meet

    def describe(self) -> str:
        """E.g. '32-way: phase 0 (lanes 0-31) on bank 0; wave 3, workgroup (1, 0, 0)'."""
        banks = _ranges(self.banks)
        where = []
        if self.wave is not None:
            where.append(f"wave {self.wave}")
        if self.workgroup is not None:
            where.append(f"workgroup {self.workgroup}")
        tail = f"; {', '.join(where)}" if where else ""
        word = "bank" if len(self.banks) == 1 else "banks"
        return (f"{self.degree}-way: phase {self.phase} (lanes {_ranges(self.lanes)}) on "
                f"{word} {banks}{tail}")


@dataclass(frozen=True)
class UnmodelledDs:
    """A DS instruction of the trace that the bank model does not place (e.g. ds_append)."""

    pc: int
    mnemonic: str
    source_line: int | None
    executions: int
    reason: str


@dataclass(frozen=True)
class LineConflicts:
    """Conflict cycles of one source line (all its DS instructions together)."""

    line: int | None
    text: str
    conflict_cycles: int
    address_conflict_cycles: int
    executions: int
    pcs: tuple[int, ...]


class InstructionConflicts:
    """One DS instruction (one pc) over every wave execution in the trace.

    ``conflict_cycles`` is this instruction's share of the modelled SQ_LDS_BANK_CONFLICT;
    ``worst`` names the most conflicted phase (None when conflict-free); ``access(i)`` is the
    full ``Access`` of execution ``i`` and ``bank_hits()`` the per-phase bank load summed over
    all executions (what the heatmap draws).
    """

    def __init__(self, *, pc: int, op: DsInstruction, arch: str, table: PhaseTable,
                 source_line: int | None, source_file: str | None, source_text: str, asm: str,
                 records: Any, rows: np.ndarray, degrees: np.ndarray,
                 address_conflicts: np.ndarray, header: str | None = None) -> None:
        self.pc = int(pc)
        # inlined from a header: "file.h:line" there (source_line is the user's calling line)
        self.header = header
        self.op = op
        self.arch = arch
        self.table = table
        self.source_line = source_line
        self.source_file = source_file
        self.source_text = source_text
        self.asm = asm
        self._records = records
        self.rows = rows
        self.rows.flags.writeable = False
        deg = degrees.astype(np.int64)
        self.degrees = degrees  # [executions, phases] (read-only, from analyze_batch)
        extra = np.maximum(deg - 1, 0).sum(axis=1)
        adr = address_conflicts.astype(np.int64).sum(axis=1)
        self.executions = int(len(rows))
        self.lane_accesses = int(np.asarray(records.exec)[rows].sum())
        self.conflict_cycles = int(extra.sum())
        self.address_conflict_cycles = int(adr.sum())
        self.cycles = int(deg.sum() + adr.sum())
        self.ideal_cycles = int((deg > 0).sum())
        self.conflicted_executions = int((extra > 0).sum())
        self.max_degree = int(deg.max()) if deg.size else 0
        self.worst = self._find_worst(deg) if self.conflict_cycles else None
        self._hits: np.ndarray | None = None

    # -- identity --------------------------------------------------------------------------
    @property
    def mnemonic(self) -> str:
        return self.op.name

    @property
    def label(self) -> str:
        """'line 13 ds_read_b32 @0x1684' (what the heatmap dropdown and titles show)."""
        line = f"line {self.source_line} " if self.source_line is not None else ""
        return f"{line}{self.mnemonic} @{self.pc:#x}"

    @property
    def is_conflict_free(self) -> bool:
        return self.conflict_cycles == 0 and self.address_conflict_cycles == 0

    # -- per execution ---------------------------------------------------------------------
    def _row_addresses(self, rows) -> np.ndarray:
        """int64 [len(rows), lanes] (single address) or [len(rows), lanes, 2]."""
        a = np.asarray(self._records.addr)[np.atleast_1d(rows)].astype(np.int64)
        if a.ndim == 2:
            a = a[..., None]
        a = a[..., :2] if self.op.addresses == 2 else a[..., 0]
        return a if np.ndim(rows) else a[0]

    def access(self, execution: int | None = None) -> Access:
        """The analysed ``Access`` of one execution (default: the worst one, else the first)."""
        if self.executions == 0:
            raise ArgumentIndexError(f"{self.label} has no executions")
        if execution is None:
            execution = self.worst.execution if self.worst is not None else 0
        if not -self.executions <= execution < self.executions:
            raise ArgumentIndexError(f"{self.label}: execution {execution} out of range for "
                                     f"{self.executions} executions")
        row = int(self.rows[execution % self.executions])
        addr = self._row_addresses(row)
        ex = np.asarray(self._records.exec)[row].astype(bool)
        return analyze(addr, ex, self.op, self.arch, label=f"{self.label} (trace row {row})")

    def _find_worst(self, deg: np.ndarray) -> WorstPhase:
        e, phase = (int(v) for v in np.unravel_index(int(np.argmax(deg)), deg.shape))
        row = int(self.rows[e])
        acc = self.access(e)
        p = acc.phases[phase]
        banks = tuple(b for b, c in enumerate(p.bank_dwords) if c == p.degree)
        rec = self._records
        wave = int(np.asarray(rec.wave)[row]) if getattr(rec, "wave", None) is not None \
            else None
        wg = None
        if getattr(rec, "workgroup", None) is not None:
            wg = tuple(int(v) for v in np.asarray(rec.workgroup)[row])
        return WorstPhase(row, e, wave, wg, phase, p.degree, p.active_lanes, banks)

    def bank_hits(self) -> np.ndarray:
        """int64 [phases, banks]: distinct dwords each phase touched in each bank, summed over
        all executions (one bank serves one dword per cycle, so this is bank-cycles demanded)."""
        if self._hits is None:
            phases = len(self.table.groups)
            hits = np.zeros((phases, self.table.banks), dtype=np.int64)
            if phases:
                ex_all = np.asarray(self._records.exec)
                for s in range(0, self.executions, _CHUNK):
                    rows = self.rows[s:s + _CHUNK]
                    addr = self._row_addresses(rows)
                    addr = addr if addr.ndim == 3 else addr[..., None]
                    d = _lane_dwords(addr, ex_all[rows].astype(bool), self.op)
                    distinct, _ = _phase_counts(d, self.table, False)
                    hits += distinct.sum(axis=0)
            hits.flags.writeable = False
            self._hits = hits
        return self._hits

    def where(self) -> str:
        """'13', 'file.h:13', '13 (tile.h:40)' (header code reached from line 13), or '?'."""
        if self.source_line is None:
            return f"? ({self.header})" if self.header else "?"
        at = f"{self.source_file}:{self.source_line}" if self.source_file else str(self.source_line)
        return f"{at} ({self.header})" if self.header else at

    def verdict(self) -> str:
        if not self.op.touches_banks:
            return "no LDS bank access"
        if self.worst is not None:
            return self.worst.describe()
        if self.address_conflict_cycles:
            return f"{self.address_conflict_cycles} atomic address-conflict cycles"
        return "conflict-free"

    def summary(self) -> str:
        """Deterministic text: totals, worst phase and where the phase grouping comes from."""
        src = f": {self.source_text}" if self.source_text else ""
        lines = [f"{self.label}{src}",
                 f"{self.executions} executions, {self.lane_accesses} lane-accesses; conflict "
                 f"cycles {self.conflict_cycles} ({self.conflicted_executions} executions "
                 f"conflict), cycles {self.cycles} (ideal {self.ideal_cycles})",
                 f"worst: {self.verdict()}"]
        if self.op.kind == "atomic":
            lines.append(f"atomic address-conflict cycles {self.address_conflict_cycles}")
        lines.append(self.table.provenance())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _key(self) -> tuple:
        return (self.pc, self.op, self.arch, self.table, self.source_line, self.source_file,
                self.header, self.source_text, self.executions, self.lane_accesses,
                self.conflict_cycles, self.address_conflict_cycles, self.cycles,
                self.ideal_cycles, self.worst)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InstructionConflicts):
            return NotImplemented
        return self._key() == other._key() and np.array_equal(self.degrees, other.degrees)

    __hash__ = None  # compares by value (its arrays included); does not hash


# ---------------------------------------------------------------------------------------------
# The ranked table
# ---------------------------------------------------------------------------------------------
class TraceConflicts:
    """Bank conflicts of one traced launch: DS instructions ranked by conflict cycles.

    ``conflict_cycles`` is the modelled SQ_LDS_BANK_CONFLICT of the whole launch (module
    docstring says what it includes and what not); ``lines()`` groups by source line;
    ``instruction(pc)`` looks one up. Text and HTML renderings are deterministic.
    """

    def __init__(self, kernel: str, arch: str, instructions: tuple[InstructionConflicts, ...],
                 unmodelled: tuple[UnmodelledDs, ...], truncated: bool, dropped: int) -> None:
        self.kernel = kernel
        self.arch = arch
        self.instructions = instructions
        self.unmodelled = unmodelled
        self.truncated = truncated
        self.dropped = dropped

    # -- sequence of ranked instructions -----------------------------------------------------
    def __len__(self) -> int:
        return len(self.instructions)

    def __iter__(self) -> Iterator[InstructionConflicts]:
        return iter(self.instructions)

    def __getitem__(self, rank: int) -> InstructionConflicts:
        return self.instructions[rank]

    def instruction(self, pc: int) -> InstructionConflicts:
        """The instruction at address ``pc``; KeyError lists the DS addresses the trace holds."""
        for ins in self.instructions:
            if ins.pc == pc:
                return ins
        known = ", ".join(f"{i.pc:#x}" for i in sorted(self.instructions, key=lambda i: i.pc))
        raise ArgumentKeyError(
            f"{self.kernel}: no modelled DS instruction at pc {pc:#x} in the trace "
            f"(DS pcs: {known or 'none'})")

    # -- totals ----------------------------------------------------------------------------
    @property
    def conflict_cycles(self) -> int:
        """Modelled SQ_LDS_BANK_CONFLICT of the launch (cycles)."""
        return sum(i.conflict_cycles for i in self.instructions)

    @property
    def address_conflict_cycles(self) -> int:
        return sum(i.address_conflict_cycles for i in self.instructions)

    @property
    def cycles(self) -> int:
        return sum(i.cycles for i in self.instructions)

    @property
    def ideal_cycles(self) -> int:
        return sum(i.ideal_cycles for i in self.instructions)

    @property
    def executions(self) -> int:
        return sum(i.executions for i in self.instructions)

    @property
    def is_conflict_free(self) -> bool:
        return self.conflict_cycles == 0 and self.address_conflict_cycles == 0

    def lines(self) -> tuple[LineConflicts, ...]:
        """Per source line, ranked by conflict cycles (then line number)."""
        groups: dict[tuple, list[InstructionConflicts]] = {}
        for ins in self.instructions:
            groups.setdefault((ins.source_file or "", ins.source_line), []).append(ins)
        out = []
        for (_, line), items in groups.items():
            out.append(LineConflicts(line, items[0].source_text,
                                     sum(i.conflict_cycles for i in items),
                                     sum(i.address_conflict_cycles for i in items),
                                     sum(i.executions for i in items),
                                     tuple(sorted(i.pc for i in items))))
        out.sort(key=lambda c: (-c.conflict_cycles, -c.address_conflict_cycles,
                                c.line if c.line is not None else 1 << 30))
        return tuple(out)

    @property
    def hot_line(self) -> int | None:
        """The source line with the most conflict cycles (None when the launch has none)."""
        top = self.lines()
        return top[0].line if top and top[0].conflict_cycles else None

    # -- text ------------------------------------------------------------------------------
    def headline(self) -> str:
        verdict = "no bank conflicts" if self.is_conflict_free else \
            f"{self.conflict_cycles} conflict cycles"
        return (f"LDS bank conflicts of {self.kernel} on {self.arch}: {verdict} over "
                f"{self.executions} DS wave-instructions (cycles {self.cycles}, ideal "
                f"{self.ideal_cycles})")

    def rows(self) -> list[tuple[str, ...]]:
        """The ranked table as strings: rank, line, instruction, pc, executions, conflict
        cycles, share of the total, worst phase."""
        total = self.conflict_cycles
        out = []
        for r, ins in enumerate(self.instructions, 1):
            share = f"{100.0 * ins.conflict_cycles / total:.1f}%" if total else "-"
            out.append((str(r), ins.where(), ins.mnemonic, f"{ins.pc:#x}", str(ins.executions),
                        str(ins.conflict_cycles), share, ins.verdict()))
        return out

    HEADER = ("#", "line", "instruction", "pc", "executions", "conflict cycles", "share",
              "worst phase")

    def notes(self) -> list[str]:
        """Provenance of the phase tables used, the counter definition, and what is missing."""
        by_text: dict[str, list[str]] = {}
        for ins in sorted(self.instructions, key=lambda i: i.pc):
            names = by_text.setdefault(ins.table.provenance(), [])
            if ins.mnemonic not in names:
                names.append(ins.mnemonic)
        out = [f"{', '.join(names)}: {p}" for p, names in by_text.items()]
        for u in self.unmodelled:
            line = f" (line {u.source_line})" if u.source_line is not None else ""
            out.append(f"not modelled: {u.mnemonic} @{u.pc:#x}{line}, {u.executions} "
                       f"executions: {u.reason}")
        if self.truncated:
            out.append(f"trace truncated: {self.dropped} DS wave-instructions were not recorded;"
                       " totals cover the recorded rows only")
        out.append(COUNTER_NOTE)
        out.append(NOT_SEEN_NOTE)
        return out

    def text(self) -> str:
        lines = [self.headline()]
        if self.instructions:
            lines.append("where the bank conflicts are:")
            lines.append(text_table(self.HEADER, self.rows(), indent="  "))
        else:
            lines.append("the trace holds no modelled DS instruction")
        src = [c for c in self.lines() if c.conflict_cycles and c.text]
        if src:
            lines.append("source:")
            lines.extend(f"  line {c.line}: {c.text}  ({c.conflict_cycles} conflict cycles)"
                         for c in src)
        lines.extend(self.notes())
        return "\n".join(lines)

    def html(self) -> str:
        """Self-contained HTML (no ids, no scripts): headline, ranked table, notes."""
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for h in self.HEADER)
        body = []
        for r, ins in zip(self.rows(), self.instructions):
            hot = ' style="background:rgba(255,160,0,0.28)"' if ins.conflict_cycles else ""
            cells = "".join(f'<td style="text-align:right">{e(c)}</td>' if j in (0, 4, 5, 6)
                            else f"<td>{e(c)}</td>" for j, c in enumerate(r))
            src = f'<tr><td></td><td colspan="7"><i>{e(ins.source_text)}</i></td></tr>' \
                if ins.source_text and ins.conflict_cycles else ""
            body.append(f"<tr{hot}>{cells}</tr>{src}")
        notes = "".join(f"<li>{e(n)}</li>" for n in self.notes())
        return (f"<div><b>{e(self.headline())}</b>"
                f'<table style="border-collapse:collapse"><tr>{head}</tr>{"".join(body)}'
                f"</table><ul style=\"font-size:smaller\">{notes}</ul></div>")

    def _repr_html_(self) -> str:
        return self.html()

    def __repr__(self) -> str:
        return self.text()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TraceConflicts):
            return NotImplemented
        return (self.kernel, self.arch, self.instructions, self.unmodelled, self.truncated,
                self.dropped) == (other.kernel, other.arch, other.instructions, other.unmodelled,
                                  other.truncated, other.dropped)

    __hash__ = None


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------
_COLUMNS = ("pc", "mnemonic", "exec", "addr", "two_addr", "width", "source_line")


def _records(trace: Any) -> Any:
    rec = getattr(trace, "ds", None)
    if rec is None:
        raise ArgumentTypeError(
            f"trace_conflicts needs a trace with a 'ds' table of DS records (an "
            f"emulator Trace from kernel.trace[grid, block](...)), got "
            f"{type(trace).__name__}")
    missing = [c for c in _COLUMNS if getattr(rec, c, None) is None]
    if missing:
        raise ArgumentTypeError(f"trace.ds lacks column(s) {', '.join(missing)} (needs "
                                f"{', '.join(_COLUMNS)})")
    n = len(np.asarray(rec.pc))
    for c in _COLUMNS[1:]:
        if len(np.asarray(getattr(rec, c))) != n:
            raise ArgumentValueError(
                f"trace.ds.{c} has {len(np.asarray(getattr(rec, c)))} rows but "
                f"trace.ds.pc has {n}")
    a = np.asarray(rec.addr)
    ex = np.asarray(rec.exec)
    if ex.ndim != 2 or a.ndim not in (2, 3) or a.shape[:2] != ex.shape:
        raise ArgumentValueError(f"trace.ds.addr {a.shape} and trace.ds.exec {ex.shape} must be "
                                 "[n, lanes(, 2)] and [n, lanes]")
    return rec


def _source_lines(source: Any) -> tuple[list[str] | None, int]:
    """(lines, number of the first line) from a str, a Module (.source/.first_line) or a Kernel
    (.module)."""
    if source is None:
        return None, 1
    if hasattr(source, "module") and not isinstance(source, str):
        source = source.module
    if isinstance(source, str):
        return source.splitlines(), 1
    text = getattr(source, "source", None)
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"source must be the kernel's source text, a Module or a Kernel, got "
            f"{type(source).__name__}")
    return text.splitlines(), int(getattr(source, "first_line", 1))


@checked
def trace_conflicts(trace: Any, arch: str | None = None, *, source: Any = None
                    ) -> TraceConflicts:
    """Rank the DS instructions of an emulator trace by modelled bank-conflict cycles.

    ``arch``: the phase tables to use (default: ``trace.arch``, else gfx942). ``source``: the
    kernel's source (text whose line N is the trace's line N, a Module, or a Kernel) to quote
    the blamed lines. Every execution of one pc is analysed in one ``analyze_batch`` call.
    """
    rec = _records(trace)
    arch_name = arch or getattr(trace, "arch", None) or EMULATOR_ARCH
    kernel = str(getattr(trace, "kernel", "kernel"))
    lines, first = _source_lines(source)
    ins_by_pc = {int(i.addr): i for i in (getattr(trace, "instructions", None) or ())}
    main_file = Counter(getattr(i, "source_file", None) for i in ins_by_pc.values()
                        if getattr(i, "source_line", None) and not getattr(i, "header", None)
                        ).most_common(1)
    main_file = main_file[0][0] if main_file else None

    pc = np.asarray(rec.pc).astype(np.int64)
    mnem = np.asarray(rec.mnemonic)
    two = np.asarray(rec.two_addr).astype(bool)
    width = np.asarray(rec.width).astype(np.int64)
    sline = np.asarray(rec.source_line).astype(np.int64)
    addr_all = np.asarray(rec.addr)
    ex_all = np.asarray(rec.exec)
    order = np.argsort(pc, kind="stable")
    pcs, starts = np.unique(pc[order], return_index=True)
    bounds = list(starts) + [len(order)]

    results: list[InstructionConflicts] = []
    unmodelled: list[UnmodelledDs] = []
    for k, p in enumerate(pcs):
        rows = order[bounds[k]:bounds[k + 1]]
        p = int(p)
        name = str(mnem[rows[0]])
        same = mnem[rows] == mnem[rows[0]]
        if not np.all(same):
            other = str(mnem[rows[np.flatnonzero(~same)[0]]])
            raise ArgumentValueError(
                f"{kernel}: trace rows at pc {p:#x} name different instructions "
                f"({', '.join(sorted((name, other)))})")
        line = int(sline[rows[0]]) or None
        try:
            op = ds_instruction(name)
        except UnsupportedInstruction as err:
            unmodelled.append(UnmodelledDs(p, name, line, len(rows), str(err)))
            continue
        _check_rows(kernel, p, op, two[rows], width[rows])
        addr = addr_all[rows]
        if addr.ndim == 2:
            addr = addr[..., None]
        addr = addr[..., :2] if op.addresses == 2 else addr[..., 0]
        batch = analyze_batch(addr, ex_all[rows].astype(bool), op, arch_name)
        ins = ins_by_pc.get(p)
        header = getattr(ins, "header", None)
        # header code placed at the user's calling line is in the user's file
        sfile = None if header else getattr(ins, "source_file", None)
        text = ""
        if lines is not None and line is not None and (sfile is None or sfile == main_file):
            j = line - first
            text = lines[j].strip() if 0 <= j < len(lines) else ""
        results.append(InstructionConflicts(
            pc=p, op=op, arch=batch.arch, table=batch.table, source_line=line,
            source_file=sfile if sfile not in (None, main_file) else None, source_text=text,
            asm=getattr(ins, "text", name), records=rec, rows=np.array(rows),
            degrees=batch.degrees, address_conflicts=batch.address_conflicts, header=header))
    results.sort(key=lambda i: (-i.conflict_cycles, -i.address_conflict_cycles, i.pc))
    return TraceConflicts(kernel, results[0].arch if results else arch_name, tuple(results),
                          tuple(unmodelled), bool(getattr(trace, "truncated", False)),
                          int(getattr(trace, "ds_dropped", 0) or 0))


def _check_rows(kernel: str, pc: int, op: DsInstruction, two: np.ndarray,
                width: np.ndarray) -> None:
    """The recorded access shape must match what the mnemonic says (else the trace is wrong)."""
    want_two = op.addresses == 2
    if np.any(two != want_two):
        raise ArgumentValueError(
            f"{kernel}: {op.name} at pc {pc:#x} takes {op.addresses} address(es) "
            f"per lane but the trace marks rows as "
            f"{'two-address' if not want_two else 'single-address'}")
    bad = width != op.size
    if np.any(bad):
        raise ArgumentValueError(
            f"{kernel}: {op.name} at pc {pc:#x} moves {op.size} B per lane per "
            f"address but the trace recorded width {int(width[bad][0])}")
