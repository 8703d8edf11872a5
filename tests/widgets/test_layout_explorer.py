"""The layout explorer (`wb.layout`): its data rows, static text/HTML and the live widget."""

from __future__ import annotations

import re

import numpy as np
import pytest

import workbench as wb
from workbench import layouts
from workbench.widgets.layout_data import (
    Modifiers,
    lane_colors,
    legal_modifiers,
    matrix_text,
    placement,
)
from workbench.widgets.layout_explorer import LayoutExplorer, layout


def _all_instructions():
    for arch in layouts.archs():
        for ws in (32, 64) if arch.startswith("gfx1") else (64,):
            yield from layouts.instructions(arch, wave_size=ws)


# -- data rows ---------------------------------------------------------------------------------
def test_rows_match_the_catalog_for_every_operand():
    """Each (element, slot) row agrees with Layout.element_table; every slot of the operand's
    registers appears exactly once among the unused rows or as a row of some element."""
    for ins in _all_instructions():
        for op in "ABCD":
            p = placement(ins, op)
            lay = ins.layout(op)
            u = p.used
            assert u.sum() == lay.blocks * lay.rows * lay.cols * lay.replicas, (ins.name, op)
            got = lay.element_table()[p.lane[u], p.reg[u], p.elem[u]]
            want = np.stack([p.block[u], p.row[u], p.col[u]], axis=-1)
            assert (got == want).all(), (ins.name, ins.arch, op)
            step = 2 if lay.bits == 64 else 1
            slots = {(int(a), int(b), int(c)) for a, b, c in zip(p.lane, p.reg, p.elem)}
            assert len(slots) == ins.wave_size * (lay.regs // step) * lay.elems_per_reg


def test_rdna3_copies_and_opsel_halves():
    ins = layouts.get("v_wmma_f16_16x16x16_f16", "gfx1100")
    a = placement(ins, "A")
    assert a.replicas == 2
    holders = sorted(int(x) for x in a.lane[a.used & (a.row == 3) & (a.col == 7)])
    assert holders == [3, 19]  # CALC, RDNA3: lanes 16-31 repeat lanes 0-15 for A
    lo, hi = placement(ins, "D"), placement(ins, "D", Modifiers(opsel=4))
    assert set(lo.elem[lo.used].tolist()) == {0} and set(hi.elem[hi.used].tolist()) == {1}
    assert (~lo.used).sum() == 32 * 8  # the other half of each of the 8 registers


def test_cbsz_abid_broadcast_and_blgp_lanes():
    ins = layouts.get("v_mfma_f32_32x32x1_2b_f32", "gfx942")
    p = placement(ins, "A", Modifiers(cbsz=1, abid=1))
    # both blocks read A block 1 (lanes 32-63); lanes 0-31 feed nothing
    assert set(p.lane[p.used].tolist()) == set(range(32, 64))
    assert sorted(set(p.lane[~p.used].tolist())) == list(range(32))
    b = placement(ins, "B", Modifiers(blgp=1))  # BLGP 1: lane L reads L mod 32 (CALC README)
    assert set(b.lane[b.used].tolist()) == set(range(32))
    text = matrix_text(p)
    assert "modifiers cbsz=1 abid=1" in text
    first_row = [line for line in text.splitlines() if line.strip().startswith("0 ")][0]
    assert first_row.split()[1] == "32.0"  # block 0, row 0 is read from lane 32


def test_matrix_text_is_the_catalog_print_without_remapping():
    for ins in layouts.instructions("gfx942"):
        for op in "ABCD":
            assert matrix_text(placement(ins, op)) == str(ins.layout(op))


def test_legal_modifiers():
    bf16 = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")
    assert all(legal_modifiers(bf16, op) == {} for op in "ABCD")
    two = layouts.get("v_mfma_f32_32x32x1_2b_f32", "gfx942")
    assert legal_modifiers(two, "A") == {"cbsz": (0, 1), "abid": (0,)}
    assert legal_modifiers(two, "A", cbsz=1)["abid"] == (0, 1)
    assert legal_modifiers(two, "B") == {"blgp": tuple(range(8))}
    assert legal_modifiers(two, "C") == {}
    sixteen = layouts.get("v_mfma_f32_4x4x1_16b_f32", "gfx942")
    assert legal_modifiers(sixteen, "A")["cbsz"] == (0, 1, 2, 3, 4)
    f64 = layouts.get("v_mfma_f64_16x16x4_f64", "gfx942")
    assert all("blgp" in legal_modifiers(f64, op) for op in "ABCD")  # negate mask
    wmma = layouts.get("v_wmma_f16_16x16x16_f16", "gfx1100")
    assert legal_modifiers(wmma, "D") == {"opsel": (0, 4)} and legal_modifiers(wmma, "A") == {}
    assert legal_modifiers(layouts.get("v_wmma_f16_16x16x16_f16", "gfx1201"), "D") == {}


# -- static view -------------------------------------------------------------------------------
def test_text_is_the_catalog_matrix_with_facts():
    e = wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942")
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")
    text = e.text()
    assert text.endswith(str(ins.A))
    assert "VGPRs per lane  A 2, B 2, C 4, D 4" in text
    assert "8192 per instruction, 512 per cycle per SIMD" in text
    assert repr(e) == text
    e5 = layout("v_mfma_f32_16x16x16_bf16", "gfx942", lane=5)
    assert e5.text().splitlines()[-1] == "lane 5: v0 = A[5,0] A[5,1] | v1 = A[5,2] A[5,3]"


def test_html_cells_and_determinism():
    e = layout("v_mfma_f32_16x16x16_bf16", "gfx942", "C", lane=17)
    html = e.html()
    assert html == layout("v_mfma_f32_16x16x16_bf16", "gfx942", "C", lane=17).html()
    assert "<script" not in html and " id=" not in html
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")
    cells = re.findall(r'<td class="l(\d+)( sel)?">(\d+)\.(\d+)</td>', html)
    assert len(cells) == 256
    lanes, regs = ins.C.lane_table()[0].ravel(), ins.C.reg_table()[0].ravel()
    for (cls, sel, lane, reg), want_lane, want_reg in zip(cells, lanes, regs):
        assert int(cls) == int(lane) == want_lane and int(reg) == want_reg
        assert bool(sel) == (want_lane == 17)
    colors = lane_colors(64)
    assert f".hipwb table.hwl td.l17 {{ background: {colors[17]}; }}" in html
    assert len(set(colors)) == 64


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="operand"):
        layout("v_mfma_f32_16x16x16_bf16", "gfx942", "E")
    with pytest.raises(ValueError, match="cbsz=1 does not apply to operand A"):
        layout("v_mfma_f32_16x16x16_bf16", "gfx942", "A", cbsz=1)
    with pytest.raises(ValueError, match="abid=2 is not legal"):
        layout("v_mfma_f32_32x32x1_2b_f32", "gfx942", "A", cbsz=1, abid=2)
    with pytest.raises(ValueError, match="opsel=4 does not apply to operand A"):
        layout("v_wmma_f16_16x16x16_f16", "gfx1100", "A", opsel=4)
    with pytest.raises(ValueError, match="lane=64 out of range"):
        layout("v_mfma_f32_16x16x16_bf16", "gfx942", lane=64)
    with pytest.raises(ValueError, match="color_by"):
        layout("v_mfma_f32_16x16x16_bf16", "gfx942", color_by="bank")
    with pytest.raises(ValueError, match="unknown matrix instruction"):
        layout("v_mfma_f32_16x16x17_bf16", "gfx942")


