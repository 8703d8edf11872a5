"""wb.lds_heatmap: panels from traces / analyses / Access / AccessGroup, grids, text, HTML, and
the live widget (ipywidgets + bokeh) driven without a front end."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import workbench as wb
from workbench.lds import SharedTile, XorSwizzle, column_access, mfma_operand_reads
from workbench.lds.trace_analysis import trace_conflicts
from workbench.widgets.base import WIDGET_MIME
from workbench.widgets.lds_heatmap import LdsHeatmap, grid_html, grid_text
from workbench.widgets.lds_panels import IDLE, OK, cell_char, colour, hits_colour

LANE = np.arange(64)
ALL = np.ones(64, dtype=bool)


def fake_trace(reads: list[np.ndarray], kernel: str = "k", read_line: int = 7):
    """One ds_write_b32 (pc 0x10, line 3, sequential) and a ds_read_b32 (pc 0x20) per entry of
    ``reads`` (one execution each)."""
    rows = [(0x10, "ds_write_b32", LANE * 4, 3)] + [(0x20, "ds_read_b32", a, read_line)
                                                   for a in reads]
    n = len(rows)
    addr = np.zeros((n, 64, 2), dtype=np.uint32)
    for i, r in enumerate(rows):
        addr[i] = np.stack([r[2], r[2]], -1)
    ds = SimpleNamespace(pc=np.array([r[0] for r in rows]),
                         mnemonic=np.array([r[1] for r in rows], dtype=object),
                         wave=np.arange(n), workgroup=np.zeros((n, 3), int),
                         exec=np.ones((n, 64), bool), addr=addr, two_addr=np.zeros(n, bool),
                         width=np.full(n, 4), source_line=np.array([r[3] for r in rows]))
    return SimpleNamespace(kernel=kernel, ds=ds)


COLUMN = (LANE % 32) * 128 + (LANE // 32) * 4         # tile[32][32] column read: 32-way
PADDED = (LANE % 32) * 132 + (LANE // 32) * 4         # tile[32][33]: conflict-free


def groups():
    plain = SharedTile((16, 64), "bf16")
    swz = SharedTile((16, 64), "bf16", swizzle=XorSwizzle(16, chunk_bytes=8))
    return (mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", plain, "ds_read_b64"),
            mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", swz, "ds_read_b64"))


def test_lazy_attribute_and_trace_subject():
    hm = wb.lds_heatmap(fake_trace([COLUMN, COLUMN]))
    assert isinstance(hm, LdsHeatmap)
    (p,) = hm.panels
    assert [it.mnemonic for it in p.items] == ["ds_read_b32", "ds_write_b32"]  # ranked
    assert hm.selected == [0]
    (g,) = hm.grids()
    # one execution: each half-wave phase puts 32 distinct dwords on one bank (0, then 1)
    assert g.load.shape == (2, 32) and g.row_info == ("32", "32")
    assert g.counts[0, 0] == 32 and g.counts[1, 1] == 32 and g.counts.sum() == 64
    text = hm.text()
    assert "== k (gfx942) ==" in text and "where the bank conflicts are" in text
    assert "0: 0-31       32  w..............................." in text
    assert text == wb.lds_heatmap(fake_trace([COLUMN, COLUMN])).text()


def test_before_after_pairs_like_instructions():
    before = fake_trace([COLUMN], "naive")
    after = trace_conflicts(fake_trace([PADDED], "padded"))
    hm = wb.lds_heatmap(before, after)
    # 'after' has no conflicts, so its ranking starts with the write (lower pc); the default
    # selection still draws its read, like the 'before' side.
    assert [p.items[s].mnemonic for p, s in zip(hm.panels, hm.selected)] == ["ds_read_b32"] * 2
    assert [p.title for p in hm.panels] == ["before: naive (gfx942)", "after: padded (gfx942)"]
    # per execution 2 phases x 31 extra cycles
    assert hm.comparison() == ("conflict cycles 62 -> 0 (all instructions), 62 -> 0 (drawn "
                               "instruction)")
    g_after = hm.grids()[1]
    assert g_after.row_info == ("1", "1") and (g_after.counts == 1).all()
    html = hm.html()
    assert html.count('class="card"') == 2 and "<script" not in html
    assert f"background:{colour(32)}" in html and f"background:{OK}" in html
    assert html == wb.lds_heatmap(before, after).html()


def test_selection_by_line_and_rank():
    t = fake_trace([COLUMN], read_line=9)
    assert wb.lds_heatmap(t, line=3).selected == [1]
    assert wb.lds_heatmap(t, rank=1).selected == [1]
    with pytest.raises(ValueError, match="no DS instruction on line 5 .*3, 9"):
        wb.lds_heatmap(t, line=5)
    with pytest.raises(IndexError, match="rank 4 out of range 0..1"):
        wb.lds_heatmap(t, rank=4)
    with pytest.raises(ValueError, match="one value per subject"):
        wb.lds_heatmap(t, t, line=(3,))


def test_access_group_and_access_subjects():
    plain, swz = groups()
    hm = wb.lds_heatmap(plain, swz, labels=("row-major", "xor"))
    text = hm.text()
    assert "== row-major: v_mfma_f32_16x16x16_bf16 A" in text
    assert "ASSUMPTION: gfx942 ds_read_b64" in text          # phase source shown
    # 16 lanes of a phase, 16 rows 128 B apart, same 8-byte column -> 16 dwords on 2 banks
    assert "0: 0-15       16  gg.............................." in text
    assert "conflict cycles 60 -> 0" in text
    acc = column_access(SharedTile((32, 32), "f32"), 0)
    one = wb.lds_heatmap(acc)
    assert one.grids()[0].row_info == ("32", "32") and acc.summary() in one.text()


def test_modes_and_views():
    t = fake_trace([COLUMN, COLUMN + 4, COLUMN + 8])   # banks 0/1, 1/2, 2/3
    hm = wb.lds_heatmap(t, mode="total")
    g = hm.grids()[0]
    ins = trace_conflicts(t)[0]
    assert np.array_equal(g.counts, ins.bank_hits())
    assert g.counts[0, :4].tolist() == [32, 32, 32, 0] and g.palette == "hits"
    assert g.row_info == ("32.0", "32.0")               # mean degree per execution
    assert "busiest cell 32" in g.caption
    lanes = hm.grids(mode="worst", view="lanes")[0]
    assert lanes.load.shape == (64, 32) and lanes.row_labels[33] == "lane 33 (ph 1)"
    assert lanes.load[0, 0] == 32 and lanes.counts[0].sum() == 1
    assert "lane 33 (ph 1)" in grid_text(lanes)
    assert "<table" in grid_html(lanes)
    with pytest.raises(ValueError, match="mode must be one of"):
        wb.lds_heatmap(t, mode="mean")
    with pytest.raises(ValueError, match="view must be one of"):
        wb.lds_heatmap(t, view="banks")


def test_mode_and_view_errors_list_the_choices():
    """The constructor and a grid request (hm.grids) reject the same values the same way."""
    hm = wb.lds_heatmap(fake_trace([COLUMN]))
    for make in (lambda m, v: wb.lds_heatmap(fake_trace([COLUMN]), mode=m, view=v), hm.grids):
        with pytest.raises(ValueError,
                           match=r"^mode must be one of 'worst', 'all', 'total', got 'mean'$"):
            make("mean", "phases")
        with pytest.raises(ValueError, match=r"^view must be one of 'phases', 'lanes', got 'x'$"):
            make("total", "x")


def test_bad_subjects():
    with pytest.raises(TypeError, match="at least one"):
        wb.lds_heatmap()
    with pytest.raises(TypeError, match="got int"):
        wb.lds_heatmap(3)
    with pytest.raises(ValueError, match="one label per subject"):
        wb.lds_heatmap(fake_trace([COLUMN]), labels=("a", "b"))


def test_colours():
    assert colour(0) == IDLE and colour(1) == OK
    assert colour(2) != colour(3) and colour(100) == colour(8)


def test_cell_characters_follow_the_legend():
    """'.' idle, 1-9, a=10 .. z=35, '#' more; a fractional load rounds up (LEGEND)."""
    loads = [0, -1.0, 0.25, 1, 9, 9.5, 10, 17, 35, 35.5, 36, 1000]
    assert "".join(cell_char(v) for v in loads) == "..119aahz###"
    acc = column_access(SharedTile((32, 32), "f32"), 0)   # 32-way: 'w', as Access.table_text
    assert "w" in repr(acc) and cell_char(float(acc.bank_matrix().max())) == "w"


def test_static_bundle_outside_kernel_and_live_widget():
    hm = wb.lds_heatmap(fake_trace([COLUMN]), trace_conflicts(fake_trace([PADDED])))
    bundle = hm._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"} and WIDGET_MIME not in bundle
    w = hm.widget()
    panes = [col.children[2] for col in w.children[1].children]
    assert len(panes) == 2 and not any(p._stale for p in panes)  # filled before wrapping
    c = w.controls
    src0, src1 = c["sources"]
    assert len(src0.data["bank"]) == 2 * 32
    assert src0.data["count"][0] == 32 and src0.data["colour"][0] == colour(32)
    c["dropdowns"][0].value = 1                       # the write: conflict-free
    assert set(src0.data["colour"]) == {OK}
    assert "ds_write_b32" in c["info"][0].value
    c["view"].value = "lanes"
    assert len(src1.data["bank"]) == 64 * 32
    assert c["figures"][1].y_range.start == 63.5 and c["figures"][1].height > 500
    c["mode"].value = "total"                        # lanes view ignores the mode
    assert len(src1.data["bank"]) == 64 * 32
    c["view"].value = "phases"
    assert src1.data["count"][:2] == [1, 1]


def test_live_figure_numbers_ticks_and_title():
    hm = wb.lds_heatmap(fake_trace([COLUMN, COLUMN, COLUMN, COLUMN]), groups()[1])
    c = hm.widget().controls
    fig, numbers, src = c["figures"][0], c["numbers"][0], c["sources"][0]
    assert numbers.visible and src.data["text"][:2] == ["32", ""]  # 32-way cell, idle cell
    assert src.data["ink"][0] == "#fff" and src.data["ink"][1] == "#000"
    assert fig.yaxis[0].ticker.ticks == [0, 1]
    assert "white-space: pre-wrap" in c["info"][0].value
    c["mode"].value = "total"            # 4 executions x 32 dwords = 128 hits: 3 digits
    assert src.data["text"][0] == "128" and not numbers.visible
    c["mode"].value = "worst"
    c["view"].value = "lanes"            # 64 rows of 9 px: no numbers, every 4th label
    assert not numbers.visible and fig.yaxis[0].ticker.ticks == list(range(0, 64, 4))
    assert fig.height == 70 + 9 * 64
    long_title = c["figures"][1].title.text   # the AccessGroup item's long label, shortened
    assert long_title.endswith("...") and len(long_title) == 72
    assert long_title[:-3] in hm.panels[1].items[0].label


def test_all_executions_mode_shows_each_banks_worst_n_way():
    """mode="all": per bank the highest n-way of any execution, on the absolute n-way scale --
    the column read is 32-way on every bank it reaches, the padded read 1-way everywhere."""
    t = fake_trace([COLUMN, COLUMN + 4, COLUMN + 8])    # phase 0 on bank 0, then 1, then 2
    g = wb.lds_heatmap(t, mode="all").grids()[0]
    assert g.palette == "degree" and g.row_info == ("32", "32")
    assert g.counts[0, :4].tolist() == [32, 32, 32, 0]
    assert g.counts[1, :4].tolist() == [0, 32, 32, 32]
    ins = trace_conflicts(t)[0]
    want = np.max([ins.access(k).bank_matrix() for k in range(3)], axis=0)
    assert np.array_equal(g.counts, want) and "over all 3 executions" in g.caption
    after = wb.lds_heatmap(t, fake_trace([PADDED, PADDED]), mode="all").grids()[1]
    assert (after.counts == 1).all() and after.row_info == ("1", "1")


def test_cells_rows_and_legend_say_what_colour_means():
    hm = wb.lds_heatmap(fake_trace([COLUMN]), fake_trace([PADDED]))
    html = hm.html()
    # one legend for the pair, naming the scale and every n-way swatch
    assert html.count("<b>legend (one colour scale for every picture)</b>") == 1
    assert html.count('class="ldskey"') == 1 and "colour and number = n-way" in html
    assert all(f">{n}-way</span>" in html for n in range(2, 8)) and ">8+-way</span>" in html
    assert f'background:{OK};color:#000">1-way (no conflict)</span>' in html
    # every cell's tooltip names its degree; each row states its phase degree
    assert 'title="bank 0, phase 0: 0-31: 32-way"' in html
    assert 'title="bank 1, phase 0: 0-31: idle"' in html
    assert 'title="bank 5, phase 1: 32-63: 1-way"' in html
    assert '<td class="num">32-way</td>' in html and '<td class="num">1-way</td>' in html
    assert "legend: colour and number = n-way" in hm.text()
    single = grid_html(hm.grids()[0])                  # a lone grid carries its own legend
    assert 'class="ldskey"' in single and "32-way" in single


def test_before_and_after_share_one_scale_for_bank_hits():
    before = fake_trace([COLUMN, COLUMN])                # bank 0: 64 hits in phase 0
    after = fake_trace([PADDED, PADDED])                 # every bank: 2 hits per phase
    shared = wb.lds_heatmap(before, after, mode="total").grids()
    assert [g.top for g in shared] == [64, 64]
    assert shared[1].load.max() == pytest.approx(2 / 64)            # light, not "busiest"
    assert shared[0].colour(shared[0].load[0, 0]) != shared[1].colour(shared[1].load[0, 0])
    own = wb.lds_heatmap(before, after, mode="total", scale="own").grids()
    assert [g.top for g in own] == [64, 2] and own[1].load.max() == 1.0
    legend = {label: c for c, label in shared[0].legend()}
    assert legend["0"] == IDLE and len(legend) == 10 and legend["57-64"] == hits_colour(1.0)
    for label, c in legend.items():       # each swatch is the colour its hits are drawn in
        hi = int(label.split("-")[-1])
        assert hits_colour(hi / 64) == c and (hi == 0 or hits_colour((hi + 1) / 64) != c
                                               or hi == 64)
    assert "darkest = 64" in wb.lds_heatmap(before, after, mode="total").html()
    with pytest.raises(ValueError, match="scale must be 'shared'"):
        wb.lds_heatmap(before, scale="mine")


def test_live_widget_modes_legend_and_tooltips():
    hm = wb.lds_heatmap(fake_trace([COLUMN, COLUMN + 4]), fake_trace([PADDED, PADDED]))
    c = hm.widget().controls
    assert [v for _, v in c["mode"].options] == ["worst", "all", "total"]
    assert "n-way" in c["legend"].value and c["sources"][0].data["tip"][0].endswith("32-way")
    c["mode"].value = "all"
    src0, src1 = c["sources"]
    assert src0.data["count"][:2] == [32, 32] and set(src1.data["text"]) == {"1"}
    c["mode"].value = "total"                          # bank hits on one scale
    assert "darkest = 32" in c["legend"].value and src1.data["tip"][0].endswith("2 hits")
    assert src1.data["colour"][0] != src0.data["colour"][0]
