"""The roofline of timing reports: physics (an MFMA-only loop meets the MFMA ceiling, a streaming
copy the achievable-HBM ceiling), the ceilings against the chip tables by hand, overlays, errors,
and the views (bokeh HTML, the SVG drawn without JavaScript, text).

Every point is modelled (no GPU here); the ceilings carry the chip table's sources.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.errors import ArgumentTypeError, ArgumentValueError
from workbench.runtime.kernel import Kernel
from workbench.timing import get_chip
from workbench.timing.roofline import chip_ceilings

KDIR = Path(__file__).resolve().parents[1] / "kernels" / "timing"

# gfx950's full-rate bf16 MFMA is 16x16x32 (the 16x16x16 of mfma_loop.hip runs at CDNA3's rate
# per CU there, half of MI355X's bf16 peak): the same loop with it
MFMA32 = """
typedef float f4 __attribute__((ext_vector_type(4)));
typedef __bf16 b8 __attribute__((ext_vector_type(8)));
extern "C" __global__ __launch_bounds__(256) void mfma_loop32(float* out, int iters) {
  b8 x = (b8)(__bf16)(float)threadIdx.x, y = (b8)(__bf16)(float)(threadIdx.x + 1);
  f4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
  for (int i = 0; i < iters; ++i) {
    a0 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(x, y, a0, 0, 0, 0);
    a1 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(x, y, a1, 0, 0, 0);
    a2 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(x, y, a2, 0, 0, 0);
    a3 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(x, y, a3, 0, 0, 0);
  }
  f4 s = a0 + a1 + a2 + a3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s.x + s.y + s.z + s.w;
}
"""

# one LDS round trip per element: a point at the LDS level too
LDS = """
extern "C" __global__ __launch_bounds__(256) void lds_scale(const float* x, float* y) {
  __shared__ float s[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x] = x[i];
  __syncthreads();
  y[i] = 2.0f * s[255 - threadIdx.x];
}
"""

ARCH = {"mi300x": "gfx942", "mi355x": "gfx950"}


def _mfma(chip: str):
    arch = ARCH[chip]
    if chip == "mi300x":
        k = Kernel(wb.compile((KDIR / "mfma_loop.hip").read_text(), arch=arch), "mfma_loop")
    else:
        k = Kernel(wb.compile(MFMA32, arch=arch), "mfma_loop32")
    g = int(get_chip(chip)["cus"]) * k.occupancy(256, arch).workgroups_per_cu  # one full round
    return k.timing[g, 256](np.zeros(g * 256, np.float32), 256, chip=chip)


def _copy(chip: str, flops: bool = True):
    k = Kernel(wb.compile((KDIR / "copy.hip").read_text(), arch=ARCH[chip]), "copy4")
    n4 = 4 << 20  # 64 MiB each way: the grid is many rounds, bandwidth-bound
    x = np.zeros((n4, 4), np.float32)
    kw = {"flops": 2 * 4 * n4} if flops else {}  # 2 FLOP per float (as a triad's)
    return k.timing[(n4 + 255) // 256, 256](x, np.zeros_like(x), n4, chip=chip, **kw)


@pytest.fixture(scope="module")
def reports():
    return {c: (_mfma(c), _copy(c)) for c in ARCH}


# -- physics ----------------------------------------------------------------------------------
@pytest.mark.parametrize("chip", list(ARCH))
def test_an_mfma_only_loop_sits_within_2_percent_of_the_mfma_ceiling(reports, chip):
    r = reports[chip][0]
    rf = r.roofline()
    c = rf.ceiling("MFMA bf16")
    # at the report's modelled (power-limited) clock, not the max clock
    assert c.clock_ghz == r.clock_ghz < get_chip(chip)["clock_ghz"]
    assert c.value == pytest.approx(get_chip(chip).peak_flops("bf16", r.clock_ghz * 1e9))
    assert {p.level for p in rf.points} == {"L2", "Infinity Cache", "HBM"}  # no LDS bytes
    for p in rf.points:
        assert 0.98 <= p.attained / c.value <= 1.0 + 1e-9, (p.level, p.attained / c.value)
        assert p.bound == "MFMA bf16" and p.attained == pytest.approx(r.flops / r.seconds)


@pytest.mark.parametrize("chip", list(ARCH))
def test_a_streaming_copy_reaches_the_achievable_hbm_ceiling(reports, chip):
    r = reports[chip][1]
    rf = r.roofline()
    p = rf.point("HBM")
    ach = rf.ceiling("HBM achievable")
    assert ach.value == pytest.approx(get_chip(chip).achievable_hbm_bytes_per_s)
    assert 0.90 <= p.achieved / ach.value <= 1.0001, p.achieved / ach.value
    assert p.percent_achievable == pytest.approx(100 * p.achieved / ach.value)
    assert p.intensity == pytest.approx(2 / 8)  # 2 FLOP per float read and written
    assert p.bound == "HBM peak"
    assert rf.ceiling("HBM peak").value == pytest.approx(get_chip(chip).hbm_bytes_per_s)


# -- ceilings ---------------------------------------------------------------------------------
def test_the_ceilings_are_the_chip_tables_numbers_times_the_clock():
    f = 1.5e9  # by hand: MI300X 304 CUs, 8 XCDs; MI355X 256 CUs, 8 XCDs
    c3 = {c.name: c for c in chip_ceilings(get_chip("mi300x"), 1.5, ["bf16", "fp8"])}
    assert c3["MFMA bf16"].value == pytest.approx(304 * 2048 * f)
    assert c3["MFMA fp8"].value == pytest.approx(304 * 4096 * f)
    assert c3["VALU fp32"].value == pytest.approx(304 * 256 * f)
    assert c3["LDS"].value == pytest.approx(32 * 4 * 304 * f)
    assert c3["L2"].value == pytest.approx(16 * 128 * 8 * f)
    # the share of it the model's CUs get (FITTED, jointly over the published ladders)
    eff = get_chip("mi300x")["l2_efficiency"]
    assert c3["L2 achievable"].value == pytest.approx(eff * 16 * 128 * 8 * f)
    assert c3["L2 achievable"].fitted and c3["L2 achievable"].label.endswith("(FITTED)")
    assert c3["Infinity Cache"].value == pytest.approx(17.2e12)
    assert c3["HBM peak"].value == pytest.approx(5.3e12)
    assert c3["HBM achievable"].value == pytest.approx(4.11e12)
    c4 = {c.name: c for c in chip_ceilings(get_chip("mi355x"), 1.5)}
    assert list(c4)[:2] == ["MFMA bf16", "VALU fp32"]  # bf16 drawn when no dtype is given
    assert c4["MFMA bf16"].value == pytest.approx(256 * 4096 * f)
    assert c4["LDS"].value == pytest.approx(64 * 4 * 256 * f)
    assert c4["HBM peak"].value == pytest.approx(8.0e12)
    for c in c3.values():  # compute, LDS and L2 scale with the clock and say so
        scaled = c.kind == "compute" or c.name in ("LDS", "L2", "L2 achievable")
        assert (c.clock_ghz == 1.5) is scaled
        assert ("at 1.50 GHz (modelled clock)" in c.label) is scaled
        assert c.source
    # unsourced: the FITTED achievable L2 share, and MI355X's Infinity Cache bandwidth
    assert [c.name for c in c3.values() if c.assumed] == ["L2 achievable"]
    assert [c.name for c in c4.values() if c.assumed] == ["L2 achievable", "Infinity Cache"]
    assert c4["Infinity Cache"].label.endswith("(ASSUMPTION)")
    assert "MI300X's 17.2 TB/s" in c4["Infinity Cache"].source


def test_assumed_ceilings_are_drawn_dashed(reports):
    rf = reports["mi355x"][0].roofline()
    view = rf.view()
    fig = view.figure()
    legend = {it.label.value: it.renderers[0] for it in fig.legend[0].items}
    dashed = {lab for lab, r in legend.items() if getattr(r.glyph, "line_dash", None)}
    unsourced = [rf.ceiling("L2 achievable").label, rf.ceiling("Infinity Cache").label]
    assert dashed == set(unsourced)
    assert "ASSUMPTION" in rf.ceiling("Infinity Cache").label
    assert "FITTED" in rf.ceiling("L2 achievable").label
    svg = view.svg()
    lines = re.findall(r"<line [^>]*stroke-dasharray[^>]*><title>([^<]*)</title>", svg)
    assert lines == unsourced
    assert "ASSUMPTION" in rf.text() and "dashed: L2 achievable, Infinity Cache" in rf.text()


# -- reports ----------------------------------------------------------------------------------
def test_an_overlay_of_two_reports_has_the_points_of_both(reports):
    mfma, copy = reports["mi300x"]
    rf = mfma.roofline(copy)
    assert rf.labels == ("mfma_loop", "copy4")
    assert {p.report for p in rf.points} == {0, 1}
    assert rf.point("HBM", 1).label == "copy4" and rf.point("HBM", 0).label == "mfma_loop"
    assert rf.clock_ghz == mfma.clock_ghz  # drawn at the first report's clock, said so
    assert "copy4 ran at 2.10 GHz" in rf.text()
    # the copy's percentages use its own clock's ceilings (L2 at 2.1 GHz)
    p = rf.point("L2", 1)
    assert p.percent == pytest.approx(100 * p.achieved / (2048 * 8 * 2.1e9))
    named = wb.roofline(mfma, copy, labels=["MFMA loop", "copy"])
    assert named.labels == ("MFMA loop", "copy") and len(named.points) == len(rf.points)
    twice = wb.roofline(copy, copy)
    assert twice.labels == ("copy4 #1", "copy4 #2")


def test_a_level_with_bytes_gets_a_point_and_one_without_none():
    k = Kernel(wb.compile(LDS, arch="gfx942"), "lds_scale")
    n = 256 * 4096
    x = np.zeros(n, np.float32)
    r = k.timing[n // 256, 256](x, np.zeros_like(x), chip="mi300x", flops=n)
    rf = r.roofline()
    assert r.traffic["LDS"] > 0
    p = rf.point("LDS")
    assert p.intensity == pytest.approx(n / r.traffic["LDS"])
    assert p.ceiling == "LDS" and p.percent == pytest.approx(
        100 * p.achieved / (32 * 4 * 304 * r.clock_ghz * 1e9))
    assert [q.level for q in _mfma_points()] == ["L2", "Infinity Cache", "HBM"]


def _mfma_points():
    r = _mfma("mi300x")
    assert r.traffic["LDS"] == 0
    return r.roofline().points


def test_reports_of_two_chips_are_refused_naming_the_argument(reports):
    a, b = reports["mi300x"][0], reports["mi355x"][0]
    with pytest.raises(ArgumentValueError, match=r"wb.roofline: reports\[1\] \(mfma_loop32\) is "
                                                 r"timed on mi355x but reports\[0\] \(mfma_loop\) "
                                                 r"on mi300x: one roofline draws one chip"):
        wb.roofline(a, b)
    with pytest.raises(ArgumentValueError, match=r"report.roofline: others\[1\] \(mfma_loop32\) "
                                                 r"is timed on mi355x but this report"):
        a.roofline(reports["mi300x"][1], b)


def test_bad_arguments_are_named(reports):
    a = reports["mi300x"][0]
    with pytest.raises(ArgumentTypeError, match=r"argument 'reports\[1\]' takes a TimingReport"):
        wb.roofline(a, "copy")
    with pytest.raises(ArgumentValueError, match="needs at least one TimingReport"):
        wb.roofline()
    with pytest.raises(ArgumentValueError, match="'labels' has 2 labels for 1 reports"):
        wb.roofline(a, labels=["x", "y"])
    with pytest.raises(ArgumentTypeError, match="'labels' takes a list or tuple of str"):
        a.roofline(labels="x")


def test_a_report_without_flops_has_no_points_and_says_to_pass_flops():
    r = _copy("mi300x", flops=False)
    assert r.flops == 0
    rf = r.roofline()
    assert rf.points == ()
    assert "pass flops=" in rf.text() and "no points" in rf.text()
    assert "pass flops=" in rf.view().svg() and "pass flops=" in rf._repr_html_()


# -- views ------------------------------------------------------------------------------------
def test_the_html_is_the_svg_and_the_tables_and_the_widget_the_bokeh_chart(reports):
    rf = reports["mi355x"][0].roofline(reports["mi355x"][1])
    page = rf._repr_html_()
    # the static HTML: our SVG, no script, the same every time (a saved notebook, nbval)
    assert "<svg" in page and "<script" not in page and page == rf._repr_html_()
    assert "modelled" in page
    for c in rf.ceilings:
        assert c.label in page.replace("&#x27;", "'")  # legends of both (JSON / SVG text)
    bundle = rf._repr_mimebundle_()
    assert bundle["text/plain"] == rf.text()
    fig = rf.view().figure()
    assert "modelled" in fig.title.text
    assert fig.x_scale.__class__.__name__ == "LogScale" == fig.y_scale.__class__.__name__
    hover = [t for t in fig.tools if t.__class__.__name__ == "HoverTool"][0]
    assert [n for n, _ in hover.tooltips][:5] == ["report", "level", "intensity", "attained",
                                                  "bandwidth"]


def test_the_svg_draws_axes_ceilings_points_and_a_legend_deterministically(reports):
    rf = reports["mi300x"][0].roofline(reports["mi300x"][1])
    svg = rf.view().svg()
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg == rf.view().svg()
    assert "roofline (modelled)" in svg and "TFLOP/s (modelled)" in svg
    for c in rf.ceilings:
        assert c.label in svg
    assert svg.count("<g><title>") == len(rf.points)  # a point each, with its tooltip
    assert "L2 point" in svg and "HBM point" in svg and "copy4" in svg
    text = rf.text()
    assert text.startswith("roofline of mfma_loop, copy4 on AMD Instinct MI300X (mi300x) - "
                           "modelled")
    assert "ceilings at 1.21 GHz, the modelled clock" in text
