"""Roofline of timing reports: the chip's ceilings and a modelled point per memory level.

Why: a roofline says at a glance whether a kernel is bound by compute or by a memory level, and
how far from that bound it is. The model (S. Williams, A. Waterman, D. Patterson, "Roofline: an
insightful visual performance model for multicore architectures", Commun. ACM 52(4), 2009):
attainable FLOP/s = min(compute peak, bandwidth x arithmetic intensity). Its hierarchical form
draws one bandwidth ceiling per memory level and one point per level, at intensity = FLOPs /
bytes moved at that level (C. Yang, T. Kurth, S. Williams, "Hierarchical Roofline analysis for
GPUs: accelerating performance optimization for the NERSC-9 Perlmutter system", Concurrency
Computat. Pract. Exper. 2020); AMD's rocprofiler-compute draws the same per-level roofline.

Everything here is modelled: the points come from ``TimingReport`` (``flops``, ``seconds`` and
``traffic``, the grid-wide bytes per level the model moved), not from a GPU. The ceilings come
from the chip table (``chips.py``), each with its source; one whose parameters include an
ASSUMPTION is flagged ``assumed`` (drawn dashed). Compute, LDS and L2 ceilings are per engine
clock, so they are given at the report's modelled clock (``clock_ghz``); Infinity Cache and HBM
are not on the engine clock and stay at their peaks.

Pure (layer 0): the chart lives in ``workbench.widgets.roofline_view`` and is loaded by module
name on first display, as ``TimingReport.timeline()`` loads its view.
"""
from __future__ import annotations

import html
import importlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..argument_types import checked
from ..errors import ArgumentTypeError, ArgumentValueError
from ..text_table import text_table
from .chips import Chip

LABEL = "modelled"
VIEW = "workbench.widgets.roofline_view"
LEVELS = ("LDS", "L2", "Infinity Cache", "HBM")
# the memory ceiling a level's point is measured against (HBM: also against the achievable one)
LEVEL_CEILING = {"LDS": "LDS", "L2": "L2", "Infinity Cache": "Infinity Cache", "HBM": "HBM peak"}
ACHIEVABLE = "HBM achievable"
# a level's achievable ceiling, if the chip table has one (HBM: measured; L2: FITTED)
ACHIEVABLE_OF = {"HBM": ACHIEVABLE, "L2": "L2 achievable"}
_REPORT_FIELDS = ("kernel", "chip", "flops", "seconds", "clock_ghz", "dtype", "traffic")


@dataclass(frozen=True)
class Ceiling:
    """One roof: a compute peak (FLOP/s) or a memory level's bandwidth (B/s)."""

    name: str
    kind: str  # 'compute' | 'memory'
    value: float  # FLOP/s or B/s
    source: str  # the formula and the sources of its parameters
    assumed: bool = False  # a parameter of it is an ASSUMPTION or FITTED (drawn dashed)
    level: str = ""  # the memory level a memory ceiling bounds
    clock_ghz: float | None = None  # the engine clock it is given at; None: clock-independent
    fitted: bool = False  # a parameter of it is FITTED (the legend says so)

    @property
    def unit(self) -> str:
        return "FLOP/s" if self.kind == "compute" else "B/s"

    def roof(self, intensity: float) -> float:
        """What this ceiling alone allows at ``intensity`` FLOP/B (FLOP/s)."""
        return self.value if self.kind == "compute" else self.value * intensity

    @property
    def value_text(self) -> str:
        scale, unit = (1e12, "TFLOP/s") if self.kind == "compute" else (1e12, "TB/s")
        return f"{self.value / scale:,.1f} {unit}"

    @property
    def label(self) -> str:
        """Legend text: name, value, the clock it scales with, ASSUMPTION if unsourced."""
        at = f" at {self.clock_ghz:.2f} GHz (modelled clock)" if self.clock_ghz else ""
        tag = " (FITTED)" if self.fitted else " (ASSUMPTION)" if self.assumed else ""
        return f"{self.name} {self.value_text}{at}{tag}"


@dataclass(frozen=True)
class RooflinePoint:
    """A report's modelled point at one memory level."""

    label: str  # the report's label
    level: str  # 'LDS' | 'L2' | 'Infinity Cache' | 'HBM'
    intensity: float  # FLOP per byte moved at this level
    attained: float  # FLOP/s (modelled)
    bytes: float  # bytes moved at this level, grid-wide (modelled)
    achieved: float  # B/s at this level (modelled)
    ceiling: str  # the level's memory ceiling
    percent: float | None  # achieved B/s as % of that ceiling, at the report's clock
    roof: float  # min(the report's compute ceiling, the level's bandwidth x intensity), FLOP/s
    bound: str  # the ceiling that sets the roof there (compute, or the level's bandwidth)
    report: int = 0  # index of the report in the roofline
    percent_achievable: float | None = None  # HBM, L2: % of the level's achievable bandwidth

    @property
    def percent_of_roof(self) -> float:
        return 100.0 * self.attained / self.roof if self.roof else 0.0


