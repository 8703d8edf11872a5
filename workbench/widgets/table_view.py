"""Tables and source code as a learner reads them: HTML in a notebook, aligned text elsewhere.

Why: a wide text table wraps mid-word in a notebook's output area and a printed kernel source is
plain grey text. ``wb.table`` renders rows as an HTML table (right-aligned numbers, a header,
sortable by a click on a column header when it is long: the hipwb-lab extension sorts, the
HTML itself carries no script), with the aligned text table as its ``text/plain`` for terminals
and nbval. ``wb.code`` shows source highlighted by Pygments (token classes coloured by a
stylesheet scoped to the block; where styles are stripped, e.g. on GitHub, the plain source
remains), and prints as the plain source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..argument_types import checked
from ..text_table import text_table
from .base import View, esc, wrap
from .base import table as html_table

#: Tables with more rows than this are sortable (a click on a header sorts by that column).
SORTABLE_ROWS = 8


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    text = str(value).strip().rstrip("%x").replace(",", "")
    try:
        float(text)
    except ValueError:
        return False
    return True


class TableView(View):
    """Rows under a header: an HTML table (sortable when long) and the aligned text table."""

    def __init__(self, rows: Iterable[Sequence[Any]], header: Sequence[str], *,
                 title: str | None = None, hot: Iterable[int] = (),
                 sortable: bool | None = None, notes: Sequence[str] = ()):
        self.header = [str(h) for h in header]
        self.rows = [list(r) for r in rows]
        for i, r in enumerate(self.rows):
            if len(r) != len(self.header):
                raise ValueError(f"wb.table: row {i} has {len(r)} cells, the header "
                                 f"{len(self.header)} ({self.header})")
        self.title = title
        self.hot = set(hot)
        self.sortable = len(self.rows) > SORTABLE_ROWS if sortable is None else sortable
        self.notes = list(notes)

    def numeric_columns(self) -> set[int]:
        """Columns whose every non-empty cell is a number (right-aligned, sorted as numbers)."""
        cols = set()
        for j in range(len(self.header)):
            cells = [r[j] for r in self.rows if str(r[j]).strip() not in ("", "-")]
            if cells and all(_is_number(c) for c in cells):
                cols.add(j)
        return cols

    def text(self) -> str:
        out = [self.title] if self.title else []
        out.append(text_table(self.header, self.rows))
        out += self.notes
        return "\n".join(out)

    def html(self) -> str:
        body = html_table(self.header, self.rows, hot=self.hot, numeric=self.numeric_columns())
        if self.sortable:
            body = body.replace("<table>", '<table class="hipwb-sortable" title="click a '
                                'column header to sort">', 1)
        head = f"<h4>{esc(self.title)}</h4>" if self.title else ""
        notes = "".join(f'<div class="muted">{esc(n)}</div>' for n in self.notes)
        return wrap(head + body + notes)


@checked
def table(rows: Sequence[Sequence[Any]], header: Sequence[str], *, title: str | None = None,
          hot: Sequence[int] = (), sortable: bool | None = None,
          notes: Sequence[str] = ()) -> TableView:
    """A table of ``rows`` under ``header``: HTML in a notebook (numbers right-aligned, rows in
    ``hot`` highlighted, sortable when longer than 8 rows), aligned text in ``print``."""
    return TableView(rows, header, title=title, hot=hot, sortable=sortable, notes=notes)


_BLANK = re.compile(r'<span class="w">(\s*)</span>')


@lru_cache(maxsize=1)
def _formatter() -> Any:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=True, style="default")


@lru_cache(maxsize=1)
def _code_style() -> str:
    """Pygments' token colours scoped to hipwb's code blocks (a few KB once per output, where
    inline styles on every token made an eight-listing notebook 7x larger)."""
    scope = ".hipwb pre.hipwb-code"
    rules = [r for r in _formatter().get_style_defs(scope).splitlines() if r.startswith(scope)]
    return "<style>" + "\n".join(rules) + "</style>"  # Pygments' unscoped pre/linenos rules dropped


class CodeView(View):
    """Source code highlighted (Pygments token classes and a scoped stylesheet); prints as the
    plain source."""

    def __init__(self, source: str, *, language: str = "cpp", title: str | None = None):
        self.source = source
        self.language = language
        self.title = title

    def text(self) -> str:
        return self.source

    def html(self) -> str:
        from pygments import highlight
        from pygments.lexers import get_lexer_by_name

        body = highlight(self.source, get_lexer_by_name(self.language), _formatter())
        body = _BLANK.sub(r"\1", body)  # whitespace needs no colour
        head = (f'<div class="muted">{esc(self.title)}</div>' if self.title else "")
        return wrap(f'{_code_style()}{head}<pre class="hipwb-code">{body}</pre>')


_LANGUAGES = {".hip": "cpp", ".h": "cpp", ".hpp": "cpp", ".cpp": "cpp", ".cu": "cuda",
              ".py": "python", ".s": "gas", ".ll": "llvm", ".mlir": "text"}


@checked
def code(source: str | Path, *, language: str | None = None,
         title: str | None = None) -> CodeView:
    """``source`` (text, or a path to read) shown highlighted; a path's suffix picks the
    language (.hip/.h: C++) and names the view, else ``language`` (default C++)."""
    if isinstance(source, Path):
        path = source
        if not path.is_file():
            raise FileNotFoundError(f"wb.code: no file {path}")
        text = path.read_text()
        lang = language or _LANGUAGES.get(path.suffix, "cpp")
        return CodeView(text, language=lang, title=title or path.name)
    return CodeView(str(source), language=language or "cpp", title=title)
