"""From a recorded stream to a TimingReport: one CU's waves simulated, the grid extrapolated.

Why this shape: a CU's behaviour over the workgroups it holds at the kernel's occupancy decides
the kernel's speed; the grid is that CU's time multiplied out with wave quantisation over the
chip's XCDs and CUs (workgroups are dispatched round-robin to the XCDs, then to their CUs).

Stated model choices (also printed in every report):
* Clock: cycles become seconds at the modelled engine clock: the power-limited clock under the
  kernel's chip-wide MFMA load (chips.py ``clock_ghz_at``: linear between the max clock and the
  sustained clock AMD measured under full matrix load); ``clock='max'`` gives the max clock.
* L2 hit model: the kernel's footprint (every byte of its buffers) crosses HBM once (cold: the
  published benchmarks rotate a pool larger than the Infinity Cache, so inputs start in HBM);
  every other line that misses the vL1D hits L2. So the missing fraction of line bytes is
  footprint / (line bytes the whole grid requests), capped at 1.
* vL1D (simulate.py): 32 KiB per CU in 4 sets of 128-B lines, LRU, loads allocate.
* Shared bandwidth (costs.py ``shared_line_cycles``): a line that misses the vL1D is served by
  what the XCD's L2 channels (and the chip's HBM) have left after the other CUs, taken to run
  at this CU's own average rate; never less than the fair 1/CUs share, never faster than the
  per-CU request rate. A CU keeps at most ``vmem_lines_in_flight`` line requests outstanding.
* Rounds: when the grid needs several rounds of the CU's workgroups and the streams are short,
  two generations are simulated (the dispatcher refills a slot when its workgroup ends) and the
  second one's time is the steady-state time per round; a partly filled last round (fewer
  workgroups per CU) is simulated on its own.
* Long streams: when the CU's streams hold more than ``max_rows`` wave-instructions, the model
  simulates that prefix and extrapolates the rest at the rate of the prefix's second half (each
  round then costs that extrapolated time).
"""
from __future__ import annotations

import math
import time
from collections import Counter

import numpy as np

from ..errors import ArgumentValueError
from . import classes as C
from .chips import Chip, get_chip
from .costs import row_costs
from .report import TimingReport
from .simulate import SimResult, simulate
from .stream import InstStream

DEFAULT_MAX_ROWS = 200_000

NOTES = (
    "Memory: every global/buffer line passes this CU's vL1D (32 KiB, 4 sets of 128-B lines, "
    "LRU; loads allocate, stores write through; replayed workgroups get their own tags). A "
    "line that misses takes this CU's turn at its XCD's L2 channels, served by what the other "
    "CUs (assumed as busy as this one) leave free, never faster than the per-CU request rate; "
    "the kernel's footprint crosses HBM once (cold: inputs start in HBM only), every other "
    "miss hits L2. At most vmem_lines_in_flight line requests per CU are outstanding, so "
    "loaded latency grows with occupancy (Little's law).",
    "Dependent-instruction hazards are timed through the compiler's s_nop padding; "
    "sched_barrier/sched_group_barrier are compile-time only.",
    "When fewer workgroups were emulated than a CU holds, their streams are replayed for the "
    "others (long kernels emulate one workgroup).",
    "Clock: the power-limited engine clock falls linearly with the kernel's chip-wide MFMA "
    "load from the max clock to the measured sustained clock (MAF, GLUON; the line is an "
    "ASSUMPTION). The CU is simulated in cycles once, with the max clock's HBM bytes per cycle "
    "and latencies in shader cycles as measured; the clock converts cycles to seconds (so a "
    "kernel both HBM-limited and under MFMA load is modelled somewhat slow).",
    "Not modelled: launch overhead (the event-timed launch of a published figure includes a "
    "few microseconds), input-data toggle rates (they move the clock, MAF), instruction-cache "
    "misses, TLB misses, Infinity-Cache hits, each XCD's L2 fetching its own copy of shared "
    "lines, imbalance between XCDs, dispatch delays.",
)

