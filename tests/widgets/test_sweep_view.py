"""``SweepResult.view()``: the sweep view's text, Pareto fronts, hover, embedded HTML and the
live widget's tap -> timing report, on a SweepResult built from hand-written rows (nothing
compiles)."""
from __future__ import annotations

import base64
import gzip
import json
import re

import pytest

from workbench.errors import ArgumentValueError
from workbench.sweeps.frame import SweepResult
from workbench.widgets.sweep_view import SweepView, front, sweep_view

SHAPE = "4096x4096x4096"


def row(bm, bn, vgprs, agprs, lds_kib, waves, tflops, *, status="ok", target="mi355x",
        occ="vgprs"):
    r = dict(BM=bm, BN=bn, target=target, arch="gfx950", shape=SHAPE, status=status,
             error=None if status == "ok" else "error: no such tile")
    if status == "ok":
        r.update(vgprs=vgprs, agprs=agprs, lds_bytes=lds_kib * 1024, waves_per_simd=waves,
                 occupancy_limiter=occ, modelled_us=1000.0 / tflops, modelled_tflops=tflops,
                 modelled_gbs=tflops * 0.75, modelled_limiter="latency-bound")
    return r


# row label: BM BN  VGPRs AGPRs  LDS KiB  waves  TFLOP/s
ROWS = [row(64, 64, 64, 0, 8, 8, 500.0),            # 0: on every front (least of everything)
        row(64, 128, 96, 0, 16, 5, 900.0),          # 1: on every front
        row(128, 64, 96, 0, 16, 5, 850.0),          # 2: ties 1 on every x, slower: no front
        row(128, 128, 128, 0, 32, 4, 1400.0, occ="lds"),  # 3
        row(128, 256, 200, 0, 24, 2, 1300.0),       # 4: LDS front only
        row(256, 128, 100, 64, 48, 3, 1500.0),      # 5: the best; 164 registers with AGPRs
        row(256, 256, 256, 128, 64, 1, 1450.0),     # 6: beaten by 5 everywhere
        row(256, 512, 0, 0, 0, 0, 0.0, status="compile error")]  # 7: not drawn


@pytest.fixture
def res():
    return SweepResult.from_rows([dict(r) for r in ROWS], ["BM", "BN"], {}, None)


def _front_labels(layout, panel):
    return layout.select_one({"name": f"front_{panel}"}).data["label"]


def test_text_lists_the_best_first_and_the_failures(res):
    view = res.view()
    assert isinstance(view, SweepView)
    lines = view.text().splitlines()
    assert lines[0] == ("sweep: modelled TFLOP/s of 7 working variants on mi355x, shape "
                        f"{SHAPE} (modelled)")
    assert lines[2].split() == ["row", "BM", "BN", "TFLOP/s", "VGPR+AGPR", "LDS", "KiB",
                                "waves/SIMD", "occupancy", "limiter", "time", "limiter"]
    assert lines[3].split() == ["5", "256", "128", "1500.0", "164", "48", "3", "vgprs",
                                "latency-bound"]
    assert [ln.split()[0] for ln in lines[3:10]] == ["5", "6", "3", "4", "1", "2", "0"]
    assert lines[-1] == "1 of 8 variants failed (not drawn): 1 compile error"
    assert view.text() == res.view().text()  # deterministic
    assert set(view._repr_mimebundle_()) == {"text/plain", "text/html"}  # outside a kernel


def test_pareto_fronts_in_the_figure(res):
    view = sweep_view(res)
    layout, source, figs = view.figure()
    assert list(figs) == ["registers", "lds", "waves"]
    # registers are VGPRs + AGPRs: row 5 (100 + 64) comes after row 3 (128)
    assert _front_labels(layout, "registers") == ["0", "1", "3", "5"]
    assert layout.select_one({"name": "front_registers"}).data["x"] == [64, 96, 128, 164]
    assert _front_labels(layout, "lds") == ["0", "1", "4", "3", "5"]
    # more waves per SIMD is better: the front falls as occupancy rises
    assert _front_labels(layout, "waves") == ["5", "3", "1", "0"]
    assert layout.select_one({"name": "front_waves"}).data["x"] == [3, 4, 5, 8]
    # one shared source, one point per working row, best first; every panel draws from it
    assert source.data["label"] == ["5", "6", "3", "4", "1", "2", "0"]
    assert all(any(getattr(r, "data_source", None) is source for r in f.renderers)
               for f in figs.values())
    assert figs["lds"].y_range is figs["registers"].y_range is figs["waves"].y_range
    assert source.data["front"][0] == "registers, LDS, occupancy"
    assert source.data["front"][source.data["label"].index("4")] == "LDS"
    assert source.data["front"][source.data["label"].index("6")] == "-"


def test_local_front_rule_is_the_results(res):
    """The view's own front (for VGPR+AGPR sums and occupancy) keeps SweepResult.pareto's rule:
    on a plain column both give the same rows."""
    view = res.view()
    picked = list(res.pareto(x="vgprs", y="modelled_tflops").index)
    assert picked == [0, 1, 5]
    idx = front(view._col("vgprs"), view._col("modelled_tflops"), False, True)
    assert sorted(view.labels[i] for i in idx) == picked


