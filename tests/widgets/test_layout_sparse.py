"""The layout explorer on RDNA4's sparse v_swmmac_*: the index operand I, index_key, and the
compressed A (2:4 structured sparsity; AMD "RDNA4" ISA reference guide, V_SWMMAC_*; README of
AMD's matrix instruction calculator, "Example of Using the OPSEL Modifier to Change the
Compression Index Set")."""

from __future__ import annotations

import re

import numpy as np
import pytest

import workbench as wb
from workbench import layouts
from workbench.widgets.layout_data import (
    Modifiers,
    index_sets,
    lane_words,
    legal_modifiers,
    matrix_text,
    other_set_of,
    placement,
)
from workbench.widgets.layout_explorer import layout

F16 = "v_swmmac_f32_16x16x32_f16"
IU8 = "v_swmmac_i32_16x16x32_iu8"


def _sparse():
    for ws in (32, 64):
        yield from (i for i in layouts.instructions("gfx1201", wave_size=ws) if i.sparse)


def _grid(text: str) -> list[list[str]]:
    """The cells of the matrix printed after the 'i\\k' header line."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip().startswith("i\\k"))
    return [line.split()[1:] for line in lines[start + 1:start + 17]]


# -- data rows -----------------------------------------------------------------------------------
def test_index_rows_match_the_catalog_for_every_swmmac_and_index_set():
    seen = 0
    for ins in _sparse():
        assert index_sets(ins) in (1, 2, 4)
        for key in range(index_sets(ins)):
            p = placement(ins, "I", Modifiers(index_key=key))
            lay = ins.layout("I", index_key=key)
            u = p.used
            assert u.sum() == 16 * (ins.k // 2), (ins.name, ins.wave_size, key)
            got = lay.element_table()[p.lane[u], p.reg[u], p.elem[u]]
            assert (got == np.stack([p.block[u], p.row[u], p.col[u]], axis=-1)).all()
            slots = {(int(a), int(b), int(c)) for a, b, c in zip(p.lane, p.reg, p.elem)}
            assert len(slots) == len(p.lane) == ins.wave_size * lay.regs * lay.elems_per_reg
            other = other_set_of(p)  # the other sets' fields, never one of this set's
            assert (other[u] == -1).all() and key not in set(other.tolist())
            assert (other >= 0).sum() == (index_sets(ins) - 1) * u.sum()
            seen += 1
    assert seen == 21 + 40  # index sets of the 11 SWMMACs: wave32, wave64


def test_legal_index_key_only_on_i_with_several_sets():
    f16 = layouts.get(F16, "gfx1201")
    assert legal_modifiers(f16, "I") == {"index_key": (0, 1)}
    assert all(legal_modifiers(f16, op) == {} for op in "ABCD")
    assert legal_modifiers(layouts.get(F16, "gfx1201", wave_size=64), "I") == {
        "index_key": (0, 1, 2, 3)}
    assert legal_modifiers(layouts.get("v_swmmac_i32_16x16x64_iu4", "gfx1201"), "I") == {}


def test_errors_name_the_operand_and_the_index_key():
    with pytest.raises(ValueError, match="no index operand"):
        layout("v_wmma_f32_16x16x16_f16", "gfx1201", "I")
    with pytest.raises(ValueError, match="no index operand"):
        layout("v_mfma_f32_16x16x16_bf16", "gfx942", "I")
    with pytest.raises(ValueError, match="index_key=2 is not legal for operand I"):
        layout(F16, "gfx1201", "I", index_key=2)
    with pytest.raises(ValueError, match="index_key=1 does not apply to operand A"):
        layout(F16, "gfx1201", "A", index_key=1)
    with pytest.raises(ValueError, match="disagree"):
        layout(F16, "gfx1201", "I", opsel=1, index_key=2)


# -- static view ---------------------------------------------------------------------------------
def test_text_of_i_for_an_f16_swmmac():
    ins = layouts.get(F16, "gfx1201")
    for key in (0, 1):
        text = layout(F16, "gfx1201", "I", index_key=key).text()
        assert f"{F16} on gfx1201, operand I" in text
        assert "I is the compression index of the 2:4-sparse A" in text
        assert "2 index sets of 16 bits" in text
        assert f"index_key (OPSEL) = {key} selects bits {16 * key + 15}:{16 * key}" in text
        flat = " ".join(text.split())  # the caption is wrapped at 100 columns
        assert '"RDNA4" Instruction Set Architecture Reference Guide, V_SWMMAC_*' in flat
        assert "Matrix Instruction Calculator README" in flat
        assert "entries are lane[hi:lo]" in text
        assert "logical k       0-3       0-3       4-7       4-7" in text
        lay = ins.layout("I", index_key=key)
        want = [[f"{loc.lane}[{loc.bit_hi}:{loc.bit_lo}]" for loc in
                 (lay.location(0, r, c)[0] for c in range(16))] for r in range(16)]
        assert _grid(text) == want
    assert _grid(layout(F16, "gfx1201", "I").text())[0][4] == "16[1:0]"
    assert "index_key=1 (OPSEL): index set 1 of 2" in layout(
        F16, "gfx1201", "I", index_key=1).text()


def test_text_of_i_for_an_iu8_swmmac():
    ins = layouts.get(IU8, "gfx1201")
    text = wb.layout(IU8, arch="gfx1201", operand="I", lane=17).text()
    grid = _grid(text)
    lay = ins.layout("I")
    for r in (0, 5, 15):
        for c in (0, 7, 8, 15):
            loc = lay.location(0, r, c)[0]
            assert grid[r][c] == f"{loc.lane}[{loc.bit_hi}:{loc.bit_lo}]"
    assert grid[1][8] == "17[1:0]" and grid[1][15] == "17[15:14]"  # 8 indices per lane
    assert text.splitlines()[-1] == ("lane 17: " + " | ".join(
        f"v0[{2 * c + 1}:{2 * c}] = I[1,{8 + c}]" for c in range(8)))


def test_html_of_i_for_f16_and_iu8_swmmacs():
    for name in (F16, IU8):
        ins = layouts.get(name, "gfx1201")
        html = layout(name, "gfx1201", "I", lane=3).html()
        assert html == layout(name, "gfx1201", "I", lane=3).html()
        assert "<script" not in html and " id=" not in html
        assert "operand <b>I</b> (u2, index_key=0)" in html
        assert 'class="caption">I is the compression index of the 2:4-sparse A' in html
        cells = re.findall(r'<td class="l(\d+)( sel)?">(\d+)\[(\d+):(\d+)\]</td>', html)
        assert len(cells) == 256
        lay = ins.layout("I")
        lanes, bits = lay.lane_table()[0].ravel(), lay.bit_table()[0].ravel()
        for (cls, sel, lane, hi, lo), want_lane, want_lo in zip(cells, lanes, bits):
            assert int(cls) == int(lane) == want_lane and int(lo) == want_lo
            assert int(hi) == want_lo + 1 and bool(sel) == (want_lane == 3)
        assert html.count('<th colspan="2">') == 8 and '<th colspan="2">28-31</th>' in html
        assert "<th>v0[1:0]</th>" in html and "<th>v0[31:30]</th>" in html
        assert html.count(">key 1</td>") == 32 * 8  # the other index set's half of v0
        assert "cell = lane[hi:lo]" in html


def test_a_of_a_swmmac_is_the_compressed_matrix():
    ins = layouts.get(IU8, "gfx1201")
    e = layout(IU8, "gfx1201", "A")
    text, html = e.text(), e.html()
    assert "A is stored compressed: 16 x 16 iu8 values of the logical 16 x 32 A" in text
    assert "stored A[i,c] (c: the column shown as k) is logical A[i, 4*floor(c/2) + I[i,c]]" in (
        " ".join(text.split()))
    assert "16x16 iu8, 2 VGPRs (compressed: logical A is 16x32)" in text
    assert "logical k    0-3    0-3    4-7" in text
    lay = ins.layout("A")
    assert _grid(text) == [[f"{loc.lane}.{loc.reg}.{loc.bit_lo // 8}" for loc in
                            (lay.location(0, r, c)[0] for c in range(16))] for r in range(16)]
    assert "sparsity" in text and "index operand I, 2 index sets" in text
    assert 'class="caption">A is stored compressed' in html
    assert "<tr><th>logical k</th>" in html
    b = layout(IU8, "gfx1201", "B").text()
    assert "B is dense, 32 x 16" in b
    assert not any(line.strip().startswith("logical k") for line in b.splitlines())
    assert matrix_text(placement(ins, "B")) == str(ins.B)  # B, C, D print as the catalog


def test_layout_repr_of_an_index_set_shows_that_set():
    """Displaying ``ins.layout('I', index_key=1)`` builds the explorer with Modifiers(opsel=1):
    on I that OPSEL is the index_key."""
    ins = layouts.get(F16, "gfx1201")
    bundle = ins.layout("I", index_key=1)._repr_mimebundle_()
    assert "operand <b>I</b> (u2, index_key=1)" in bundle["text/html"]
    assert "17:16]" in bundle["text/plain"]
    assert placement(ins, "I", Modifiers(opsel=1)).mods == Modifiers(index_key=1)


def test_wave64_index_sets():
    ins = layouts.get(F16, "gfx1201", wave_size=64)
    p = placement(ins, "I", Modifiers(index_key=3))
    assert set((p.elem[p.used] * 2).tolist()) == {24, 26, 28, 30}  # 4 sets of 8 bits
    assert "index_key (OPSEL) = 3 selects bits 31:24" in layout(
        F16, "gfx1201", "I", wave_size=64, index_key=3).text()


# -- live widget ---------------------------------------------------------------------------------
def _used_bits(w) -> set[str]:
    d = w.figures.source.data
    return {str(b) for b, n in zip(d["bits"], d["name"]) if str(n).startswith("I[")}


def test_widget_operand_options_follow_the_instruction():
    w = wb.layout("v_wmma_f32_16x16x16_f16", arch="gfx1201").widget()
    c = w.controls
    assert list(c["operand"].options) == ["A", "B", "C", "D"]
    c["instruction"].value = F16
    assert list(c["operand"].options) == ["A", "B", "C", "D", "I"]
    assert c["operand"].value == "A" and w.shown_modifiers == []
    c["operand"].value = "C"
    c["instruction"].value = IU8
    assert c["operand"].value == "C"  # kept across instructions that both have it
    c["operand"].value = "I"
    assert w.placement.operand == "I" and w.shown_modifiers == ["index_key"]
    assert list(c["index_key"].options) == [0, 1]
    assert "I is the compression index" in w.info.value
    assert "I [i,k] index_key=0" in w.figures.matrix.title.text
    c["instruction"].value = "v_wmma_i32_16x16x16_iu8"  # dense: no I any more
    assert list(c["operand"].options) == ["A", "B", "C", "D"]
    assert c["operand"].value == "A" and w.placement.operand == "A"
    assert w.shown_modifiers == [] and "compression index" not in w.info.value
    c["instruction"].value = "v_swmmac_i32_16x16x64_iu4"
    c["operand"].value = "I"
    assert w.shown_modifiers == []  # one index set: no index_key control


def test_widget_index_key_changes_the_picture():
    w = wb.layout(F16, arch="gfx1201", operand="I").widget()
    c = w.controls
    assert w.shown_modifiers == ["index_key"]
    assert _used_bits(w) == {f"{2 * e + 1}:{2 * e}" for e in range(8)}
    names = list(w.figures.source.data["name"])
    assert names.count("(index set index_key=1)") == 256
    before = dict(w.figures.source.data)
    c["index_key"].value = 1
    assert w.modifiers == Modifiers(index_key=1)
    assert _used_bits(w) == {f"{2 * e + 1}:{2 * e}" for e in range(8, 16)}
    assert list(w.figures.source.data["lx"]) != list(before["lx"])
    assert "index_key (OPSEL) = 1 selects bits 31:16" in w.info.value
    assert "index_key=1" in w.figures.matrix.title.text
    assert w.figures.lanes.xaxis.major_label_overrides[0.0] == "v0[1:0]"
    assert ("logical A", "@logical (one of 4 consecutive k)") in w.figures.matrix_hover.tooltips
    # the static view changes with it
    assert layout(F16, "gfx1201", "I").html() != layout(F16, "gfx1201", "I", index_key=1).html()
    c["operand"].value = "B"
    assert w.shown_modifiers == [] and w.modifiers == Modifiers()
    w1 = wb.layout(F16, arch="gfx1201", operand="I", index_key=1).widget()
    assert w1.controls["index_key"].value == 1 and w1.modifiers == Modifiers(index_key=1)
    assert ("logical A", "@logical (one of 4 consecutive k)") not in (
        w.figures.matrix_hover.tooltips)


def test_widget_lane_selection_on_i():
    w = wb.layout(IU8, arch="gfx1201", operand="I").widget()
    w.controls["lane"].value = 18
    src = w.figures.source
    lanes = np.asarray(src.data["lane"])
    assert sorted(src.selected.indices) == np.flatnonzero(lanes == 18).tolist()
    assert lane_words(w.placement, 18) in w.info.value
    assert "v0[1:0] = I[2,8]" in w.info.value
