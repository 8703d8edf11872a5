"""Modelled cycles per source line and per instruction, from a timing report's accounting.

Why: the report says *that* a kernel waits; this says *where*. The simulator charges every cycle
of a simulated wave's life to one instruction (``simulate.py`` "Accounting": an issue cycle, or
a stall with its reason charged to the instruction that caused it); here those cycles are summed
per instruction and per source line (a header line keeps the user's call site:
``line 12 > tile.h:40``). The numbers are wave-cycles of the simulated CU window (one CU's
resident waves), so shares are what to read; every number is modelled.
"""
from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..branches import branch_labels, labelled_text
from ..text_table import text_table
from .simulate import STALL_REASONS

LABEL = "modelled"


def location_of(ins) -> tuple[int | None, str | None]:
    """(the user's line, the header chain) an instruction came from (``isa.Instruction``; a
    stream's instructions need only ``text`` and ``source_line``)."""
    return ins.source_line or None, getattr(ins, "header", None)


def location_label(line: int | None, header: str | None) -> str:
    """``line 48``, ``line 12 > tile.h:40``, ``tile.h:40`` or ``no line``."""
    if line and header:
        return f"line {line} > {header}"
    if line:
        return f"line {line}"
    return header or "no line"


def innermost(header: str | None) -> str | None:
    """``gemm_common.h:43`` of ``pingpong.h:93 > gemm_common.h:43`` (None for the user's code)."""
    return header.rsplit(" > ", 1)[-1] if header else None


def header_lines(instructions: Iterable) -> dict[str, str]:
    """``{"file.h:43": text of that line}`` for the innermost header line of every inlined
    instruction, read from the header the line tables name (``isa.Instruction.header_file``);
    a header that can no longer be read is left out."""
    want: dict[str, set[int]] = {}
    for ins in instructions:
        loc, path = innermost(getattr(ins, "header", None)), getattr(ins, "header_file", None)
        if loc and path and loc.rpartition(":")[2].isdigit():
            want.setdefault(path, set()).add(int(loc.rpartition(":")[2]))
    out: dict[str, str] = {}
    for path, nums in want.items():
        try:
            text = Path(path).read_text(errors="replace").splitlines()
        except OSError:
            continue
        name = path.rsplit("/", 1)[-1]
        out.update({f"{name}:{n}": text[n - 1].strip() for n in nums if 0 < n <= len(text)})
    return out


class _Cycles:
    """Issue + stall cycles of an instruction or a line."""

    issue: int
    stalls: dict  # reason -> cycles

    @property
    def stall(self) -> int:
        return sum(self.stalls.values())

    @property
    def total(self) -> int:
        return self.issue + self.stall


@dataclass(frozen=True)
class InstCost(_Cycles):
    """One instruction's modelled cycles in the simulated window."""

    index: int  # into the report's instructions
    text: str
    line: int | None
    header: str | None
    issue: int
    stalls: dict  # reason -> cycles


@dataclass(frozen=True)
class LineCost(_Cycles):
    """One source line's modelled cycles: issue, stalls by reason, its instructions."""

    line: int | None
    header: str | None
    text: str  # the line's text: the header's own line for code inlined from a header, else
    # the user's line ("" when unknown)
    issue: int
    stalls: dict  # reason -> cycles
    instructions: tuple  # InstCost of the line's instructions, in address order

    @property
    def location(self) -> str:
        return location_label(self.line, self.header)

    def top_instruction(self) -> InstCost:
        """The line's instruction with the most stall cycles (ties: the most issue cycles)."""
        return max(self.instructions, key=lambda c: (c.stall, c.issue))


def instruction_costs(instructions: Sequence, issue: Sequence[int],
                      stall: Sequence[int]) -> list[InstCost]:
    """Per instruction that issued in the window (``issue``/``stall`` as the report keeps them)."""
    n_r = len(STALL_REASONS)
    out = []
    for i, ins in enumerate(instructions):
        iss = issue[i] if i < len(issue) else 0
        st = {STALL_REASONS[k]: stall[i * n_r + k] for k in range(n_r)
              if i * n_r + k < len(stall) and stall[i * n_r + k]}
        if iss or st:
            out.append(InstCost(i, ins.text, *location_of(ins), int(iss), st))
    return out


