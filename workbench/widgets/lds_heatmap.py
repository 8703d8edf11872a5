"""LDS bank heatmap: banks x phases (or lanes) of a DS instruction, coloured by bank load.

``wb.lds_heatmap(trace)`` draws the most conflicted DS instruction of an emulated launch and lets
you pick any other from the ranked table; ``wb.lds_heatmap(before, after)`` puts two kernels or
two layouts side by side (before/after padding or a swizzle). Subjects: an emulator Trace, a
``trace_conflicts`` result, an ``Access``/``AccessGroup`` from the pattern API. Every number comes
from ``workbench.lds``; this module only draws (static HTML table + text, a bokeh figure per
panel with a dropdown when live).

Every picture carries a legend saying what colour and number mean: the n-way of a bank (distinct
dwords one phase puts on it; each bank serves one dword per cycle: rocprofiler-compute's LDS
pipeline description; lanes 0-31 and 32-63 checked separately: AMD APP OpenCL Programming Guide
§6.2), or the bank hits summed over executions. Pictures drawn together share one colour scale
and one legend, so a fix that removes conflicts reads as lighter, not as a differently scaled
picture.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..argument_types import checked
from ..errors import ArgumentTypeError, ArgumentValueError
from .base import InteractiveView, bokeh_pane, esc, table, wrap
from .lds_panels import Grid, Panel, check_mode_view, grid_text, ink, legend_text, panel

__all__ = ["LdsHeatmap", "grid_html", "grid_text", "legend_html", "lds_heatmap"]

# Heatmap cells (scoped to the table class so it cannot restyle anything else).
GRID_STYLE = ("<style>table.ldshm th, table.ldshm td { padding: 0 3px; white-space: nowrap; "
              "border-bottom: none; font-size: 11px; } table.ldshm .c { width: 15px; "
              "min-width: 15px; height: 16px; padding: 0; text-align: center; font-size: 9px; "
              "letter-spacing: -0.5px; border: 1px solid #fff; } "
              ".ldskey span { display: inline-block; padding: 0 6px; margin: 1px 1px 1px 0; "
              "font-size: 11px; }</style>")

SCALES = ("shared", "own")


def legend_html(g: Grid) -> str:
    """The colour key of ``g``'s scale: what colour and number mean, then the swatches."""
    swatches = "".join(f'<span style="background:{c};color:{ink(c)}">{esc(t)}</span>'
                       for c, t in g.legend())
    return (f'<div class="ldskey"><div><b>legend</b>: {esc(g.meaning())}</div>'
            f"<div>{swatches}</div></div>")


def grid_html(g: Grid, legend: bool = True) -> str:
    """The heatmap as an HTML table (the static fallback): each cell's number and colour say
    its n-way (or, for bank hits, its hits), its tooltip says so in words; the row's degree
    stands at its left ("32-way"); ``legend`` adds the colour key below."""
    head = "".join(f'<th class="c">{b}</th>' for b in range(g.banks))
    degree = g.palette == "degree"
    rows = []
    for r, (label, info, loads, counts) in enumerate(zip(g.row_labels, g.row_info, g.load,
                                                        g.counts)):
        bg = [g.colour(v) for v in loads]
        tds = "".join(f'<td class="c" title="{esc(g.tip(r, b))}" style="background:{c};'
                      f'color:{ink(c)}">{int(n) if n else ""}</td>'
                      for b, (c, n) in enumerate(zip(bg, counts)))
        shown = f"{info}-way" if degree and info.isdigit() and info != "0" else info
        rows.append(f'<tr><th>{esc(label)}</th><td class="num">{esc(shown)}</td>{tds}</tr>')
    key = legend_html(g) if legend else ""
    info_name = "worst" if degree and g.info_name == "deg" else g.info_name
    return (f"<div><b>{esc(g.title)}</b></div>"
            f'{GRID_STYLE}<table class="ldshm"><tr><th>'
            f"{'lane' if g.row_labels[0].startswith('lane') else 'phase: lanes'}</th>"
            f"<th>{esc(info_name)}</th>{head}</tr>{''.join(rows)}</table>"
            f'<div class="muted">{esc(g.caption)}</div>{key}')


