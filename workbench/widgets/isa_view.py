"""ISA view: a kernel's listing with the source lines interleaved, and its instruction mix."""

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

    def text(self) -> str:
        return self.summary() + "\n" + self.listing.text(self.source,
                                                         with_addresses=self.addresses)

    def listing_html(self) -> str:
        """The listing as a ``<pre>``, source lines in their own style."""
        lines = self.source.splitlines() if self.source is not None else None
        out, last = [], None
        for ins in self.listing:
            if ins.source_line is not None and ins.source_line != last:
                last = ins.source_line
                src = _source_line(lines, ins.source_line)
                out.append(f'<span class="src">; line {ins.source_line}: {esc(src)}</span>')
            prefix = f"{ins.addr:6x}  " if self.addresses else "    "
            out.append(prefix + esc(ins.text))
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
