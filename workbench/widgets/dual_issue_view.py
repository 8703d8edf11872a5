"""``wb.dual_issue(listing, ...)``: the VOPD (dual-issue VALU) pairs of gfx11/gfx12 code.

RDNA3 and RDNA4 issue two VALU operations as one VOPD instruction, ``v_dual_X :: v_dual_Y``
(AMD "RDNA3 Instruction Set Architecture" reference guide, "VOPD" encoding, dual-issue VALU;
the RDNA4 guide keeps it). LLVM pairs two independent operations only when their VGPRs sit in
different register banks: the destinations differ in parity and src0 / src1 differ in
``register mod 4`` (LLVM AMDGPUBaseInfo.h ``VOPD_VGPR_BANK_MASKS = {1, 3, 3, 1}``,
GCNVOPDUtils.cpp; formed by GCNCreateVOPD.cpp, off with ``-mllvm -amdgpu-enable-vopd=0``).

The view draws, per listing: how many VALU issue slots its operations take (VOPD pairs vs single
issue, all listings on one scale), the instruction stream as a ribbon (each instruction one
column: a VOPD split into its X and Y halves), the pairs formed, and the listing's densest VOPD
stretch with each half's VGPR banks. Every count comes from ``Listing.dual_issue``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..argument_types import checked
from ..errors import ArgumentTypeError, ArgumentValueError
from ..isa import DualIssue, Instruction, Listing, category, vgpr_index
from .base import View, esc, table, wrap

__all__ = ["DualIssueView", "dual_issue"]

X_COLOUR, Y_COLOUR = "#1b8a5a", "#7fcf9f"    # the two halves of a VOPD
SINGLE, OTHER = "#e08a1e", "#d8d8d8"         # a VALU op issued alone; any other instruction
_W = 600                                      # px of the bars and ribbons
BANK_RULE = ("LLVM pairs two VALU ops only if dst X and dst Y differ in parity and src0 / src1 "
             "of X and Y sit in different banks (VGPR number mod 4) (AMDGPUBaseInfo.h "
             "VOPD_VGPR_BANK_MASKS)")


def _halves(ins: Instruction) -> list[tuple[str, tuple[str, ...]]]:
    first = (ins.mnemonic, ins.regs)
    return [first, ins.dual] if ins.dual is not None else [first]


def banks(ops: Sequence[str]) -> str:
    """'dst 0, src0 2, src1 1': each VGPR operand's bank (dst: parity, sources: mod 4)."""
    out = []
    for k, (name, mod) in enumerate((("dst", 2), ("src0", 4), ("src1", 4))):
        reg = vgpr_index(ops[k]) if k < len(ops) else None
        if reg is not None:
            out.append(f"{name} {reg % mod}")
    return ", ".join(out)