def _per_panel(value: Any, n: int, name: str) -> list[Any]:
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise ArgumentValueError(f"{name}={value!r}: give one value per subject ({n})")
        return list(value)
    return [value] * n


class LdsHeatmap(InteractiveView):
    """Heatmaps of one or more panels (traces, analyses, accesses), side by side."""

    def __init__(self, panels: list[Panel], selected: list[int], mode: str = "worst",
                 view: str = "phases", scale: str = "shared") -> None:
        check_mode_view(mode, view)
        if scale not in SCALES:
            raise ArgumentValueError(f"scale must be 'shared' (one colour scale for every "
                                     f"panel) or 'own' (each its own), got {scale!r}")
        self.panels = panels
        self.selected = selected
        self.mode = mode
        self.view = view
        self.scale = scale

    def grids(self, mode: str | None = None, view: str | None = None,
              selected: Sequence[int] | None = None) -> list[Grid]:
        """The grid each panel draws for its selected instruction (``selected``: other item
        indices, one per panel). With ``scale="shared"`` the bank-hits pictures ("total") share
        one colour scale, up to the busiest cell of any panel; n-way colours are one absolute
        scale anyway."""
        mode, view = mode or self.mode, view or self.view
        items = [p.items[s] for p, s in zip(self.panels, selected or self.selected)]
        top = None
        if mode == "total" and view == "phases" and self.scale == "shared":
            tops = [int(it.hits().max(initial=0)) for it in items
                    if it.hits is not None and it.executions]
            top = max(tops) if tops else None
        return [it.grid(mode, view, top) for it in items]

    def comparison(self) -> str:
        """'before -> after: conflict cycles 3968 -> 0 (kernel), 60 -> 0 (drawn instruction)'."""
        if len(self.panels) < 2:
            return ""
        tot = " -> ".join(str(p.conflict_cycles) for p in self.panels)
        sel = " -> ".join(str(p.items[s].conflict_cycles)
                          for p, s in zip(self.panels, self.selected))
        return f"conflict cycles {tot} (all instructions), {sel} (drawn instruction)"

    # -- static --------------------------------------------------------------------------
    def _panel_text(self, p: Panel, sel: int, grid: Grid) -> str:
        parts = [f"== {p.title} =="]
        if p.ranked is not None:
            parts.append(p.ranked.text())
        elif p.group is not None:
            parts.append(p.group.summary().split("\n", 1)[0])
            parts.append(p.items[sel].access().table.provenance())
        else:
            parts.append(p.items[0].summary())
        parts.append(grid_text(grid))
        return "\n".join(parts)

    def text(self) -> str:
        grids = self.grids()
        out = [self._panel_text(p, s, g) for p, s, g in zip(self.panels, self.selected, grids)]
        if cmp := self.comparison():
            out.append(cmp)
        out.append("legend: " + legend_text(grids[0]))
        return "\n".join(out)

    def _ranked_html(self, p: Panel) -> str:
        if p.ranked is None:
            rows = [(it.label, it.conflict_cycles) for it in p.items]
            hot = [i for i, it in enumerate(p.items) if it.conflict_cycles]
            return table(["access", "conflict cycles"], rows, hot=hot, numeric=[1])
        r = p.ranked
        hot = [i for i, ins in enumerate(r) if ins.conflict_cycles]
        notes = "".join(f"<li>{esc(n)}</li>" for n in r.notes())
        return (f"<div>{esc(r.headline())}</div>"
                + table(list(r.HEADER), r.rows(), hot=hot, numeric=[0, 4, 5, 6])
                + f'<ul class="muted">{notes}</ul>')

    def html(self) -> str:
        cards = []
        grids = self.grids()
        for p, g in zip(self.panels, grids):
            cards.append(f'<div class="card" style="max-width:700px"><h4>{esc(p.title)}</h4>'
                         f"{grid_html(g, legend=False)}{self._ranked_html(p)}</div>")
        cmp = f"<div><b>{esc(self.comparison())}</b></div>" if len(self.panels) > 1 else ""
        one = " (one colour scale for every picture)" if len(self.panels) > 1 else ""
        key = legend_html(grids[0]).replace("<b>legend</b>", f"<b>legend{one}</b>", 1)
        return wrap(f'{cmp}{key}<div class="row">{"".join(cards)}</div>')

    # -- live ------------------------------------------------------------------------------
    @staticmethod
    def _data(g: Grid) -> dict[str, list]:
        rows, banks = g.load.shape
        d: dict[str, list] = {"bank": [], "row": [], "label": [], "count": [], "load": [],
                              "colour": [], "text": [], "ink": [], "tip": []}
        for r in range(rows):
            for b in range(banks):
                c = int(g.counts[r, b])
                bg = g.colour(float(g.load[r, b]))
                d["bank"].append(b)
                d["row"].append(r)
                d["label"].append(g.row_labels[r])
                d["count"].append(c)
                d["load"].append(round(float(g.load[r, b]), 3))
                d["colour"].append(bg)
                d["text"].append(str(c) if c else "")
                d["ink"].append(ink(bg))
                d["tip"].append(g.tip(r, b))
        return d

    def build_widget(self) -> Any:
        import ipywidgets as W
        from bokeh.models import ColumnDataSource, FixedTicker, Range1d
        from bokeh.plotting import figure

        mode = W.ToggleButtons(options=[("worst execution", "worst"), ("all executions", "all"),
                                        ("bank traffic", "total")], value=self.mode,
                               tooltips=["the most conflicted execution of the instruction",
                                         "per bank, the highest n-way of any execution",
                                         "dwords each bank served, summed over executions"])
        view = W.ToggleButtons(options=[("phases x banks", "phases"), ("lanes x banks", "lanes")],
                               value=self.view)
        columns, state = [], []
        grids = self.grids()
        for k, p in enumerate(self.panels):
            dd = W.Dropdown(options=[(f"{it.label}: {it.conflict_cycles} conflict cycles", i)
                                     for i, it in enumerate(p.items)],
                            value=self.selected[k], description="instruction",
                            layout=W.Layout(width="460px"))
            it, g = p.items[self.selected[k]], grids[k]
            src = ColumnDataSource(self._data(g))
            fig = figure(width=_WIDTH, height=_height(g), x_range=(-0.5, g.banks - 0.5),
                         y_range=Range1d(0, 1), toolbar_location=None, tools="hover",
                         x_axis_label="bank",
                         tooltips=[("cell", "@tip"), ("dwords", "@count")])
            fig.rect(x="bank", y="row", width=0.95, height=0.95, source=src,
                     fill_color="colour", line_color=None)
            numbers = fig.text(x="bank", y="row", text="text", text_color="ink", source=src,
                               text_align="center", text_baseline="middle",
                               text_font_size="9px")
            fig.yaxis.ticker = FixedTicker(ticks=[])
            fig.yaxis.major_label_text_font_size = "9px"
            fig.title.text_font_size = "11px"
            fig.grid.visible = False
            _frame(fig, numbers, g)  # the figure holds its data before bokeh_pane wraps it
            info = W.HTML(_summary_html(it.summary()))
            state.append((p, dd, src, fig, numbers, info))
            # fixed-width columns: a long title must not squeeze the figure next to it
            columns.append(W.VBox([W.HTML(f"<b>{esc(p.title)}</b>"), dd, bokeh_pane(fig), info],
                                  layout=W.Layout(width=f"{_WIDTH + 24}px", flex="0 0 auto")))

        key = W.HTML(legend_html(grids[0]))

        def update(_change: Any = None) -> None:
            grids = self.grids(mode.value, view.value, [s[1].value for s in state])
            for (p, dd, src, fig, numbers, info), g in zip(state, grids):
                src.data = self._data(g)
                _frame(fig, numbers, g)
                info.value = _summary_html(p.items[dd.value].summary())
            key.value = legend_html(grids[0])

        for w in [mode, view] + [s[1] for s in state]:
            w.observe(update, names="value")
        box = W.VBox([W.HBox([mode, view]),
                      W.HBox(columns, layout=W.Layout(flex_flow="row wrap")), key])
        box.update = update  # lets tests and callers force a refresh
        box.controls = {"mode": mode, "view": view, "dropdowns": [s[1] for s in state],
                        "sources": [s[2] for s in state], "figures": [s[3] for s in state],
                        "numbers": [s[4] for s in state], "info": [s[5] for s in state],
                        "legend": key}
        return box