def _fmt_pct(p: float | None) -> str:
    return "-" if p is None else f"{p:.1f}%"


@dataclass(frozen=True)
class Roofline:
    """Ceilings of one chip and the modelled points of one or several timing reports."""

    chip: Chip
    clock_ghz: float  # the clock the drawn compute / LDS / L2 ceilings are given at
    ceilings: tuple
    points: tuple
    labels: tuple  # one per report
    notes: tuple = ()

    def ceiling(self, name: str) -> Ceiling:
        for c in self.ceilings:
            if c.name == name:
                return c
        raise ArgumentValueError(f"roofline has no ceiling {name!r}; its ceilings: "
                                 f"{', '.join(c.name for c in self.ceilings)}")

    def point(self, level: str, report: int = 0) -> RooflinePoint:
        for p in self.points:
            if p.level == level and p.report == report:
                return p
        raise ArgumentValueError(f"roofline has no {level!r} point for report {report} "
                                 f"({self.labels[report] if report < len(self.labels) else '?'})")

    @property
    def title(self) -> str:
        names = ", ".join(self.labels)
        return f"roofline of {names} on {self.chip.product} ({self.chip.name}) - {LABEL}"

    @property
    def clock_line(self) -> str:
        return (f"compute, LDS and L2 ceilings at {self.clock_ghz:.2f} GHz, the modelled clock "
                f"(they scale with it; max {self.chip['clock_ghz']:g} GHz); Infinity Cache and "
                "HBM are not on the engine clock")

    def ceiling_rows(self) -> list[tuple[str, ...]]:
        return [(c.name, c.kind, c.value_text,
                 f"{c.clock_ghz:.2f} GHz" if c.clock_ghz else "-",
                 ("" if c.fitted or not c.assumed or c.source.startswith("ASSUMPTION")
                  else "ASSUMPTION: ")
                 + c.source) for c in self.ceilings]

    def point_rows(self) -> list[tuple[str, ...]]:
        rows = []
        for p in self.points:
            pct = f"{_fmt_pct(p.percent)} of {p.ceiling}"
            if p.percent_achievable is not None:
                pct += f", {_fmt_pct(p.percent_achievable)} of {ACHIEVABLE_OF[p.level]}"
            rows.append((p.label, p.level, f"{p.bytes:,.0f}", f"{p.intensity:,.3g}",
                         f"{p.attained / 1e12:,.2f}", f"{p.achieved / 1e9:,.0f}", pct,
                         f"{p.percent_of_roof:.1f}% ({p.bound})"))
        return rows

    POINT_HEADER = ("report", "level", "bytes", "FLOP/B", "TFLOP/s", "GB/s", "bandwidth",
                    "attained / roof")
    CEILING_HEADER = ("ceiling", "kind", "value", "clock", "source")

    def text(self) -> str:
        """Deterministic text: ceilings with sources, the points, the notes."""
        out = [self.title, f"  {self.clock_line}", "ceilings:",
               text_table(self.CEILING_HEADER, self.ceiling_rows(), indent="  ")]
        if self.points:
            out += [f"points ({LABEL}; one per memory level with bytes moved):",
                    text_table(self.POINT_HEADER, self.point_rows(), indent="  ")]
        else:
            out.append(f"no points ({LABEL}): no report has FLOPs")
        out += [f"note: {n}" for n in self.notes]
        return "\n".join(out)

    def __repr__(self) -> str:
        return self.text()

    def view(self, **kwargs: Any) -> Any:
        """The chart (bokeh, log-log; an SVG and the tables where no JavaScript runs)."""
        return importlib.import_module(VIEW).roofline_view(self, **kwargs)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        try:
            return self.view()._repr_mimebundle_(include, exclude)
        except ImportError:
            return {"text/plain": self.text(), "text/html": self._fallback_html()}

    def _repr_html_(self) -> str:
        try:
            return self.view().html()
        except ImportError:
            return self._fallback_html()

    def _fallback_html(self) -> str:
        """The static form where the view cannot load: the text in a <pre>."""
        return f"<pre>{html.escape(self.text())}</pre>"


# -- ceilings --------------------------------------------------------------------------------
def _sources(chip: Chip, keys: Sequence[str]) -> tuple[str, bool]:
    """'key: source' for each parameter, and whether any is an ASSUMPTION or FITTED (the
    ceiling is then drawn dashed)."""
    parts = [f"{k} {chip.params[k].value:g} {chip.params[k].unit}".strip()
             + f" ({chip.params[k].source})" for k in keys]
    return "; ".join(parts), any(chip.params[k].assumed or chip.params[k].fitted for k in keys)


