"""Wave timeline of a TimingReport: one row per wave grouped by SIMD, spans coloured by unit.

Why: the schedule is what a GEMM step changes (ping-pong, interleave, double buffering); seeing
each SIMD's waves alternate memory and MFMA phases explains the modelled time. Live: a bokeh
figure (zoom, pan, hover with the instruction and its source line). Static (nbviewer, nbval,
terminals): a character chart, one row per wave. Every span is modelled, not measured.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentValueError
from .base import InteractiveView, bokeh_pane, details, esc, wrap

KINDS = ("MFMA", "VALU", "LDS read", "LDS write", "global load", "global store", "wait",
         "barrier", "scalar")
COLORS = ("#d62728", "#bbbbbb", "#2ca02c", "#98df8a", "#1f77b4", "#9edae5", "#ffbb78",
          "#7f7f7f", "#c5b0d5")
CHARS = ("M", "v", "r", "w", "L", "S", ".", "|", "s")
# Which kind a character cell shows when several overlap it (lowest tier wins): what the wave
# issues (MFMA and VALU spans, and the first cell of a memory span: its issue, ranked above
# VALU because one load among many VALU instructions is the news), then why it
# stands still (a wait, a barrier), then memory in flight (the rest of a memory span). A load's
# span runs from issue to data return and so covers the s_waitcnt waiting for it: ranked as one
# piece above the wait, it would hide every wait of the chart; ranked below, every load.
MEMORY = (2, 3, 4, 5, 8)  # LDS read/write, global load/store, scalar (memory) spans
ISSUE_RANK = {0: 0, 4: 1, 5: 2, 2: 3, 3: 4, 1: 5, 8: 6}
STALL_RANK = {6: 7, 7: 8}
FLIGHT_RANK = {k: 9 + i for i, k in enumerate(MEMORY)}
RANK_KIND = {r: k for table in (ISSUE_RANK, STALL_RANK, FLIGHT_RANK) for k, r in table.items()}
LEGEND = "M MFMA  r/w LDS read/write  L/S global load/store  v VALU  . wait  | barrier  s scalar"


class TimelineView(InteractiveView):
    """The timeline of one report; ``start``/``end`` (cycles) pick a window of the simulation."""

    def __init__(self, report: Any, start: int | None = None, end: int | None = None,
                 width: int = 96, max_waves: int = 32) -> None:
        self.report = report
        sp = report.spans
        hi = max((s[2] for s in sp), default=1)
        self.start = int(start or 0)
        self.end = int(end if end is not None else hi)
        if self.end <= self.start:
            raise ArgumentValueError(
                f"timeline window start={self.start} end={self.end}: end must be "
                "after start")
        self.width = int(width)
        waves = sorted(report.wave_simd, key=lambda w: (report.wave_simd[w], w))
        self.waves = waves[:max_waves]

    # -- static ------------------------------------------------------------------------------
    def _rows(self) -> list[tuple[int, int, str]]:
        """(SIMD, wave, characters) per wave of the window."""
        n = self.width
        lo, hi = self.start, self.end
        scale = n / (hi - lo)
        cells = {w: np.full(n, 99, np.int64) for w in self.waves}
        for (w, a, b, k, _r) in self.report.spans:
            if w not in cells or b <= lo or a >= hi:
                continue
            i0 = int((max(a, lo) - lo) * scale)
            i1 = max(i0 + 1, int(np.ceil((min(b, hi) - lo) * scale)))
            row = cells[w]
            if k in FLIGHT_RANK:
                if a >= lo:  # the issue, where the window shows it
                    row[i0] = min(row[i0], ISSUE_RANK[k])
                seg = row[i0 + (a >= lo):i1]
                np.minimum(seg, FLIGHT_RANK[k], out=seg)
            else:
                seg = row[i0:i1]
                np.minimum(seg, ISSUE_RANK.get(k, STALL_RANK.get(k)), out=seg)
        out = []
        for w in self.waves:
            chars = "".join(" " if c == 99 else CHARS[RANK_KIND[c]] for c in cells[w])
            out.append((self.report.wave_simd[w], w, chars))
        return out

    def text(self) -> str:
        r = self.report
        lines = [f"wave timeline of {r.kernel} on {r.chip.name} (modelled), cycles "
                 f"{self.start:,}..{self.end:,}, {(self.end - self.start) / self.width:,.0f} "
                 f"cycles per character", LEGEND]
        last = None
        for simd, w, chars in self._rows():
            if simd != last:
                lines.append(f"SIMD {simd}")
                last = simd
            lines.append(f"  wave {w:>3} |{chars}|")
        if r.spans_truncated:
            lines.append("(spans recorded for the first part of the simulation only)")
        return "\n".join(lines)

    def html(self) -> str:
        body = f"<pre>{esc(self.text())}</pre>"
        return wrap(body + details("summary (modelled)", f"<pre>{esc(self.report.summary())}"
                                   "</pre>"))

    # -- live --------------------------------------------------------------------------------
    def figure(self) -> Any:
        """The bokeh figure (rows = waves grouped by SIMD; x = cycles)."""
        from bokeh.models import ColumnDataSource, HoverTool
        from bokeh.plotting import figure

        r = self.report
        labels = [f"SIMD {r.wave_simd[w]} · wave {w}" for w in self.waves]
        ypos = {w: i for i, w in enumerate(self.waves)}
        cols: dict[str, list] = {k: [] for k in ("left", "right", "bottom", "top", "color",
                                                 "kind", "inst", "line", "wave", "cycles")}
        for (w, a, b, k, row) in r.spans:
            if w not in ypos or b <= self.start or a >= self.end:
                continue
            y = ypos[w]
            ins = r.instructions[int(r.row_index[row])]
            cols["left"].append(a)
            cols["right"].append(max(b, a + 1))
            cols["bottom"].append(y - 0.4)
            cols["top"].append(y + 0.4)
            cols["color"].append(COLORS[k])
            cols["kind"].append(KINDS[k])
            cols["inst"].append(ins.text)
            cols["line"].append(str(ins.source_line or "-"))
            cols["wave"].append(labels[y])
            cols["cycles"].append(f"{a:,}..{b:,}")
        src = ColumnDataSource(cols)
        fig = figure(height=max(220, 22 * len(self.waves) + 80), sizing_mode="stretch_width",
                     x_range=(self.start, self.end), y_range=(len(self.waves) - 0.5, -0.5),
                     tools="xpan,xwheel_zoom,box_zoom,reset,save", active_scroll="xwheel_zoom",
                     title=f"{r.kernel} on {r.chip.name}: wave timeline (modelled)",
                     x_axis_label="cycle")
        fig.quad(left="left", right="right", bottom="bottom", top="top", color="color",
                 legend_field="kind", source=src, line_width=0)
        fig.yaxis.ticker = list(range(len(self.waves)))
        fig.yaxis.major_label_overrides = {i: lab for i, lab in enumerate(labels)}
        fig.add_tools(HoverTool(tooltips=[("", "@wave"), ("unit", "@kind"),
                                          ("instruction", "@inst"), ("source line", "@line"),
                                          ("cycles", "@cycles")]))
        legend = fig.legend[0]
        legend.orientation = "horizontal"
        legend.label_text_font_size = "9pt"
        legend.click_policy = "hide"
        fig.add_layout(legend, "above")  # outside the plot: it hides no wave row
        return fig

    def build_widget(self) -> Any:
        import ipywidgets as W

        summary = details("summary (modelled)", f"<pre>{esc(self.report.summary())}</pre>")
        return W.VBox([W.HTML(wrap(summary)), bokeh_pane(self.figure())])


def timeline(report: Any, start: int | None = None, end: int | None = None, **kwargs: Any
             ) -> TimelineView:
    """The timeline view of a ``workbench.timing.TimingReport``."""
    return TimelineView(report, start, end, **kwargs)
