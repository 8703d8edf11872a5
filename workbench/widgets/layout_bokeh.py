"""The two bokeh views of the layout explorer over one shared ColumnDataSource.

Left: the matrix, a cell per element coloured by lane (or register). Right: the lane-major
view, lanes (rows) x register slots (columns), coloured by matrix position. Both draw the same
rows (one per element/slot pair), so selecting rows highlights them in both views; a tap
selects every row of the tapped lane (a small CustomJS runs in the browser, no server needed).
Figures are built once; a recompute assigns ``source.data`` and a few ranges (fast).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import ArgumentValueError
from ..layouts.layout import INDEX, index_names
from .layout_data import (
    UNUSED_COLOR,
    Placement,
    index_sets,
    k_groups,
    lane_colors,
    other_set_of,
    position_colors,
    reg_colors,
    slot_names,
)

__all__ = ["LayoutFigures", "columns"]

# Runs in the browser when the selection changes: widen it to every row of the selected lanes.
_SELECT_LANES_JS = """
const idx = source.selected.indices;
if (idx.length === 0) { return; }
const lane = source.data["lane"];
const want = new Set();
for (const i of idx) { want.add(lane[i]); }
const out = [];
for (let i = 0; i < lane.length; i++) { if (want.has(lane[i])) { out.push(i); } }
const have = new Set(idx);
if (out.length !== have.size || !out.every((i) => have.has(i))) {
  source.selected.indices = out;
}
"""

_MATRIX_TIPS = [("element", "@name"), ("lane", "@lane"), ("VGPR", "@vgpr (from the operand base)"),
                ("bits", "@bits"), ("held by lanes", "@copies")]
_LANE_TIPS = [("lane", "@lane"), ("VGPR", "@vgpr"), ("bits", "@bits"), ("holds", "@name")]
# sparse A / I: the logical elements a stored column stands for (I names which of the 4)
_LOGICAL_TIP = [("logical A", "@logical (one of 4 consecutive k)")]

_MATRIX_PX = 520  # target size of the matrix view's longer side
_LANES_PX = 576  # target height of the lane view


def geometry(p: Placement) -> dict[str, int]:
    """Grid arrangement of the blocks: blocks per grid row, and the grid's size in cells."""
    blocks, rows, cols = p.shape
    per_row = math.ceil(math.sqrt(blocks)) if blocks > 1 else 1
    gap = 1 if blocks > 1 else 0
    head = 1 if blocks > 1 else 0  # one cell row above each block for its label
    grid_rows = math.ceil(blocks / per_row)
    return {"per_row": per_row, "gap": gap, "head": head,
            "width": per_row * (cols + gap) - gap,
            "height": grid_rows * (rows + head + gap) - gap}