def chip_ceilings(chip: Chip, clock_ghz: float, dtypes: Sequence[str] = ()) -> list[Ceiling]:
    """The ceilings of ``chip`` at ``clock_ghz``: the MFMA peak of each matrix dtype in
    ``dtypes`` (bf16 when none), VALU fp32, then LDS, L2, L2 achievable (FITTED), Infinity
    Cache, HBM peak and HBM achievable bandwidths."""
    hz = clock_ghz * 1e9
    at = f" x {clock_ghz:.3f} GHz (the modelled clock)"
    out = []
    for dt in dict.fromkeys(d for d in dtypes if d) or ("bf16",):
        peak = chip.peak_flops(dt, hz)
        if peak is None:
            continue
        key = {"f16": "flop_per_cu_clk_bf16"}.get(dt, f"flop_per_cu_clk_{dt}")
        src, assumed = _sources(chip, (key, "cus"))
        out.append(Ceiling(f"MFMA {dt}", "compute", peak, f"{key} x cus{at}: {src}", assumed,
                           clock_ghz=clock_ghz))
    src, assumed = _sources(chip, ("flop_per_cu_clk_valu_f32", "cus"))
    out.append(Ceiling("VALU fp32", "compute", chip["flop_per_cu_clk_valu_f32"] * chip["cus"] * hz,
                       f"flop_per_cu_clk_valu_f32 x cus{at}: {src}", assumed,
                       clock_ghz=clock_ghz))
    src, assumed = _sources(chip, ("lds_banks", "cus"))
    out.append(Ceiling("LDS", "memory", chip["lds_banks"] * 4 * chip["cus"] * hz,
                       f"lds_banks x 4 B/clk per CU x cus{at}: {src}", assumed, "LDS", clock_ghz))
    src, assumed = _sources(chip, ("l2_bytes_per_clk_xcd", "xcds"))
    out.append(Ceiling("L2", "memory", chip["l2_bytes_per_clk_xcd"] * chip["xcds"] * hz,
                       f"l2_bytes_per_clk_xcd x xcds{at}: {src}", assumed, "L2", clock_ghz))
    if "l2_efficiency" in chip.params:  # the share of the L2 peak the model's CUs get (FITTED)
        keys = ("l2_efficiency", "l2_bytes_per_clk_xcd", "xcds")
        src, assumed = _sources(chip, keys)
        out.append(Ceiling("L2 achievable", "memory", chip["l2_efficiency"]
                           * chip["l2_bytes_per_clk_xcd"] * chip["xcds"] * hz,
                           f"l2_efficiency x l2_bytes_per_clk_xcd x xcds{at}: FITTED; {src}",
                           assumed, "L2", clock_ghz,
                           fitted=any(chip.params[k].fitted for k in keys)))
    for name, key, level in (("Infinity Cache", "infinity_cache_tbs", "Infinity Cache"),
                             ("HBM peak", "hbm_tbs", "HBM"), (ACHIEVABLE, "hbm_achievable_tbs",
                                                               "HBM")):
        src, assumed = _sources(chip, (key,))
        out.append(Ceiling(name, "memory", chip[key] * 1e12, src, assumed, level))
    return out


def _compute_ceiling(ceilings: Sequence[Ceiling], dtype: str) -> Ceiling:
    """The compute roof of a report: its matrix dtype's MFMA peak, else VALU fp32."""
    by = {c.name: c for c in ceilings}
    return by.get(f"MFMA {dtype}", by["VALU fp32"])


# -- building --------------------------------------------------------------------------------
def _check_reports(reports: Sequence[Any], names: Sequence[str], who: str) -> None:
    if not reports:
        raise ArgumentValueError(f"{who} needs at least one TimingReport "
                                 "(kernel.timing[grid, block](*args, chip=...))")
    for r, name in zip(reports, names):
        if not all(hasattr(r, a) for a in _REPORT_FIELDS):
            text = repr(r)
            text = text if len(text) <= 40 else text[:37] + "..."
            raise ArgumentTypeError(f"{who}: argument {name!r} takes a TimingReport "
                                    f"(kernel.timing[grid, block](*args, chip=...)), got "
                                    f"{type(r).__name__} {text}")
    chip0 = reports[0].chip
    for r, name in zip(reports[1:], names[1:]):
        if r.chip.name != chip0.name:
            raise ArgumentValueError(
                f"{who}: {name} ({r.kernel}) is timed on {r.chip.name} but {names[0]} "
                f"({reports[0].kernel}) on {chip0.name}: one roofline draws one chip's ceilings; "
                "time every report with the same chip=, or draw one roofline per chip")


