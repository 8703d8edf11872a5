"""What the LDS heatmap draws: panels of selectable DS instructions and their bank grids.

Why: the heatmap accepts a trace, a trace analysis, an ``Access`` or an ``AccessGroup``; this
module turns each into one ``Panel`` of ``Item``s and each item into a ``Grid`` (rows = phases or
lanes, columns = banks) with colours and text cells, so the static HTML, the text and the live
bokeh figure all draw the same numbers (computed by ``workbench.lds``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentIndexError, ArgumentTypeError, ArgumentValueError
from ..lds import Access, AccessGroup
from ..lds.analysis import bank_char
from ..lds.phases import _ranges
from ..lds.trace_analysis import InstructionConflicts, TraceConflicts, trace_conflicts

# "worst": the most conflicted execution; "all": per bank, the highest n-way over every
# execution; "total": bank hits (distinct dwords) summed over every execution (bank traffic).
MODES = ("worst", "all", "total")
VIEWS = ("phases", "lanes")


def check_mode_view(mode: str, view: str) -> None:
    """Raise ValueError naming ``mode`` or ``view`` when it is not one of MODES / VIEWS."""
    for name, value, allowed in (("mode", mode, MODES), ("view", view, VIEWS)):
        if value not in allowed:
            raise ArgumentValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, "
                                     f"got {value!r}")

# Cell colours: idle, one dword per bank (no conflict), then 2-way .. 8+-way (light to dark red).
IDLE = "#f2f2f2"
OK = "#9fd8b0"
_HOT = ("#ffd27f", "#ffb35c", "#ff9140", "#f86d2d", "#e94b23", "#d32c1c", "#b01616")


def colour(load: float) -> str:
    """Cell colour for a bank load (distinct dwords one phase puts on a bank; fractional for a
    mean over executions): idle, served in one cycle, or an n-way conflict."""
    if load <= 0:
        return IDLE
    if load <= 1:
        return OK
    return _HOT[min(len(_HOT) - 1, int(np.ceil(load)) - 2)]


# "total" mode: bank hits relative to the busiest cell, light to dark blue (9 steps).
_HITS = ("#e8f1fa", "#d0e2f4", "#b4d0ec", "#94bde3", "#72a7d8", "#5390cb", "#3a78bb",
         "#2561a6", "#154a8c")


def hits_colour(level: float) -> str:
    """Colour of a relative bank load ``level`` in [0, 1] (0 = idle)."""
    if level <= 0:
        return IDLE
    return _HITS[min(len(_HITS) - 1, int(np.ceil(level * len(_HITS))) - 1)]


def hits_char(level: float) -> str:
    """'.' idle, '1'..'9' = ninths of the busiest cell."""
    return "." if level <= 0 else str(min(9, int(np.ceil(level * 9))))


def ink(background: str) -> str:
    """Text colour that stays readable on ``background`` ('#rrggbb'): black or white."""
    r, g, b = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def cell_char(load: float) -> str:
    """One text character per cell, as ``Access.table_text``: '.', 1-9, a=10 .. z=35, '#'
    (a fractional load counts as the next whole number of dwords)."""
    return bank_char(int(np.ceil(load)) if load > 0 else 0)


@dataclass(frozen=True)
class Grid:
    """One heatmap: ``load`` [rows, banks] (colours), ``counts`` [rows, banks] (cell numbers).

    ``palette`` "degree": ``load`` is distinct dwords per bank (n-way), one absolute scale for
    every grid; "hits": ``load`` is bank hits / ``top`` in [0, 1], ``top`` being the busiest
    cell of every grid drawn together (one scale for a before and an after picture).
    """

    title: str
    row_labels: tuple[str, ...]
    row_info: tuple[str, ...]     # per row: its degree ("deg"), or the mean max load ("load")
    info_name: str
    load: np.ndarray
    counts: np.ndarray
    caption: str
    palette: str = "degree"       # "degree": load = distinct dwords; "hits": load in [0, 1]
    top: int = 0                  # "hits": the busiest cell of the shared scale

    @property
    def banks(self) -> int:
        return int(self.load.shape[1])

    def colour(self, value: float) -> str:
        return colour(value) if self.palette == "degree" else hits_colour(value)

    def char(self, value: float) -> str:
        return cell_char(value) if self.palette == "degree" else hits_char(value)

    def meaning(self) -> str:
        """What a cell's colour and number say (the heading of the legend)."""
        if self.palette == "degree":
            return ("colour and number = n-way: distinct dwords one phase (lanes served together) "
                    "puts on one bank; 1 = served in one cycle, n = n-way conflict (n cycles)")
        return ("colour and number = bank hits: distinct dwords a bank served, summed over all "
                f"executions (one scale for every picture: darkest = {self.top})")

    def legend(self) -> list[tuple[str, str]]:
        """(colour, label) swatches of this grid's scale, the same for every grid drawn with it."""
        if self.palette == "degree":
            return [(IDLE, "idle"), (OK, "1-way (no conflict)")] + [
                (colour(n), f"{n}-way") for n in range(2, 8)] + [(colour(8), "8+-way")]
        top, n, keys = max(self.top, 1), len(_HITS), [(IDLE, "0")]
        for i in range(1, n + 1):  # hits h fall in step i when (i-1)/n < h/top <= i/n
            lo, hi = top * (i - 1) // n + 1, top * i // n
            if hi >= lo:
                keys.append((_HITS[i - 1], f"{lo}-{hi}" if hi > lo else str(hi)))
        return keys

    def tip(self, row: int, bank: int) -> str:
        """A cell's tooltip: 'bank 5, phase 0: 0-31: 32-way (32 distinct dwords)'."""
        c = int(self.counts[row, bank])
        where = f"bank {bank}, {'' if self.row_labels[row].startswith('lane') else 'phase '}" \
                f"{self.row_labels[row]}"
        if self.palette == "degree":
            return f"{where}: {'idle' if not c else f'{c}-way'}"
        return f"{where}: {c} hits"

    def __str__(self) -> str:
        return grid_text(self)