_WIDTH = 460  # px per heatmap: two fit side by side in a JupyterLab notebook
_TITLE_CHARS = 72  # about what fits in _WIDTH at the title's 11px


def _height(g: Grid) -> int:
    return 70 + (22 if len(g.row_labels) <= 16 else 9) * len(g.row_labels)


def _frame(fig: Any, numbers: Any, g: Grid) -> None:
    """Fit a live heatmap figure to grid ``g``: rows, row labels, height, title, cell numbers."""
    n = len(g.row_labels)
    fig.y_range.start, fig.y_range.end = n - 0.5, -0.5
    every = 1 if n <= 32 else 4  # 64 lane rows of 9 px: label every 4th (hover names each)
    fig.yaxis.ticker.ticks = list(range(0, n, every))
    fig.yaxis.major_label_overrides = dict(enumerate(g.row_labels))
    fig.height = _height(g)
    title = g.title
    fig.title.text = title if len(title) <= _TITLE_CHARS else title[:_TITLE_CHARS - 3] + "..."
    # numbers fit in 22 px rows and ~13 px columns while they have at most two digits
    numbers.visible = n <= 16 and int(g.counts.max(initial=0)) < 100


def _summary_html(text: str) -> str:
    """An instruction's summary, wrapped at spaces to the heatmap's width."""
    return (f'<pre style="white-space: pre-wrap; word-break: normal; overflow-wrap: anywhere; '
            f'max-width: {_WIDTH}px; margin: 2px 0; font-size: 11px; line-height: 1.3">'
            f"{esc(text)}</pre>")


