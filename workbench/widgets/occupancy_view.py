"""Occupancy views: per-resource waves/SIMD with the limiter highlighted, the arch's table,
and a live explorer (block size / VGPR sliders recomputing through ``workbench.occupancy``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..arch import get as get_arch
from ..occupancy import Occupancy, OccupancyTable, occupancy, occupancy_table
from ..text_table import text_table
from .base import InteractiveView, View, bokeh_pane, esc, table, wrap

# Occupancy.limiter value -> index of the row it highlights in OccupancyView.
_LIMITER_ROW = {"vgprs": 0, "sgprs": 1, "lds": 2, "barriers": 3, "workgroup_size": 3,
                "waves": 4}
_LIMITER_WORDS = {"vgprs": "VGPRs", "sgprs": "SGPRs", "lds": "LDS",
                  "barriers": "barriers (workgroup slots)",
                  "workgroup_size": "workgroup slots", "waves": "hardware max"}


def limiter_words(occ: Occupancy) -> str:
    """The limiter of ``occ`` in words ("VGPRs", "LDS", "the hardware maximum", ...)."""
    return _LIMITER_WORDS.get(occ.limiter, occ.limiter)


def _field(resources: Any, name: str) -> Any:
    if resources is None:
        return None
    if isinstance(resources, dict):
        return resources.get(name)
    return getattr(resources, name, None)


class OccupancyView(View):
    """One occupancy result: what each resource allows, the binding one highlighted."""

    def __init__(self, occ: Occupancy, resources: Any = None):
        self.occ = occ
        self.resources = resources if resources is not None else occ.resources

    def rows(self) -> list[tuple[str, str, int]]:
        """(resource, amount used, waves/SIMD it allows) in a fixed order."""
        o, r = self.occ, self.resources
        vg, ag, sg = _field(r, "vgprs"), _field(r, "agprs"), _field(r, "sgprs")
        vgpr_use = f"{o.vgprs_allocated} allocated"
        if vg is not None:
            vgpr_use = f"{vg}" + (f" + {ag} AGPRs" if ag else "") + f" -> {vgpr_use}"
        arch = get_arch(o.arch)
        sgpr_use = "-" if sg is None else str(sg)
        if not arch.sgprs_limit_occupancy:
            sgpr_use += " (no limit on this arch)"
        lds_use = f"{o.lds_bytes} B/workgroup"
        if o.lds_bytes_allocated != o.lds_bytes:
            lds_use += f" ({o.lds_bytes_allocated} B allocated)"
        wg_use = f"{o.max_workgroups} workgroups/{o.unit} ({o.waves_per_workgroup} waves each)"
        return [
            ("VGPRs", vgpr_use, o.vgpr_limit),
            ("SGPRs", sgpr_use, o.sgpr_limit),
            ("LDS", lds_use, o.lds_limit),
            ("workgroup slots", wg_use, o.workgroup_limit),
            ("hardware max", f"{o.max_waves_per_simd} waves/SIMD", o.max_waves_per_simd),
        ]

    def headline(self) -> str:
        o = self.occ
        return (f"{o.arch} wave{o.wave_size}, block {o.block_size}: {o.waves_per_simd} of "
                f"{o.max_waves_per_simd} waves/SIMD, limited by {limiter_words(o)}; "
                f"{o.workgroups_per_cu} workgroups = {o.waves_per_cu} waves per {o.unit}")

    def text(self) -> str:
        hot = _LIMITER_ROW.get(self.occ.limiter)
        body = [(("* " if i == hot else "  ") + name, use, lim)
                for i, (name, use, lim) in enumerate(self.rows())]
        notes = "".join(f"\nnote: {n}" for n in self.occ.notes)
        return (self.headline() + "\n" + text_table(["  resource", "use", "waves/SIMD"], body)
                + notes)

    def html_fragment(self) -> str:
        hot = _LIMITER_ROW.get(self.occ.limiter)
        rows = self.rows()
        return (f"<div>{esc(self.headline())}</div>"
                + table(["resource", "use", "waves/SIMD"], rows, hot=[hot], numeric=[2])
                + "".join(f'<div class="muted">note: {esc(n)}</div>' for n in self.occ.notes))

    def html(self) -> str:
        return wrap(self.html_fragment())


def _hot_range(rows, value: int | None) -> list[int]:
    if value is None:
        return []
    return [i for i, r in enumerate(rows) if r[0] <= value <= r[1]]


class OccupancyTableView(View):
    """``occupancy_table(arch)``: VGPR/SGPR/LDS ranges and the waves/SIMD each allows."""

    def __init__(self, tab: OccupancyTable, *, vgprs: int | None = None,
                 sgprs: int | None = None, lds_bytes: int | None = None):
        self.tab = tab
        self.mark = {"vgprs": vgprs, "sgprs": sgprs, "lds": lds_bytes}

    def title(self) -> str:
        t = self.tab
        return f"occupancy table {t.arch} wave{t.wave_size} (LDS rows for block {t.block_size})"

    def _sections(self):
        t = self.tab
        out = [("VGPRs/wave", ["VGPRs", "waves/SIMD"],
                [(f"{lo}-{hi}", w) for lo, hi, w in t.vgpr_rows],
                _hot_range(t.vgpr_rows, self.mark["vgprs"]))]
        if len(t.sgpr_rows) > 1:
            out.append(("SGPRs/wave", ["SGPRs", "waves/SIMD"],
                        [(f"{lo}-{hi}", w) for lo, hi, w in t.sgpr_rows],
                        _hot_range(t.sgpr_rows, self.mark["sgprs"])))
        out.append(("LDS/workgroup", ["LDS bytes", "workgroups", "waves/SIMD"],
                    [(f"{lo}-{hi}", g, w) for lo, hi, g, w in t.lds_rows],
                    _hot_range(t.lds_rows, self.mark["lds"])))
        return out

    def text(self) -> str:
        parts = [self.title()]
        for name, header, rows, hot in self._sections():
            marked = [(("* " if i in hot else "  ") + str(r[0]), *r[1:])
                      for i, r in enumerate(rows)]
            parts.append(name + "\n" + text_table(["  " + header[0], *header[1:]], marked))
        return "\n".join(parts)

    def html(self) -> str:
        cells = [f"<div><b>{esc(name)}</b>{table(header, rows, hot=hot, numeric=range(1, 3))}"
                 "</div>" for name, header, rows, hot in self._sections()]
        return wrap(f"<div>{esc(self.title())}</div><div class=\"row\">{''.join(cells)}</div>")


def occupancy_table_view(arch: str, wave_size: int | None = None, *, block_size: int = 256,
                         vgprs: int | None = None) -> OccupancyTableView:
    """The occupancy table of ``arch`` as a view, optionally marking a VGPR count."""
    return OccupancyTableView(occupancy_table(arch, wave_size, block_size=block_size),
                              vgprs=vgprs)


class OccupancyExplorer(InteractiveView):
    """Occupancy of one kernel with sliders for block size and VGPRs (live in Jupyter)."""

    def __init__(self, resources: Any, arch: str, block_size: int = 256,
                 dynamic_lds: int = 0):
        self.resources = resources
        self.arch = get_arch(arch)
        self.block_size = block_size
        self.dynamic_lds = dynamic_lds

    def _with_vgprs(self, vgprs: int) -> Any:
        if isinstance(self.resources, dict):
            return {**self.resources, "vgprs": vgprs}
        return replace(self.resources, vgprs=vgprs)

    def compute(self, block_size: int | None = None, vgprs: int | None = None) -> Occupancy:
        """Occupancy at a block size and VGPR count (defaults: the kernel's own)."""
        res = self.resources if vgprs is None else self._with_vgprs(vgprs)
        return occupancy(res, self.arch, block_size or self.block_size,
                         dynamic_lds=self.dynamic_lds)

    def text(self) -> str:
        return OccupancyView(self.compute(), self.resources).text()

    def html(self) -> str:
        return OccupancyView(self.compute(), self.resources).html()

    def curve(self, block_size: int | None = None) -> tuple[list[int], list[int]]:
        """(VGPR counts, waves/SIMD) over the arch's addressable VGPR range."""
        top = self.arch.max_arch_vgprs
        xs = list(range(1, top + 1))
        return xs, [self.compute(block_size, v).waves_per_simd for v in xs]

    def build_widget(self) -> Any:
        import ipywidgets as W
        from bokeh.models import ColumnDataSource
        from bokeh.plotting import figure

        ws = int(_field(self.resources, "wave_size") or self.arch.default_wave_size)
        max_block = int(_field(self.resources, "max_flat_workgroup_size")
                        or self.arch.max_workgroup_size)
        vg0 = int(_field(self.resources, "vgprs") or 1)
        block = W.IntSlider(value=self.block_size, min=ws, max=max_block, step=ws,
                            description="block size", continuous_update=False)
        vg = W.IntSlider(value=vg0, min=1, max=self.arch.max_arch_vgprs,
                         description="VGPRs", continuous_update=False)
        out = W.HTML(self.html())
        xs, ys = self.curve()
        line = ColumnDataSource({"x": xs, "y": ys})
        dot = ColumnDataSource({"x": [vg0], "y": [self.compute(None, vg0).waves_per_simd]})
        fig = figure(height=220, width=420, x_axis_label="VGPRs per wave",
                     y_axis_label="waves/SIMD", title=f"{self.arch.name} wave{ws}",
                     toolbar_location=None)
        fig.step("x", "y", source=line, mode="after")
        fig.scatter("x", "y", source=dot, size=9, color="orange")

        def update(_change: Any = None) -> None:
            occ = self.compute(block.value, vg.value)
            out.value = wrap(OccupancyView(occ, self._with_vgprs(vg.value)).html_fragment())
            nx, ny = self.curve(block.value)
            line.data = {"x": nx, "y": ny}
            dot.data = {"x": [vg.value], "y": [occ.waves_per_simd]}

        block.observe(update, names="value")
        vg.observe(update, names="value")
        box = W.VBox([W.HBox([block, vg]), out, bokeh_pane(fig)])
        box.update = update  # lets tests and callers force a refresh
        box.controls = {"block": block, "vgprs": vg, "html": out, "curve": line, "dot": dot}
        return box


def explore_occupancy(resources: Any, arch: str, block_size: int = 256) -> OccupancyExplorer:
    """A live occupancy explorer for a kernel's resources (``kernel.resources``)."""
    return OccupancyExplorer(resources, arch, block_size)