class LineCosts:
    """Source lines sorted by modelled cycles (issue + stall), with shares of the total.

    ``total_cycles`` is the summed lifetime of the simulated waves (dispatch to s_endpgm);
    iterate for ``LineCost`` rows; ``text()``/HTML show the table.
    """

    def __init__(self, kernel: str, costs: list[InstCost], source: str | None,
                 headers: dict | None = None, top: int | None = None, scope: str = ""):
        self.kernel = kernel
        self.top = top  # how many rows the text and HTML show (None: 12 in text, all in HTML)
        # what the cycles cover: the simulated CU window, or the prefix of a long stream
        self.scope = scope or "the simulated CU window"
        self.instructions = costs
        src = source.splitlines() if source else []
        headers = headers or {}
        by: dict = {}
        for c in costs:
            by.setdefault((c.line, c.header), []).append(c)
        rows = []
        for (line, header), cs in by.items():
            st: dict = {}
            for c in cs:
                for k, v in c.stalls.items():
                    st[k] = st.get(k, 0) + v
            # a header line shows its own text (the user's call site is in its location)
            text = (headers.get(innermost(header), "") if header else
                    src[line - 1].strip() if line and 0 < line <= len(src) else "")
            rows.append(LineCost(line, header, text, sum(c.issue for c in cs), st, tuple(cs)))
        rows.sort(key=lambda r: (-r.total, r.line or 0, r.header or ""))
        self.rows = rows
        self.total_cycles = sum(r.total for r in rows)
        self.stall_cycles = sum(r.stall for r in rows)
        present = {k for r in rows for k in r.stalls}
        self.reasons = tuple(k for k in STALL_REASONS if k in present)

    def __iter__(self) -> Iterator[LineCost]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> LineCost:
        return self.rows[i]

    def share(self, row: LineCost) -> float:
        return row.total / self.total_cycles if self.total_cycles else 0.0

    def top_stall(self) -> LineCost | None:
        """The line with the most stall cycles (None when nothing stalled)."""
        best = max(self.rows, key=lambda r: r.stall, default=None)
        return best if best is not None and best.stall > 0 else None

    def sentence(self) -> str:
        """``62% of stall cycles are at line 48 (`s_waitcnt vmcnt(0)`, wait vmcnt)``, or ""."""
        top = self.top_stall()
        if top is None:
            return ""
        ins = top.top_instruction()
        reason = max(ins.stalls.items(), key=lambda kv: kv[1])[0]
        what = f" `{top.text}`" if top.text else ""
        op = ins.text if len(ins.text) <= 32 else ins.text.split()[0] + " ..."
        return (f"{100 * top.stall / self.stall_cycles:.0f}% of stall cycles are at "
                f"{top.location}{what} (`{op}`, {reason})")

    def table_rows(self, top: int | None = None) -> list[tuple]:
        rows = self.rows if top is None else self.rows[:top]
        out = []
        for r in rows:
            mn = sorted({c.text.split()[0] for c in r.instructions})
            out.append((r.location, f"{100 * self.share(r):.1f}%", f"{r.issue:,}",
                        *(f"{r.stalls.get(k, 0):,}" for k in self.reasons),
                        ", ".join(mn[:4]) + (" ..." if len(mn) > 4 else ""), r.text[:60]))
        return out

    def headers(self) -> list[str]:
        return ["line", "share", "issue", *self.reasons, "instructions", "source"]

    def text(self, top: int | None = -1) -> str:
        """The table as text: the ``top`` costliest lines (default: the ``top`` this was made
        with, else 12; None: all)."""
        if top == -1:
            top = self.top or 12
        head = (f"{self.kernel}: cycles per source line ({LABEL}; wave-cycles of {self.scope}, "
                f"{self.total_cycles:,} in all, {self.stall_cycles:,} stalled)")
        body = text_table(self.headers(), self.table_rows(top))
        more = (f"\n... {len(self.rows) - top} more lines" if top is not None
                and len(self.rows) > top else "")
        return "\n".join([head, body]) + more

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        rows = self.table_rows(self.top)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.headers())
        more = (f"<div>... {len(self.rows) - len(rows)} more lines</div>"
                if len(rows) < len(self.rows) else "")
        body = []
        for r, row in zip(self.rows, rows):
            heat = min(1.0, 2 * self.share(r))
            cells = "".join(f"<td>{html.escape(str(v))}</td>" for v in row)
            body.append(f'<tr style="background: rgba(230, 85, 13, {heat:.2f})">{cells}</tr>')
        return (f"<div><b>{html.escape(self.kernel)}</b>: cycles per source line ({LABEL}; "
                f"wave-cycles of {html.escape(self.scope)}, {self.total_cycles:,} in all, "
                f"{self.stall_cycles:,} stalled)<table><tr>{head}</tr>{''.join(body)}</table>"
                f"{more}</div>")


