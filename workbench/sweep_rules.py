"""The sweep's rules of comparison, shared by its DataFrame and its view: which column is the
metric, which direction is better, how a number is written, what the Pareto front is.

Pure data and functions (floor 0): ``workbench.sweeps.frame`` and
``workbench.widgets.sweep_view`` both take them from here, so the table and the picture cannot
disagree about what "best" means.
"""

from __future__ import annotations

from typing import Any

from .errors import ArgumentValueError

__all__ = ["DEFAULT_METRICS", "LOWER_IS_BETTER", "HIGHER_IS_BETTER", "METRIC_LABELS",
           "metric_of", "higher_is_better", "fmt_metric", "front", "shape_label"]

# The default metric: modelled TFLOP/s where the kernel has FLOPs, else GB/s, else time.
DEFAULT_METRICS = ("modelled_tflops", "modelled_gbs")
# Columns where less is better: time, resources, error, cost. Everything else: more is better.
LOWER_IS_BETTER = frozenset({"modelled_us", "registers", "vgprs", "agprs", "sgprs", "lds_bytes",
                             "scratch_bytes", "max_error", "seconds"})
# Resources where more is better (the occupancy the variant reaches).
HIGHER_IS_BETTER = frozenset({"waves_per_simd", "workgroups_per_cu"})
# column -> (axis label, short table header, format)
METRIC_LABELS = {"modelled_tflops": ("modelled TFLOP/s", "TFLOP/s", "{:.1f}"),
                 "modelled_gbs": ("modelled GB/s", "GB/s", "{:.0f}"),
                 "modelled_us": ("modelled time (µs)", "µs", "{:.2f}")}


def higher_is_better(column: str) -> bool:
    """Whether a larger value of ``column`` is better."""
    return column not in LOWER_IS_BETTER


def metric_of(df: Any, by: str | None) -> tuple[str, bool]:
    """(column, higher is better) for ``by``; default: TFLOP/s, else GB/s, else time."""
    if by is None:
        for col in DEFAULT_METRICS:
            if col in df and df[col].notna().any():
                return col, True
        return "modelled_us", False
    if by not in df.columns:
        raise ArgumentValueError(f"{by!r} is not a column of the sweep; columns: "
                                 f"{', '.join(map(str, df.columns))}")
    return by, higher_is_better(by)


def fmt_metric(col: str, v: Any) -> str:
    """``v`` as a table writes ``col``: TFLOP/s 1 decimal, GB/s none, µs 2 ('-': missing)."""
    if v is None or v != v:
        return "-"
    return METRIC_LABELS.get(col, (col, col, "{:.4g}"))[2].format(float(v))


def front(xs: list[float], ys: list[float], x_higher: bool, y_higher: bool) -> list[int]:
    """Positions of the Pareto front of points (x, y): sorted best x first (ties: best y
    first), a point is kept when its y beats every point before it; NaN points are skipped."""
    ok = [i for i in range(len(xs)) if xs[i] == xs[i] and ys[i] == ys[i]]
    ok.sort(key=lambda i: (-xs[i] if x_higher else xs[i], -ys[i] if y_higher else ys[i]))
    keep: list[int] = []
    best = None
    for i in ok:
        if best is None or (ys[i] > best if y_higher else ys[i] < best):
            keep.append(i)
            best = ys[i]
    return keep


def shape_label(s: Any) -> str:
    """A shape as the sweep's ``shape`` column writes it: (4096, 4096, 4096) -> '4096x4096x4096'
    (a label passes through; the empty shape is '')."""
    if s == ():
        return ""
    if isinstance(s, (tuple, list)):
        return "x".join(str(x) for x in s)
    return str(s)