def test_static_bundle_outside_a_kernel():
    e = wb.layout("v_wmma_f32_16x16x16_f16", arch="gfx1100", wave_size=64)
    assert isinstance(e, LayoutExplorer) and e.ins.wave_size == 64
    assert set(e._repr_mimebundle_()) == {"text/plain", "text/html"}


# -- live widget -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def widget():
    return wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942").widget()


def _source_lane(w, op, b, r, c):
    d = w.figures.source.data
    name = f"{op}[{f'b{b}:' if w.ins.blocks > 1 else ''}{r},{c}]"
    return sorted(int(ln) for ln, n in zip(d["lane"], d["name"]) if n == name)


def test_widget_figures_hold_their_data_when_wrapped():
    pane = wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942").widget().box.children[-1]
    assert not pane._stale  # no change since the snapshot: a first view draws the real data
    assert "v_mfma_f32_16x16x16_bf16 A" in str(pane.render_bundle)


def test_widget_recomputes_from_controls(widget):
    c = widget.controls
    assert widget.ins.name == "v_mfma_f32_16x16x16_bf16"
    assert _source_lane(widget, "A", 0, 5, 13) == [53]  # catalog: A[5,13] -> lane 53
    c["instruction"].value = "v_mfma_f32_32x32x8_bf16"
    ins = widget.ins
    loc = ins.A.location(0, 7, 6)[0]
    assert _source_lane(widget, "A", 0, 7, 6) == [loc.lane]
    c["operand"].value = "C"
    assert _source_lane(widget, "C", 0, 9, 30) == [ins.C.location(0, 9, 30)[0].lane]
    assert len(widget.figures.source.data["lane"]) == 32 * 32
    assert widget.figures.matrix.x_range.end == 31.5
    assert widget.shown_modifiers == [] and widget.modifier_box.children == ()