class TimedListing:
    """The ISA listing with each instruction's modelled cycles and its share as a heat column,
    source lines interleaved where the location changes (as the ISA view shows them)."""

    def __init__(self, kernel: str, instructions: Sequence, costs: list[InstCost],
                 source: str | None, headers: dict | None = None, scope: str = ""):
        self.kernel = kernel
        self.headers = headers or {}
        self.scope = scope or "the simulated CU window"
        self.instructions = instructions
        self.costs = {c.index: c for c in costs}
        self.total = sum(c.total for c in costs) or 1
        self.source = source.splitlines() if source else []

    def rows(self) -> list[tuple[str, float, str]]:
        """(cycles column, share 0..1, text): a source marker (share -1) and a branch target's
        label line (``L1:``, share -2) have an empty cycles column; branches name the label."""
        out: list = []
        last = None
        labels = branch_labels(self.instructions)
        for i, ins in enumerate(self.instructions):
            here = location_of(ins)
            if here != last and (here[0] or here[1]):
                line = here[0]
                src = (self.headers.get(innermost(here[1]), "") if here[1] else
                       self.source[line - 1].strip() if line and line <= len(self.source) else "")
                where = location_label(*here) if line else f"inlined from {here[1]}"
                out.append(("", -1.0, f"; {where}: {src}".rstrip(" :")))
            last = here
            if ins.addr in labels:
                out.append(("", -2.0, f"{labels[ins.addr]}:"))
            text = "    " + labelled_text(ins, labels)
            c = self.costs.get(i)
            if c is None:
                out.append(("", 0.0, text))
                continue
            share = c.total / self.total
            out.append((f"{c.total:>8,} {100 * share:5.1f}%", share, text))
        return out

    def text(self) -> str:
        head = (f"{self.kernel}: ISA with modelled cycles per instruction (issue + stall, "
                f"wave-cycles of {self.scope}; {LABEL})")
        return "\n".join([head] + [f"{c:>15}  {t}" for c, _, t in self.rows()])

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        """The listing in a ``.hipwb`` ``<pre>`` as the ISA view prints it (source markers as
        ``span.src``, instructions as text), so the hipwb-lab extension links a line and its
        instructions both ways here too; the cycles column is a heat-coloured span."""
        out = []
        for c, share, t in self.rows():
            if share == -2.0:  # a label: not a source marker (the links key on those)
                out.append(f'{" " * 17}<span class="label">{html.escape(t)}</span>')
                continue
            if share < 0:
                out.append(f'{" " * 17}<span class="src">{html.escape(t)}</span>')
                continue
            heat = min(1.0, 4 * share)
            out.append(f'<span style="background: rgba(230, 85, 13, {heat:.2f})">'
                       f"{html.escape(f'{c:>15}')}</span>{html.escape('  ' + t)}")
        return (f'<div class="hipwb"><b>{html.escape(self.kernel)}</b>: ISA with modelled '
                f"cycles per instruction ({LABEL})<pre>{chr(10).join(out)}</pre></div>")
