"""``wb.layout(...)``: the MFMA/WMMA/SWMMAC register-layout explorer.

Static view: the catalog's printed matrix (``text/plain``) and a coloured ``lane.reg`` table
(``text/html``). Live view in Jupyter: controls for arch, wave size, instruction, operand,
colouring, lane and the modifiers legal for the instruction (CBSZ/ABID/BLGP, OPSEL, index_key),
over a matrix view and a lane-major view that share one bokeh data source.

RDNA4's sparse ``v_swmmac_*`` have a fifth operand, ``"I"``: the 2-bit compression index of
each stored value of the 2:4-sparse A, in one of several index sets of one VGPR that
``index_key`` (the instruction's OPSEL) selects; their A is the compressed M x K/2 matrix (AMD
"RDNA4" Instruction Set Architecture Reference Guide, V_SWMMAC_*; the README of AMD's matrix
instruction calculator, ROCm/amd_matrix_instruction_calculator).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import layouts
from ..arch import get as get_arch
from ..argument_types import checked
from ..errors import ArgumentValueError
from ..layouts import MatrixInstruction
from .base import InteractiveView, bokeh_pane, esc, wrap
from .layout_data import (
    Modifiers,
    facts,
    lane_words,
    legal_modifiers,
    operand_note,
    placement,
)
from .layout_static import layout_html, layout_text, modifier_note

__all__ = ["LayoutExplorer", "layout"]

_COLOR_BY = ("lane", "register")
_MODIFIERS = ("cbsz", "abid", "blgp", "opsel", "index_key")  # Modifiers' fields, in order
NO_MODIFIERS = Modifiers()


class LayoutExplorer(InteractiveView):
    """One operand of one matrix instruction, with optional modifiers and a highlighted lane."""

    def __init__(self, ins: MatrixInstruction, operand: str = "A",
                 modifiers: Modifiers = NO_MODIFIERS, *, color_by: str = "lane",
                 lane: int | None = None) -> None:
        if color_by not in _COLOR_BY:
            raise ArgumentValueError(f"color_by must be 'lane' or 'register', got {color_by!r}")
        if lane is not None and (not isinstance(lane, int) or not 0 <= lane < ins.wave_size):
            raise ArgumentValueError(f"lane={lane!r} out of range 0..{ins.wave_size - 1} for "
                                     f"{ins.name} (wave{ins.wave_size})")
        self.ins = ins
        self.placement = placement(ins, operand, modifiers)  # validates operand and modifiers
        self.operand = self.placement.operand
        self.modifiers = self.placement.mods  # on I an OPSEL is read as the index_key
        self.color_by = color_by
        self.lane = lane

    def text(self) -> str:
        return layout_text(self.placement, self.lane)

    def html(self) -> str:
        return layout_html(self.placement, self.lane)

    def build_widget(self) -> LayoutWidget:
        return LayoutWidget(self)


@checked
def layout(instruction: str | MatrixInstruction = "v_mfma_f32_16x16x16_bf16",
           arch: str = "gfx942", operand: str = "A", *, wave_size: int | None = None,
           cbsz: int = 0, abid: int = 0, blgp: int = 0, opsel: int = 0, index_key: int = 0,
           color_by: str = "lane", lane: int | None = None) -> LayoutExplorer:
    """Explore where each element of an MFMA/WMMA/SWMMAC operand lives (lane, VGPR, bits).

    ``instruction`` is a mnemonic (or LLVM alias) looked up with ``workbench.layouts.get`` on
    ``arch``/``wave_size``, or a MatrixInstruction. ``operand`` is 'A'..'D', or 'I' (the
    compression index) for a sparse RDNA4 ``v_swmmac_*``. ``cbsz``/``abid`` (operand A),
    ``blgp`` (operand B; every operand for CDNA3 f64), ``opsel`` (RDNA3 16-bit C/D: 0 or 4) and
    ``index_key`` (SWMMAC operand I: the index set) must be legal for the instruction. ``lane``
    highlights one lane's elements; ``color_by`` ('lane' or 'register') colours the live view's
    matrix (the static table is coloured by lane)."""
    if isinstance(instruction, MatrixInstruction):
        ins = instruction
    else:
        ins = layouts.get(instruction, arch, wave_size=wave_size)
    return LayoutExplorer(ins, operand, Modifiers(cbsz, abid, blgp, opsel, index_key),
                          color_by=color_by, lane=lane)


def _info_html(explorer_ins: MatrixInstruction, p: Any, lane: int | None) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts(explorer_ins))
    note = "".join(f"<div>{esc(n)}</div>" for n in (operand_note(p), modifier_note(p)) if n)
    sel = f"<div>{esc(lane_words(p, lane))}</div>" if lane is not None else \
        '<div class="muted">click a cell (or pick a lane) to highlight a lane</div>'
    return wrap(f"<table>{rows}</table>{note}{sel}")


def _toggles(W: Any, options: list, value: Any, description: str, button_px: int) -> Any:
    """ToggleButtons; the label is a separate widget (see _labelled), since JupyterLab 4 wraps
    the buttons of a described ToggleButtons below its label inside an HBox."""
    return W.ToggleButtons(options=options, value=value, tooltips=[description] * len(options),
                           style={"button_width": f"{button_px}px"})


def _labelled(W: Any, label: str, control: Any) -> Any:
    return W.HBox([W.Label(label, layout=W.Layout(margin="0 6px 0 8px")), control],
                  layout=W.Layout(align_items="center"))


class LayoutWidget:
    """The live explorer: ipywidgets controls over the two bokeh views (see layout_bokeh).

    ``box`` is the ipywidgets container; ``controls`` maps names to the control widgets;
    ``figures.source`` is the shared bokeh ColumnDataSource. Setting a control's ``.value``
    recomputes (what a user's click does)."""

    def __init__(self, explorer: LayoutExplorer) -> None:
        import ipywidgets as W

        from .layout_bokeh import LayoutFigures

        ins = explorer.ins
        self._quiet = False  # see quiet(); the observers are attached after the controls are made
        arch = get_arch(ins.arch)
        dd = {"layout": W.Layout(width="auto")}
        self.controls: dict[str, Any] = {
            "arch": W.Dropdown(options=list(layouts.archs()), value=arch.name,
                               description="arch", **dd),
            "wave_size": _toggles(W, list(arch.wave_sizes), ins.wave_size, "wave", 48),
            "instruction": W.Dropdown(options=layouts.names(arch.name, wave_size=ins.wave_size),
                                      value=ins.name, description="instruction",
                                      layout=W.Layout(width="420px")),
            "operand": _toggles(W, list(ins.operands), explorer.operand, "operand", 36),
            "color_by": _toggles(W, list(_COLOR_BY), explorer.color_by, "colour by", 72),
            "lane": W.Dropdown(options=self._lane_options(ins.wave_size),
                               value=-1 if explorer.lane is None else explorer.lane,
                               description="lane", layout=W.Layout(width="160px")),
            "cbsz": W.Dropdown(options=[0], value=0, description="CBSZ",
                               layout=W.Layout(width="140px")),
            "abid": W.Dropdown(options=[0], value=0, description="ABID",
                               layout=W.Layout(width="140px")),
            "blgp": W.Dropdown(options=[0], value=0, description="BLGP",
                               layout=W.Layout(width="140px")),
            "opsel": _toggles(W, [("low", 0), ("high", 4)], 0, "OPSEL (C/D halves)", 56),
            "index_key": W.Dropdown(options=[0], value=0, description="index_key",
                                    tooltip="OPSEL of a SWMMAC: the index set of I",
                                    layout=W.Layout(width="150px")),
        }
        self.info = W.HTML()
        self.modifier_box = W.HBox([])
        self._modifier_widgets = {
            "cbsz": self.controls["cbsz"], "abid": self.controls["abid"],
            "blgp": self.controls["blgp"],
            "opsel": _labelled(W, "OPSEL (C/D halves)", self.controls["opsel"]),
            "index_key": self.controls["index_key"]}
        self.figures = LayoutFigures()
        self.ins = ins
        self.placement = explorer.placement
        self._fill_modifiers(explorer.modifiers)
        c = self.controls
        for name, handler in (("arch", self._on_arch), ("wave_size", self._on_wave),
                              ("instruction", self._on_instruction), ("operand", self._on_operand),
                              ("cbsz", self._on_cbsz)):
            c[name].observe(handler, names="value")
        for name in ("abid", "blgp", "opsel", "index_key", "color_by"):
            c[name].observe(self._on_change, names="value")
        c["lane"].observe(self._on_lane, names="value")
        self.figures.source.selected.on_change("indices", self._on_selection)
        # Fill the figures before wrapping them: BokehModel snapshots the document when it is
        # created, and patches sent before the browser has a view for it are lost.
        self.recompute()
        self.box = W.VBox([
            W.HBox([c["arch"], _labelled(W, "wave", c["wave_size"]), c["instruction"]]),
            W.HBox([_labelled(W, "operand", c["operand"]),
                    _labelled(W, "colour by", c["color_by"]), c["lane"]]),
            self.modifier_box, self.info, bokeh_pane(self.figures.layout)])

    # -- ipywidgets display -------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)

    @staticmethod
    def _lane_options(wave_size: int) -> list[tuple[str, int]]:
        return [("none", -1)] + [(str(i), i) for i in range(wave_size)]

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Observers ignore the control and selection changes made inside (no recompute while
        controls are being refilled); the previous state comes back, also on an exception."""
        before, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = before

    # -- state ----------------------------------------------------------------------------------
    @property
    def modifiers(self) -> Modifiers:
        c = self.controls
        legal = legal_modifiers(self.ins, c["operand"].value, c["cbsz"].value)
        return Modifiers(*(c[k].value if k in legal else 0 for k in _MODIFIERS))

    @property
    def lane(self) -> int | None:
        v = self.controls["lane"].value
        return None if v < 0 else v

    def _fill_modifiers(self, mods: Modifiers = NO_MODIFIERS) -> None:
        """Show only the modifier controls legal for the instruction and operand."""
        c = self.controls
        op = c["operand"].value
        legal = legal_modifiers(self.ins, op, mods.cbsz)
        with self.quiet():
            for name in ("cbsz", "abid", "blgp", "index_key"):
                values = legal.get(name, (0,))
                c[name].options = list(values)
                c[name].value = getattr(mods, name) if getattr(mods, name) in values else 0
            c["opsel"].value = mods.opsel if "opsel" in legal else 0
        self.shown_modifiers = [n for n in _MODIFIERS if n in legal]
        self.modifier_box.children = [self._modifier_widgets[n] for n in self.shown_modifiers]

    # -- observers ------------------------------------------------------------------------------
    def _on_arch(self, change: Any) -> None:
        if self._quiet:
            return
        arch = get_arch(change["new"])
        c = self.controls
        with self.quiet():
            c["wave_size"].options = list(arch.wave_sizes)
            c["wave_size"].value = arch.default_wave_size
        self._on_wave(None)

    def _on_wave(self, change: Any) -> None:
        if self._quiet:
            return
        c = self.controls
        names = layouts.names(c["arch"].value, wave_size=c["wave_size"].value)
        keep = self.ins.name if self.ins.name in names else names[0]
        with self.quiet():
            c["instruction"].options = names
            c["instruction"].value = keep
            c["lane"].options = self._lane_options(c["wave_size"].value)
            c["lane"].value = -1
        self._on_instruction(None)

    def _on_instruction(self, change: Any) -> None:
        if self._quiet:
            return
        c = self.controls
        self.ins = layouts.get(c["instruction"].value, c["arch"].value,
                               wave_size=c["wave_size"].value)
        ops = list(self.ins.operands)  # 'I' only for a sparse instruction
        if list(c["operand"].options) != ops:
            keep = c["operand"].value if c["operand"].value in ops else "A"
            with self.quiet():  # new options reset the value: put it back
                c["operand"].options = ops
                c["operand"].tooltips = ["operand"] * len(ops)
                c["operand"].value = keep
        self._fill_modifiers()
        self.recompute()

    def _on_operand(self, change: Any) -> None:
        if self._quiet:
            return
        self._fill_modifiers()
        self.recompute()

    def _on_cbsz(self, change: Any) -> None:
        if self._quiet:
            return
        c = self.controls
        self._fill_modifiers(Modifiers(c["cbsz"].value, 0, c["blgp"].value, c["opsel"].value))
        self.recompute()

    def _on_change(self, change: Any) -> None:
        if not self._quiet:
            self.recompute()

    def _on_lane(self, change: Any) -> None:
        if self._quiet:
            return
        self._select(self.lane)

    def _on_selection(self, attr: str, old: Any, new: Any) -> None:
        """A tap in the browser (or any selection change): show the first selected lane."""
        if self._quiet or not new:
            return
        lanes = self.figures.source.data["lane"]
        first = int(min(int(lanes[i]) for i in new))
        if first != self.controls["lane"].value:
            with self.quiet():
                self.controls["lane"].value = first
            self._select(first)

    def _select(self, lane: int | None) -> None:
        p = self.placement
        idx = [] if lane is None else [int(i) for i in (p.lane == lane).nonzero()[0]]
        with self.quiet():
            self.figures.source.selected.indices = idx
        self.info.value = _info_html(self.ins, p, lane)

    def recompute(self) -> None:
        """Redraw for the controls' current values (updates data in place)."""
        c = self.controls
        self.placement = placement(self.ins, c["operand"].value, self.modifiers)
        with self.quiet():
            self.figures.update(self.placement, c["color_by"].value)
        self._select(self.lane)