def _labels(reports: Sequence[Any], labels: Sequence[str] | None, who: str) -> tuple[str, ...]:
    if labels is not None:
        if not isinstance(labels, (list, tuple)) or not all(isinstance(x, str) for x in labels):
            raise ArgumentTypeError(f"{who}: argument 'labels' takes a list or tuple of str "
                                    f"(one per report), got {type(labels).__name__} {labels!r:.40}")
        if len(labels) != len(reports):
            raise ArgumentValueError(f"{who}: argument 'labels' has {len(labels)} labels for "
                                     f"{len(reports)} reports: give one per report")
        return tuple(labels)
    names = [r.kernel for r in reports]
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(f"{n} #{seen[n]}" if names.count(n) > 1 else n)
    return tuple(out)


def build(reports: Sequence[Any], labels: Sequence[str] | None = None,
          names: Sequence[str] | None = None, who: str = "wb.roofline") -> Roofline:
    """The roofline of ``reports`` (all on one chip); ``names`` name them in errors."""
    names = list(names or (f"reports[{i}]" for i in range(len(reports))))
    _check_reports(reports, names, who)
    labs = _labels(reports, labels, who)
    chip = reports[0].chip
    clock = reports[0].clock_ghz
    dtypes = [r.dtype for r in reports]
    drawn = chip_ceilings(chip, clock, dtypes)
    points, notes = [], []
    for i, (r, lab) in enumerate(zip(reports, labs)):
        if not r.flops or not r.seconds:
            notes.append(f"{lab}: 0 FLOPs, so no points; pass flops= (the launch's useful FLOPs) "
                         "to kernel.timing[grid, block](*args, flops=...): without it a report "
                         "counts MFMA FLOPs only")
            continue
        own = chip_ceilings(chip, r.clock_ghz, dtypes)
        by = {c.name: c for c in own}
        comp = _compute_ceiling(own, r.dtype)
        attained = r.flops / r.seconds
        traffic = dict(r.traffic or {})
        order = [lv for lv in LEVELS if lv in traffic] + [lv for lv in traffic if lv not in LEVELS]
        for level in order:
            b = float(traffic[level])
            if not b > 0:
                continue
            intensity, achieved = r.flops / b, b / r.seconds
            mem = by.get(LEVEL_CEILING.get(level, level))
            bound = min((comp, mem) if mem else (comp,), key=lambda c: c.roof(intensity))
            a_c = by.get(ACHIEVABLE_OF.get(level, ""))
            ach = 100.0 * achieved / a_c.value if a_c else None
            points.append(RooflinePoint(
                lab, level, intensity, attained, b, achieved, mem.name if mem else "",
                100.0 * achieved / mem.value if mem else None, bound.roof(intensity),
                bound.name, i, ach))
        if not traffic:
            notes.append(f"{lab}: the report carries no per-level traffic, so no points")
        if abs(r.clock_ghz - clock) > 5e-4:
            notes.append(f"{lab} ran at {r.clock_ghz:.2f} GHz ({LABEL}), the ceilings are drawn at "
                         f"{labs[0]}'s {clock:.2f} GHz: its bandwidth and roof percentages use "
                         "the ceilings at its own clock")
    if any(p.level == "Infinity Cache" for p in points):
        notes.append("Infinity Cache bytes = HBM bytes: the model times no Infinity-Cache hits "
                     "(every L2 miss goes to HBM), so both points sit at one intensity")
    if any(p.level == "L2" for p in points):
        notes.append("L2 bytes are the 128-B lines the waves request that miss the modelled "
                     "vL1D; LDS bytes are the DS instructions' bytes")
    if any(c.assumed for c in drawn):
        notes.append("ceilings with an ASSUMPTION or a FITTED value among their parameters are "
                     "drawn dashed: " + ", ".join(c.name for c in drawn if c.assumed))
    return Roofline(chip, clock, tuple(drawn), tuple(points), labs, tuple(notes))


@checked(public="roofline", own=("reports",))
def roofline(*reports: Any, labels: Sequence[str] | None = None) -> Roofline:
    """One roofline for timing reports of one chip (e.g. the steps of a tutorial): the chip's
    ceilings and each report's modelled point per memory level; ``labels`` name the reports
    (default: their kernels' names)."""
    return build(reports, labels)


def intensity_range(rf: Roofline) -> tuple[float, float]:
    """A log x range (FLOP/B) showing every point and every ridge (where a memory roof meets
    the top compute roof), a decade of margin each side."""
    top = max(c.value for c in rf.ceilings if c.kind == "compute")
    xs = [top / c.value for c in rf.ceilings if c.kind == "memory"]
    xs += [p.intensity for p in rf.points]
    lo, hi = min(xs), max(xs)
    return 10 ** math.floor(math.log10(lo) - 0.5), 10 ** math.ceil(math.log10(hi) + 0.5)