@lru_cache(maxsize=256)
def columns(p: Placement, color_by: str) -> dict[str, Any]:
    """The shared source's columns for one placement (cached: a repeated view is free)."""
    if color_by not in ("lane", "register"):
        raise ArgumentValueError(f"color_by must be 'lane' or 'register', got {color_by!r}")
    ins, op = p.ins, p.operand
    blocks, rows, cols = p.shape
    g = geometry(p)
    used = p.used
    b = np.where(used, p.block, 0)
    r = np.where(used, p.row, 0)
    c = np.where(used, p.col, 0)
    mx = (b % g["per_row"]) * (cols + g["gap"]) + c
    my = (b // g["per_row"]) * (rows + g["head"] + g["gap"]) + g["head"] + r
    nan = np.full(p.lane.size, np.nan)
    slot = p.slot.astype(np.float64) + (0.5 if p.span == 2 else 0.0)
    lanes = np.array(lane_colors(ins.wave_size))
    regs = np.array(reg_colors(p.regs, p.elems_per_reg))
    mcolor = lanes[p.lane] if color_by == "lane" else regs[p.slot]
    pos = np.array(position_colors(rows, cols))
    lcolor = np.where(used, pos[r * cols + c], UNUSED_COLOR)
    blk = np.char.add(np.char.add("b", b.astype(str)), ":") if blocks > 1 else ""
    name = np.char.add(np.char.add(np.char.add(np.char.add(f"{op}[", blk), r.astype(str)),
                                   np.char.add(",", c.astype(str))), "]")
    other = other_set_of(p)
    name = np.where(used, name, np.where(
        other >= 0, np.char.add("(index set index_key=", np.char.add(other.astype(str), ")")),
        "(unused)"))
    hi = (p.elem + 1) * p.bits - 1
    bits = np.char.add(np.char.add(hi.astype(str), ":"), (p.elem * p.bits).astype(str))
    vgpr = np.char.add("v", p.reg.astype(str))
    if p.span == 2:
        vgpr = np.char.add(np.char.add(vgpr, ":"), (p.reg + 1).astype(str))
    # every lane holding the same element (RDNA3 copies; under CBSZ several elements share one)
    key = np.where(used, (b * rows + r) * cols + c, -1)
    holders: dict[int, list[int]] = {}
    for k, ln in zip(key.tolist(), p.lane.tolist()):
        if k >= 0:
            holders.setdefault(k, []).append(ln)
    copies = np.array([", ".join(map(str, sorted(holders[k]))) if k >= 0 else ""
                       for k in key.tolist()])
    rname, cname = index_names(op)
    ltext = np.where(used, np.char.add(np.char.add(r.astype(str), ","), c.astype(str)),
                     np.where(other >= 0, np.char.add("k", other.astype(str)), ""))
    first = used & (p.replica == 0)  # one label per matrix cell: copy 0's lane
    groups = k_groups(p)  # sparse A / I: the logical k a stored column stands for
    logical = np.array([""])
    if groups is not None:
        logical = np.where(used, np.char.add(np.char.add(np.char.add("A[", r.astype(str)), ", "),
                                             np.char.add(np.array(groups)[c], "]")), "")
    return {"mx": np.where(used, mx, nan), "my": np.where(used, my, nan),
            "tx": np.where(first, mx, nan), "ty": np.where(first, my, nan),
            "lx": slot, "ly": p.lane.astype(np.float64),
            "lane": p.lane, "reg": p.reg, "elem": p.elem, "vgpr": vgpr, "bits": bits,
            "name": name, "copies": copies, "mcolor": mcolor, "lcolor": lcolor,
            "mtext": p.lane.astype(str), "ltext": ltext,
            "logical": np.broadcast_to(logical, p.lane.shape).copy(),
            "_dims": f"{rname},{cname}"}


class LayoutFigures:
    """The matrix and lane-major bokeh figures of the explorer, updated in place."""

    def __init__(self) -> None:
        from bokeh.layouts import row
        from bokeh.models import (
            ColumnDataSource,
            CustomJS,
            FixedTicker,
            HoverTool,
            Range1d,
            TapTool,
        )
        from bokeh.plotting import figure

        self.source = ColumnDataSource({k: [] for k in (
            "mx", "my", "tx", "ty", "lx", "ly", "lane", "reg", "elem", "vgpr", "bits", "name",
            "copies", "mcolor", "lcolor", "mtext", "ltext", "logical")})
        self.labels = ColumnDataSource({"x": [], "y": [], "text": []})
        tools = "tap,reset,save"
        self.matrix = figure(tools=tools, toolbar_location="right", x_range=Range1d(0, 1),
                             y_range=Range1d(1, 0), min_border=4, title="matrix",
                             x_axis_location="above")
        self.lanes = figure(tools=tools, toolbar_location="right", x_range=Range1d(0, 1),
                            y_range=Range1d(1, 0), min_border=4, title="lanes x registers",
                            x_axis_location="above")
        for fig in (self.matrix, self.lanes):
            fig.styles = {"flex": "0 0 auto"}  # keep the frame size set in update(): no stretch
            fig.grid.visible = False
            fig.xaxis.major_label_text_font_size = "8pt"
            fig.yaxis.major_label_text_font_size = "8pt"
            fig.xaxis.ticker = FixedTicker(ticks=[])
            fig.yaxis.ticker = FixedTicker(ticks=[])
            fig.xaxis.major_tick_out = 2
            fig.yaxis.major_tick_out = 2
        self.matrix_cells, self.matrix_text = self._cells(
            self.matrix, ("mx", "my"), "mcolor", ("tx", "ty"), "mtext", "8pt")
        self.matrix.text("x", "y", text="text", source=self.labels, text_align="left",
                         text_baseline="middle", text_font_size="9pt")
        self.lane_cells, self.lane_text = self._cells(
            self.lanes, ("lx", "ly"), "lcolor", ("lx", "ly"), "ltext", "7pt")
        self.matrix_hover = HoverTool(renderers=[self.matrix_cells], tooltips=_MATRIX_TIPS)
        self.lane_hover = HoverTool(renderers=[self.lane_cells], tooltips=_LANE_TIPS)
        self.matrix.add_tools(self.matrix_hover)
        self.lanes.add_tools(self.lane_hover)
        for fig, cells in ((self.matrix, self.matrix_cells), (self.lanes, self.lane_cells)):
            fig.select_one(TapTool).renderers = [cells]
        self.source.selected.js_on_change(
            "indices", CustomJS(args={"source": self.source}, code=_SELECT_LANES_JS))
        # As wide as the output area; the lane view wraps below the matrix where the two do not
        # fit side by side (a 32-register lane view alone is ~900 px wide), instead of being cut
        # off at the output's right edge (seen in JupyterLab).
        self.layout = row(self.matrix, self.lanes, sizing_mode="stretch_width", spacing=16,
                          styles={"flex-wrap": "wrap", "row-gap": "12px"})

    def _cells(self, fig: Any, xy: tuple[str, str], fill: str, text_xy: tuple[str, str],
               text: str, font_size: str) -> tuple[Any, Any]:
        """Unit cells of the shared source at columns ``xy`` filled from column ``fill``, and
        their labels (column ``text`` at ``text_xy``): the glyph pair both views draw."""
        cells = fig.rect(*xy, 1, 1, source=self.source, fill_color=fill, line_color="white",
                         line_width=0.6, selection_line_color="black", selection_line_width=2.0,
                         nonselection_fill_alpha=0.22, nonselection_line_alpha=0.3)
        labels = fig.text(*text_xy, text=text, source=self.source, text_align="center",
                          text_baseline="middle", text_font_size=font_size, text_color="#111",
                          nonselection_text_alpha=0.35)
        return cells, labels

    def update(self, p: Placement, color_by: str = "lane") -> None:
        """Show placement ``p``: new source data, ranges, ticks and sizes (figures are kept)."""
        data = dict(columns(p, color_by))
        axes = data.pop("_dims")
        ins = p.ins
        blocks, rows, cols = p.shape
        g = geometry(p)
        self.source.selected.indices = []
        self.source.data = data
        self._matrix_frame(p, g, axes)
        self._lane_frame(p)
        self.labels.data = {
            "x": [float((b % g["per_row"]) * (cols + g["gap"]) - 0.5) for b in range(blocks)]
            if blocks > 1 else [],
            "y": [float((b // g["per_row"]) * (rows + g["head"] + g["gap"]))
                  for b in range(blocks)] if blocks > 1 else [],
            "text": [f"block {b}" for b in range(blocks)] if blocks > 1 else []}
        sparse = k_groups(p) is not None
        self.matrix_hover.tooltips = _MATRIX_TIPS + (_LOGICAL_TIP if sparse else [])
        self.lane_hover.tooltips = _LANE_TIPS + (_LOGICAL_TIP if sparse else [])
        what = ""  # short: the title is cut at the frame's width; the info box explains
        if sparse and p.operand == "A":
            what = ", compressed,"
        elif p.operand == INDEX and index_sets(ins) > 1:
            what = f" index_key={p.mods.index_key}"
        self.matrix.title.text = (f"{ins.name} {p.operand} [{axes}]{what} on {ins.arch}: "
                                  "colour = " + ("lane" if color_by == "lane" else "register"))

    def _matrix_frame(self, p: Placement, g: dict[str, int], axes: str) -> None:
        blocks, rows, cols = p.shape
        cell = max(9, min(30, _MATRIX_PX // max(g["width"], g["height"])))
        fig = self.matrix
        fig.frame_width = g["width"] * cell
        fig.frame_height = g["height"] * cell
        fig.x_range.start, fig.x_range.end = -0.5, g["width"] - 0.5
        fig.y_range.start, fig.y_range.end = g["height"] - 0.5, -0.5
        xt = [float((b % g["per_row"]) * (cols + g["gap"]) + c)
              for b in range(min(blocks, g["per_row"])) for c in range(cols)]
        yt = [float((b // g["per_row"]) * (rows + g["head"] + g["gap"]) + g["head"] + r)
              for b in range(0, blocks, g["per_row"]) for r in range(rows)]
        every = 1 if cell >= 14 else 4
        fig.xaxis.ticker.ticks = [t for i, t in enumerate(xt) if (i % cols) % every == 0]
        fig.yaxis.ticker.ticks = [t for i, t in enumerate(yt) if (i % rows) % every == 0]
        fig.xaxis.major_label_overrides = {t: str(i % cols) for i, t in enumerate(xt)}
        fig.yaxis.major_label_overrides = {t: str(i % rows) for i, t in enumerate(yt)}
        rname, cname = axes.split(",")
        if k_groups(p) is not None:  # sparse A / I: stored column k is logical 4*(k//2)..+3
            cname = (f"{cname}: stored column c of {cols} (logical k = 4*floor(c/2) + I[i,c], "
                     f"of {2 * cols})")
        fig.xaxis.axis_label, fig.yaxis.axis_label = cname, rname
        self.matrix_text.visible = cell >= 16

    def _lane_frame(self, p: Placement) -> None:
        ws = p.ins.wave_size
        slots = p.regs * p.elems_per_reg
        fig = self.lanes
        h = max(8, min(18, _LANES_PX // ws))
        w = max(26, min(48, 480 // max(slots, 1)))
        fig.frame_height = ws * h
        fig.frame_width = slots * w
        fig.x_range.start, fig.x_range.end = -0.5, slots - 0.5
        fig.y_range.start, fig.y_range.end = ws - 0.5, -0.5
        epr, step = p.elems_per_reg, p.span
        ticks = [float(s) + (0.5 if step == 2 else 0.0) for s in range(0, slots, step)]
        names = slot_names(p)
        fig.xaxis.ticker.ticks = ticks
        fig.xaxis.major_label_overrides = dict(zip(ticks, names))
        fig.yaxis.ticker.ticks = [float(ln) for ln in range(0, ws, 1 if h >= 12 else 4)]
        fig.yaxis.axis_label = "lane"
        fig.xaxis.major_label_orientation = 0.9 if epr > 1 or step == 2 else 0.0
        self.lane_cells.glyph.width = float(step)
        self.lane_text.visible = w >= 28 and h >= 12