@checked
def lds_heatmap(*subjects: Any, labels: Sequence[str] | None = None,
                rank: int | Sequence[int | None] | None = None,
                line: int | Sequence[int | None] | None = None, mode: str = "worst",
                view: str = "phases", arch: str | None = None,
                source: Any = None, scale: str = "shared") -> LdsHeatmap:
    """Bank heatmap of a trace / analysis / Access / AccessGroup, or of several side by side.

    ``rank`` (0 = most conflicted) or ``line`` (source line) pick the instruction drawn per
    subject (one value, or one per subject). By default the first subject draws its most
    conflicted instruction and the others the instruction with the same mnemonic, so
    ``lds_heatmap(before, after)`` compares like with like, side by side under one legend.
    ``mode``: "worst" (the most conflicted execution), "all" (per bank, the highest n-way over
    all executions) or "total" (bank hits summed over executions: traffic); ``view``:
    "phases" or "lanes". ``scale``: "shared" (default: every panel on one colour scale, so a
    fix reads as lighter) or "own" (bank hits relative to each panel's busiest cell; n-way
    colours are absolute either way). ``arch``/``source`` go to ``trace_conflicts`` for
    Trace subjects.
    """
    if not subjects:
        raise ArgumentTypeError(
            "lds_heatmap needs at least one Trace, trace_conflicts() result, Access "
            "or AccessGroup")
    n = len(subjects)
    if labels is None:
        labels = ("before", "after") if n == 2 else [""] * n
    if len(labels) != n:
        raise ArgumentValueError(f"labels={labels!r}: give one label per subject ({n})")
    sources = _per_panel(source, n, "source")
    panels = [panel(s, title=t, arch=arch, source=src)
              for s, t, src in zip(subjects, labels, sources)]
    ranks, lines = _per_panel(rank, n, "rank"), _per_panel(line, n, "line")
    selected = [panels[0].find(rank=ranks[0], line=lines[0])]
    first = panels[0].items[selected[0]].mnemonic
    for p, r, ln in zip(panels[1:], ranks[1:], lines[1:]):
        selected.append(p.find(rank=r, line=ln, mnemonic=None if (r, ln) != (None, None)
                               else first))
    return LdsHeatmap(panels, selected, mode, view, scale)