# which unstated-source parameters a kernel's timing rests on, by what its streams contain
_LEANS = (
    ("vmem", ("vmem_lines_in_flight", "l2_efficiency", "l2_cycles_per_line_cu",
              "ta_cycles_per_quad_line", "l1_bytes")),
    ("mfma", ("clock_load_rule",)),
    ("barrier", ("barrier_latency",)),
    ("smem", ("smem_latency",)),
)
# where only part of a parameter is unsourced, the note names that part
_PART = {"l1_bytes": "the vL1D's replacement and write policy",
         "ta_cycles_per_quad_line": "one clock per extra line of a lane quad"}


def leaned_on(chip: Chip, kinds: set, dtype: str = "") -> str:
    """A note naming the FITTED and ASSUMPTION parameters this kernel's timing rests on."""
    keys = [k for what, names in _LEANS if what in kinds for k in names]
    if "mfma" in kinds and dtype:
        keys.append(chip.sustained_clock_key(dtype))
    parts = []
    for k in dict.fromkeys(keys):
        p = chip.params.get(k)
        if p is None or not (p.assumed or p.fitted or "ASSUMPTION" in p.source
                             or "ASSUMPTION" in p.note):
            continue
        what = _PART.get(k, f"{k} = {p.value:g}")
        parts.append(f"{what} ({'FITTED' if p.fitted else 'ASSUMPTION'})")
    if not parts:
        return ""
    return ("This timing leans on parameters without a direct published source (see the "
            "table): " + "; ".join(parts) + ".")


