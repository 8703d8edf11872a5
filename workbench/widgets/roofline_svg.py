"""A roofline as a self-contained SVG: the chart where no JavaScript runs (GitHub, nbconvert).

Why our own SVG: the bokeh chart needs BokehJS; a saved notebook read where scripts do not run
would otherwise show nothing. This draws the same picture with plain SVG elements: log-log
axes with a tick per decade, each ceiling (a horizontal line per compute ceiling, a diagonal
``bandwidth x intensity`` per memory ceiling up to the top compute roof; dashed when a
parameter of it is an ASSUMPTION), each report's points (a marker per memory level, a colour per
report; a ``<title>`` per point is the browser's tooltip) and a legend. Deterministic (no ids).
It also holds the chart's shared choices (colours, markers, axis ranges) the bokeh view uses.
"""
from __future__ import annotations

import math
from typing import Any

from ..timing.roofline import intensity_range
from .base import esc

#: colour per report (the points), marker per memory level
REPORT_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                 "#bcbd22", "#17becf", "#7f7f7f")
MARKERS = {"LDS": "square", "L2": "triangle", "Infinity Cache": "diamond", "HBM": "circle"}
_CEILING_COLORS = {"VALU fp32": "#8b4513", "LDS": "#006400", "L2": "#4169e1",
                   "Infinity Cache": "#008b8b", "HBM peak": "#555555", "HBM achievable": "#000000",
                   "L2 achievable": "#7a4fa0"}
_MFMA_COLORS = ("#b22222", "#c71585", "#b8860b", "#800080")

W, H = 900, 440
LEFT, TOP, PW, PH = 70, 36, 460, 350  # plot area
LEGEND_X = LEFT + PW + 24


def report_color(i: int) -> str:
    return REPORT_COLORS[i % len(REPORT_COLORS)]


def ceiling_color(name: str, rf: Any) -> str:
    if name in _CEILING_COLORS:
        return _CEILING_COLORS[name]
    mfma = [c.name for c in rf.ceilings if c.name.startswith("MFMA")]
    return _MFMA_COLORS[mfma.index(name) % len(_MFMA_COLORS)] if name in mfma else "#444444"


def marker(level: str) -> str:
    return MARKERS.get(level, "circle")


def ranges(rf: Any) -> tuple[float, float, float, float]:
    """(x lo, x hi) in FLOP/B and (y lo, y hi) in FLOP/s, whole decades."""
    xlo, xhi = intensity_range(rf)
    top = max(c.value for c in rf.ceilings if c.kind == "compute")
    low_bw = min(c.value for c in rf.ceilings if c.kind == "memory")
    ylo = min([low_bw * xlo] + [p.attained for p in rf.points])
    return (xlo, xhi, 10 ** math.floor(math.log10(ylo)),
            10 ** math.ceil(math.log10(top * 1.5)))


def ceiling_segments(rf: Any) -> list[tuple[Any, tuple[float, float, float, float]]]:
    """(ceiling, (x0, y0, x1, y1)) in data units: compute ceilings from where the fastest
    memory roof meets them to the right edge; memory ceilings from where they enter the plot to
    where they meet the top compute roof."""
    xlo, xhi, ylo, _ = ranges(rf)
    top = max(c.value for c in rf.ceilings if c.kind == "compute")
    fast = max(c.value for c in rf.ceilings if c.kind == "memory")
    out = []
    for c in rf.ceilings:
        if c.kind == "compute":
            out.append((c, (max(xlo, c.value / fast), c.value, xhi, c.value)))
        else:
            x0 = max(xlo, ylo / c.value)
            x1 = min(xhi, top / c.value)
            out.append((c, (x0, c.value * x0, x1, c.value * x1)))
    return out


def _tick(v: float) -> str:
    """A decade as short text: 0.01, 1, 100, 10k, 1M."""
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e3:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def _shape(kind: str, x: float, y: float, color: str, r: float = 5.5) -> str:
    fill = f'fill="{color}" stroke="#222" stroke-width="0.8"'
    if kind == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" ' \
               f'height="{2 * r:.1f}" {fill}/>'
    if kind == "triangle":
        pts = f"{x:.1f},{y - r * 1.2:.1f} {x + r * 1.1:.1f},{y + r * 0.8:.1f} " \
              f"{x - r * 1.1:.1f},{y + r * 0.8:.1f}"
        return f'<polygon points="{pts}" {fill}/>'
    if kind == "diamond":
        pts = f"{x:.1f},{y - r * 1.3:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r * 1.3:.1f} " \
              f"{x - r:.1f},{y:.1f}"
        return f'<polygon points="{pts}" {fill}/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {fill}/>'