class DualIssueView(View):
    """VOPD pairs of one or more listings (e.g. one kernel with and without VOPD), side by side
    on one scale; ``counts`` (per listing: address -> executions) weighs them by execution."""

    def __init__(self, listings: Sequence[Listing], labels: Sequence[str],
                 counts: Sequence[Mapping[int, int] | None], window: int = 12) -> None:
        self.listings = list(listings)
        self.labels = list(labels)
        self.counts = list(counts)
        self.window = window
        self.stats: list[DualIssue] = [li.dual_issue(c) for li, c in zip(listings, counts)]

    def headline(self, k: int) -> str:
        d, what = self.stats[k], "executed" if self.counts[k] is not None else "static"
        share = f" ({100 * d.paired_ops / d.ops:.0f}% of ops)" if d.ops else ""
        return (f"{self.labels[k]}: {d.ops:,} VALU ops in {d.slots:,} issue slots ({what}); "
                f"{d.vopd:,} VOPD pairs carry {d.paired_ops:,} ops{share}")

    def densest(self, k: int = 0) -> list[Instruction]:
        """The ``window`` consecutive instructions of listing ``k`` holding the most VOPDs."""
        ins = self.listings[k].instructions
        n = min(self.window, len(ins))
        marks = [i.dual is not None for i in ins]
        best = max(range(len(ins) - n + 1), key=lambda s: (sum(marks[s:s + n]), -s))
        return ins[best:best + n]

    def text(self) -> str:
        out = [self.headline(k) for k in range(len(self.listings))]
        if len(self.stats) > 1 and self.stats[0].slots:
            ratio = " / ".join(f"{d.slots / self.stats[0].slots:.2f}" for d in self.stats)
            out.append(f"issue slots relative to {self.labels[0]}: {ratio}")
        for k, d in enumerate(self.stats):
            if d.pairs:
                top = ", ".join(f"{p} x{n:,}" for p, n in d.pairs.most_common(3))
                out.append(f"{self.labels[k]} pairs: {top}")
        if self.stats[0].vopd:
            out.append(f"densest VOPD stretch of {self.labels[0]} (banks: dst parity, "
                       "src mod 4):")
            for ins in self.densest(0):
                mark = "*" if ins.dual is not None else " "
                note = ("    [X " + banks(ins.regs) + " | Y " + banks(ins.dual[1]) + "]"
                        if ins.dual is not None else "")
                out.append(f" {mark} {ins.text}{note}")
            out.append(BANK_RULE)
        return "\n".join(out)

    # -- static picture --------------------------------------------------------------------
    def _bars_svg(self) -> str:
        top = max(d.slots for d in self.stats) or 1
        rows, y = [], 4
        for k, d in enumerate(self.stats):
            single = d.slots - d.vopd
            wv, ws = _W * d.vopd / top, _W * single / top
            rows.append(f'<text x="0" y="{y + 15}" font-size="11">{esc(self.labels[k])}</text>')
            rows.append(f'<rect x="150" y="{y}" width="{wv:.1f}" height="20" fill="{X_COLOUR}">'
                        f"<title>{d.vopd:,} VOPD slots: {d.paired_ops:,} ops</title></rect>")
            rows.append(f'<rect x="{150 + wv:.1f}" y="{y}" width="{ws:.1f}" height="20" '
                        f'fill="{SINGLE}"><title>{single:,} single-issue VALU slots</title>'
                        "</rect>")
            label = f"{d.slots:,} slots: {d.vopd:,} VOPD + {single:,} single"
            rows.append(f'<text x="{154 + wv + ws:.1f}" y="{y + 15}" font-size="11">'
                        f"{esc(label)}</text>")
            y += 26
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{150 + _W + 230}" '
                f'height="{y}" font-family="sans-serif">{"".join(rows)}</svg>')

    def _ribbon_svg(self, k: int) -> str:
        """The instruction stream, one column per instruction, consecutive instructions of one
        kind (VOPD, single VALU, other) drawn as one run (a short file, hover names the run)."""
        ins = self.listings[k].instructions
        w = _W / max(len(ins), 1)
        kinds = ["vopd" if x.dual is not None else
                 "valu" if category(x.mnemonic) == "VALU" else "other" for x in ins]
        cells, start = [], 0
        for i in range(1, len(ins) + 1):
            if i < len(ins) and kinds[i] == kinds[start]:
                continue
            left, width, kind = 150 + start * w, (i - start) * w, kinds[start]
            tip = f"{i - start} x " + {"vopd": "VOPD", "valu": "single VALU"}.get(kind, "other")
            if kind == "vopd":
                cells.append(f'<rect x="{left:.1f}" y="0" width="{width:.1f}" height="11" '
                             f'fill="{X_COLOUR}"><title>{tip}</title></rect>'
                             f'<rect x="{left:.1f}" y="11" width="{width:.1f}" height="11" '
                             f'fill="{Y_COLOUR}"><title>{tip}</title></rect>')
            else:
                cells.append(f'<rect x="{left:.1f}" y="0" width="{width:.1f}" height="22" '
                             f'fill="{SINGLE if kind == "valu" else OTHER}"><title>{tip}</title>'
                             "</rect>")
            start = i
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{150 + _W + 10}" height="26" '
                f'font-family="sans-serif"><text x="0" y="15" font-size="11">'
                f"{esc(self.labels[k])}</text>{''.join(cells)}</svg>")

    def _legend(self) -> str:
        keys = ((X_COLOUR, "VOPD half X"), (Y_COLOUR, "VOPD half Y"),
                (SINGLE, "VALU issued alone"), (OTHER, "other instruction"))
        return "".join(f'<span style="background:{c};color:{"#fff" if c == X_COLOUR else "#000"}'
                       f';padding:0 6px;margin-right:2px;font-size:11px">{esc(t)}</span>'
                       for c, t in keys)

    def _excerpt_html(self) -> str:
        lines = []
        stretch = self.densest(0)
        halves = [ins.text.partition(" :: ") for ins in stretch]
        wx = max(len(x) for x, _, y in halves if y)
        wy = max(len(y) for x, _, y in halves if y)
        for ins, (x, _, y) in zip(stretch, halves):
            if ins.dual is None:
                lines.append(f'<span class="muted">    {esc(ins.text)}</span>')
                continue
            lines.append(f'<span style="background:{X_COLOUR};color:#fff">  {esc(x.ljust(wx))}'
                         f' </span><span style="background:{Y_COLOUR}"> :: {esc(y.ljust(wy))}'
                         " </span>"
                         f'<span class="muted">  X {esc(banks(ins.regs))} | Y '
                         f"{esc(banks(ins.dual[1]))}</span>")
        return "<pre>" + "\n".join(lines) + "</pre>"

    def html(self) -> str:
        heads = "".join(f"<div>{esc(self.headline(k))}</div>" for k in range(len(self.stats)))
        ribbons = "".join(self._ribbon_svg(k) for k in range(len(self.listings)))
        parts = [f"<div><b>VALU issue slots</b> (one scale for all)</div>{heads}",
                 self._bars_svg(),
                 "<div><b>instruction stream</b> (address order, one column per "
                 f"instruction)</div>{ribbons}<div>{self._legend()}</div>"]
        pairs = [(self.labels[k], p, f"{n:,}") for k, d in enumerate(self.stats)
                 for p, n in d.pairs.most_common(4)]
        if pairs:
            parts.append("<div><b>pairs formed</b></div>"
                         + table(["listing", "X :: Y", "count"], pairs, numeric=[2]))
        if self.stats[0].vopd:
            parts.append(f"<div><b>densest VOPD stretch of {esc(self.labels[0])}</b> (banks "
                         f"of each half: dst parity, src0/src1 mod 4)</div>"
                         f"{self._excerpt_html()}<div class=\"muted\">{esc(BANK_RULE)}</div>")
        return wrap("".join(parts))


