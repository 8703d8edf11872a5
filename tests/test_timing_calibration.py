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

Last measured (bench, calib2 2026-11-24, at the modelled power-limited clock): Spearman 0.936
(order met); 6 of 11 rungs within +-35%:

    rung                                  modelled  published  ratio  clock GHz  (max-clock ratio)
    1  naive                                   2.0       1.15   1.71     2.40       1.71
    2  LDS tiling                             21.6       4.80   4.50     2.40       4.50
    3  MFMA 16x16x128                        109.0      30.05   3.63     2.38       3.66
    4  + vectorized 16-byte loads            484.1      336.9   1.44     2.32       1.49
    5  + direct global->LDS                  536.1      506.7   1.06     2.31       1.10
    6  + XOR LDS swizzle                    1112.5      497.4   2.24     2.20       2.44
    7  + double buffering                   1111.2     1166.4   0.95     2.20       1.04
    8  multi-wave 128x128, 512 threads      2452.3     1828.7   1.34     1.87       1.72
    9  multi-wave 256x256x128, 512 thr.     2223.4     2288.2   0.97     1.94       1.20
    10 multi-wave 256x256, 1024 threads     2338.5     2228.0   1.05     1.91       1.32
    11 8-wave ping-pong                     2905.4     2680.3   1.08     1.72       1.51

The +-35% test is an expected failure until the model meets it (the five rungs outside are all
modelled too FAST; all are early rungs, at <= 24% MFMA busy, whose clock stays at 2.2-2.4 GHz).

What changed in calib2's pass, from sources, none fitted: the model no longer runs every kernel
at the max engine clock. The clock under matrix load is AMD's measured sustained clock
(timing/chips.py clock_sustained_ghz_*: MI355X fp8 1.557 GHz = 3257e12 / (256 x 8192 x 0.9972)
from the Gluon GEMM blog's BF8 kernel, f16/bf16 1.438 GHz from its FP16 kernel; MI300X from the
MAF blog's median clocks, bf16 1.207, f16 1.115, fp8 1.230 GHz); between the max clock at 0% and
that clock at 100% chip-wide MFMA-pipe busy the clock is linear, the one stated ASSUMPTION
(clock_load_rule). The high rungs moved from 1.04-1.72 to 0.95-1.34.

What changed in calib's pass, all from sources, none fitted: the L2-hit, L2-miss and LDS
latencies are now published CDNA3 measurements (timing/chips.py LATMEAS, LATMEAS2: 224, 650 and
50 shader clocks) instead of the assumed 500 / 1000 / 64; loads into LDS (``lds`` modifier) take
LDS bank cycles; a barrier released by the last wave's s_endpgm waits for that end. The shorter
latencies made the latency-bound rungs faster still (5 -> 4 within +-35%): adopted anyway, as the
better-founded values.

Why the rest is off (every rung outside +-35% is modelled too FAST):
* The clock is now modelled (above); what is left of it: the linear rule has no source, and the
  sustained clocks are lower bounds for MI355X (the Gluon efficiency is the hot loop's) and
  measured at 83-94% MFMA busy for MI300X (MAF), taken as the full-load clock. Input data toggle
  rates move the clock too (MAF: low-toggle data, > 50% higher clocks): not modelled.
* Early rungs (naive 1.71, LDS tiling 4.50, MFMA baseline 3.63, vector loads 1.44, swizzle
  2.24): the model's limiters there are the L2 share per CU (naive, swizzle: the data path at
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
    "calibration target not met yet (last measured: 6 of 11 rungs within +-35%; outside: naive "
    "1.71, LDS tiling 4.50, MFMA 3.63, vector loads 1.44, swizzle 2.24; tests/bench/timing.py "
    "prints the table)"))
def test_every_rung_within_35_percent_of_its_published_tflops(ladder):
    off = [(name, round(m / b, 2)) for (name, _k, b), (m, _) in zip(BLOG, ladder)
           if abs(m / b - 1) > 0.35]
    assert not off, f"rungs outside +-35% (modelled/published): {off}"
