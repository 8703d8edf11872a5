"""Plain-text tables: the deterministic ``text/plain`` form shared by models and views."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def text_table(header: Sequence[str], rows: Iterable[Sequence[Any]], indent: str = "") -> str:
    """A plain-text table with columns padded to their widest cell (trailing spaces dropped)."""
    rows = [[str(c) for c in r] for r in rows]
    cols = [list(map(str, header))] + rows
    widths = [max(len(r[j]) for r in cols if j < len(r)) for j in range(len(header))]
    lines = []
    for r in cols:
        cells = [c.ljust(widths[j]) for j, c in enumerate(r)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines)
