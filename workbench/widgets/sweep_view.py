"""``SweepResult.view()``: a sweep's modelled metric against VGPRs, LDS and occupancy.

Three bokeh scatter panels side by side share the y axis (modelled TFLOP/s, else GB/s, else
time) and one data source, so hovering or tapping a point marks it in every panel. Each panel
draws its Pareto front as a step line: fewer registers / less LDS and a better metric win; on
the occupancy panel more waves per SIMD win. Hover names the point's parameters; live, a tap
opens that variant's modelled timing report under the plots (``result.report(row)``: the
variant compiled again, a cache hit, and timed). Failed points are not drawn; a line under the
plots counts them by the stage that failed. Every number is modelled, not measured.

This view takes what it shows from the result object and its methods (``pareto``, ``report``,
``params``) and never imports ``workbench.sweeps`` (widgets sit below sweeps).

Why ``html()`` carries scripts here, against ``base.py``'s rule: the issue asks that a saved
notebook keeps the hover. A saved notebook's live widget is gone where no kernel runs (nbviewer,
an HTML export), so the static ``text/html`` embeds the figure itself (``bokeh.embed
.components``) together with the BokehJS it needs, inline and gzip-compressed (~0.5 MB,
decompressed in the browser; nothing is downloaded, no CDN), loaded once per page. bokeh gives
every embed random element ids, so this HTML differs from run to run: notebook cells that
display a sweep view carry ``# NBVAL_IGNORE_OUTPUT``. ``text()`` stays deterministic.
"""
from __future__ import annotations

import base64
import gzip
import json
from collections import Counter
from functools import lru_cache
from typing import Any

from ..errors import ArgumentValueError
from ..sweep_rules import METRIC_LABELS as _METRIC_LABELS
from ..sweep_rules import fmt_metric, front
from ..sweep_rules import metric_of as metric
from ..sweep_rules import shape_label as _shape_label
from ..text_table import text_table
from .base import InteractiveView, bokeh_pane, esc, table, wrap

__all__ = ["SweepView", "sweep_view"]

# panel key -> (title, x axis label, more is better)
PANELS = {"registers": ("against VGPRs + AGPRs", "VGPRs + AGPRs per lane", False),
          "lds": ("against LDS", "LDS per workgroup (KiB)", False),
          "waves": ("against occupancy", "waves per SIMD", True)}
_FRONT_NAMES = {"registers": "registers", "lds": "LDS", "waves": "occupancy"}
TOP = 10
LEGEND = ("red step line and rings: the Pareto front (no other point has both fewer "
          "registers / less LDS / more waves per SIMD and a better metric)")
_WIDTH, _HEIGHT = 300, 300  # three panels and the toolbar fit a JupyterLab output
_POINT, _FRONT, _PICKED = "#1f77b4", "#d62728", "#ff7f0e"


def _value(v: Any) -> str:
    """A parameter value or resource count as plain text ('-' where missing)."""
    v = v.item() if hasattr(v, "item") else v
    if v is None or (isinstance(v, float) and v != v):
        return "-"
    if isinstance(v, float):
        return f"{int(v)}" if v.is_integer() else f"{v:g}"
    return str(v)


def _kib(v: Any) -> float:
    return float("nan") if v is None or v != v else float(v) / 1024.0


