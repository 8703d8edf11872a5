"""TimingReport: the modelled time of a launch, unit busy fractions, stalls, limiter, sources.

Why a report object: notebooks, the magic and benches all print the same labelled numbers; the
timeline view draws ``spans``. Every number here is "modelled" (no GPU measured it). Times and
rates are at the modelled engine clock (``clock_ghz``: the power-limited clock under the kernel's
MFMA load, chips.py); "% of peak" is against the spec peak, which assumes the max clock; MFMA
efficiency (pipe busy) does not depend on the clock.
"""
from __future__ import annotations

import html
import importlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgumentValueError
from ..text_table import text_table
from .chips import SOURCES, Chip
from .line_costs import LineCosts, TimedListing, instruction_costs

LABEL = "modelled"
TIMELINE_VIEW = "workbench.widgets.timeline"


@dataclass
class TimingReport:
    """Modelled timing of one launch on one chip (see ``summary()``)."""

    kernel: str
    chip: Chip
    grid: tuple
    block: tuple
    seconds: float
    cycles: float
    batch_cycles: float  # one CU's time for its resident workgroups
    workgroups: int
    workgroups_per_cu: int
    rounds: float
    flops: float
    dtype: str
    bytes: float
    busy: dict  # unit -> fraction of the simulated window
    stalls: dict  # wave -> {reason: cycles}
    dram_fraction: float
    simulated_rows: int
    total_rows: int
    complete: bool
    spans: list = field(repr=False)  # (wave, start, end, span kind, stream row)
    spans_truncated: bool = False
    wave_simd: dict = field(default_factory=dict, repr=False)
    wave_group: dict = field(default_factory=dict, repr=False)
    row_index: Any = field(default=None, repr=False)
    instructions: list = field(default_factory=list, repr=False)
    window_cycles: int = 0
    lds_estimated: int = 0
    notes: tuple = ()
    clock_ghz: float = 0.0  # the engine clock the cycles were converted at (0: the max clock)
    clock_mode: str = "max"  # 'modelled' (power-limited, from the MFMA load) | 'max'
    mfma_load: float = 0.0  # chip-wide MFMA-pipe busy fraction of the launch (sets the clock)
    max_clock_seconds: float = 0.0  # the launch's modelled time at the max engine clock
    model_seconds: float = 0.0
    traffic: dict = field(default_factory=dict)  # memory level -> bytes moved, grid-wide
    l1_hit_rate: float = 0.0  # modelled vL1D hits / load lines looked up, in the simulated window
    # the simulated window's cycles per instruction (simulate.py "Accounting"): issue cycles,
    # and stall cycles flat [instruction * len(STALL_REASONS) + reason]
    inst_issue: list = field(default_factory=list, repr=False)
    inst_stall: list = field(default_factory=list, repr=False)
    wave_start: dict = field(default_factory=dict, repr=False)  # wave -> dispatch cycle
    wave_end: dict = field(default_factory=dict, repr=False)  # wave -> s_endpgm cycle
    source: str | None = field(default=None, repr=False)  # the kernel's source (line N = N)
    header_text: dict = field(default_factory=dict, repr=False)  # "file.h:43" -> that line

    def __post_init__(self) -> None:
        if not self.clock_ghz:
            self.clock_ghz = self.chip["clock_ghz"]
        if not self.max_clock_seconds:
            self.max_clock_seconds = self.cycles / self.chip.clock_hz

    # -- derived numbers -----------------------------------------------------------------------
    @property
    def tflops(self) -> float:
        return self.flops / self.seconds / 1e12 if self.seconds else 0.0

    @property
    def peak_tflops(self) -> float | None:
        """The spec peak of the kernel's matrix dtype, at the max engine clock."""
        p = self.chip.peak_flops(self.dtype) if self.dtype else None
        return p / 1e12 if p else None

    @property
    def percent_of_peak(self) -> float | None:
        """Modelled TFLOP/s against the spec peak (which assumes the max clock)."""
        p = self.peak_tflops
        return 100.0 * self.tflops / p if p else None

    @property
    def peak_tflops_at_clock(self) -> float | None:
        """The matrix peak at the modelled clock (what the pipes can do at that clock)."""
        p = self.chip.peak_flops(self.dtype, self.clock_ghz * 1e9) if self.dtype else None
        return p / 1e12 if p else None

    @property
    def percent_of_peak_at_clock(self) -> float | None:
        p = self.peak_tflops_at_clock
        return 100.0 * self.tflops / p if p else None

    @property
    def tflops_at_max_clock(self) -> float:
        """Modelled TFLOP/s if the chip held its max engine clock (as ``clock='max'``)."""
        return self.flops / self.max_clock_seconds / 1e12 if self.max_clock_seconds else 0.0

    @property
    def clock_reason(self) -> str:
        """Why the clock is what it is, with the sources of the numbers."""
        ch = self.chip
        top = ch["clock_ghz"]
        load = f"{100 * self.mfma_load:.0f}% MFMA load (chip-wide)"
        key = ch.sustained_clock_key(self.dtype or "bf16")
        p = ch.params[key]
        low = f"{p.value:g} GHz sustained under full {self.dtype or 'matrix'} load " \
              f"({p.source.split()[0]})"
        if self.clock_mode == "max":
            would = ch.clock_ghz_at(self.mfma_load, self.dtype or "bf16")
            return (f"{top:g} GHz, the max engine clock (clock='max'); the power-limited clock "
                    f"under {load} would be {would:.2f} GHz")
        return (f"power-limited clock under {load}: {self.clock_ghz:.2f} GHz ({LABEL}; "
                f"{top:g} GHz max at 0%, {low}, linear in between: ASSUMPTION)")

    @property
    def gbs(self) -> float:
        return self.bytes / self.seconds / 1e9 if self.seconds else 0.0

    @property
    def percent_of_bandwidth(self) -> float:
        return 100.0 * self.gbs * 1e9 / self.chip.hbm_bytes_per_s

    @property
    def mfma_efficiency(self) -> float:
        """Fraction of the simulated window the MFMA pipes were busy (ATT's 'MFMA efficiency')."""
        return self.busy.get("MFMA", 0.0)

    def stall_totals(self) -> Counter:
        tot: Counter = Counter()
        for st in self.stalls.values():
            tot.update(st)
        return tot

    @property
    def limiter(self) -> str:
        """One sentence: what limits the modelled time, and the line most stall cycles wait at."""
        where = self.lines().sentence() if self.inst_issue else ""
        return self._limiter() + (f" {where[0].upper()}{where[1:]}." if where else "")

    def _limiter(self) -> str:
        b = self.busy
        unit, frac = max(b.items(), key=lambda kv: kv[1])
        stalls = self.stall_totals()
        wave_cycles = max(1, self.window_cycles * max(1, len(self.stalls)))
        top = stalls.most_common(1)
        if unit == "MFMA" and frac >= 0.8:
            return (f"MFMA-bound: the matrix pipes are busy {100 * frac:.0f}% of the time "
                    f"({LABEL}).")
        if frac >= 0.7:
            what = {"VMEM": "global-memory data path (vL1D, this CU's turn at L2/HBM) is",
                    "LDS": "LDS banks are", "VALU": "vector ALUs are",
                    "MFMA": "matrix pipes are"}[unit]
            return f"{unit}-bound: the {what} busy {100 * frac:.0f}% of the time ({LABEL})."
        # share of the waves' issue slots (one per wave every issue_interval cycles) used
        slots = self.window_cycles * max(1, len(self.stalls)) / self.chip["issue_interval"]
        issue = min(1.0, self.simulated_rows / max(1.0, slots))
        stalled = top[0][1] / wave_cycles if top else 0.0
        if issue >= 0.5 and issue >= stalled:
            return (f"issue-bound: the waves issue an instruction in {100 * issue:.0f}% of their "
                    f"issue slots (one per wave every {int(self.chip['issue_interval'])} cycles); "
                    f"fewer instructions per FLOP would be faster; the busiest unit, {unit}, is "
                    f"at {100 * frac:.0f}% ({LABEL}).")
        if top:
            reason, cyc = top[0]
            return (f"latency-bound: waves spend {100 * cyc / wave_cycles:.0f}% of their cycles "
                    f"stalled on '{reason}'; the busiest unit, {unit}, is at {100 * frac:.0f}% "
                    f"({LABEL}).")
        return f"issue-bound: no unit above {100 * frac:.0f}% busy ({LABEL})."

    # -- where the cycles go ---------------------------------------------------------------------
    def lines(self, top: int | None = None) -> LineCosts:
        """Modelled cycles per source line (issue + stall by reason), sorted by cost; a header
        line keeps the user's call site (``line 12 > tile.h:40``); ``top``: show only the
        costliest ``top`` lines (the shares stay those of the whole kernel)."""
        if top is not None and (type(top) is not int or top < 1):
            raise ArgumentValueError(f"report.lines(top={top!r}): top is the number of lines "
                                     f"to show, an int >= 1 (or None for all)")
        return LineCosts(self.kernel, self._inst_costs(), self.source, self.header_text, top,
                         self._scope())

    def _scope(self) -> str:
        """What the per-instruction cycles cover ("" for the whole simulated CU window)."""
        return "" if self.complete else (
            f"the simulated prefix: the first {self.simulated_rows:,} of {self.total_rows:,} "
            f"wave-instructions of the CU window")

    def isa(self) -> TimedListing:
        """The ISA listing with each instruction's modelled cycles and share (a heat column),
        source lines interleaved."""
        return TimedListing(self.kernel, self.instructions, self._inst_costs(), self.source,
                            self.header_text, self._scope())

    def _inst_costs(self) -> list:
        return instruction_costs(self.instructions, self.inst_issue, self.inst_stall)

    # -- text ----------------------------------------------------------------------------------
    def summary(self) -> str:
        """Deterministic plain-text summary (what `%%hipkernel --time` prints)."""
        ch = self.chip
        top = ch["clock_ghz"]
        lines = [f"{self.kernel} on {ch.product} ({ch.name}, {ch.arch}) - {LABEL} timing",
                 f"  time        {self.seconds * 1e6:,.1f} us ({LABEL}); {self.cycles:,.0f} cycles "
                 f"at {self.clock_ghz:.2f} GHz ({self.clock_mode} clock)",
                 f"  clock       {self.clock_reason}"]
        if self.flops:
            pk = self.peak_tflops
            pct = (f", {self.percent_of_peak:.1f}% of the {pk:,.1f} TFLOP/s {self.dtype} peak "
                   f"(at the {top:g} GHz max clock)") if pk else ""
            if pk and self.clock_ghz != top:
                pct += (f", {self.percent_of_peak_at_clock:.1f}% of the "
                        f"{self.peak_tflops_at_clock:,.1f} at {self.clock_ghz:.2f} GHz")
            lines.append(f"  compute     {self.tflops:,.1f} TFLOP/s ({LABEL}){pct}")
        if self.clock_ghz != top:
            at_max = f"{self.tflops_at_max_clock:,.1f} TFLOP/s, " if self.flops else ""
            lines.append(f"  max clock   {at_max}{self.max_clock_seconds * 1e6:,.1f} us at "
                         f"{top:g} GHz ({LABEL}; clock='max')")
        bw = self.percent_of_bandwidth
        lines.append(f"  memory      {self.gbs:,.0f} GB/s ({LABEL}), {bw:.1f}% of "
                     f"{ch['hbm_tbs']:g} TB/s HBM (achievable {ch['hbm_achievable_tbs']:g})")
        busy = ", ".join(f"{k} {100 * v:.1f}%" for k, v in self.busy.items())
        lines.append(f"  busy        {busy} (MFMA busy = MFMA efficiency, clock-independent)")
        lines.append(f"  grid        {self.workgroups} workgroups, {self.workgroups_per_cu} per CU "
                     f"at occupancy, {self.rounds:.2f} rounds over {int(ch['cus'])} CUs / "
                     f"{int(ch['xcds'])} XCDs")
        tot = self.stall_totals()
        if tot:
            top = ", ".join(f"{k} {v:,}" for k, v in tot.most_common(4))
            lines.append(f"  stalls      {top} (wave-cycles)")
        sim = (f"{self.simulated_rows:,} of {self.total_rows:,} wave-instructions simulated"
               + ("" if self.complete else ", rest extrapolated"))
        lines.append(f"  model       {sim}; HBM share of line bytes {self.dram_fraction:.3f}")
        lines.append(f"  limiter     {self.limiter}")
        return "\n".join(lines)

    def sources_table(self) -> str:
        rows = [(k, v, s) for k, v, s, _ in self.chip.table()]
        return text_table(["parameter", "value", "source"], rows)

    def text(self) -> str:
        """Summary, the per-wave stalls, notes and the chip's parameter table with sources."""
        out = [self.summary(), "", "stall cycles per wave (" + LABEL + "):"]
        waves = sorted(self.stalls)[:16]
        reasons = sorted({r for w in waves for r in self.stalls[w]})
        if reasons:
            rows = [(str(w), str(self.wave_simd.get(w, "")),
                     *(f"{self.stalls[w].get(r, 0):,}" for r in reasons)) for w in waves]
            out.append(text_table(["wave", "SIMD", *reasons], rows))
        out.append("")
        out += [f"note: {n}" for n in self.notes]
        out.append("")
        out.append(self.sources_table())
        out += [f"  {k}: {v}" for k, v in SOURCES.items()]
        return "\n".join(out)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        src = html.escape(self.text().split("\n\n", 1)[-1])
        return (f"<pre>{html.escape(self.summary())}</pre>"
                f"<details><summary>sources and model notes ({LABEL})</summary>"
                f"<pre>{src}</pre></details>")

    def timeline(self, start: int | None = None, end: int | None = None, **kwargs: Any):
        """The wave timeline view (bokeh; static text/HTML for nbviewer), cycles start..end.

        The view lives in ``workbench.widgets.timeline`` (a higher layer); this pure model names
        it and loads it by module name on first use, so importing the model never loads it.
        """
        view = importlib.import_module(TIMELINE_VIEW)
        return view.timeline(self, start, end, **kwargs)

    def roofline(self, *others: TimingReport, labels: Any = None):
        """The roofline of this report, with ``others`` (same chip) overlaid: the chip's
        ceilings at the modelled clock and a modelled point per memory level (``Roofline``,
        ``workbench/timing/roofline.py``); ``labels`` name the reports (default: kernels)."""
        from .roofline import build

        names = ["this report", *(f"others[{i}]" for i in range(len(others)))]
        return build((self, *others), labels, names, who="report.roofline")