def _extrapolated_cycles(sim: SimResult) -> float:
    if sim.complete:
        return float(sim.cycles)
    cps = [c for c in sim.checkpoints if c[1] <= sim.retired // 2] or [(0, 0)]
    t_h, r_h = cps[-1]
    rate = (sim.retired - r_h) / max(1, sim.cycles - t_h)
    return sim.cycles + (sim.total_rows - sim.retired) / max(rate, 1e-9)


CLONE_STRIDE = 1 << 20  # wave ids of replicated workgroups: id + copy * CLONE_STRIDE


def _placement(stream: InstStream, groups: list[int], k: int):
    """wave -> rows, SIMD, workgroup for ``k`` resident workgroups in dispatch order: the
    recorded ``groups``, repeated (their streams replayed) when fewer were recorded."""
    wpg = stream.waves_per_group
    bounds = np.searchsorted(stream.wave, stream.waves, "left").tolist() + [len(stream)]
    by_group: dict = {}
    for i, w in enumerate(stream.waves.tolist()):
        by_group.setdefault(int(stream.wave_workgroup[i]), []).append(
            (w, int(stream.wave_in_group[i]), bounds[i], bounds[i + 1]))
    rows_of, simd_of, group_of = {}, {}, {}
    for slot in range(k):
        g = groups[slot % len(groups)]
        copy = slot // len(groups)
        for (w, wi, lo, hi) in by_group[g]:
            v = w + copy * CLONE_STRIDE
            rows_of[v] = list(range(lo, hi))
            simd_of[v] = (slot * wpg + wi) % 4
            group_of[v] = g + copy * CLONE_STRIDE
    return rows_of, simd_of, group_of


def parse_clock(clock: str, ch: Chip) -> tuple[str, float]:
    """('modelled' | 'max', GHz before the load is known) from the ``clock`` argument."""
    if clock not in ("modelled", "max"):
        raise ArgumentValueError(
            f"clock={clock!r}: use 'modelled' (the power-limited clock under the "
            f"kernel's MFMA load) or 'max' (the {ch['clock_ghz']:g} GHz max engine "
            f"clock the spec peaks assume)")
    return clock, ch["clock_ghz"]


def predict(stream: InstStream, chip: str | Chip = "mi355x", *, total_workgroups: int | None = None,
            workgroups_per_cu: int | None = None, footprint_bytes: int | None = None,
            flops: float | None = None, max_rows: int = DEFAULT_MAX_ROWS,
            clock: str = "modelled") -> TimingReport:
    """Modelled time of the whole launch from the streams of the workgroups one CU holds.

    ``total_workgroups``: workgroups of the launch (default: the grid's); ``workgroups_per_cu``:
    resident workgroups per CU (default: all recorded; more than recorded replays them);
    ``footprint_bytes``: bytes of the kernel's buffers (the L2 hit model; default: the
    recorded line bytes, i.e. no reuse);
    ``flops``: useful FLOPs of the launch (default: the MFMA FLOPs of the streams x grid);
    ``clock``: 'modelled' (default: the power-limited clock under the kernel's MFMA load, see
    ``chips``) or 'max' (the max engine clock the spec peaks assume).
    """
    t0 = time.perf_counter()
    ch = get_chip(chip)
    mode, ghz = parse_clock(clock, ch)
    if stream.arch != ch.arch:
        raise ArgumentValueError(f"the stream is {stream.arch} code but {ch.name} runs {ch.arch}: "
                                 f"compile for {ch.arch}")
    if len(stream) == 0:
        raise ArgumentValueError("the stream is empty: no wave executed an instruction")
    grid = stream.grid
    n_wg = total_workgroups or grid[0] * grid[1] * grid[2]
    recorded = sorted(set(stream.wave_workgroup.tolist()))
    k = workgroups_per_cu or len(recorded)
    groups = recorded[:k]
    # L2 hit model: share of requested line bytes that come from HBM
    kind_idx = np.array([C.classify(stream.instructions[int(i)].mnemonic, "", stream.arch).kind
                         if stream.instructions[int(i)].mnemonic.startswith(
                             ("global_", "buffer_", "flat_", "scratch_")) else -1
                         for i in range(len(stream.instructions))])
    vm_rows = kind_idx[stream.index] >= 0
    line_b = np.where(stream.vm_lines >= 0, stream.vm_lines, 0) * ch["line_bytes"]
    per_wg_lines = float(line_b[vm_rows].sum()) / max(1, len(recorded))
    grid_lines = per_wg_lines * n_wg
    if footprint_bytes is None or grid_lines <= 0:
        dram = 1.0
    else:
        dram = min(1.0, footprint_bytes / grid_lines)
    vm_lat = ch["l2_latency"] + dram * (ch["hbm_latency"] - ch["l2_latency"])
    costs = row_costs(stream, ch, dram)
    rows_of, simd_of, group_of = _placement(stream, groups, k)
    # wave quantisation over XCDs and their CUs
    xcds = int(ch["xcds"])
    cus_x = int(ch["cus"]) // xcds
    per_xcd = math.ceil(n_wg / xcds)
    per_round = cus_x * k
    full, rem = divmod(per_xcd, per_round)
    k_last = math.ceil(rem / cus_x) if rem else 0
    rounds = full + (k_last / k if k_last else 0.0)
    base_rows = sum(len(r) for r in rows_of.values())

    def run(costs) -> tuple:
        """(last simulation, launch cycles, cycles per full round, its SIMD and group maps)."""
        def tail() -> float:
            """Time of a partly filled last round: its k_last workgroups simulated alone."""
            if not k_last:
                return 0.0
            r2, s2, g2 = _placement(stream, groups, k_last)
            return _extrapolated_cycles(simulate(r2, s2, g2, costs, ch, vm_latency=int(vm_lat),
                                                 max_rows=max_rows, max_spans=0))
        if full >= 2 and 2 * base_rows <= max_rows:
            # the dispatcher refills the CU as workgroups end: simulate two generations and
            # take the second one's time as the steady-state time per full round
            sim = simulate(rows_of, simd_of, group_of, costs, ch, vm_latency=int(vm_lat),
                           max_rows=max_rows, generations=2)
            per = sim.gen_end[1] - sim.gen_end[0]
            # a round cannot take less than its demand on the busiest shared server (stores
            # still drain after s_endpgm, so the end times alone can undercount a round); the
            # two generations are counted together, since the first one's last workgroup can
            # end late while the second's already run (their start skew is paid once)
            demand = max(sim.vmem_busy / 2, sim.lds_busy / 2, sim.mfma_busy / 8)
            two, per = max(sim.gen_end[1], 2 * demand), max(per, demand)
            drain = sim.cycles - sim.gen_end[1]
            cycles = two + (full - 2) * per + (tail() if k_last else drain)
            return sim, cycles, float(per), simd_of, group_of
        if full >= 1:  # one full round simulated (long streams: prefix, extrapolated) per round
            sim = simulate(rows_of, simd_of, group_of, costs, ch, vm_latency=int(vm_lat),
                           max_rows=max_rows)
            t_batch = _extrapolated_cycles(sim)
            return sim, full * t_batch + tail(), t_batch, simd_of, group_of
        r2, s2, g2 = _placement(stream, groups, k_last)
        sim = simulate(r2, s2, g2, costs, ch, vm_latency=int(vm_lat), max_rows=max_rows)
        t_batch = _extrapolated_cycles(sim)
        return sim, t_batch, t_batch, s2, g2

    sim, cycles, t_batch, simd_of, group_of = run(costs)
    # the clock: the power-limited clock from the kernel's chip-wide MFMA load (chips.py)
    is_mfma = np.asarray(costs.kind) == C.MFMA
    mfma_cycles_grid = float(np.asarray(costs.cycles)[is_mfma].sum()) / max(
        1, len(recorded)) * n_wg
    dtypes: Counter = Counter()
    for i, c in costs.classes.items():
        if c.kind == C.MFMA:
            dtypes[c.dtype] += c.flops * int((stream.index == i).sum())
    dtype = dtypes.most_common(1)[0][0] if dtypes else ""

    def load(cyc: float) -> float:
        return min(1.0, mfma_cycles_grid / (ch["simds_per_cu"] * ch["cus"] * max(cyc, 1.0)))
    if mode == "modelled":
        ghz = ch.clock_ghz_at(load(cycles), dtype)
    seconds = cycles / (ghz * 1e9)
    # work done
    fl = np.array(costs.flops, np.float64)
    mfma_flops_grid = float(fl.sum()) / max(1, len(recorded)) * n_wg
    useful = float(flops) if flops is not None else mfma_flops_grid
    window = max(1, sim.cycles)
    busy = {"MFMA": sim.mfma_busy / (4 * window), "VALU": sim.valu_busy / (4 * window),
            "LDS": sim.lds_busy / window, "VMEM": sim.vmem_busy / window}
    total_bytes = footprint_bytes if footprint_bytes is not None else float(line_b.sum()) / max(
        1, len(recorded)) * n_wg
    # modelled bytes moved at each memory level, grid-wide (the roofline's traffic): LDS from
    # the DS records; L2 the requested lines that miss the vL1D; every L2 miss crosses the
    # Infinity Cache to HBM (no Infinity-Cache hits modelled)
    per_wg = n_wg / max(1, len(recorded))
    present = set(costs.kind)
    lean = leaned_on(ch, {w for w, ks in (("vmem", (C.VMEM_LOAD, C.VMEM_STORE)),
                                         ("mfma", (C.MFMA,)), ("barrier", (C.BARRIER,)),
                                         ("smem", (C.SMEM,))) if present & set(ks)}, dtype)
    # L2: the requested lines that miss the modelled vL1D (its hit rate over the simulated
    # window's load lines; stores all reach L2)
    load_b = float(line_b[vm_rows & (kind_idx[stream.index] == C.VMEM_LOAD)].sum())
    hit = sim.l1_hits / sim.l1_lookups if sim.l1_lookups else 0.0
    l2_bytes = grid_lines * (1.0 - hit * load_b / max(1.0, float(line_b[vm_rows].sum())))
    traffic = {"LDS": costs.lds_bytes * per_wg, "L2": max(l2_bytes, dram * grid_lines),
               "Infinity Cache": dram * grid_lines, "HBM": dram * grid_lines}
    return TimingReport(
        kernel=stream.kernel, chip=ch, grid=grid, block=stream.block, seconds=seconds,
        cycles=cycles, batch_cycles=t_batch, workgroups=n_wg, workgroups_per_cu=k,
        rounds=rounds, flops=useful, dtype=dtype,
        bytes=float(total_bytes), busy=busy, stalls=sim.wave_stalls, dram_fraction=dram,
        simulated_rows=sim.retired, total_rows=sim.total_rows, complete=sim.complete,
        spans=sim.spans, spans_truncated=sim.spans_truncated, wave_simd=simd_of,
        wave_group=group_of, row_index=stream.index, instructions=stream.instructions,
        window_cycles=window, lds_estimated=costs.lds_estimated,
        notes=NOTES + ((lean,) if lean else ()),
        clock_ghz=ghz, clock_mode=mode, mfma_load=load(cycles),
        max_clock_seconds=cycles / ch.clock_hz, traffic=traffic,
        l1_hit_rate=hit, inst_issue=sim.inst_issue, inst_stall=sim.inst_stall,
        wave_start=sim.wave_start,
        wave_end=sim.wave_end, model_seconds=time.perf_counter() - t0)