def legend_text(g: Grid) -> str:
    """The legend as one text line: 'colour and number = ...: idle ., 1-way 1, ...'."""
    if g.palette == "degree":
        keys = "'.' idle, 1 = no conflict, n = n-way (a=10 .. z=35, '#' more)"
    else:
        keys = f"'.' idle, 1..9 = ninths of the busiest cell ({g.top})"
    return f"{g.meaning()}; text cells: {keys}"


def grid_text(g: Grid) -> str:
    """A compact text heatmap: one character per bank."""
    width = max([len(r) for r in g.row_labels] + [len("phase: lanes")])
    info_w = max([len(g.info_name)] + [len(s) for s in g.row_info])
    head = "".join(str(b % 10) for b in range(g.banks))
    lines = [g.title,
             f"{'phase: lanes' if not g.row_labels[0].startswith('lane') else 'lane':<{width}} "
             f"{g.info_name:>{info_w}}  banks 0..{g.banks - 1}",
             f"{'':<{width}} {'':>{info_w}}  {head}"]
    for label, info, row in zip(g.row_labels, g.row_info, g.load):
        lines.append(f"{label:<{width}} {info:>{info_w}}  {''.join(g.char(v) for v in row)}")
    lines.append(g.caption)
    return "\n".join(lines)


@dataclass
class Item:
    """One selectable DS instruction of a panel."""

    label: str
    access: Callable[[], Access]          # the execution drawn in "worst" mode
    conflict_cycles: int
    executions: int
    summary: Callable[[], str]
    hits: Callable[[], np.ndarray] | None = None   # [phases, banks] over all executions
    phase_degrees: Callable[[], np.ndarray] | None = None  # [executions, phases]
    mnemonic: str = ""
    line: int | None = None
    _peaks: np.ndarray | None = field(default=None, repr=False, compare=False)

    def grid(self, mode: str = "worst", view: str = "phases", top: int | None = None) -> Grid:
        """The grid of this item in ``mode`` ("worst" execution, "all" executions: each bank's
        highest n-way, or "total": bank hits summed over executions) and ``view`` ("phases" x
        banks, or "lanes" x banks for one execution). ``top``: the busiest cell of the "total"
        scale when several grids share it (default: this grid's own)."""
        check_mode_view(mode, view)
        acc = self.access()
        if view == "lanes":
            return _lane_grid(self.label, acc)
        labels = tuple(f"{p.index}: {_ranges(p.lanes)}" for p in acc.phases)
        if mode == "total" and self.hits is not None and self.executions:
            hits = self.hits()
            top = int(hits.max(initial=0)) if top is None else int(top)
            level = hits / top if top else hits.astype(float)
            deg = self.phase_degrees().mean(axis=0) if self.phase_degrees else None
            info = tuple(f"{d:.1f}" for d in deg) if deg is not None else ("",) * len(labels)
            return Grid(self.label, labels, info, "mean deg", level, hits,
                        f"bank hits (distinct dwords) summed over {self.executions} "
                        f"executions, busiest cell {top}; 'mean deg' = mean phase degree per "
                        "execution", palette="hits", top=top)
        if mode == "all" and self.executions > 1:
            peak = self.peaks()
            deg = tuple(str(int(d)) for d in peak.max(axis=1))
            return Grid(self.label, labels, deg, "deg", peak.astype(float), peak,
                        f"each bank's highest n-way over all {self.executions} executions "
                        "(distinct dwords a phase put on it in one execution)")
        m = acc.bank_matrix()
        which = f" (the most conflicted of {self.executions})" if self.executions > 1 else ""
        return Grid(self.label, labels, tuple(str(p.degree) for p in acc.phases), "deg",
                    m.astype(float), m, "distinct dwords per bank in one execution" + which)

    def peaks(self) -> np.ndarray:
        """int64 [phases, banks]: the most distinct dwords each phase put on each bank in any
        one execution (the n-way each bank reached at worst), cached."""
        if self._peaks is None:
            out = self.access(0).bank_matrix()
            for k in range(1, self.executions):
                np.maximum(out, self.access(k).bank_matrix(), out=out)
            self._peaks = out
        return self._peaks


