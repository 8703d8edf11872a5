"""The pattern every hipwb view follows: rich HTML, deterministic text, optional live widget.

Views draw model objects (Resources, Occupancy, Listing, Trace, a layout); they compute
nothing the model cannot compute without them (DESIGN.md "Widgets only view").

How to write a view (``layout_explorer.py``, ``lds_heatmap.py`` and the others follow this):

1. **Static view** -- subclass :class:`View` and implement two methods:

   * ``text()``: a short, deterministic ``text/plain`` rendering. No timings, paths, ids,
     addresses or object reprs (nbval compares it, and terminals/CLI print it). If a timing
     must appear, write it as ``compile time: <number> ms`` so ``notebooks/sanitize.cfg``
     replaces it.
   * ``html()``: a self-contained HTML fragment built with the helpers below
     (:func:`table`, :func:`details`, :func:`esc`, :data:`STYLE`). No random element ids and
     no scripts: nbval compares ``text/html`` too, and GitHub/nbviewer render it as is.

   ``View`` turns these into ``_repr_html_``, ``_repr_pretty_`` and ``__repr__``, so the
   object displays itself in notebooks, IPython and plain ``print``.

2. **Interactive view** -- subclass :class:`InteractiveView` and also implement
   ``build_widget()``, returning an ipywidgets widget: controls (sliders, dropdowns) plus the
   picture, typically a bokeh figure wrapped by :func:`bokeh_pane` (``jupyter_bokeh``'s
   ``BokehModel``, which syncs the figure over widget comms without a bokeh server).
   Observers on the controls recompute through the *model* functions and update the bokeh
   data sources / an ``ipywidgets.HTML``. Inside a Jupyter kernel the display bundle carries
   the live widget (``application/vnd.jupyter.widget-view+json``, which nbval ignores) *and*
   the static ``text/html`` + ``text/plain`` of steps 1, so a saved notebook still reads well
   where no widget manager runs, and its compared outputs stay deterministic. Outside a kernel
   (terminal IPython, scripts, tests) only the static bundle is produced;
   ``view.widget()`` builds the live widget on demand, e.g. to drive it in a test.

Views never import ``workbench.runtime`` or ``workbench.emu`` at module level.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Iterable, Sequence
from typing import Any

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

#: One stylesheet for every view, scoped to ``.hipwb``; colours work in light and dark themes.
STYLE = """<style>
.hipwb { font-family: var(--jp-ui-font-family, sans-serif); font-size: 13px; }
.hipwb table { border-collapse: collapse; margin: 2px 0 6px 0; }
.hipwb th, .hipwb td { padding: 2px 8px; text-align: left;
  border-bottom: 1px solid var(--jp-border-color2, #ddd); }
.hipwb td.num, .hipwb th.num { text-align: right; font-variant-numeric: tabular-nums; }
.hipwb tr.hot td { background: rgba(255, 160, 0, 0.28); font-weight: 600; }
.hipwb .row { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.hipwb .card { border: 1px solid var(--jp-border-color2, #ddd); border-radius: 4px;
  padding: 4px 10px; min-width: 260px; }
.hipwb .card h4 { margin: 2px 0 4px 0; }
.hipwb .muted { opacity: 0.7; }
.hipwb .bad { color: #d33; font-weight: 600; }
.hipwb pre { font-family: var(--jp-code-font-family, monospace); font-size: 12px;
  margin: 2px 0; line-height: 1.35; }
.hipwb pre .src { color: #2a7ab0; font-style: italic; }
.hipwb summary { cursor: pointer; }
</style>"""


def esc(value: Any) -> str:
    """HTML-escape ``str(value)``."""
    return html.escape(str(value), quote=True)


def table(header: Sequence[str] | None, rows: Iterable[Sequence[Any]], *,
          hot: Iterable[int] = (), numeric: Iterable[int] = ()) -> str:
    """An HTML table; rows whose index is in ``hot`` are highlighted, columns in ``numeric``
    are right-aligned. Cells are escaped unless they are :class:`Raw`."""
    hot_rows, num_cols = set(hot), set(numeric)

    def cell(tag: str, j: int, v: Any) -> str:
        cls = ' class="num"' if j in num_cols else ""
        body = v.html if isinstance(v, Raw) else esc(v)
        return f"<{tag}{cls}>{body}</{tag}>"

    out = ["<table>"]
    if header:
        out.append("<tr>" + "".join(cell("th", j, h) for j, h in enumerate(header)) + "</tr>")
    for i, row in enumerate(rows):
        cls = ' class="hot"' if i in hot_rows else ""
        out.append(f"<tr{cls}>" + "".join(cell("td", j, v) for j, v in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "".join(out)


class Raw:
    """Already-escaped HTML to put in a :func:`table` cell."""

    def __init__(self, html_text: str):
        self.html = html_text


def details(summary: str, body_html: str, *, open: bool = False) -> str:
    """A collapsible ``<details>`` block; ``summary`` is plain text."""
    flag = " open" if open else ""
    return f"<details{flag}><summary>{esc(summary)}</summary>{body_html}</details>"


def wrap(body_html: str) -> str:
    """The outermost element of a view: the stylesheet plus a ``.hipwb`` container."""
    return f'{STYLE}<div class="hipwb">{body_html}</div>'


def text_table(header: Sequence[str], rows: Iterable[Sequence[Any]], indent: str = "") -> str:
    """A plain-text table with columns padded to their widest cell."""
    rows = [[str(c) for c in r] for r in rows]
    cols = [list(map(str, header))] + rows
    widths = [max(len(r[j]) for r in cols if j < len(r)) for j in range(len(header))]
    lines = []
    for r in cols:
        cells = [c.ljust(widths[j]) for j, c in enumerate(r)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(lines)


class View:
    """A static view: subclasses implement :meth:`text` and :meth:`html`."""

    def text(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement text()")

    def html(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement html()")

    def _repr_html_(self) -> str:
        return self.html()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def __repr__(self) -> str:
        return self.text()


def in_kernel() -> bool:
    """Whether we run inside a Jupyter kernel (where a widget has a front end to talk to)."""
    if "ipykernel" not in sys.modules:
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class InteractiveView(View):
    """A view with a live ipywidgets/bokeh widget in Jupyter and the static view elsewhere."""

    def build_widget(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement build_widget()")

    def widget(self) -> Any:
        """A new live widget for this view."""
        return self.build_widget()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"text/plain": self.text(), "text/html": self.html()}
        if in_kernel():
            live = self.widget()._repr_mimebundle_()
            if live and WIDGET_MIME in live:
                bundle[WIDGET_MIME] = live[WIDGET_MIME]
        return bundle


def bokeh_pane(figure: Any) -> Any:
    """A bokeh figure/layout as an ipywidget (``jupyter_bokeh.BokehModel``), no server needed."""
    from jupyter_bokeh.widgets import BokehModel

    return BokehModel(figure)