class SweepView(InteractiveView):
    """The working points of one (target, shape) of a sweep result, against three resources."""

    def __init__(self, result: Any, y: str | None = None, target: str | None = None,
                 shape: Any = None) -> None:
        self.result = result
        self.params = [p for p in getattr(result, "params", []) if p in result.columns]
        empty = len(result) == 0 or "target" not in result or "shape" not in result
        targets = [] if empty else list(dict.fromkeys(result["target"]))
        shapes = [] if empty else list(dict.fromkeys(result["shape"]))
        if target is not None and target not in targets:
            raise ArgumentValueError(f"sweep view target={target!r}: not in this result; "
                                     f"targets: {', '.join(map(str, targets)) or 'none'}")
        if shape is not None:
            shape = _shape_label(shape)
            if shape not in shapes:
                raise ArgumentValueError(f"sweep view shape={shape!r}: not in this result; "
                                         f"shapes: {', '.join(map(str, shapes)) or 'none'}")
        self.target = target if target is not None else (targets[0] if targets else None)
        self.shape = shape if shape is not None else (shapes[0] if shapes else None)
        self.other_targets = [t for t in targets if t != self.target] if target is None else []
        self.other_shapes = [s for s in shapes if s != self.shape] if shape is None else []
        if empty:
            sel = result.iloc[:0]
        else:
            sel = result[(result["target"] == self.target) & (result["shape"] == self.shape)]
        status = sel["status"] if "status" in sel else None
        ok = sel if status is None else sel[status == "ok"]
        self.metric, self.higher = metric(ok, y)
        if self.metric in ok and ok[self.metric].notna().any():
            self.rows = ok[ok[self.metric].notna()].sort_values(
                self.metric, ascending=not self.higher, kind="stable")
        else:
            self.rows = ok.iloc[:0]
        self.unmodelled = len(ok) - len(self.rows)
        self.total = len(sel)
        self.failed = Counter() if status is None else Counter(status[status != "ok"])
        self.labels = list(self.rows.index)
        self.fronts = self._fronts()

    # -- data ----------------------------------------------------------------------------------
    def _col(self, name: str) -> list[float]:
        if name not in self.rows:
            return [float("nan")] * len(self.rows)
        return [float("nan") if v is None or v != v else float(v) for v in self.rows[name]]

    def xs(self, panel: str) -> list[float]:
        """The x of every drawn point on ``panel`` ('registers', 'lds', 'waves')."""
        if panel == "registers":
            agprs = [0.0 if a != a else a for a in self._col("agprs")]
            return [v + a for v, a in zip(self._col("vgprs"), agprs)]
        if panel == "lds":
            return [_kib(v) for v in self._col("lds_bytes")]
        return self._col("waves_per_simd")

    def _fronts(self) -> dict[str, list]:
        """Per panel, the row labels of its Pareto front in increasing x."""
        ys = self._col(self.metric)
        out: dict[str, list] = {}
        for key in PANELS:
            xs = self.xs(key)
            pareto = getattr(self.result, "pareto", None)   # a plain DataFrame has none
            if key == "lds" and pareto is not None and len(self.rows) and \
                    "lds_bytes" in self.rows:
                picked = pareto(x="lds_bytes", y=self.metric, target=self.target,
                                shape=self.shape)
                pos = {lab: i for i, lab in enumerate(self.labels)}
                idx = [pos[lab] for lab in picked.index if lab in pos]
            else:
                idx = front(xs, ys, PANELS[key][2], self.higher)
            out[key] = [self.labels[i] for i in sorted(idx, key=lambda i: xs[i])]
        return out

    def point_params(self, label: Any) -> str:
        """'BM=128, BN=256' for the row ``label``."""
        r = self.result.loc[label]
        return ", ".join(f"{p}={_value(r[p])}" for p in self.params) or f"row {label}"

    # -- static --------------------------------------------------------------------------------
    @property
    def metric_label(self) -> str:
        return _METRIC_LABELS.get(self.metric, (self.metric,))[0]

    def heading(self) -> str:
        where = f"{self.target}, shape {self.shape or '-'}"
        n = len(self.rows)
        line = (f"sweep: {self.metric_label} of {n} working variant{'s' if n != 1 else ''} "
                f"on {where}")
        notes = []
        if self.other_targets:
            notes.append(f"other targets: {', '.join(map(str, self.other_targets))} "
                         f"(view(target=...))")
        if self.other_shapes:
            notes.append(f"other shapes: {', '.join(map(str, self.other_shapes))} "
                         f"(view(shape=...))")
        return line + (f" -- showing the first; {'; '.join(notes)}" if notes else "")

    def failures(self) -> str:
        """'2 of 16 variants failed: 1 compile error, 1 wrong result' (and unmodelled ones)."""
        n = sum(self.failed.values())
        if n:
            why = ", ".join(f"{c} {s}" for s, c in sorted(self.failed.items(),
                                                          key=lambda sc: (-sc[1], str(sc[0]))))
            line = f"{n} of {self.total} variants failed (not drawn): {why}"
        else:
            line = f"no variant failed ({self.total} on this target and shape)"
        if self.unmodelled:
            line += (f"; {self.unmodelled} working variant{'s' if self.unmodelled != 1 else ''}"
                     f" without a {self.metric_label} (not drawn)")
        return line

    def header(self) -> list[str]:
        short = _METRIC_LABELS.get(self.metric, (None, self.metric))[1]
        return ["row", *self.params, short, "VGPR+AGPR", "LDS KiB", "waves/SIMD",
                "occupancy limiter", "time limiter"]

    def table_rows(self, n: int = TOP) -> list[list[str]]:
        """The ``n`` best rows by the metric, as the text and HTML tables write them."""
        regs, lds = self.xs("registers"), self.xs("lds")
        out = []
        for i, (label, r) in enumerate(self.rows.head(n).iterrows()):
            out.append([_value(label), *(_value(r[p]) for p in self.params),
                        fmt_metric(self.metric, r[self.metric]), _value(regs[i]),
                        _value(lds[i]), _value(r.get("waves_per_simd")),
                        _value(r.get("occupancy_limiter")), _value(r.get("modelled_limiter"))])
        return out

    def text(self) -> str:
        lines = [self.heading() + " (modelled)"]
        rows = self.table_rows()
        if rows:
            best = "best first" + (f", top {TOP} of {len(self.rows)}"
                                   if len(self.rows) > TOP else "")
            lines += [f"{best}:", text_table(self.header(), rows, indent="  ")]
        else:
            lines.append(f"no working variant with a {self.metric_label} to draw")
        lines.append(self.failures())
        return "\n".join(lines)

    def html(self) -> str:
        rows = self.table_rows()
        body = [f"<div><b>{esc(self.heading())}</b> <span class=\"muted\">(modelled)</span>"
                f"</div>"]
        if rows:
            body.append(embed_html(self.figure()[0]))
            body.append(f'<div class="muted">{esc(LEGEND)}</div>')
        body.append(f"<div>{esc(self.failures())}</div>")
        if rows:
            body.append(table(self.header(), rows, hot=[0],
                              numeric=range(len(self.header()) - 2)))  # not the limiters
        else:
            body.append(f"<div class=\"muted\">no working variant with a "
                        f"{esc(self.metric_label)} to draw</div>")
        body.append('<div class="muted">hover a point for its parameters; '
                    "<code>result.report(row)</code> gives a row's timing report</div>")
        return wrap("".join(body))

    # -- the figure ----------------------------------------------------------------------------
    def data(self) -> dict[str, list]:
        """The one ColumnDataSource's columns: a row per drawn point."""
        ys = self._col(self.metric)
        on = {lab: [_FRONT_NAMES[k] for k in PANELS if lab in set(self.fronts[k])]
              for lab in self.labels}
        d: dict[str, list] = {"label": [_value(lab) for lab in self.labels], "y": ys,
                              "metric": [fmt_metric(self.metric, v) for v in ys]}
        for key in PANELS:
            d[f"x_{key}"] = self.xs(key)
        for j, p in enumerate(self.params):
            d[f"p{j}"] = [_value(v) for v in self.rows[p]]
        for name in ("vgprs", "agprs", "waves_per_simd", "occupancy_limiter",
                     "modelled_limiter"):
            d[name] = [_value(v) for v in self.rows[name]] if name in self.rows \
                else ["-"] * len(self.rows)
        d["lds_kib"] = [_value(v) for v in d["x_lds"]]
        d["front"] = [", ".join(on[lab]) or "-" for lab in self.labels]
        return d

    def tooltips(self) -> list[tuple[str, str]]:
        return ([(p, f"@{{p{j}}}") for j, p in enumerate(self.params)]
                + [(self.metric_label, "@metric"), ("VGPRs", "@vgprs"), ("AGPRs", "@agprs"),
                   ("LDS KiB", "@lds_kib"), ("waves/SIMD", "@waves_per_simd"),
                   ("occupancy limiter", "@occupancy_limiter"),
                   ("time limiter", "@modelled_limiter"), ("Pareto front", "@front"),
                   ("row", "@label")])

    def figure(self) -> tuple[Any, Any, dict[str, Any]]:
        """(bokeh grid of the three panels, their shared ColumnDataSource, figures by panel)."""
        from bokeh.layouts import gridplot
        from bokeh.models import ColumnDataSource, HoverTool, TapTool
        from bokeh.plotting import figure

        source = ColumnDataSource(self.data(), name="sweep_points")
        pos = {lab: i for i, lab in enumerate(self.labels)}
        figs: dict[str, Any] = {}
        y_range = None
        for key, (title, xlabel, x_higher) in PANELS.items():
            kw = {"y_range": y_range} if y_range is not None else {}
            fig = figure(width=_WIDTH, height=_HEIGHT, title=title, x_axis_label=xlabel,
                         y_axis_label=self.metric_label if not figs else None,
                         tools="pan,box_zoom,wheel_zoom,reset,save", **kw)
            y_range = fig.y_range
            xs = source.data[f"x_{key}"]
            ys = source.data["y"]
            idx = [pos[lab] for lab in self.fronts[key]]
            fsrc = ColumnDataSource({"x": [xs[i] for i in idx], "y": [ys[i] for i in idx],
                                     "label": [source.data["label"][i] for i in idx]},
                                    name=f"front_{key}")
            fig.step("x", "y", source=fsrc, mode="before" if x_higher else "after",
                     line_color=_FRONT, line_width=2)
            fig.scatter("x", "y", source=fsrc, size=13, fill_color=None, line_color=_FRONT,
                        line_width=1.5)
            pts = fig.scatter(f"x_{key}", "y", source=source, size=8, fill_color=_POINT,
                              line_color="white", fill_alpha=0.8, selection_fill_color=_PICKED,
                              selection_fill_alpha=1.0, nonselection_fill_alpha=0.35,
                              hover_fill_color=_PICKED, hover_line_color="black")
            fig.add_tools(HoverTool(renderers=[pts], tooltips=self.tooltips()),
                          TapTool(renderers=[pts]))
            fig.title.text_font_size = "11px"
            fig.x_range.range_padding = 0.2   # the front's rings at the edges stay whole
            figs[key] = fig
        grid = gridplot([list(figs.values())], toolbar_location="right", merge_tools=True)
        return grid, source, figs

    # -- live ----------------------------------------------------------------------------------
    def build_widget(self) -> SweepWidget:
        return SweepWidget(self)


