"""The roofline chart of ``TimingReport.roofline()`` / ``wb.roofline(...)``: bokeh, log-log.

Live (Jupyter): a bokeh figure in a widget (zoom, pan, hover with each point's numbers: its
intensity, TFLOP/s, GB/s at the level, % of the level's ceiling and of the roof), the ceilings
as lines -- a horizontal line per compute ceiling, ``bandwidth x intensity`` per memory ceiling
up to the top compute roof, dashed with "ASSUMPTION" in the legend where a parameter is unsourced
-- and the points: a marker per memory level, a colour per report. Static HTML (a saved
notebook, nbviewer): our own SVG drawing (``roofline_svg``) and the tables, with no script, so
it is deterministic. Text: the roofline's own table. Every number is modelled.
"""
from __future__ import annotations

from typing import Any

from ..timing.roofline import ACHIEVABLE_OF
from . import roofline_svg as S
from .base import InteractiveView, bokeh_pane, details, esc, table, wrap


class RooflineView(InteractiveView):
    """The chart of one ``workbench.timing.roofline.Roofline``."""

    def __init__(self, roofline: Any, height: int = 440) -> None:
        self.rf = roofline
        self.height = int(height)

    # -- static ----------------------------------------------------------------------------
    def text(self) -> str:
        return self.rf.text()

    def svg(self) -> str:
        return S.svg(self.rf)

    def tables_html(self) -> str:
        rf = self.rf
        rows = rf.ceiling_rows()
        hot = [i for i, c in enumerate(rf.ceilings) if c.assumed]
        body = [details("ceilings and their sources", table(rf.CEILING_HEADER, rows, hot=hot))]
        if rf.points:
            body.append(table(rf.POINT_HEADER, rf.point_rows(), numeric=range(2, 6)))
        body += [f'<div class="muted">note: {esc(n)}</div>' for n in rf.notes]
        return "".join(body)

    def heading(self) -> str:
        return (f"<div><b>{esc(self.rf.title)}</b></div>"
                f'<div class="muted">{esc(self.rf.clock_line)}</div>')

    def html(self) -> str:
        """Heading, our own SVG chart and the tables: no script and no random id, so a saved
        notebook or nbviewer shows it as it is and nbval can compare it."""
        return wrap(self.heading() + f"<div>{self.svg()}</div>" + self.tables_html())

    # -- live ------------------------------------------------------------------------------
    def figure(self) -> Any:
        """The bokeh figure: log-log, y in TFLOP/s."""
        from bokeh.models import ColumnDataSource, HoverTool, Legend, LegendItem
        from bokeh.plotting import figure

        rf = self.rf
        xlo, xhi, ylo, yhi = S.ranges(rf)
        fig = figure(x_axis_type="log", y_axis_type="log", x_range=(xlo, xhi),
                     y_range=(ylo / 1e12, yhi / 1e12), height=self.height,
                     sizing_mode="stretch_width", tools="pan,wheel_zoom,box_zoom,reset,save",
                     title=f"roofline on {rf.chip.name} (modelled); compute, LDS and L2 "
                           f"ceilings at {rf.clock_ghz:.2f} GHz, the modelled clock",
                     x_axis_label="arithmetic intensity (FLOP per byte moved at the level)",
                     y_axis_label="TFLOP/s (modelled)")
        fig.title.text_font_size = "11px"
        items = []
        for c, (x0, y0, x1, y1) in S.ceiling_segments(rf):
            if x1 <= x0:
                continue
            line = fig.line([x0, x1], [y0 / 1e12, y1 / 1e12], line_width=2,
                            line_color=S.ceiling_color(c.name, rf),
                            line_dash="dashed" if c.assumed else "solid")
            items.append(LegendItem(label=c.label, renderers=[line]))
        points = []
        for i, lab in enumerate(rf.labels):
            mine = []
            for level in dict.fromkeys(p.level for p in rf.points if p.report == i):
                src = ColumnDataSource(self._columns(i, level))
                mine.append(fig.scatter("x", "y", source=src, marker=S.marker(level), size=12,
                                        fill_color=S.report_color(i), line_color="#222"))
            if mine:
                items.append(LegendItem(label=lab, renderers=mine))
                points += mine
        for level in dict.fromkeys(p.level for p in rf.points):  # marker key, no data
            ghost = fig.scatter([float("nan")], [float("nan")], marker=S.marker(level), size=10,
                                fill_color="#bbbbbb", line_color="#222")
            items.append(LegendItem(label=f"{level} point", renderers=[ghost]))
        if points:
            fig.add_tools(HoverTool(renderers=points, tooltips=[
                ("report", "@report"), ("level", "@level (modelled)"),
                ("intensity", "@intensity FLOP/B"), ("attained", "@tflops TFLOP/s"),
                ("bandwidth", "@gbs GB/s at @level"), ("of the level's ceiling", "@pct"),
                ("of the roof", "@roof"), ("bytes", "@bytes")]))
        legend = Legend(items=items, click_policy="hide", label_text_font_size="9pt")
        fig.add_layout(legend, "right")
        return fig

    def _columns(self, report: int, level: str) -> dict[str, list]:
        pts = [p for p in self.rf.points if p.report == report and p.level == level]
        pct = []
        for p in pts:
            text = "-" if p.percent is None else f"{p.percent:.1f}% of {p.ceiling}"
            if p.percent_achievable is not None:
                text += f", {p.percent_achievable:.1f}% of {ACHIEVABLE_OF[p.level]}"
            pct.append(text)
        return {"x": [p.intensity for p in pts], "y": [p.attained / 1e12 for p in pts],
                "report": [p.label for p in pts], "level": [p.level for p in pts],
                "intensity": [f"{p.intensity:,.3g}" for p in pts],
                "tflops": [f"{p.attained / 1e12:,.2f}" for p in pts],
                "gbs": [f"{p.achieved / 1e9:,.0f}" for p in pts], "pct": pct,
                "roof": [f"{p.percent_of_roof:.1f}% ({p.bound})" for p in pts],
                "bytes": [f"{p.bytes:,.0f}" for p in pts]}

    def build_widget(self) -> Any:
        import ipywidgets as W

        return W.VBox([W.HTML(wrap(self.heading())), bokeh_pane(self.figure()),
                       W.HTML(wrap(self.tables_html()))])


def roofline_view(roofline: Any, **kwargs: Any) -> RooflineView:
    """The view of a ``Roofline`` (``report.roofline()``, ``wb.roofline(...)``)."""
    return RooflineView(roofline, **kwargs)
