"""Register pressure chart of a ``workbench.pressure.Pressure``: live registers per instruction.

Why: the peak and the occupancy steps around it tell whether a kernel could fit one more wave
per SIMD, and where in the source the registers are tight. Live: a bokeh figure (live
VGPR+AGPR, AGPR and SGPR per instruction as step lines, the occupancy thresholds as dashed
lines labelled "N waves/SIMD", the compiler's allocation, the peak marked; hover shows each
instruction, its source line and its counts). Static (nbviewer, nbval, terminals): the model's
text table, and in HTML a small SVG of the same lines written here (no bokeh, no script, the
same bytes on every run).
"""
from __future__ import annotations

from typing import Any

from .base import InteractiveView, bokeh_pane, esc, table, wrap

__all__ = ["PressureView", "pressure_view"]

_TOTAL, _AGPR, _SGPR, _ALLOC, _LIMIT, _PEAK = ("#1f77b4", "#9467bd", "#2ca02c", "#d62728",
                                               "#7f7f7f", "#ff7f0e")


class PressureView(InteractiveView):
    """The chart of one kernel's register pressure."""

    def __init__(self, pressure: Any, width: int = 720, height: int = 240) -> None:
        self.p = pressure
        self.width, self.height = int(width), int(height)

    # -- what is drawn ---------------------------------------------------------------------------
    def top(self) -> int:
        """The y range's top: the first threshold above the peak and the allocation."""
        p = self.p
        high = max(max(p.total, default=0), p.allocated["vgpr+agpr"], max(p.sgpr, default=0), 1)
        return next((t.registers for t in p.thresholds if t.registers >= high), high)

    def thresholds(self) -> list[Any]:
        """The occupancy thresholds inside the y range (the last waves step excluded)."""
        top = self.top()
        return [t for t in self.p.thresholds[:-1] if t.registers <= top]

    def heading(self) -> str:
        p = self.p
        return (f"register pressure of {p.symbol} on {p.arch}: peak {p.peak['vgpr+agpr'].count} "
                f"live VGPR+AGPR, allocated {p.allocated['vgpr+agpr']}, "
                f"{p.waves(p.allocated['vgpr+agpr'])} waves/SIMD")

    def text(self) -> str:
        return self.p.text()

    # -- static ----------------------------------------------------------------------------------
    def _series(self, values: tuple[int, ...], cols: int) -> list[tuple[int, int]]:
        """(column, value) points of a step line; more instructions than columns keep each
        column's maximum, so the peak stays visible."""
        n = len(values)
        if n <= cols:
            return [(i, v) for i, v in enumerate(values)]
        return [(c, max(values[c * n // cols:max((c + 1) * n // cols, c * n // cols + 1)]))
                for c in range(cols)]

    def svg(self) -> str:
        """The chart as a small inline SVG (deterministic)."""
        p, w, h = self.p, self.width, self.height
        left, right, top_pad, bottom = 40, 120, 10, 22
        pw, ph = w - left - right, h - top_pad - bottom
        n = max(len(p.total), 1)
        cols = min(n, pw)
        ymax = self.top() * 1.05
        x = lambda c: left + pw * c / cols  # noqa: E731
        y = lambda v: top_pad + ph * (1 - v / ymax)  # noqa: E731
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
               f'font-family="sans-serif" font-size="10" role="img">',
               f"<title>{esc(self.heading())}</title>",
               f'<line x1="{left}" y1="{y(0):.1f}" x2="{left + pw}" y2="{y(0):.1f}" '
               f'stroke="#999"/>',
               f'<text x="{left - 4}" y="{y(0):.1f}" text-anchor="end">0</text>',
               f'<text x="{left}" y="{h - 6}">instruction 0</text>',
               f'<text x="{left + pw}" y="{h - 6}" text-anchor="end">{n - 1}</text>']
        lines = [(t.registers, f"{t.waves} waves/SIMD (≤ {t.registers})", _LIMIT, "4 3")
                 for t in self.thresholds()]
        alloc = p.allocated["vgpr+agpr"]
        lines.append((alloc, f"allocated {alloc}", _ALLOC, "6 2"))
        label_y = -1e9
        for v, label, color, dash in sorted(lines, key=lambda t: -t[0]):
            label_y = max(y(v) + 3, label_y + 11)  # labels top to bottom, never overlapping
            out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                       f'stroke="{color}" stroke-dasharray="{dash}"><title>{esc(label)}'
                       f"</title></line>")
            if label_y < h - bottom + 6:
                out.append(f'<text x="{left + pw + 4}" y="{label_y:.1f}" fill="{color}">'
                           f"{esc(label)}</text>")
        series = [("VGPR+AGPR", p.total, _TOTAL, 1.5), ("SGPR", p.sgpr, _SGPR, 1)]
        if any(p.agpr):
            series.insert(1, ("AGPR", p.agpr, _AGPR, 1))
        for k, (name, values, color, width) in enumerate(series):
            pts = self._series(values, cols)
            path = [f"M{x(pts[0][0]):.1f},{y(pts[0][1]):.1f}"] if pts else []
            for c, v in pts[1:]:
                path.append(f"H{x(c):.1f}V{y(v):.1f}")
            if pts:
                path.append(f"H{x(cols):.1f}")
            out.append(f'<path d="{"".join(path)}" fill="none" stroke="{color}" '
                       f'stroke-width="{width}"><title>{name}</title></path>'
                       f'<text x="{left + 120 + 70 * k}" y="{h - 6}" fill="{color}">'
                       f"{name}</text>")
        pk = p.peak["vgpr+agpr"]
        if pk.at:
            c = pk.at[0] * cols // n
            out.append(f'<circle cx="{x(c):.1f}" cy="{y(pk.count):.1f}" r="4" fill="{_PEAK}">'
                       f"<title>peak {pk.count} at #{pk.at[0]} {esc(pk.instruction)} "
                       f"{esc(pk.location)}</title></circle>")
        out.append("</svg>")
        return "".join(out)

    def html(self) -> str:
        p = self.p
        rows = [(k.upper(), p.peak[k].count, p.allocated[k],
                 f"#{p.peak[k].at[0]} {p.peak[k].instruction}" if p.peak[k].at else "-",
                 p.peak[k].location or "-") for k in ("vgpr+agpr", "vgpr", "agpr", "sgpr")
                if k != "agpr" or p.allocated["agpr"] or p.peak["agpr"].count]
        limits = ", ".join(f"≤ {t.registers}: {t.waves}" for t in p.thresholds)
        return wrap(f"<div><b>{esc(self.heading())}</b></div>{self.svg()}"
                    + table(("class", "peak live", "allocated", "peak at", "source"), rows,
                            hot=[0], numeric=(1, 2))
                    + f'<div class="muted">VGPR file needs {p.needed}; waves/SIMD by VGPRs '
                      f"per lane: {esc(limits)}</div>")

    # -- live ------------------------------------------------------------------------------------
    def figure(self) -> Any:
        """The bokeh figure (x = instruction index, y = live registers)."""
        from bokeh.models import ColumnDataSource, HoverTool, Label, Span
        from bokeh.plotting import figure

        p = self.p
        src = ColumnDataSource({
            "i": list(range(len(p.total))), "total": list(p.total), "vgpr": list(p.vgpr),
            "agpr": list(p.agpr), "sgpr": list(p.sgpr),
            "inst": [ins.text for ins in p.instructions],
            "line": [ins.location() or "-" for ins in p.instructions]})
        fig = figure(height=320, sizing_mode="stretch_width", y_range=(0, self.top() * 1.05),
                     tools="xpan,xwheel_zoom,box_zoom,reset,save", active_scroll="xwheel_zoom",
                     title=self.heading(), x_axis_label="instruction",
                     y_axis_label="live registers per lane")
        main = fig.step("i", "total", source=src, mode="after", color=_TOTAL, line_width=2,
                        legend_label="VGPR+AGPR")
        if any(p.agpr):
            fig.step("i", "agpr", source=src, mode="after", color=_AGPR, legend_label="AGPR")
        fig.step("i", "sgpr", source=src, mode="after", color=_SGPR, legend_label="SGPR")
        last = float("inf")
        for t in sorted(self.thresholds(), key=lambda t: -t.registers):
            fig.add_layout(Span(location=t.registers, dimension="width", line_color=_LIMIT,
                                line_dash="dashed"))
            if last - t.registers < self.top() * 0.09:  # too close to the label above
                continue
            last = t.registers
            fig.add_layout(Label(x=4, x_units="screen", y=t.registers, y_offset=2,
                                 text=f"{t.waves} waves/SIMD", text_font_size="9pt",
                                 text_color=_LIMIT))
        alloc = p.allocated["vgpr+agpr"]
        fig.add_layout(Span(location=alloc, dimension="width", line_color=_ALLOC,
                            line_dash="dotdash", line_width=2))
        fig.add_layout(Label(x=4, x_units="screen", y=alloc, y_offset=-14,
                             text=f"allocated {alloc}", text_font_size="9pt",
                             text_color=_ALLOC))
        pk = p.peak["vgpr+agpr"]
        if pk.at:
            fig.scatter(list(pk.at), [pk.count] * len(pk.at), size=9, color=_PEAK,
                        legend_label=f"peak {pk.count}")
        fig.add_tools(HoverTool(renderers=[main], mode="vline", tooltips=[
            ("#", "@i"), ("instruction", "@inst"), ("source", "@line"),
            ("VGPR+AGPR", "@total"), ("VGPR", "@vgpr"), ("AGPR", "@agpr"),
            ("SGPR", "@sgpr")]))
        fig.legend.location = "top_right"
        fig.legend.click_policy = "hide"
        return fig

    def build_widget(self) -> Any:
        import ipywidgets as W

        return W.VBox([W.HTML(f"<pre>{esc(self.p.text())}</pre>"),
                       bokeh_pane(self.figure())])


def pressure_view(pressure: Any, **kwargs: Any) -> PressureView:
    """The view of a ``workbench.pressure.Pressure``."""
    return PressureView(pressure, **kwargs)