def _lane_grid(title: str, acc: Access) -> Grid:
    """Lanes x banks: a lane's cells carry the load of that bank in the lane's phase."""
    load = np.zeros((acc.lanes, acc.banks))
    counts = np.zeros((acc.lanes, acc.banks), dtype=np.int64)
    phase_of = {ln: p for p in acc.phases for ln in p.lanes}
    for lane in range(acc.lanes):
        p = phase_of.get(lane)
        if p is None:
            continue
        for b in acc.lane_banks(lane):
            counts[lane, b] += 1
            load[lane, b] = p.bank_dwords[b]
    labels = tuple(f"lane {ln} (ph {phase_of[ln].index})" if ln in phase_of else f"lane {ln}"
                   for ln in range(acc.lanes))
    deg = tuple(str(int(load[ln].max())) for ln in range(acc.lanes))
    return Grid(title, labels, deg, "deg", load, counts,
                "banks each lane touches; colour = distinct dwords on that bank in its phase")


@dataclass
class Panel:
    """One side of the heatmap: a title, its items and (for traces) the ranked table."""

    title: str
    items: list[Item]
    ranked: TraceConflicts | None = None
    group: AccessGroup | None = None

    @property
    def conflict_cycles(self) -> int:
        return sum(i.conflict_cycles for i in self.items)

    def find(self, *, rank: int | None = None, line: int | None = None,
             mnemonic: str | None = None) -> int:
        """Index of the item chosen by rank, by source line (its most conflicted instruction)
        or by mnemonic (likewise); 0 when nothing is asked."""
        if rank is not None:
            if not 0 <= rank < len(self.items):
                raise ArgumentIndexError(
                    f"{self.title}: rank {rank} out of range 0..{len(self.items) - 1}")
            return rank
        if line is not None:
            hits = [i for i, it in enumerate(self.items) if it.line == line]
            if not hits:
                lines = sorted({it.line for it in self.items if it.line is not None})
                raise ArgumentValueError(
                    f"{self.title}: no DS instruction on line {line} (lines with "
                    f"DS instructions: {', '.join(map(str, lines)) or 'none'})")
            return hits[0]  # items are ranked, so the first is the most conflicted
        if mnemonic is not None:
            for i, it in enumerate(self.items):
                if it.mnemonic == mnemonic:
                    return i
        return 0


def _access_item(acc: Access) -> Item:
    return Item(acc.label or acc.instruction, lambda: acc, acc.conflict_cycles, 1,
                acc.summary, mnemonic=acc.instruction)


def _trace_item(ins: InstructionConflicts) -> Item:
    return Item(ins.label, ins.access, ins.conflict_cycles, ins.executions, ins.summary,
                ins.bank_hits, lambda: ins.degrees, ins.mnemonic, ins.source_line)


def panel(subject: Any, *, title: str = "", arch: str | None = None,
          source: Any = None) -> Panel:
    """A Panel from a Trace (anything with ``.ds``), TraceConflicts, InstructionConflicts,
    AccessGroup or Access."""
    if hasattr(subject, "ds") and not isinstance(subject, TraceConflicts):
        subject = trace_conflicts(subject, arch, source=source)
    if isinstance(subject, TraceConflicts):
        if not len(subject):
            raise ArgumentValueError(
                f"{subject.kernel}: the trace holds no modelled DS instruction to "
                "draw")
        name = f"{subject.kernel} ({subject.arch})"
        return Panel(f"{title}: {name}" if title else name,
                     [_trace_item(i) for i in subject], ranked=subject)
    if isinstance(subject, InstructionConflicts):
        return Panel(title or subject.label, [_trace_item(subject)])
    if isinstance(subject, AccessGroup):
        name = subject.label or f"{len(subject)} x {subject[0].instruction}"
        items = [_access_item(a) for a in subject]
        for k, it in enumerate(items):
            it.label = f"[{k}] {it.label}"
        return Panel(f"{title}: {name}" if title else name, items, group=subject)
    if isinstance(subject, Access):
        if not subject.op.touches_banks:
            raise ArgumentValueError(
                f"{subject.instruction} does not access LDS banks; nothing to draw")
        name = subject.label or subject.instruction
        return Panel(f"{title}: {name}" if title else name, [_access_item(subject)])
    raise ArgumentTypeError(
        f"lds_heatmap takes an emulator Trace (kernel.trace[grid, block](...)), a "
        f"trace_conflicts() result, an Access or an AccessGroup (workbench.lds "
        f"patterns), got {type(subject).__name__}")
