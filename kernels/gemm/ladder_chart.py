"""A step-by-step line chart as self-contained SVG: notebook 03's ladder, drawn without JavaScript.

Why: a bokeh chart stores BokehJS (about 4 MB) in the notebook and shows nothing where scripts do
not run (GitHub, nbviewer); this draws the same picture with plain SVG elements, as
``workbench/widgets/roofline_svg.py`` does for the roofline: categorical x (the steps), log y
with a line per decade, a line with dots per series (a series skips the steps it lacks), open
diamonds for the published points, a ``<title>`` per point (the browser's tooltip), axis labels
and a legend. Its ``text/plain`` is the data as a table. Deterministic: no ids, no scripts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from workbench.text_table import text_table
from workbench.widgets.base import View, esc, wrap

COLORS = ("#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e")
W, H = 930, 380
LEFT, TOP, PW, PH = 70, 36, 520, 300   # the plot area
LEGEND_X = LEFT + PW + 20


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if v >= 10 else f"{v:g}"


class LadderChart(View):
    """Values per step: ``lines`` (name -> {step: value}) drawn as lines with dots, ``points``
    (name -> {step: value}) as open diamonds; ``steps`` gives the x order."""

    def __init__(self, steps: Sequence[str], lines: Mapping[str, Mapping[str, float]],
                 points: Mapping[str, Mapping[str, float]] = {}, *, title: str = "",
                 x_label: str = "", y_label: str = ""):
        self.steps = [str(s) for s in steps]
        self.lines = {k: dict(v) for k, v in lines.items()}
        self.points = {k: dict(v) for k, v in points.items()}
        self.title, self.x_label, self.y_label = title, x_label, y_label
        values = [v for series in (*self.lines.values(), *self.points.values())
                  for v in series.values() if v > 0]
        if not values:
            raise ValueError("LadderChart: no positive values to draw")
        self.lo = 10 ** math.floor(math.log10(min(values)))
        self.hi = 10 ** math.ceil(math.log10(max(values)))
        if self.hi <= self.lo:
            self.hi = self.lo * 10

    def _x(self, step: str) -> float:
        return LEFT + (self.steps.index(step) + 0.5) * PW / len(self.steps)

    def _y(self, v: float) -> float:
        span = math.log10(self.hi) - math.log10(self.lo)
        return TOP + PH * (1 - (math.log10(v) - math.log10(self.lo)) / span)

    def svg(self) -> str:
        """The chart as one ``<svg>`` element."""
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
               f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="11">',
               f'<text x="{LEFT}" y="20" font-size="13" font-weight="bold">'
               f'{esc(self.title)}</text>',
               f'<rect x="{LEFT}" y="{TOP}" width="{PW}" height="{PH}" fill="none" '
               f'stroke="#888"/>']
        decade = self.lo
        while decade <= self.hi * 1.0001:                       # a grid line per decade
            y = self._y(decade)
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + PW}" y2="{y:.1f}" '
                       f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y + 4:.1f}" '
                       f'text-anchor="end">{_fmt(decade)}</text>')
            for m in range(2, 10):                              # minor ticks
                if decade * m < self.hi:
                    ym = self._y(decade * m)
                    out.append(f'<line x1="{LEFT}" y1="{ym:.1f}" x2="{LEFT + 4}" '
                               f'y2="{ym:.1f}" stroke="#888"/>')
            decade *= 10
        for s in self.steps:
            x = self._x(s)
            out.append(f'<line x1="{x:.1f}" y1="{TOP + PH}" x2="{x:.1f}" y2="{TOP + PH + 4}" '
                       f'stroke="#888"/><text x="{x:.1f}" y="{TOP + PH + 16}" '
                       f'text-anchor="middle">{esc(s)}</text>')
        out.append(f'<text x="{LEFT + PW / 2}" y="{TOP + PH + 34}" text-anchor="middle">'
                   f'{esc(self.x_label)}</text>')
        cy = TOP + PH / 2
        out.append(f'<text x="16" y="{cy}" text-anchor="middle" '
                   f'transform="rotate(-90 16 {cy})">{esc(self.y_label)}</text>')
        legend = []
        for i, (name, series) in enumerate(self.lines.items()):
            color = COLORS[i % len(COLORS)]
            pts = [(self._x(s), self._y(series[s]), s) for s in self.steps if s in series]
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                       f'stroke-width="1.8"/>')
            for x, y, s in pts:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}">'
                           f'<title>step {esc(s)}, {esc(name)}: {series[s]:.1f}</title>'
                           '</circle>')
            legend.append((name, f'<line x1="0" y1="0" x2="18" y2="0" stroke="{color}" '
                                 f'stroke-width="1.8"/><circle cx="9" cy="0" r="3.5" '
                                 f'fill="{color}"/>'))
        for name, series in self.points.items():
            for s in self.steps:
                if s in series:
                    x, y = self._x(s), self._y(series[s])
                    out.append(f'<path d="{_diamond(x, y)}" fill="black" fill-opacity="0.2" '
                               f'stroke="black"><title>step {esc(s)}, {esc(name)}: '
                               f'{series[s]:g}</title></path>')
            legend.append((name, f'<path d="{_diamond(9, 0)}" fill="black" '
                                 'fill-opacity="0.2" stroke="black"/>'))
        for i, (name, mark) in enumerate(legend):
            y = TOP + 10 + 22 * i
            out.append(f'<g transform="translate({LEGEND_X},{y})">{mark}</g>'
                       f'<text x="{LEGEND_X + 26}" y="{y + 4}">{esc(name)}</text>')
        out.append("</svg>")
        return "".join(out)

    def html(self) -> str:
        return wrap(self.svg())

    def text(self) -> str:
        names = [*self.lines, *self.points]
        cells = [(v, "{:.1f}") for v in self.lines.values()]     # modelled: one decimal
        cells += [(v, "{:g}") for v in self.points.values()]      # published: as published
        rows = [[s] + [f.format(v[s]) if s in v else "" for v, f in cells] for s in self.steps]
        return f"{self.title}\n" + text_table(["step", *names], rows)


def _diamond(x: float, y: float, r: float = 6.0) -> str:
    return f"M{x:.1f},{y - r:.1f} L{x + r:.1f},{y:.1f} L{x:.1f},{y + r:.1f} L{x - r:.1f},{y:.1f} Z"