def test_hover_names_every_parameter_and_the_resources(res):
    layout, source, figs = res.view().figure()
    for fig in figs.values():
        hovers = [t for t in fig.tools if type(t).__name__ == "HoverTool"]
        assert len(hovers) == 1
        names = [name for name, _ in hovers[0].tooltips]
        assert names[:2] == ["BM", "BN"]
        for want in ("modelled TFLOP/s", "VGPRs", "AGPRs", "LDS KiB", "waves/SIMD",
                     "occupancy limiter"):
            assert want in names
    i = source.data["label"].index("5")
    assert (source.data["p0"][i], source.data["p1"][i], source.data["metric"][i],
            source.data["lds_kib"][i]) == ("256", "128", "1500.0", "48")


def test_time_and_bandwidth_metrics(res):
    view = res.view(y="modelled_us")
    assert view.higher is False and view.metric_label == "modelled time (µs)"
    best = view.text().splitlines()[3].split()
    assert best[:4] == ["5", "256", "128", "0.67"]
    assert _front_labels(view.figure()[0], "registers") == ["0", "1", "3", "5"]
    no_flops = [dict(r, modelled_tflops=None) for r in ROWS]
    gbs = SweepResult.from_rows(no_flops, ["BM", "BN"], {}, None).view()
    assert gbs.metric == "modelled_gbs"
    assert gbs.text().splitlines()[3].split()[3] == "1125"  # 1500 * 0.75, no decimals
    with pytest.raises(ArgumentValueError, match="is not a column of the sweep"):
        res.view(y="tflops")


def test_targets_and_shapes(res):
    two = SweepResult.from_rows(ROWS + [row(64, 64, 64, 0, 8, 8, 300.0, target="mi300x")],
                                ["BM", "BN"], {}, None)
    view = two.view()
    assert view.target == "mi355x"
    assert "showing the first; other targets: mi300x (view(target=...))" in view.heading()
    other = two.view(target="mi300x", shape=(4096, 4096, 4096))
    assert other.labels == [8] and "other targets" not in other.heading()
    assert other.failures() == "no variant failed (1 on this target and shape)"
    with pytest.raises(ArgumentValueError, match="targets: mi355x, mi300x"):
        two.view(target="gfx942")
    with pytest.raises(ArgumentValueError, match="shapes: 4096x4096x4096"):
        two.view(shape=(1, 2))


def test_html_embeds_the_figure_with_inline_bokehjs(res):
    html = res.view().html()
    assert "<table>" in html and "1 of 8 variants failed" in html
    assert re.search(r"https?://", html) is None  # nothing to download, no CDN
    assert "<script src" not in html and "<link" not in html
    assert 'data-root-id="' in html and "embed_items" in html
    payload = json.loads(re.search(r'atob\(("[^"]+")\)', html).group(1))
    chunks = json.loads(gzip.decompress(base64.b64decode(payload)))
    assert chunks[0].startswith("/* BEGIN bokeh.min.js */")
    empty = SweepResult.from_rows([ROWS[-1]], ["BM", "BN"], {}, None).view()
    assert "<script" not in empty.html()  # nothing to draw: no figure, no BokehJS
    assert "no working variant" in empty.text()


class Stub:
    def __init__(self, label):
        self.label = label

    def __repr__(self):
        return f"stub timing report of row {self.label}"


def test_widget_tap_opens_the_report(res, monkeypatch):
    seen = []

    def report(self, label):
        seen.append([o["data"]["text/plain"] for o in widget.output.outputs])
        return Stub(label)

    monkeypatch.setattr(SweepResult, "report", report)
    widget = res.view().widget()
    pane = widget.box.children[1]
    assert not pane._stale  # the pane's snapshot holds the data
    i = widget.source.data["label"].index("3")
    widget.source.selected.indices = [i]  # what a tap in the browser syncs back
    assert seen == [["computing the modelled report for BM=128, BN=128 (row 3) ..."]]
    assert [o["data"]["text/plain"] for o in widget.output.outputs] == [
        "BM=128, BN=128 (row 3):", "stub timing report of row 3"]
    widget.source.selected.indices = []  # a deselect keeps the report
    widget.source.selected.indices = [i]
    assert len(seen) == 1  # a second tap on the row reuses its report


def test_widget_shows_a_failed_report_and_stays_live(res):
    widget = res.view().widget()  # built from rows: the result has no sweep specification
    widget.source.selected.indices = [0]
    (out,) = widget.output.outputs
    assert out["data"]["text/plain"].startswith("no report for BM=256, BN=128 (row 5): "
                                                "ArgumentValueError:")
    assert "sweep specification" in out["data"]["text/plain"]
    widget.source.selected.indices = [1]
    assert "(row 6)" in widget.output.outputs[0]["data"]["text/plain"]
