"""Calibration of the timing model against the CDNA4 FP8 GEMM blog's ladder (MI355X, 4096^3).

The Done-when of the timing model: the blog's eleven rungs (tests/gemm_blog.py, published
TFLOP/s from shared/reference/tutorial_perf_anchors.md §3.2) are predicted in the blog's order
(Spearman >= 0.9) and each within +-35%. The rungs run kernels in the blog's configuration: its
early rungs (naive, LDS tiling, the single-16x16-tile-per-wave MFMA rungs with 32 x 32 workgroup
tiles) are tests/kernels/timing/blog/blog_ladder.hip (checked exact by
tests/test_gemm_blog_kernels.py); the MFMA baseline and the multi-wave / ping-pong rungs are
kernels/gemm's steps 3, 9a, 9, 9b and 10, which have the blog's configuration. The model is built
from documented hardware behaviour, never tuned to these numbers; tests/bench/timing.py prints
the per-rung table.

Last measured (bench): Spearman 0.936 (order met); 5 of 11 rungs within +-35% (ratios
modelled/published: naive 1.54, LDS tiling 3.88, MFMA 2.22, vector loads 1.49, direct 1.24,
swizzle 2.44, double buffer 1.04, 128x128x8w 1.49, 256x256x8w 1.11, 256x256x16w 1.20, ping-pong
1.23). The +-35% test is an expected failure until the model meets it.

Why the rest is off (k-calib's analysis, 2026-11-24): every rung outside +-35% is modelled too
FAST, and the model's limiter there is memory latency (MFMA baseline: 93% of stalls on vmcnt, byte
loads serialised load -> wait -> ds_write; swizzle: single-buffered, 8 workgroups per CU hide the
load latency in the model, the blog measured no gain over rung 5), uncoalesced byte loads (naive:
~68 cycles per wave-iteration per CU measured, ~44 modelled) or LDS (LDS tiling: ~16 cycles per
wave-FMA per CU measured, ~4 modelled; vector loads: the unswizzled ds_read_b128 bank conflicts
keep the LDS 99% busy in the model; 128x128 x 8 waves: latency, 34% of stalls on vmcnt). The L2 and
HBM latencies (500 / 1000 cycles) are still ASSUMPTIONs: no published MI300X/MI355X pointer-chase
number could be read here, and no queueing delay at the shared L2 channels is modelled.
Sensitivity, NOT adopted (no source): doubling both latencies gives 8 of 11 within +-35%, so a
sourced loaded-latency figure is what the model needs next.
"""
from __future__ import annotations

import pytest
from gemm_blog import BLOG, predict, spearman

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ladder():
    return [(predict(key)[0].tflops, blog) for _name, key, blog in BLOG]


def test_blog_ladder_order_is_predicted(ladder):
    assert spearman([m for m, _ in ladder], [b for _, b in ladder]) >= 0.9


@pytest.mark.xfail(strict=True, reason=(
    "calibration target not met yet (last measured: 5 of 11 rungs within +-35%; outside: naive "
    "1.54, LDS tiling 3.88, MFMA 2.22, vector loads 1.49, swizzle 2.44, 128x128x8w 1.49; "
    "tests/bench/timing.py prints the table)"))
def test_every_rung_within_35_percent_of_its_published_tflops(ladder):
    off = [(name, round(m / b, 2)) for (name, _k, b), (m, _) in zip(BLOG, ladder)
           if abs(m / b - 1) > 0.35]
    assert not off, f"rungs outside +-35% (modelled/published): {off}"
