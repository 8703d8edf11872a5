"""The result of ``wb.sweep``: a pandas DataFrame, one row per (point, target, shape).

It is a DataFrame (filter, sort, group and plot it as any other); on top it has ``best()``,
``pareto()``, ``view()`` and ``report(row)``. What produced it is in ``.attrs``: the sweep's
cache keys, the numbers of points run / from cache / rejected by the constraint, how it ran,
and hipwb's and the timing model's versions. A derived frame (a filter, ``head()``) is a plain
DataFrame: the sweep's methods belong to the whole result.

Columns: the parameters; ``target``, ``arch``, ``shape``; ``status`` ('ok' or the stage
that failed) and ``error``; ``compiled``, ``kernel``, ``registers`` (VGPRs + AGPRs),
``vgprs``, ``agprs``, ``sgprs``, ``lds_bytes``, ``scratch_bytes``, ``block``,
``waves_per_simd``, ``occupancy_limiter``, ``workgroups_per_cu``; ``exact`` and
``max_error`` (the check on the emulator at the check shape); ``modelled_us``,
``modelled_tflops``, ``modelled_gbs``, ``modelled_clock_ghz``, ``modelled_limiter`` (the
timing model, **modelled**, at each real shape) and what ``roofline()`` places a row by:
``modelled_flops``, ``modelled_dtype``, ``modelled_lds_bytes``, ``modelled_l2_bytes``,
``modelled_hbm_bytes`` (grid-wide bytes per memory level); ``seconds`` (the point's wall time),
``worker``, ``cached``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import ArgumentValueError
from ..sweep_rules import HIGHER_IS_BETTER, front, metric_of, shape_label

__all__ = ["SweepResult"]

ORDER = ("target", "arch", "shape", "status", "error", "compiled", "kernel", "registers",
         "vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "block", "waves_per_simd",
         "occupancy_limiter", "workgroups_per_cu", "exact", "max_error", "modelled_us",
         "modelled_tflops", "modelled_gbs", "modelled_clock_ghz", "modelled_limiter",
         "modelled_flops", "modelled_dtype", "modelled_lds_bytes", "modelled_l2_bytes",
         "modelled_hbm_bytes", "seconds", "worker", "cached")


@dataclass(frozen=True)
class RowTiming:
    """What ``wb.roofline`` reads of a timing report, from a sweep row (all modelled)."""

    kernel: str
    chip: Any
    flops: float
    seconds: float
    clock_ghz: float
    dtype: str
    traffic: dict


class SweepResult(pd.DataFrame):
    """One row per (point, target, shape): see the module docstring."""

    _metadata = ["params", "_spec", "_modules"]

    @property
    def _constructor(self):
        return pd.DataFrame

    @classmethod
    def from_rows(cls, rows: list[dict], params: list[str], attrs: dict, spec: Any = None
                  ) -> SweepResult:
        df = pd.DataFrame(rows)
        cols = [c for c in params if c in df] + [c for c in ORDER if c in df] + \
            [c for c in df.columns if c not in params and c not in ORDER]
        out = cls(df[cols] if len(df) else df)
        out.params = list(params)
        out._spec = spec
        out._modules = {}
        out.attrs.update(attrs)
        return out

    def ok(self) -> pd.DataFrame:
        """The rows whose every stage succeeded."""
        return pd.DataFrame(self[self["status"] == "ok"]) if "status" in self else \
            pd.DataFrame(self)

    def best(self, by: str | None = None, n: int = 1, target: str | None = None,
             shape: Any = None) -> pd.DataFrame:
        """The ``n`` best working rows by ``by`` (default modelled TFLOP/s, else GB/s, else
        the shortest modelled time), per target and shape unless one is named."""
        df = self._where(target, shape)
        col, higher = metric_of(df, by)
        df = df[df[col].notna()]
        if df.empty:
            return df
        return df.sort_values(col, ascending=not higher, kind="stable").groupby(
            ["target", "shape"], sort=False).head(n)

    def _where(self, target: str | None, shape: Any) -> pd.DataFrame:
        df = self.ok()
        if target is not None:
            df = df[df["target"] == target]
        if shape is not None:
            df = df[df["shape"] == shape_label(shape)]
        return df

    def pareto(self, x: str = "registers", y: str | None = None, target: str | None = None,
               shape: Any = None) -> pd.DataFrame:
        """The working rows no other row beats on both ``y`` (the metric) and ``x`` (a
        resource: fewer registers / less LDS, or more waves per SIMD), per target and shape."""
        df = self._where(target, shape)
        col, higher = metric_of(df, y)
        if x not in df.columns:
            raise ArgumentValueError(f"pareto(x={x!r}): no such column")
        keep = []
        for _, g in df[df[col].notna() & df[x].notna()].groupby(["target", "shape"]):
            idx = front(g[x].astype(float).tolist(), g[col].astype(float).tolist(),
                        _x_higher(x), higher)
            keep += [g.index[i] for i in idx]
        return pd.DataFrame(df.loc[keep])

    def view(self, y: str | None = None, target: str | None = None, shape: Any = None):
        """The interactive view: the metric against VGPRs, LDS and occupancy, Pareto fronts,
        hover with each point's parameters; clicking a point opens its timing report."""
        from ..widgets.sweep_view import sweep_view

        return sweep_view(self, y=y, target=target, shape=shape)

    def roofline(self, n: int = 8, by: str | None = None, target: str | None = None,
                 shape: Any = None):
        """The ``n`` best working rows (by ``by``, as ``best()``) of one target and shape on
        one roofline (modelled): a colour per point, labelled by its parameters."""
        from ..timing import get_chip
        from ..timing.roofline import roofline
        from .point import resolve_target

        df = self._where(target, shape)
        groups = sorted({(t, s) for t, s in zip(df["target"], df["shape"])}) if len(df) else []
        if len(groups) != 1:
            have = ", ".join(f"target={t!r} shape={s!r}" for t, s in groups) or "none"
            raise ArgumentValueError(f"roofline(): name one target and one shape (working "
                                     f"rows: {have})")
        if "modelled_l2_bytes" not in df or df["modelled_l2_bytes"].isna().all():
            raise ArgumentValueError("roofline(): these rows have no modelled traffic (rows "
                                     "of a target no modelled chip runs)")
        chip = get_chip(resolve_target(groups[0][0])[2])
        rows = self.best(by=by, n=n, target=groups[0][0], shape=groups[0][1])
        pts = [RowTiming(r["kernel"], chip, float(r["modelled_flops"] or 0.0),
                         float(r["modelled_us"]) * 1e-6, float(r["modelled_clock_ghz"]),
                         str(r["modelled_dtype"] or ""),
                         {"LDS": float(r["modelled_lds_bytes"]),
                          "L2": float(r["modelled_l2_bytes"]),
                          "Infinity Cache": float(r["modelled_hbm_bytes"]),
                          "HBM": float(r["modelled_hbm_bytes"])})
               for _, r in rows.iterrows()]
        labels = [" ".join(f"{k}={v}" for k, v in self._params_of(r).items())
                  for _, r in rows.iterrows()]
        return roofline(*pts, labels=labels)

    def variant(self, row: Any):
        """The Kernel of one row (its index label), compiled again (a cache hit)."""
        from .point import build

        if self._spec is None:
            raise ArgumentValueError("this result holds no sweep specification (it was built "
                                     "from rows, not by wb.sweep)")
        r = self.loc[row]
        module = build(self._spec, r["arch"], self._params_of(r))
        return module[r["kernel"]].on(f"emulator:{r['arch']}")

    def _params_of(self, r: Any) -> dict:
        """A row's point as the sweep built it: its parameters as Python values, without those
        the point did not have (NaN in a list-of-dicts space whose points differ in keys). A
        parameter is never a float (space.py), so a float is an int pandas widened beside NaN."""
        out = {}
        for p in self.params:
            v = _native(r[p])
            if isinstance(v, float):
                if v != v:
                    continue
                v = int(v)
            out[p] = v
        return out

    def report(self, row: Any):
        """The timing report (modelled) of one row (its index label): the variant compiled
        again, its inputs made at the row's shape, timed on the row's chip."""
        from .point import _config, resolve_target

        r = self.loc[row]
        spec = self._spec
        if spec is None:
            raise ArgumentValueError("this result holds no sweep specification")
        _, arch, chip = resolve_target(r["target"])
        if chip is None:
            raise ArgumentValueError(f"no modelled chip runs {arch}")
        shape = next((s for s in spec.shapes if shape_label(s) == r["shape"]), None)
        if shape is None:
            raise ArgumentValueError(f"row {row!r} has no real shape to time")
        params = self._params_of(r)
        k = self.variant(row)
        args = tuple(spec.inputs(shape, dict(params)))
        flops = float(spec.flops(shape, dict(params))) if spec.flops else None
        return k.timing[_config(spec, shape, params)](*args, chip=chip, flops=flops,
                                                       clock=spec.clock)


def _x_higher(x: str) -> bool:
    """Whether more of resource ``x`` is better (occupancy), as the Pareto front reads it."""
    return x in HIGHER_IS_BETTER


def _native(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v
