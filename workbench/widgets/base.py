"""The pattern every hipwb view follows: rich HTML, deterministic text, optional live widget.

Views draw model objects (Resources, Occupancy, Listing, Trace, a layout); they compute
nothing the model cannot compute without them (docs/architecture.md "Widgets only view").

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
   ``BokehModel``, which syncs the figure over widget comms without a bokeh server). Build the
   figure *with its data* and then wrap it; ``bokeh_pane`` sends BokehJS to the page once per
   kernel and page (jupyter_bokeh does not) and refreshes the pane's snapshot for views made
   after a change.
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

import abc
import html
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
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


class View(abc.ABC):
    """A static view: subclasses implement :meth:`text` and :meth:`html`."""

    @abc.abstractmethod
    def text(self) -> str:
        """Deterministic text/plain form."""

    @abc.abstractmethod
    def html(self) -> str:
        """Static HTML form (also the fallback of interactive views)."""

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

    @abc.abstractmethod
    def build_widget(self) -> Any:
        """The live ipywidgets/bokeh widget (built on first display)."""

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


#: Per front-end connection (:func:`_front_end`), the names of the BokehJS bundles
#: ("bokeh.min.js", "bokeh-widgets.min.js", ...) this kernel has sent to it.
_BOKEHJS_SENT: dict[str, set[str]] = {}


def _front_end() -> str:
    """Id of the front-end connection whose request is running ('' when there is none).

    Why: a reloaded browser page has lost ``window.Bokeh`` but talks to the same kernel; it is
    a new connection (JupyterLab gives each kernel connection a fresh client id, sent as the
    ``session`` of every request header), so keying what was sent by it resends BokehJS there.
    """
    try:
        from IPython import get_ipython

        return str(get_ipython().kernel.get_parent()["header"]["session"])
    except (AttributeError, KeyError, TypeError):
        return ""


def _bundle_name(chunk: str) -> str:
    """'bokeh.min.js' for an inline chunk starting '/* BEGIN bokeh.min.js */', else the chunk."""
    first = chunk.split("\n", 1)[0]
    if first.startswith("/* BEGIN ") and first.endswith(" */"):
        return first[len("/* BEGIN "):-len(" */")]
    return chunk


def load_bokehjs(*models: Any, force: bool = False) -> bool:
    """Send the BokehJS bundles ``models`` need (none given: the core bundle) to the Jupyter
    front end, inline (~1.3 MB for core, no network), each once per kernel and page.

    Why: ``jupyter_bokeh.BokehModel`` draws with the page's ``window.Bokeh`` and never loads it;
    without it a view fails with "Cannot read properties of undefined (reading 'require')" (seen
    in JupyterLab 4.6 + jupyter_bokeh 4.1). Publishing bokeh's notebook load script under
    jupyter_bokeh's load MIME type (as ``bokeh.io.output_notebook`` does, but inline and with only
    the bundles not sent yet) runs it in the page before the outputs that follow it. Returns
    whether it published; ``force`` resends (e.g. after the loader's output was cleared).
    """
    from bokeh import __version__
    from bokeh.core.templates import AUTOLOAD_NB_JS
    from bokeh.embed.bundle import Bundle, bundle_for_objs_and_resources
    from bokeh.io.notebook import LOAD_MIME_TYPE
    from bokeh.resources import INLINE
    from IPython.display import publish_display_data

    if not models:
        from bokeh.plotting import figure

        probe = figure()  # what a plain figure needs: BokehJS core, no widgets/tables/GL
        probe.rect([0], [0], 1, 1)
        models = (probe,)
    chunks = bundle_for_objs_and_resources(list(models), INLINE).js_raw
    names = [_bundle_name(c) for c in chunks]
    libraries = {n for n in names if n.endswith(".js")}
    have = set() if force else _BOKEHJS_SENT.setdefault(_front_end(), set())
    if libraries <= have:
        return False
    send = [c for c, n in zip(chunks, names) if n not in have]
    js = AUTOLOAD_NB_JS.render(bundle=Bundle(js_raw=send), elementid=None, force=True,
                               timeout=5000, register_mime=False)
    sent = ", ".join(sorted(libraries - have))
    publish_display_data({LOAD_MIME_TYPE: js,
                          "text/plain": f"BokehJS {__version__} ({sent}) loaded for hipwb widgets"})
    _BOKEHJS_SENT.setdefault(_front_end(), set()).update(libraries)
    return True


@lru_cache(maxsize=1)
def _pane_class() -> type:
    """The BokehPane class (built on first use: importing jupyter_bokeh costs ~0.3 s)."""
    from jupyter_bokeh.widgets import BokehModel

    class BokehPane(BokehModel):
        """``BokehModel`` whose snapshot catches up with the document when a view appears.

        Why: ``BokehModel`` gives a new browser view the document as it was when the pane was
        made (``render_bundle``) and sends later changes only to views that exist, so a view made
        after a change -- the first display of a pane changed before display, or a second view
        of it -- would draw stale data. ipywidgets reports its views in ``_view_count`` (counting
        starts when it is 0); when one appears after a change, the snapshot is refreshed.
        """

        def __init__(self, model: Any, **kwargs: Any) -> None:
            self._stale = False
            super().__init__(model, _view_count=0, **kwargs)
            self.observe(self._on_view_count, names="_view_count")

        def _document_patched(self, event: Any) -> None:
            self._stale = True  # also for changes made in a browser view: other views lack them
            super()._document_patched(event)

        def _on_view_count(self, change: dict[str, Any]) -> None:
            if self._stale and (change["new"] or 0) > (change["old"] or 0):
                self.refresh()

        def refresh(self) -> None:
            """Re-snapshot the document: every view redraws it as it is now."""
            self._stale = False
            self.render_bundle = self._model_to_traits(self._model)

    BokehPane.__qualname__ = "BokehPane"
    return BokehPane


def bokeh_pane(figure: Any) -> Any:
    """A bokeh figure/layout as an ipywidget (a ``jupyter_bokeh.BokehModel``), no server needed.

    Build the figure with its data before calling this: the pane snapshots the document, and a
    view draws that snapshot (see ``BokehPane``). In a kernel, BokehJS is sent to the page first
    (:func:`load_bokehjs`, once per kernel and page), so every view's first pane is drawable.
    """
    if in_kernel():
        load_bokehjs(figure)
    return _pane_class()(figure)
