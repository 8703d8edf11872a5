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

Last measured (bench, calib 2026-11-24): Spearman 0.936 (order met); 4 of 11 rungs within +-35%
(ratios modelled/published: naive 1.71, LDS tiling 4.50, MFMA 3.66, vector loads 1.49, direct
1.10, swizzle 2.44, double buffer 1.04, 128x128x8w 1.72, 256x256x8w 1.20, 256x256x16w 1.32,
ping-pong 1.51). The +-35% test is an expected failure until the model meets it.

What changed in calib's pass, all from sources, none fitted: the L2-hit, L2-miss and LDS
latencies are now published CDNA3 measurements (timing/chips.py LATMEAS, LATMEAS2: 224, 650 and
50 shader clocks) instead of the assumed 500 / 1000 / 64; loads into LDS (``lds`` modifier) take
LDS bank cycles; a barrier released by the last wave's s_endpgm waits for that end. The shorter
latencies made the latency-bound rungs faster still (5 -> 4 within +-35%): adopted anyway, as the
better-founded values.

Why the rest is off (every rung outside +-35% is modelled too FAST):
* Power-limited clock (largest documented effect, not modelled): the model runs at the 2.4 GHz
  maximum engine clock. AMD's Gluon GEMM blog (ROCm/rocm-blogs gluon-gemm-tutorial) measures a
  BF8 GEMM at 3257 TFLOP/s with 99.72% hot-loop MFMA efficiency on MI355X, i.e. a sustained
  clock of about 3257e12 / (256 CUs x 8192 FLOP/clk x 0.9972) = 1.56 GHz (a lower bound: the
  whole kernel's MFMA busy fraction is at most the loop's); AMD's MAF blog (PERF §5)
  gives a 1207 MHz median clock for MI300X at max-achievable BF16 FLOPs and attributes the gap
  to the power-limited clock. Sensitivity, NOT adopted (the clock as a function of activity has
  no source, and the physics check wants an MFMA-only loop at >= 98% of the max-clock peak): a
  clock falling linearly from 2.4 GHz at 0% to 1.56 GHz at 100% MFMA busy gives ratios 0.95
  (dbuf), 1.34, 0.97, 1.05, 1.09 for rungs 7-11 and 6 of 11 within +-35%.
* Early rungs (naive 1.71, LDS tiling 4.50, MFMA baseline 3.66, vector loads 1.49, swizzle
  2.44): the model's limiters there are the L2 share per CU (naive, swizzle: the data path at
  the L2 peak of 16 channels x 128 B/clk), the VALU (MFMA baseline: byte loads serialised
  load -> s_waitcnt vmcnt(0) -> ds_write_b8) and the LDS (LDS tiling, vector loads). Measured
  rates imply far less: naive ~68 CU-cycles per wave-iteration (20 line requests), MFMA
  baseline ~42 CU-cycles per byte-load instruction (with 32 waves resident that is ~1300 cycles
  per load round trip, near the cold-load latency). Not modelled and unsourced here: queueing at
  the L2 channels and TA under load, the vL1D (hits would make these rungs faster, not slower),
  the per-XCD L2 (each XCD's L2 fetches its own copy of shared lines), TLB misses. The blog's
  early-rung code is reconstructed from its text (tests/kernels/timing/blog/blog_ladder.hip);
  its fp8->float conversion is our software decode (the blog's float(fp8e4m3) does not show
  which conversion its type uses).
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
    "calibration target not met yet (last measured: 4 of 11 rungs within +-35%; outside: naive "
    "1.71, LDS tiling 4.50, MFMA 3.66, vector loads 1.49, swizzle 2.44, 128x128x8w 1.72, "
    "ping-pong 1.51; tests/bench/timing.py prints the table)"))
def test_every_rung_within_35_percent_of_its_published_tflops(ladder):
    off = [(name, round(m / b, 2)) for (name, _k, b), (m, _) in zip(BLOG, ladder)
           if abs(m / b - 1) > 0.35]
    assert not off, f"rungs outside +-35% (modelled/published): {off}"