class SweepWidget:
    """The live view: heading, the three panels, the failures line and the tapped point's
    report (an ``ipywidgets.Output``). ``source`` is the points' ColumnDataSource; a selection
    in it (a tap in the browser, synced by jupyter_bokeh) opens the first selected point."""

    def __init__(self, view: SweepView) -> None:
        import ipywidgets as W

        self.view = view
        self.layout, self.source, self.figures = view.figure()
        self.reports: dict[Any, Any] = {}
        self.output = W.Output()
        hint = f"{LEGEND}; tap a point: its modelled timing report opens below"
        self.box = W.VBox([W.HTML(f"<b>{esc(view.heading())}</b> (modelled)"),
                           bokeh_pane(self.layout),
                           W.HTML(f'<div style="opacity:0.7">{esc(hint)}</div>'
                                  f"<div>{esc(view.failures())}</div>"),
                           self.output])
        self.source.selected.on_change("indices", self._on_selection)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)

    def _on_selection(self, attr: str, old: Any, new: Any) -> None:
        if new:
            self.open(self.view.labels[int(min(new))])

    def open(self, label: Any) -> None:
        """Show the timing report of row ``label`` in the output area."""
        params = self.view.point_params(label)
        self._show(_Line(f"computing the modelled report for {params} (row {label}) ..."))
        report = self.reports.get(label)
        if report is None:
            try:
                report = self.view.result.report(label)
            except Exception as e:  # a report that fails is shown, the widget stays live
                self._show(_Line(f"no report for {params} (row {label}): "
                                 f"{type(e).__name__}: {e}"))
                return
            self.reports[label] = report
        self._show(_Line(f"{params} (row {label}):"), report)

    def _show(self, *objs: Any) -> None:
        self.output.outputs = tuple(_display_data(o) for o in objs)


