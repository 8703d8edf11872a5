"""ISA view: a kernel's listing with the source lines interleaved, and its instruction mix.

Branches name their targets by label (``s_cbranch_scc0 L1`` with an ``L1:`` line above the
instruction it jumps to) where llvm-objdump prints the raw SIMM16 (``s_cbranch_scc0 65524``);
the target is PC + 4 + SIMM16 * 4 (AMD "CDNA3 Instruction Set Architecture" reference guide,
SOPP encoding, S_BRANCH / S_CBRANCH_*; ``workbench.branches.branch_target``).
"""

from __future__ import annotations

from collections import Counter

from ..isa import Listing
from .base import View, details, esc, table, wrap

# Display order of Listing.mix() categories (workbench.isa.category); others follow by count.
_MIX_ORDER = ("VALU", "SALU", "MFMA", "WMMA", "VMEM", "SMEM", "LDS", "scratch", "waitcnt",
              "barrier", "branch", "control", "other")


def ordered_mix(mix: Counter) -> list[tuple[str, int]]:
    """Instruction-mix counts in a stable order: known categories first, then by count/name."""
    known = [(k, mix[k]) for k in _MIX_ORDER if mix.get(k)]
    rest = sorted(((k, v) for k, v in mix.items() if k not in _MIX_ORDER),
                  key=lambda kv: (-kv[1], kv[0]))
    return known + rest


# Branch-target label lines: bold, in the theme's accent (STYLE in base.py has no class for it).
_LABEL_STYLE = "font-weight: 600; color: var(--jp-brand-color1, #1976d2)"


def _source_line(lines: list[str] | None, n: int) -> str:
    if lines is not None and 0 < n <= len(lines):
        return lines[n - 1].strip()
    return ""


class IsaView(View):
    """A kernel's ISA listing; ``source`` is the text whose line N is the listing's line N
    (for a notebook cell: the whole cell, magic line included)."""

    def __init__(self, listing: Listing, source: str | None = None, *, title: str = "",
                 open: bool = False, addresses: bool = False):
        self.listing = listing
        self.source = source
        self.title = title or listing.symbol
        self.open = open
        self.addresses = addresses

    def summary(self) -> str:
        mix = ", ".join(f"{k} {v}" for k, v in ordered_mix(self.listing.mix()))
        return f"ISA {self.title}: {len(self.listing)} instructions ({mix})"

    def lines(self) -> list[tuple[str, str]]:
        """(kind, text) lines: "src" where the source location changes (the user's line with
        its text, or the header an inlined instruction came from), "label" above a branch
        target (``L1:``), "ins" for an instruction (a branch names its target's label,
        ``s_cbranch_execnz L1``: ``Listing.labels``)."""
        lines = self.source.splitlines() if self.source is not None else None
        labels = self.listing.labels()
        out: list[tuple[str, str]] = []
        last: tuple[int | None, str | None] = (None, None)
        for ins in self.listing:
            here = (ins.source_line, ins.header if ins.source_line is not None else ins.source_file)
            if here != last and (here[0] is not None or here[1] is not None):
                if ins.source_line is not None:
                    src = _source_line(lines, ins.source_line)
                    via = f"  [inlined from {ins.header}]" if ins.header else ""
                    out.append(("src", f"; line {ins.source_line}: {src}".rstrip() + via))
                else:
                    out.append(("src", f"; inlined from {ins.source_file}"))
            last = here
            if ins.addr in labels:
                out.append(("label", f"{labels[ins.addr]}:"))
            prefix = f"{ins.addr:6x}  " if self.addresses else "    "
            out.append(("ins", prefix + self.listing.shown(ins, labels)))
        return out

    def rows(self) -> list[tuple[bool, str]]:
        """(is_source_marker, text) lines of :meth:`lines` (label lines are not markers)."""
        return [(kind == "src", t) for kind, t in self.lines()]

    def text(self) -> str:
        return "\n".join([self.summary(), *(t for _, t in self.lines())])

    def listing_html(self) -> str:
        """The listing as a ``<pre>``: source markers as ``span.src`` (the hipwb-lab extension
        links them to their instructions, extensions/hipwb-lab/src/isalink.js), branch-target
        labels as bold ``span.label`` lines, instructions as plain text."""
        out = []
        for kind, t in self.lines():
            if kind == "src":
                out.append(f'<span class="src">{esc(t)}</span>')
            elif kind == "label":
                out.append(f'<span class="label" style="{_LABEL_STYLE}">{esc(t)}</span>')
            else:
                out.append(esc(t))
        return "<pre>" + "\n".join(out) + "</pre>"

    def mix_html(self) -> str:
        rows = ordered_mix(self.listing.mix())
        return table(["unit", "count"], rows, numeric=[1])

    def html_fragment(self) -> str:
        body = (f'<div class="row"><div>{self.listing_html()}</div>'
                f"<div><b>instruction mix</b>{self.mix_html()}</div></div>")
        return details(self.summary(), body, open=self.open)

    def html(self) -> str:
        return wrap(self.html_fragment())


def isa_view(kernel, arch: str | None = None, *, open: bool = True) -> IsaView:
    """The ISA view of a ``workbench.runtime.Kernel`` with its own source lines interleaved.

    Line N of the listing is line N of the cell/file the kernel was compiled from (the module
    keeps the source and the line its first line had; lines before it show as blank).
    """
    module = kernel.module
    arch = arch or module.archs[0]
    source = "\n" * (module.first_line - 1) + module.source
    return IsaView(kernel.isa_for(arch), source, title=f"{kernel.name} {arch}", open=open)