def _listing(subject: Any, arch: str | None) -> Listing:
    if isinstance(subject, Listing):
        return subject
    if hasattr(subject, "isa_for"):
        return subject.isa_for(arch)
    raise ArgumentTypeError(f"dual_issue takes listings (kernel.isa_for(arch)) or kernels, "
                            f"got {type(subject).__name__}")


def _counts(value: Any) -> Mapping[int, int] | None:
    if value is None or isinstance(value, Mapping):
        return value
    if isinstance(getattr(value, "pc_counts", None), Mapping):
        return value.pc_counts
    raise ArgumentTypeError(f"counts: give a Trace or a mapping address -> executions, got "
                            f"{type(value).__name__}")


@checked
def dual_issue(*listings: Any, labels: Sequence[str] | None = None, arch: str | None = None,
               counts: Any = None, window: int = 12) -> DualIssueView:
    """The VOPD pairs of gfx11/gfx12 listings (``kernel.isa_for("gfx1100")``, or kernels with
    ``arch``), several side by side on one scale -- e.g. one kernel built with and without
    ``-mllvm -amdgpu-enable-vopd=0``. ``counts``: a Trace (its ``pc_counts``) or a mapping
    address -> executions, one per listing (a list) or one for all, to count executed issue
    slots instead of static ones; ``window``: instructions in the highlighted excerpt."""
    per = list(counts) if isinstance(counts, (list, tuple)) else [counts]
    per = [_counts(c) for c in per]
    if not listings:
        raise ArgumentTypeError("dual_issue needs at least one listing or kernel")
    lst = [_listing(s, arch) for s in listings]
    n = len(lst)
    per = per if isinstance(counts, (list, tuple)) else per * n
    names = list(labels) if labels is not None else [li.title or li.symbol for li in lst]
    if len(names) != n:
        raise ArgumentValueError(f"labels={labels!r}: give one label per listing ({n})")
    if len(per) != n:
        raise ArgumentValueError(f"counts: give one per listing ({n}), got {len(per)}")
    if not 1 <= window <= 200:
        raise ArgumentValueError(f"window={window}: 1..200 instructions")
    return DualIssueView(lst, names, per, window)