class _Line:
    """One line of plain text for the output area."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _display_data(obj: Any) -> dict[str, Any]:
    """``obj`` as one display_data output: IPython's formatter where a shell runs (rich
    reprs, live widgets), else its text (and HTML) -- no shell is started for it."""
    from IPython import get_ipython

    ip = get_ipython()
    if ip is not None:
        data, md = ip.display_formatter.format(obj)
    else:
        data, md = {"text/plain": repr(obj)}, {}
        if hasattr(obj, "_repr_html_"):
            data["text/html"] = obj._repr_html_()
    return {"output_type": "display_data", "data": data, "metadata": md}


# -- the embedded figure of html() -----------------------------------------------------------
_EMBED_JS = """<script type="text/javascript">
(function () {
  var version = %(version)s, key = "__hipwb_bokehjs_" + version;
  function embed() {
%(embed)s
  }
  if (window.Bokeh !== undefined && window.Bokeh.version === version) { embed(); return; }
  if (!window[key]) {
    var bytes = Uint8Array.from(atob(%(payload)s), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    window[key] = new Response(stream).text().then(function (text) {
      JSON.parse(text).forEach(function (code) {
        var s = document.createElement("script");
        s.text = code;
        document.head.appendChild(s);
      });
    });
  }
  window[key].then(embed);
})();
</script>"""


@lru_cache(maxsize=4)
def _bokehjs_payload(chunks: tuple[str, ...]) -> str:
    """The BokehJS bundles, gzip (fixed mtime: same input, same bytes) then base64."""
    raw = json.dumps(list(chunks)).encode()
    return base64.b64encode(gzip.compress(raw, 9, mtime=0)).decode("ascii")


def embed_html(model: Any) -> str:
    """A bokeh model as a standalone HTML fragment: its div and one script carrying the
    BokehJS it needs (inline, compressed; evaluated once per page) and the embed call."""
    from bokeh import __version__
    from bokeh.embed import components
    from bokeh.embed.bundle import bundle_for_objs_and_resources
    from bokeh.resources import INLINE

    chunks = tuple(bundle_for_objs_and_resources([model], INLINE).js_raw)
    script, div = components(model, wrap_script=False)
    code = script.replace("</", "<\\/")   # no '</script>' can end the tag early
    return div + _EMBED_JS % {"version": json.dumps(__version__), "embed": code,
                              "payload": json.dumps(_bokehjs_payload(chunks))}


def sweep_view(result: Any, y: str | None = None, target: str | None = None,
               shape: Any = None) -> SweepView:
    """The view of a ``SweepResult``: the metric ``y`` (default modelled TFLOP/s, else GB/s,
    else time) against VGPRs + AGPRs, LDS and waves per SIMD for one ``target`` and ``shape``
    (default the first of each), with Pareto fronts; hover names each point's parameters."""
    return SweepView(result, y=y, target=target, shape=shape)