def test_widget_modifier_controls_follow_the_instruction(widget):
    c = widget.controls
    c["arch"].value = "gfx942"
    c["instruction"].value = "v_mfma_f32_32x32x1_2b_f32"
    c["operand"].value = "A"
    assert widget.shown_modifiers == ["cbsz", "abid"]
    assert [w.description for w in widget.modifier_box.children] == ["CBSZ", "ABID"]
    assert list(c["cbsz"].options) == [0, 1]
    c["cbsz"].value = 1
    assert list(c["abid"].options) == [0, 1]
    c["abid"].value = 1
    assert widget.modifiers == Modifiers(cbsz=1, abid=1)
    assert _source_lane(widget, "A", 0, 0, 0) == [32]
    c["operand"].value = "B"
    assert widget.shown_modifiers == ["blgp"]
    assert widget.modifiers == Modifiers()
    c["blgp"].value = 3  # (L + 16) mod 64
    assert _source_lane(widget, "B", 0, 0, 0) == [16]


def test_widget_arch_and_wave_switch(widget):
    c = widget.controls
    c["arch"].value = "gfx1100"
    assert widget.ins.arch == "gfx1100" and widget.ins.wave_size == 32
    assert list(c["wave_size"].options) == [32, 64]
    c["operand"].value = "A"
    assert _source_lane(widget, "A", 0, 3, 7) == [3, 19]
    c["wave_size"].value = 64
    assert _source_lane(widget, "A", 0, 3, 7) == [3, 19, 35, 51]
    c["instruction"].value = "v_wmma_f16_16x16x16_f16"
    c["operand"].value = "D"
    assert widget.shown_modifiers == ["opsel"] and len(widget.modifier_box.children) == 1
    c["opsel"].value = 4
    d = widget.figures.source.data
    used = np.array([n != "(unused)" for n in d["name"]])
    assert set(np.asarray(d["elem"])[used].tolist()) == {1}


