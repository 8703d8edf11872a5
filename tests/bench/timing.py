"""Timing-model bench: the CDNA4 FP8 GEMM blog's eleven rungs predicted at 4096^3 on MI355X,
side by side with the published TFLOP/s (shared/reference/tutorial_perf_anchors.md §3.2),
run as the kernels tests/gemm_blog.py names for each rung (the blog's configurations).

Prints per rung: modelled TFLOP/s (at the modelled, power-limited clock), published TFLOP/s,
ratio, whether within +-35%, MFMA efficiency, the modelled clock (GHz), the limiter, and the
wall time of the report (target: a 4096^3 GEMM report in <= 10 s on the 2-core machine); then
the Spearman rank correlation of modelled vs published
(target >= 0.9). The numbers are whatever the model gives: nothing here is tuned to them.

    .venv/bin/python tests/bench/timing.py [--n 4096] [--rungs 1,2,...] [--early-tile 16]
        [--views-only]

Then the "why" views: for the ping-pong (step 10, fp8, MI355X) at 4096^3 and 8192^3, the wall
time of the report alone and of the report with its roofline and per-line table built and
rendered (text and HTML) -- target <= 10 s each on the 2-core machine.

``--early-tile``: the workgroup TILE x TILE of the naive and LDS-tiling rungs (default 32, the
calibration's reading of the blog; 16 is the other, see tests/kernels/timing/blog/blog_ladder.hip).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gemm_blog import BLOG, EARLY_TILE, predict, spearman  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--rungs", default="", help="comma-separated rung numbers 1..11")
    ap.add_argument("--early-tile", type=int, default=EARLY_TILE, choices=(16, 32),
                    help="TILE of the naive and LDS-tiling rungs' TILE x TILE workgroups")
    ap.add_argument("--views-only", action="store_true",
                    help="only the report + views timing, not the ladder")
    a = ap.parse_args()
    if not a.views_only:
        ladder(a)
    views()


def views() -> None:
    """Wall time of a report, and of a report with its roofline and per-line views rendered."""
    print("\nreport + views (roofline, lines, ISA heat) on MI355X fp8, step 10 (ping-pong):")
    print(f"{'n':>6} {'report s':>9} {'+ views s':>10} {'views s':>8}  top line")
    for n in (4096, 8192):
        t0 = time.perf_counter()
        r, wall = predict(10, n)
        t1 = time.perf_counter()
        roof = r.roofline()
        lines = r.lines()
        for view in (roof, lines, r.isa()):
            view._repr_html_()
            str(view.text())
        t2 = time.perf_counter()
        print(f"{n:>6} {wall:>9.1f} {t2 - t0:>10.1f} {t2 - t1:>8.2f}  {lines.sentence()}")


def ladder(a) -> None:
    pick = {int(x) for x in a.rungs.split(",") if x} or set(range(1, len(BLOG) + 1))
    rows = []
    print(f"CDNA4 FP8 GEMM blog ladder at {a.n}^3 on MI355X (modelled vs published TFLOP/s; "
          f"naive / LDS-tiling workgroups {a.early_tile} x {a.early_tile})")
    print(f"{'#':>2} {'rung':<38} {'model':>8} {'blog':>8} {'ratio':>6} {'+-35%':>5} "
          f"{'MFMA':>5} {'GHz':>5} {'wall s':>6}  [kernel] limiter")
    for i, (name, key, blog) in enumerate(BLOG, 1):
        if i not in pick:
            continue
        try:
            r, wall = predict(key, a.n, tile=a.early_tile)
        except Exception as e:  # report the rung as not modelled, with the reason
            print(f"{i:>2} {name:<38} {'-':>8} {blog:>8.1f}   not modelled: "
                  f"{type(e).__name__}: {str(e)[:90]}")
            continue
        ratio = r.tflops / blog
        ok = abs(ratio - 1) <= 0.35
        rows.append((r.tflops, blog, ok))
        kern = (f"{key[1]}" + (f" {a.early_tile}x{a.early_tile}" if i <= 2 else "")
                if isinstance(key, tuple) else f"kernels/gemm step {key}")
        print(f"{i:>2} {name:<38} {r.tflops:>8.1f} {blog:>8.1f} {ratio:>6.2f} "
              f"{'yes' if ok else 'no':>5} {100 * r.mfma_efficiency:>4.0f}% {r.clock_ghz:>5.2f} "
              f"{wall:>6.1f}  "
              f"[{kern}] {r.limiter}")
    if len(rows) >= 2:
        rho = spearman([x[0] for x in rows], [x[1] for x in rows])
        n_ok = sum(x[2] for x in rows)
        print(f"Spearman (modelled vs published order): {rho:.3f} (target >= 0.9); "
              f"within +-35%: {n_ok} of {len(rows)} (target: all)")


if __name__ == "__main__":
    main()
