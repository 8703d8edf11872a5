"""The notebooks' benches (kernels/gemm/steps.py, kernels/softmax/steps.py): their pure parts.

Why: notebooks 03 and 04 call these helpers instead of defining them in a cell (issue 29), so
what they display must hold without running a notebook: the ladder chart is SVG with no script,
every series, a legend and axis labels; the closing table marks each target's best step and puts
the published ladder beside the fp8 rows; the softmax reference is the exact one, NaN where
torch gives NaN; the launches of a step are the ones the tests run.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture()
def gemm():
    """A fresh copy of the GEMM bench (its ``results`` start empty)."""
    return _load("gemm_steps_bench_test", "kernels/gemm/steps.py")


def _fake_results(g):
    for i, n in enumerate(g.ORDER):
        for j, c in enumerate(g.COLS):
            if c == "MI300X bf16" and n in (6, "9a", "9b", 10, 11, 12):
                continue
            g.results[n, c] = dict(tflops=float(10 ** (i / 4) * (j + 1)), ghz=2.0, pct=1.0,
                                   vgpr=100, agpr=0, waves=2, conflicts=0)


def test_ladder_chart_is_svg_with_every_series_and_no_script(gemm):
    _fake_results(gemm)
    chart = gemm.chart()
    html = chart.html()
    assert "<svg" in html and "<script" not in html.lower()
    for name in ("MI300X bf16 (modelled)", "MI355X bf16 (modelled)", "MI355X fp8 (modelled)",
                 "CDNA4 FP8 blog (published, measured)", "TFLOP/s (log scale)", ">step<"):
        assert name in html, name
    assert html.count("<polyline") == 3                        # one line per modelled target
    assert html.count("<path") == len(gemm.BLOG_FP8_4096) + 1   # a diamond per point + legend
    assert chart.html() == html                                 # deterministic
    text = chart.text().splitlines()
    assert text[0].startswith("GEMM steps at 4096^3")
    assert len(text) == 2 + len(gemm.ORDER)                     # title, header, a row per step


def test_ladder_chart_skips_missing_steps_and_spans_whole_decades(gemm):
    lc = gemm._sibling("ladder_chart")
    chart = lc.LadderChart(["1", "2", "3"], {"a": {"1": 2.0, "3": 300.0}})
    assert (chart.lo, chart.hi) == (1.0, 1000.0)
    assert chart.svg().count("<circle") == 2 + 1                 # two points and the legend
    with pytest.raises(ValueError):
        lc.LadderChart(["1"], {"a": {}})


def test_summary_highlights_each_targets_best_and_the_published_ladder(gemm):
    _fake_results(gemm)
    table = gemm.summary()
    rows = table.rows
    assert len(rows) == len(gemm.results)
    best = {c: max((float(r[3]), str(r[0])) for r in rows if r[2] == c)[1] for c in gemm.COLS}
    hot = {(rows[i][2], str(rows[i][0])) for i in table.hot}
    assert hot == {(c, n) for c, n in best.items()}
    fp8 = {r[0]: r[-1] for r in rows if r[2] == "MI355X fp8"}
    assert fp8[1] == "1.15" and fp8[10] == "2680.3" and fp8[4] == ""
    assert all(r[-1] == "" for r in rows if r[2] != "MI355X fp8")
    assert table.sortable                                       # > 8 rows


def test_tile_sweep_bench_matches_the_step_helpers(gemm):
    p = dict(SWEEP_BM=256, SWEEP_BN=128, SWEEP_WM=2, SWEEP_WN=2, SWEEP_KT=1, SWEEP_DBUF=0)
    assert gemm.tile_launch((4096, 4096, 4096), p) == ((16 * 32,), (256,))
    assert gemm.tile_lds(p) == 48 * 1024
    A, B, C, M, N, K = gemm.tile_inputs(gemm.TILE_CHECK, p)
    assert np.isnan(C).all() and A.dtype == np.uint8 and (M, N, K) == gemm.TILE_CHECK
    ref = gemm.tile_reference(gemm.TILE_CHECK, p, None)
    _, _, a, b = gemm.inputs(M, N, K, "fp8", seed=M + N)
    assert np.array_equal(ref, a @ b.T)                         # exact in fp32


@pytest.fixture(scope="module")
def softmax():
    return _load("softmax_steps_bench_test", "kernels/softmax/steps.py")


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_softmax_exact_reference_is_nan_where_torch_is_and_close_to_torch(softmax, dtype):
    x = softmax.inputs(6, 203, seed=203)
    exact, torch_ref = softmax.exact(x, dtype), softmax.reference(x, dtype)
    assert np.isnan(exact[0]).all() and not np.isnan(exact[1:]).any()
    assert softmax.max_error(exact, torch_ref) <= softmax.TOL[dtype]
    assert np.allclose(exact[1:].sum(axis=1), 1.0, atol=1e-2)


def test_softmax_launches_are_the_steps_geometry(softmax):
    x = np.zeros((10, 64), np.float32)
    y = np.zeros_like(x)
    three = softmax.launches(softmax.step(1), {k: k for k in softmax.step(1)["kernels"]}, x, y)
    assert [(k, g) for k, g, _, _ in three] == [("row_max", 1), ("row_expsum", 1),
                                                ("normalise", 3)]
    s3 = softmax.step(3)
    ((k, grid, block, args),) = softmax.launches(s3, {s3["kernels"][0]: "k"}, x, y)
    assert grid == -(-10 // (s3["block"] // 64)) and args[2:] == (10, 64)
