"""wb.sweep on a small kernel with the real clang and the emulator: rows, failures, the cache.

The points run ``cluster="inline"`` here (one process); tests/sweeps/test_sweep_dask.py runs
the same sweeps on Dask.
"""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.errors import ArgumentTypeError, ArgumentValueError
from workbench.sweeps.space import points

SRC = r"""
#ifndef BUG
#define BUG 0
#endif
extern "C" __global__ void scale(const float* x, float* y, float a, int n) {
  static_assert(VEC != 3, "VEC must be a power of two");
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
  for (int v = 0; v < VEC; ++v)
    if (i + v < n) y[i + v] = a * x[i + v] + ((BUG && i + v == 77) ? 1.0f : 0.0f);
}
"""


def launch(shape, p):
    n = shape[0]
    return (-(-n // (p["BLOCK"] * p["VEC"])),), (p["BLOCK"],)


def inputs(shape, p):
    n = shape[0]
    return np.arange(n, dtype=np.float32), np.full(n, np.nan, np.float32), 2.0, n


def reference(shape, p, args):
    return 2.0 * args[0]


def run(src=SRC, space=None, **kw):
    kw.setdefault("cluster", "inline")
    kw.setdefault("progress", False)
    return wb.sweep(src, space or dict(BLOCK=[64, 256], VEC=[1, 4]), launch=launch,
                    inputs=inputs, reference=reference, check_shape=(300,),
                    shapes=[(1 << 18,)], targets="mi300x", **kw)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path_factory, monkeypatch):
    # one compile cache for the module (compiles are shared), rows keyed by each test's source
    base = tmp_path_factory.getbasetemp() / "sweep-cache"
    monkeypatch.setenv("HIPWB_CACHE_DIR", str(base))
    return base


def test_space_product_order_list_and_constraint():
    pts, rejected = points(dict(A=[1, 2], B=["x", "y"]))
    assert pts == [dict(A=1, B="x"), dict(A=1, B="y"), dict(A=2, B="x"), dict(A=2, B="y")]
    assert rejected == 0
    pts, rejected = points(dict(A=np.arange(4)), constraint=lambda p: p["A"] % 2 == 0)
    assert pts == [dict(A=0), dict(A=2)] and rejected == 2 and type(pts[0]["A"]) is int
    pts, _ = points([dict(A=1), dict(A=1), dict(A=2, B=True)])
    assert pts == [dict(A=1), dict(A=2, B=True)]


@pytest.mark.parametrize("space, error", [
    (dict(A=[]), "has no values"),
    (dict(A=3), "needs a list"),
    ({"1A": [1]}, "not a C identifier"),
    (dict(A=[1.5]), "a -D macro takes an int"),
    (dict(A=["x\ny"]), "control character"),
    ([1, 2], "holds dicts"),
    ("A=1", "a dict of lists or a list of dicts"),
])
def test_space_errors_name_the_parameter(space, error):
    with pytest.raises((ArgumentValueError, ArgumentTypeError), match=error):
        points(space)


def test_constraint_that_raises_or_rejects_all_is_named():
    with pytest.raises(ArgumentValueError, match=r"ZeroDivisionError.*\{'A': 0\}"):
        points(dict(A=[0]), constraint=lambda p: 1 / p["A"])
    with pytest.raises(ArgumentValueError, match="rejected all 2 points"):
        points(dict(A=[0, 1]), constraint=lambda p: False)


def test_rows_per_point_with_resources_check_and_modelled_time():
    res = run(SRC + "// rows\n")
    assert isinstance(res, wb.SweepResult) and len(res) == 4
    assert list(res.columns[:2]) == ["BLOCK", "VEC"]
    assert (res["status"] == "ok").all(), res[["status", "error"]]
    assert res["exact"].all() and (res["max_error"] == 0).all()
    assert (res["vgprs"] > 0).all() and (res["waves_per_simd"] > 0).all()
    assert res["block"].tolist() == ["64", "256", "64", "256"] or \
        set(res["block"]) == {"64", "256"}
    assert (res["modelled_us"] > 0).all() and (res["modelled_gbs"] > 0).all()
    assert res["modelled_tflops"].isna().all()    # no flops= and no MFMA: no TFLOP/s
    assert res["shape"].unique().tolist() == ["262144"]
    assert res.attrs["evaluated"] == 4 and res.attrs["from_cache"] == 0
    best = res.best()
    assert len(best) == 1 and best["modelled_gbs"].iloc[0] == res["modelled_gbs"].max()
    front = res.pareto(x="vgprs")
    assert len(front) >= 1 and front["modelled_gbs"].max() == res["modelled_gbs"].max()


def test_failures_are_rows_with_the_stage_and_message():
    space = [dict(BLOCK=64, VEC=1), dict(BLOCK=64, VEC=3), dict(BLOCK=64, VEC=1, BUG=1)]
    res = run(SRC + "// failures\n", space)
    by = {(r.VEC, r.BUG if r.BUG == r.BUG else 0): r for r in res.itertuples()}
    assert by[1, 0].status == "ok"
    bad = by[3, 0]
    assert bad.status == "compile error" and "VEC must be a power of two" in bad.error
    assert not bad.compiled and np.isnan(bad.modelled_us)
    wrong = by[1, 1]
    assert wrong.status == "wrong result"
    assert "max |error| 1" in wrong.error and "y[77]" in wrong.error


def test_user_function_errors_name_the_function_and_line():
    def bad_inputs(shape, p):
        raise RuntimeError("no such tensor")

    res = wb.sweep(SRC + "// inputs\n", dict(BLOCK=[64], VEC=[1]), launch=launch,
                   inputs=bad_inputs, reference=reference, check_shape=(64,),
                   targets="mi300x", cluster="inline", progress=False)
    r = res.iloc[0]
    assert r["status"] == "input error"
    assert "RuntimeError: no such tensor (bad_inputs, line" in r["error"]


def test_cache_reruns_only_new_or_changed_points(cache_dir):
    src = SRC + "// cache\n"
    first = run(src)
    assert first.attrs["evaluated"] == 4
    again = run(src)
    assert again.attrs["evaluated"] == 0 and again.attrs["from_cache"] == 4
    assert again["cached"].all()
    cols = ["BLOCK", "VEC", "status", "vgprs", "modelled_us"]
    assert again[cols].equals(first[cols])
    more = run(src, dict(BLOCK=[64, 256, 128], VEC=[1, 4]))
    assert more.attrs["evaluated"] == 2 and more.attrs["from_cache"] == 4

    def reference2(shape, p, args):      # a different reference: every point runs again
        return 2.0 * args[0] + 0.0

    changed = wb.sweep(src, dict(BLOCK=[64, 256], VEC=[1, 4]), launch=launch, inputs=inputs,
                       reference=reference2, check_shape=(300,), shapes=[(1 << 18,)],
                       targets="mi300x", cluster="inline", progress=False)
    assert changed.attrs["evaluated"] == 4
    off = run(src, cache=False)
    assert off.attrs["evaluated"] == 4


def test_an_edited_header_reruns_the_points(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "factor.h").write_text("#define FACTOR 2.0f\n")
    src = '#include "factor.h"\n' + SRC.replace("a * x[i + v]", "FACTOR * x[i + v]")
    kw = dict(include_dirs=[inc], space=dict(BLOCK=[64], VEC=[1]))
    assert run(src, **kw).attrs["evaluated"] == 1
    assert run(src, **kw).attrs["evaluated"] == 0
    (inc / "factor.h").write_text("#define FACTOR 3.0f\n")
    res = run(src, **kw)
    assert res.attrs["evaluated"] == 1 and res["status"].iloc[0] == "wrong result"


def test_a_file_source_and_several_targets(tmp_path):
    f = tmp_path / "scale.hip"
    f.write_text(SRC + "// file\n")
    res = wb.sweep(f, dict(BLOCK=[64], VEC=[1, 2]), launch=launch, inputs=inputs,
                   reference=reference, check_shape=(100,), shapes=[(4096,), (1 << 16,)],
                   targets=["mi300x", "gfx1100"], cluster="inline", progress=False)
    assert len(res) == 2 * 2 * 2
    assert set(res["target"]) == {"mi300x", "gfx1100"}
    rdna = res[res["target"] == "gfx1100"]
    assert (rdna["status"] == "ok").all() and rdna["exact"].all()
    assert rdna["modelled_us"].isna().all()
    assert rdna["modelled_limiter"].str.contains("no modelled chip").all()
    assert set(res["shape"]) == {"4096", "65536"}
    assert len(res.best(target="mi300x")) == 2      # the best per shape


@pytest.mark.parametrize("kw, error", [
    (dict(targets="mi999"), "neither a modelled chip"),
    (dict(targets=[]), "at least one chip"),
    (dict(check_shape=None), "reference needs check_shape"),
    (dict(inputs=None), "needs inputs="),
    (dict(tolerance=-1), "tolerance"),
    (dict(defines={"VEC": 2}), "both a fixed define and a swept parameter"),
    (dict(cluster=3.5), "cluster must be"),
])
def test_bad_arguments_are_named(kw, error):
    args = dict(launch=launch, inputs=inputs, reference=reference, check_shape=(64,),
                targets="mi300x", cluster="inline", progress=False)
    args.update(kw)
    if kw.get("cluster") == 3.5:
        args["cache"] = False
    with pytest.raises((ArgumentValueError, ArgumentTypeError), match=error):
        wb.sweep(SRC + "// bad args\n", dict(BLOCK=[64], VEC=[1]), **args)


def test_report_and_variant_of_a_row():
    res = run(SRC + "// report\n", dict(BLOCK=[64], VEC=[1, 4]))
    rep = res.report(res.index[1])
    assert rep.seconds * 1e6 == pytest.approx(res["modelled_us"].iloc[1], rel=1e-9)
    k = res.variant(res.index[0])
    assert k.name == "scale"


def test_progress_is_one_rewritten_line_in_a_terminal():
    import io

    from workbench.sweeps.progress import Progress

    out = io.StringIO()
    bar = Progress(3, 1, "inline", stream=out)
    bar.step(failed=False)
    bar.step(failed=True)
    bar.close()
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1      # one line, rewritten with \r
    last = text.rsplit("\r", 1)[1]
    assert last.startswith("sweep: 3/3 points, 1 from cache, 1 failed, ") and "(inline)" in last
    quiet = io.StringIO()
    Progress(3, 0, "", enabled=False, stream=quiet).close()
    assert quiet.getvalue() == ""


def test_a_row_of_a_point_without_some_parameter_rebuilds_that_point():
    # a list-of-dicts space whose points differ in keys: pandas gives the missing BUG a NaN and
    # widens BUG=1 to 1.0; variant() must build -DBUG=1 for one and no BUG for the other
    space = [dict(BLOCK=64, VEC=1), dict(BLOCK=64, VEC=1, BUG=1)]
    res = run(SRC + "// variant params\n", space)
    assert list(res["status"]) == ["ok", "wrong result"]
    assert res._params_of(res.loc[res.index[0]]) == dict(BLOCK=64, VEC=1)
    assert res._params_of(res.loc[res.index[1]]) == dict(BLOCK=64, VEC=1, BUG=1)
    x = np.arange(100, dtype=np.float32)
    for i, bugged in ((0, False), (1, True)):
        y = np.zeros(100, np.float32)
        res.variant(res.index[i])[2, 64](x, y, 2.0, 100)
        assert bool(y[77] == 2.0 * 77 + 1.0) == bugged


def test_the_best_rows_on_one_roofline():
    """Each working row carries its modelled traffic; roofline() overlays the best n rows of
    one target and shape, labelled by their parameters, at the numbers of the rows."""
    res = run(SRC + "// roofline\n", flops=lambda shape, p: 2.0 * shape[0])
    assert (res["modelled_l2_bytes"] > 0).all() and (res["modelled_flops"] > 0).all()
    rf = res.roofline(n=3)
    assert rf.labels == tuple(" ".join(f"{k}={v}" for k, v in res._params_of(r).items())
                              for _, r in res.best(n=3).iterrows())
    hbm = [p for p in rf.points if p.level == "HBM"]
    assert len(hbm) == 3
    best = res.best(n=1).iloc[0]
    assert hbm[0].achieved == pytest.approx(best["modelled_hbm_bytes"] / best["modelled_us"]
                                            * 1e6, rel=1e-9)
    with pytest.raises(ArgumentValueError, match="name one target and one shape"):
        res.roofline(shape=(7,))
