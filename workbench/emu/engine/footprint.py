"""Bounded work: what an emulated launch will cost, estimated before anything is allocated.

Why: ``add[(1, 2**31), 64](...)`` on the emulator is 2**31 waves; run blindly it fills the
machine's memory and takes hours, and a notebook cannot get it back. Every emulated launch
(``kernel[...]`` on the emulator, ``kernel.trace``, ``kernel.check``, ``kernel.timing``, the
launch guard's boundary workgroups) therefore first computes a ``Footprint`` from the grid, the
block and the compiled program, and ``execute`` refuses (``LaunchTooLarge``, a ``LaunchError``)
a launch whose

* **memory** — the copies of its buffers, the printf buffer, one batch of wave state (register
  files, scratch, LDS rows, the check-mode shadows, numpy temporaries of one instruction) and
  the recorded instruction streams (stream mode) — exceeds ``MEMORY_FRACTION`` (half) of the
  memory the system has available now (``/proc/meminfo`` MemAvailable, else psutil); or whose
* **emulation time** exceeds ``MAX_EMULATION_SECONDS`` (60 s; ``max_emulation_seconds=`` per
  launch). The estimate before starting is a *lower bound*: every wave runs at least the
  shortest path from the entry to ``s_endpgm`` (loops counted once, skipped branches taken),
  at ``SECONDS_PER_WAVE_INSTRUCTION`` per wave-instruction plus ``SECONDS_PER_STEP`` per
  lock-step instruction of each batch. A kernel whose loops make it longer is projected again
  from the measured time of its first batches (``projected_seconds``), before the rest runs.

``force=True`` on the launch skips both checks (the watchdog, the budget and Ctrl-C still
apply). The refusal names the grid, the numbers and what to do: a smaller grid, fewer
workgroups (``workgroups=N`` runs the first N), or ``force=True``.

Calibration (measured on the development machine, 2 cores, numpy 2, with other work
running; tests/bench/big_grid.py prints the numbers again): a lock-step instruction costs
~60-75 ns per wave in batches of 1,000-16,000 waves, 200-600 ns per wave in batches of 20,000+
waves (register planes outgrow the caches) and ~10-15 us of Python per instruction however few
waves run. The constants take the cheap end, so the estimate stays a lower bound. Memory:
measured peaks (tracemalloc) of plain, check- and stream-mode launches stay within 20% of the
estimate; plain launches are overestimated (~6.8 KB per wave estimated, ~5.4 KB measured for a
4-VGPR kernel).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from ...errors import LaunchError
from ..decoder.registry import BRANCH, ENDPGM, INDIRECT
from ..machine.state import LANES, N_SGPR_SLOTS

MAX_EMULATION_SECONDS = 60.0  # module setting; ``max_emulation_seconds=`` per launch
MEMORY_FRACTION = 0.5  # of the memory available now (MemAvailable)
SECONDS_PER_WAVE_INSTRUCTION = 60e-9  # one wave, one instruction: the fastest measured
SECONDS_PER_STEP = 8e-6  # Python work per lock-step instruction of a batch, any size
# observers multiply the per-wave cost (their bookkeeping is per step, in Python)
MODE_FACTOR = {"trace": 1.5, "stream": 2.0, "check": 4.0}
STATE_BYTES_PER_BATCH = 384 << 20  # cap on the state bytes of one batch of workgroups
# numpy temporaries of one instruction over a batch: a few [W, 64] uint64 arrays (addresses,
# masks, widened operands); measured peak over a batch of the add kernel ~ 6 register planes
TEMP_BYTES_PER_WAVE = 8 * LANES * 8
STREAM_BYTES_PER_ROW = 200  # stream mode, per wave-instruction: recorded, expanded, sorted
# (measured ~150 B per row over the real path; the estimate counts the shortest path)
TRACE_BYTES_PER_DS_ROW = LANES * 2 * 4 + LANES + 64  # addresses, EXEC, ids (trace.DSRecords)
# check mode's LDS shadows: writer/reader wave and epoch, init flag (25 B per LDS byte) and the
# temporaries of one access over them (measured peak ~85 B per LDS byte of the batch)
CHECK_BYTES_PER_LDS_BYTE = 96


class LaunchTooLarge(LaunchError):
    """An emulated launch needs more memory or time than allowed; names the numbers and what to
    do (smaller grid, ``workgroups=``, ``max_emulation_seconds=``, ``force=True``)."""


@dataclass(frozen=True)
class Footprint:
    """What one emulated launch is estimated to cost (``estimate``)."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    workgroups: int  # workgroups that will run (the grid, or ``workgroups=`` / ``only=``)
    waves_per_group: int
    workgroups_per_batch: int
    min_instructions: int  # per wave: the shortest path from the entry to s_endpgm
    memory: dict  # part -> bytes
    seconds: float  # lower bound on the emulation time

    @property
    def waves(self) -> int:
        return self.workgroups * self.waves_per_group

    @property
    def batches(self) -> int:
        return -(-self.workgroups // self.workgroups_per_batch) if self.workgroups else 0

    @property
    def memory_bytes(self) -> int:
        return int(sum(self.memory.values()))


def available_memory() -> int | None:
    """Bytes the system can give now without swapping (MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # psutil missing or unsupported here: no memory check
        return None


def state_bytes_per_wave(n_regs: int, scratch: int, check: bool = False) -> int:
    """Bytes of one wave's state in a batch (``machine.state.State``) plus its temporaries."""
    stride = (scratch + 15) // 16 * 16
    regs = max(1, n_regs) * LANES * 4
    # SGPRs, SCC, EXEC lanes, MODE, ids (wg, wg_global, wave_in_wg, wave_global), scheduler
    small = N_SGPR_SLOTS * 4 + LANES + 1 + 4 + 8 * 6 + 17
    return regs + LANES * stride * (2 if check else 1) + small + TEMP_BYTES_PER_WAVE


def lds_row_bytes(lds: int, check: bool = False) -> int:
    """Bytes of one workgroup's LDS row in a batch (State.lds; check mode's shadows)."""
    row = (lds + 15) // 16 * 16 + 32
    return row + (CHECK_BYTES_PER_LDS_BYTE * lds if check else 0)


def workgroups_per_batch(n_regs: int, wpg: int, scratch: int, lds: int, *, check: bool = False,
                         max_waves: int | None = None) -> int:
    """Workgroups one batch holds: ``max_waves`` waves if given, else as many as fit in
    ``STATE_BYTES_PER_BATCH`` (register files, scratch and LDS rows together)."""
    if max_waves:
        return max(1, max_waves // wpg)
    per_wg = wpg * state_bytes_per_wave(n_regs, scratch, check) + lds_row_bytes(lds, check)
    return max(1, STATE_BYTES_PER_BATCH // per_wg)


def shortest_path(prog: Any, entry: int) -> int:
    """Fewest instructions any wave executes from ``entry`` to s_endpgm (BFS over the
    listing's fall-through and branch edges; an indirect jump counts as an end): a lower bound,
    cached on the program."""
    memo = getattr(prog, "_shortest", None)
    if memo is None:
        memo = prog._shortest = {}
    hit = memo.get(entry)
    if hit is not None:
        return hit
    execs, n = prog.execs, len(prog.execs)
    depth = {entry: 1}
    todo = deque([entry])
    best = n  # no end reachable (a kernel that only loops): its length
    while todo:
        i = todo.popleft()
        e = execs[i]
        if e.kind in (ENDPGM, INDIRECT):
            best = depth[i]
            break
        nxt = [i + 1]
        if e.kind == BRANCH and e.target >= 0:
            nxt.append(e.target)
        for j in nxt:
            if 0 <= j < n and j not in depth:
                depth[j] = depth[i] + 1
                todo.append(j)
    memo[entry] = best
    return best


def estimate(prog: Any, entry: int, grid: tuple, block: tuple, wave: int, *, run_wgs: int,
             buffer_bytes: int, printf_bytes: int, lds: int, scratch: int,
             trace: bool = False, stream: bool = False, check: bool = False,
             max_ds_rows: int = 0, max_waves: int | None = None) -> Footprint:
    """The Footprint of running ``run_wgs`` workgroups of ``grid`` (see the module docstring).

    Pure arithmetic on the grid: nothing is allocated per workgroup or per wave."""
    wpg = -(-(block[0] * block[1] * block[2]) // wave)
    n_regs = prog.info.n_vgpr + prog.info.n_agpr
    per_batch = workgroups_per_batch(n_regs, wpg, scratch, lds, check=check,
                                     max_waves=max_waves)
    in_batch = min(run_wgs, per_batch)
    steps = shortest_path(prog, entry)
    waves = run_wgs * wpg
    memory = {
        "buffers": buffer_bytes + printf_bytes,
        "wave state": in_batch * (wpg * state_bytes_per_wave(n_regs, scratch, check)
                                  + lds_row_bytes(lds, check)),
    }
    if stream:
        memory["instruction streams"] = waves * steps * STREAM_BYTES_PER_ROW
    if trace or stream:
        memory["LDS trace"] = max_ds_rows * TRACE_BYTES_PER_DS_ROW if _has_ds(prog) else 0
    factor = max([1.0] + [MODE_FACTOR[m] for m, on in
                          (("trace", trace), ("stream", stream), ("check", check)) if on])
    batches = -(-run_wgs // per_batch) if run_wgs else 0
    seconds = (batches * steps * SECONDS_PER_STEP
               + waves * steps * SECONDS_PER_WAVE_INSTRUCTION) * factor
    return Footprint(tuple(grid), tuple(block), run_wgs, wpg, per_batch, steps, memory, seconds)


def _has_ds(prog: Any) -> bool:
    return any(i.mnemonic.startswith("ds_") for i in prog.insts)


def _fmt_bytes(n: float) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def _fmt_seconds(s: float) -> str:
    if s >= 2 * 3600:
        return f"{s / 3600:,.1f} h"
    if s >= 120:
        return f"{s / 60:,.1f} min"
    return f"{s:,.1f} s"


def resolve_max_seconds(value: Any) -> float | None:
    """``max_emulation_seconds=`` of a launch: a positive number, None (no limit), or unset
    (the module setting ``MAX_EMULATION_SECONDS``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or math.isnan(value):
        raise LaunchError(f"max_emulation_seconds= takes a positive number of seconds or None "
                          f"(no limit), got {value!r}")
    return float(value)


def check(fp: Footprint, kernel: str, *, max_seconds: float | None,
          available: int | None = None) -> None:
    """Raise ``LaunchTooLarge`` when ``fp`` is over the memory or time limit."""
    what = (f"kernel {kernel!r} on the emulator, grid {fp.grid} x block {fp.block}: "
            f"{fp.workgroups:,} workgroup(s) of {fp.waves_per_group} wave(s) = {fp.waves:,} "
            f"wave(s)")
    todo = ("launch a smaller grid, run part of it with workgroups=N (the first N "
            "workgroups), or pass force=True to run it anyway (Ctrl-C stops it)")
    avail = available_memory() if available is None else available
    if avail is not None and fp.memory_bytes > MEMORY_FRACTION * avail:
        parts = ", ".join(f"{k} {_fmt_bytes(v)}" for k, v in fp.memory.items() if v)
        raise LaunchTooLarge(
            f"{what} needs about {_fmt_bytes(fp.memory_bytes)} of memory ({parts}), over the "
            f"limit of {_fmt_bytes(MEMORY_FRACTION * avail)} ({MEMORY_FRACTION * 100:.3g}% of the "
            f"{_fmt_bytes(avail)} available now); {todo}")
    if max_seconds is not None and fp.seconds > max_seconds:
        rate = SECONDS_PER_WAVE_INSTRUCTION * 1e9
        raise LaunchTooLarge(
            f"{what} would take at least {_fmt_seconds(fp.seconds)} of emulation "
            f"({fp.waves:,} waves x {fp.min_instructions} instructions, the kernel's shortest "
            f"path, at ~{rate:.0f} ns per wave-instruction, in {fp.batches:,} batch(es)), over "
            f"the limit of max_emulation_seconds={max_seconds:g}; {todo}, or raise "
            f"max_emulation_seconds= (per launch, or workbench.emu.engine.footprint."
            f"MAX_EMULATION_SECONDS)")


def check_progress(fp: Footprint, kernel: str, *, done_wgs: int, elapsed: float,
                   max_seconds: float | None) -> None:
    """After some batches ran: refuse the rest when the measured rate projects the whole launch
    over ``max_seconds`` (nothing is written back: the user's arrays are untouched)."""
    if max_seconds is None or done_wgs <= 0 or done_wgs >= fp.workgroups:
        return
    projected = elapsed * fp.workgroups / done_wgs
    if projected > max_seconds:
        raise LaunchTooLarge(
            f"kernel {kernel!r} on the emulator, grid {fp.grid} x block {fp.block}: the first "
            f"{done_wgs:,} of {fp.workgroups:,} workgroups took {_fmt_seconds(elapsed)}, so the "
            f"launch would take about {_fmt_seconds(projected)}, over the limit of "
            f"max_emulation_seconds={max_seconds:g}; stopped before the rest ran (outputs not "
            f"written). Launch a smaller grid, run part of it with workgroups=N, raise "
            f"max_emulation_seconds=, or pass force=True to run it anyway (Ctrl-C stops it)")


__all__ = ["Footprint", "LaunchTooLarge", "MAX_EMULATION_SECONDS", "MEMORY_FRACTION",
           "available_memory", "check", "check_progress", "estimate", "resolve_max_seconds",
           "shortest_path", "workgroups_per_batch"]