def test_widget_lane_selection_both_ways(widget):
    c = widget.controls
    c["arch"].value = "gfx942"
    c["instruction"].value = "v_mfma_f32_16x16x16_bf16"
    c["operand"].value = "A"
    src = widget.figures.source
    c["lane"].value = 21
    lanes = np.asarray(src.data["lane"])
    sel = src.selected.indices
    assert sorted(sel) == np.flatnonzero(lanes == 21).tolist() and len(sel) == 4
    assert "lane 21: v0 = A[5,4] A[5,5] | v1 = A[5,6] A[5,7]" in widget.info.value
    # what a tap in the browser sends back: one selected row -> that row's lane
    row = int(np.flatnonzero(lanes == 40)[0])
    widget._on_selection("indices", [], [row])
    assert c["lane"].value == 40
    assert sorted(src.selected.indices) == np.flatnonzero(lanes == 40).tolist()
    c["color_by"].value = "register"
    regs = np.asarray(src.data["reg"])
    colors = np.asarray(src.data["mcolor"])
    assert len(set(colors[regs == 0])) == 2 and set(colors[regs == 0]).isdisjoint(
        colors[regs == 1])  # two bf16 halves of v0 share a hue, at two shades
    assert src.selected.indices  # the lane stays selected across a recompute


def test_views_wrap_instead_of_overflowing_the_output():
    """The row of the two views spans the output and wraps; each view keeps its own size."""
    figs = wb.layout("v_mfma_f32_32x32x1f32", arch="gfx90a", operand="C").widget().figures
    assert figs.layout.sizing_mode == "stretch_width"
    assert figs.layout.styles["flex-wrap"] == "wrap"
    assert [f.styles["flex"] for f in figs.layout.children] == ["0 0 auto", "0 0 auto"]
    assert figs.lanes.frame_width == 32 * 26  # 32 VGPR columns: wider than most outputs


def test_one_matrix_label_per_cell_for_rdna3_copies():
    w = wb.layout("v_wmma_f32_16x16x16_f16", arch="gfx1100").widget()
    d = w.figures.source.data
    labelled = ~np.isnan(np.asarray(d["tx"], dtype=float))
    assert labelled.sum() == 256  # 512 rows (2 copies), one label per element
    assert set(np.asarray(d["lane"])[labelled].tolist()) == set(range(16))


def test_widgets_in_a_kernel_send_bokehjs_once(monkeypatch):
    import IPython.display

    from workbench.widgets import base

    sent = []
    monkeypatch.setattr(IPython.display, "publish_display_data", lambda data: sent.append(data))
    monkeypatch.setattr(base, "_BOKEHJS_SENT", {})
    monkeypatch.setattr(base, "in_kernel", lambda: True)
    wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942").widget()
    wb.layout("v_wmma_f32_16x16x16_f16", arch="gfx1100").widget()
    assert len(sent) == 1  # core BokehJS, inline, before the first explorer's views
    assert "BEGIN bokeh.min.js" in sent[0]["application/vnd.bokehjs_load.v0+json"]


def test_widget_info_names_the_active_modifier():
    w = wb.layout("v_mfma_f64_16x16x4_f64", arch="gfx942", operand="C").widget()
    w.controls["blgp"].value = 4  # CDNA3 f64: BLGP bit 2 negates C (CALC README)
    assert "BLGP=4 negates C (C is negated)" in w.info.value
    assert "BLGP=4 negates C" in layout("v_mfma_f64_16x16x4_f64", "gfx942", "C", blgp=4).text()


def test_widget_stays_live_after_a_failed_recompute(monkeypatch):
    """An exception inside a quiet section (here: drawing) must not leave the observers muted."""
    w = wb.layout("v_mfma_f32_16x16x16_bf16", arch="gfx942").widget()

    def broken(p, color_by="lane"):
        raise RuntimeError("draw failed")

    monkeypatch.setattr(w.figures, "update", broken)
    with pytest.raises(RuntimeError, match="draw failed"):
        w.controls["operand"].value = "C"
    assert w._quiet is False
    monkeypatch.undo()
    w.controls["operand"].value = "B"  # recomputes again
    assert _source_lane(w, "B", 0, 13, 5) == [w.ins.B.location(0, 13, 5)[0].lane]
    with pytest.raises(ValueError, match="inside"), w.quiet():
        assert w._quiet is True
        raise ValueError("inside")
    assert w._quiet is False
