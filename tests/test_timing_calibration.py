"""Calibration of the timing model against the CDNA4 FP8 GEMM blog's ladder (MI355X, 4096^3).

The Done-when of the timing model: the blog's eleven rungs (tests/gemm_blog.py, published
TFLOP/s from shared/reference/tutorial_perf_anchors.md §3.2), run as kernels/gemm's kernels of
those steps, are predicted in the blog's order (Spearman >= 0.9) and each within +-35%. The model
is built from documented hardware behaviour, never tuned to these numbers, so this test states
the target and fails until the model meets it; tests/bench/timing.py prints the per-rung table.
Last measured (bench, kernels/gemm at b8f86f1): Spearman 0.78, 3 of 11 rungs within +-35%
(rungs 9-11: ratios 1.11, 1.20, 1.23); rungs 1-8 modelled 1.5x-5.6x faster than published.
The kernels of kernels/gemm are not the blog's kernels: from step 4 on they hold 4x4 MFMA tiles
per wave (128x128 workgroup tiles) and several workgroups share a CU, overlapping the load and
compute phases that the blog's single-stage kernels serialise.
"""
from __future__ import annotations

import pytest
from gemm_blog import BLOG, predict, spearman

pytestmark = [pytest.mark.slow, pytest.mark.xfail(strict=True, reason=(
    "calibration target not met yet (last measured: Spearman 0.78, 3 of 11 rungs within "
    "+-35%; tests/bench/timing.py prints the table)"))]


@pytest.fixture(scope="module")
def ladder():
    return [(predict(key)[0].tflops, blog) for _name, key, blog in BLOG]


def test_blog_ladder_order_is_predicted(ladder):
    assert spearman([m for m, _ in ladder], [b for _, b in ladder]) >= 0.9


def test_every_rung_within_35_percent_of_its_published_tflops(ladder):
    off = [(name, round(m / b, 2)) for (name, _k, b), (m, _) in zip(BLOG, ladder)
           if abs(m / b - 1) > 0.35]
    assert not off, f"rungs outside +-35% (modelled/published): {off}"