def svg(rf: Any) -> str:
    """The roofline ``rf`` as an SVG element (log-log; y in TFLOP/s)."""
    xlo, xhi, ylo, yhi = ranges(rf)
    lx0, lx1, ly0, ly1 = (math.log10(v) for v in (xlo, xhi, ylo, yhi))

    def px(x: float) -> float:
        return LEFT + (math.log10(x) - lx0) / (lx1 - lx0) * PW

    def py(y: float) -> float:
        return TOP + PH - (math.log10(y) - ly0) / (ly1 - ly0) * PH

    out = [f'<text x="{LEFT}" y="20" font-size="13" font-weight="bold">'
           f'{esc(_title(rf))}</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{PW}" height="{PH}" fill="none" stroke="#999"/>']
    for k in range(round(lx0), round(lx1) + 1):  # x decades
        x = px(10.0 ** k)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + PH}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + PH + 15}" text-anchor="middle">'
                   f'{_tick(10.0 ** k)}</text>')
    for k in range(round(ly0), round(ly1) + 1):  # y decades, in TFLOP/s
        y = py(10.0 ** k)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + PW}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{_tick(10.0 ** k / 1e12)}</text>')
    out.append(f'<text x="{LEFT + PW / 2}" y="{H - 18}" text-anchor="middle">arithmetic '
               'intensity (FLOP per byte moved at the level)</text>')
    out.append(f'<text transform="translate(16,{TOP + PH / 2}) rotate(-90)" '
               'text-anchor="middle">TFLOP/s (modelled)</text>')
    legend = []
    for c, (x0, y0, x1, y1) in ceiling_segments(rf):
        if x1 <= x0:
            continue
        color = ceiling_color(c.name, rf)
        dash = ' stroke-dasharray="7 4"' if c.assumed else ""
        out.append(f'<line x1="{px(x0):.1f}" y1="{py(y0):.1f}" x2="{px(x1):.1f}" '
                   f'y2="{py(y1):.1f}" stroke="{color}" stroke-width="2"{dash}>'
                   f'<title>{esc(c.label)}</title></line>')
        legend.append(f'<line x1="0" y1="-4" x2="22" y2="-4" stroke="{color}" '
                      f'stroke-width="2"{dash}/><text x="28" y="0">{esc(c.label)}</text>')
    for p in rf.points:
        tip = (f"{p.label} - {p.level} (modelled): {p.intensity:,.3g} FLOP/B, "
               f"{p.attained / 1e12:,.2f} TFLOP/s, {p.achieved / 1e9:,.0f} GB/s"
               + (f", {p.percent:.1f}% of {p.ceiling}" if p.percent is not None else "")
               + f", {p.percent_of_roof:.1f}% of the roof ({p.bound})")
        out.append(f'<g><title>{esc(tip)}</title>'
                   + _shape(marker(p.level), px(p.intensity), py(p.attained),
                            report_color(p.report)) + "</g>")
    for i, lab in enumerate(rf.labels):
        if any(p.report == i for p in rf.points):
            legend.append(f'<rect x="5" y="-10" width="12" height="10" '
                          f'fill="{report_color(i)}"/><text x="28" y="0">{esc(lab)}</text>')
    for level in dict.fromkeys(p.level for p in rf.points):
        legend.append(_shape(marker(level), 11, -4, "#bbb", 4.5)
                      + f'<text x="28" y="0">{esc(level)} point</text>')
    for j, item in enumerate(legend):
        out.append(f'<g transform="translate({LEGEND_X},{TOP + 8 + 17 * j})">{item}</g>')
    if not rf.points:
        out.append(f'<text x="{LEFT + PW / 2}" y="{TOP + PH / 2}" text-anchor="middle" '
                   'fill="#a00">no points: pass flops= to kernel.timing</text>')
    h = max(H, TOP + 8 + 17 * len(legend) + 10)  # a long legend makes the picture taller
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" '
            f'viewBox="0 0 {W} {h}" font-family="sans-serif" font-size="11" '
            'style="background:#fff">' + "".join(out) + "</svg>")


def _title(rf: Any) -> str:
    names = ", ".join(rf.labels)
    names = names if len(names) <= 60 else names[:57] + "..."
    return f"roofline (modelled): {names} on {rf.chip.name}"
