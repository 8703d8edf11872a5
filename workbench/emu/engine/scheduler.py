"""Lock-step scheduler: waves at the same PC execute each instruction as one numpy operation.

Grouping and rejoin policy
--------------------------
All waves of a batch start as one group at the entry PC. A scalar branch whose outcome differs
between the group's waves splits it into a taken and a not-taken group. The scheduler always
runs the group with the *lowest* PC (min-PC policy) and runs it straight-line until it branches,
ends, waits at a barrier, or its PC reaches the next-lowest group's PC; groups that meet at one
PC are merged (wave indices re-sorted, so a fully rejoined grid is again a contiguous slice and
register access is a view). For structured code (the only kind clang emits) min-PC rejoins
waves at the first common PC after the divergent region: loop bodies run until the slowest
wave's exit branch, forward ``if`` regions converge at their join point.

Barriers
--------
``s_barrier`` parks the arriving waves. A workgroup is released when its parked waves equal its
live (not ended) waves — also re-checked when a wave ends, as hardware counts only live waves.
Released waves re-enter the schedule after the barrier (grouped by their resume PC). If no group
can run while waves are parked, the launch raises ``BarrierDeadlock`` (it cannot happen for
barriers that all live waves reach).

Budget, watchdog, Ctrl-C
------------------------
Every executed instruction charges the group's wave count to the launch's budget of
wave-instructions; exceeding it raises ``BudgetExceeded`` naming the PC and source line. Next to
it a wall-clock watchdog (``Launch.timeout`` seconds, read every ``_TICK`` wave-instructions) raises
``TimeLimitExceeded``, so a runaway loop stops in seconds however slow each instruction is. A
``KeyboardInterrupt`` (Ctrl-C, JupyterLab's "Interrupt kernel") becomes ``EmulationInterrupted``
(still a KeyboardInterrupt) naming where the kernel stood; the launch is dropped whole, so the
session and the kernel stay usable.

A barrier that every live wave of the batch reaches together (always so for one-wave
workgroups) releases at once, without parking.

Spin-waits
----------
Waves of different workgroups (or of one) may wait for each other through global memory: a
ticket or lock taken with an atomic compare-swap in a loop (Triton stream-K and serial split-K
reductions; ``tl.atomic_cas`` in a ``while``). Min-PC would run the waiting group's loop forever,
starving the group past it that holds the lock. So a group that has taken ``_SPIN`` backward
branches in one run while other groups wait yields once: the next pick is the group at the next
PC above it (round robin: the lowest other group when none is above), which runs up to the next
group above itself. Waves never depend on another's speed except
through such waits, so results do not change; structured loops of fewer iterations keep the
min-PC rejoin.

Check mode
----------
With a ``workbench.emu.observers.check.Checker`` on the trace recorder, the checker sees every step
(counters, barriers), and a group taking a backward branch yields to the other groups (round
robin over loop heads instead of min-PC) so a spin-wait cannot starve the wave it waits for;
the checker raises ``Livelock`` when a whole round made no progress.

Batches
-------
Workgroups are independent apart from global memory, so a large grid runs in batches of
workgroups (``max_waves`` per batch) over the same ``Memory``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..decoder.registry import BARRIER, BRANCH, ENDPGM, INDIRECT, NORMAL
from ..errors import (
    BarrierDeadlock,
    BudgetExceeded,
    EmulationInterrupted,
    Livelock,
    TimeLimitExceeded,
)
from ..machine.state import Group, State


@dataclass
class Launch:
    """What one launch shares across batches: program, memory, budget, counters."""

    program: Any
    kernel_name: str
    memory: Any
    budget: int
    trace: Any = None
    executed: int = 0  # wave-instructions so far
    counts: list = field(default_factory=list)  # wave-instructions per instruction index
    timeout: float | None = None  # wall-clock seconds for the whole launch (None: no limit)
    started: float = 0.0  # time.monotonic() when the launch began
    timeout_from: str = "timeout"  # the launch option that set ``timeout`` (named in errors)

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * len(self.program.insts)
        if not self.started:
            self.started = time.monotonic()


_TICK = 16  # wave-instructions between two watchdog clock reads (time.monotonic: ~50 ns)
_SPIN = 1024  # backward branches of one group run before it yields (see "Spin-waits")


def _schedule(prog: Any) -> tuple[list, list, list]:
    """Per-instruction handler, kind and target as flat lists (one index per step, no
    attribute lookups in the hot loop); cached on the program."""
    sched = getattr(prog, "_schedule", None)
    if sched is None or len(sched[0]) != len(prog.execs):
        execs = prog.execs
        sched = ([e.run for e in execs], [e.kind for e in execs], [e.target for e in execs])
        prog._schedule = sched
    return sched


def run_batch(launch: Launch, st: State, entry: int) -> None:
    """Run every wave of ``st`` from instruction index ``entry`` to s_endpgm."""
    prog = launch.program
    runs, kinds, targets = _schedule(prog)
    counts = launch.counts
    n = len(runs)
    groups: dict[int, Group] = {entry: Group(entry, np.arange(st.W, dtype=np.int64))}
    # barrier bookkeeping
    alive = np.bincount(st.wg, minlength=st.n_wg).astype(np.int64)
    parked_n = np.zeros(st.n_wg, np.int64)
    parked = np.zeros(st.W, bool)
    resume = np.zeros(st.W, np.int64)
    budget_left = launch.budget - launch.executed
    stream = getattr(launch.trace, "stream", None)  # stream mode (workbench.emu.observers.stream)
    chk = getattr(launch.trace, "check", None)  # check mode (workbench.emu.observers.check)
    n_live = st.W  # waves of the batch that have not ended
    n_parked = 0  # waves of the batch waiting at a barrier
    observed = stream is not None or chk is not None
    deadline = launch.started + launch.timeout if launch.timeout is not None else None
    # one countdown for both the budget and the watchdog: the slow branch runs when the budget
    # is spent or _TICK wave-instructions have gone by since the last clock read
    check_at = max(budget_left - _TICK, 0)
    g = None
    yielded = -1  # pc of the group that yielded from a spin-wait: the next pick passes it over

    def add(g: Group) -> None:
        other = groups.get(g.pc)
        if other is None:
            groups[g.pc] = g
        else:
            waves = np.sort(np.concatenate([other.waves, g.waves]))
            groups[g.pc] = Group(g.pc, waves, max(other.steps, g.steps))

    def release(wgs: np.ndarray) -> int:
        ready = wgs[(parked_n[wgs] == alive[wgs]) & (alive[wgs] > 0)]
        if ready.size == 0:
            return 0
        sel = parked & np.isin(st.wg, ready)
        waves = np.nonzero(sel)[0]
        parked[waves] = False
        parked_n[ready] = 0
        pcs = resume[waves]
        for p in np.unique(pcs):
            add(Group(int(p), waves[pcs == p]))
        return len(waves)

    try:
        with np.errstate(all="ignore"):
            while groups:
                if chk is None:
                    if yielded in groups and len(groups) > 1:  # the next group above it
                        pc = min((p for p in groups if p > yielded),
                                 default=min(p for p in groups if p != yielded))
                        g = groups.pop(pc)
                        nxt = min((p for p in groups if p > pc), default=n + 1)
                    else:
                        pc = min(groups)
                        g = groups.pop(pc)
                        nxt = min(groups) if groups else n + 1
                    yielded = -1
                    spins = 0
                else:  # check mode: loops yield to the other groups (spin-wait detection)
                    try:
                        pc = chk.pick(groups)
                    except Livelock:
                        chk.livelock(st, parked)
                        raise
                    g = groups.pop(pc)
                    nxt = min((p for p in groups if p > pc), default=n + 1)
                w = g.w
                pc = g.pc  # kept in a local while the group runs straight-line
                while True:
                    budget_left -= w
                    if budget_left < check_at:
                        if budget_left < 0:
                            g.pc = pc
                            launch.executed = launch.budget - budget_left
                            raise _budget_error(launch, g)
                        check_at = max(budget_left - _TICK, 0)
                        if deadline is not None and time.monotonic() > deadline:
                            g.pc = pc
                            launch.executed = launch.budget - budget_left
                            raise _time_error(launch, g)
                    counts[pc] += w
                    if observed:
                        g.pc = pc
                        if stream is not None:
                            stream.step(st, g)
                        if chk is not None:
                            chk.step(st, g)
                    r = runs[pc](st, g)
                    k = kinds[pc]
                    if k == NORMAL:
                        pc += 1
                        if pc >= nxt:
                            g.pc = pc
                            add(g)
                            break
                        continue
                    if k == BRANCH:
                        opc = pc
                        # one outcome: one wave, a bool, or a scalar (a size-1 array is one)
                        if w == 1 or type(r) is bool or np.ndim(r) == 0:
                            pc = targets[pc] if r else pc + 1
                        elif r.all():
                            pc = targets[pc]
                        elif not r.any():
                            pc += 1
                        else:
                            add(Group(targets[pc], g.waves[r], g.steps))
                            add(Group(pc + 1, g.waves[~r], g.steps))
                            break
                        # check mode: a backward branch may yield (asked first, as it records)
                        if (chk is not None and pc <= opc and chk.backedge(st, g, pc)) \
                                or pc >= nxt:
                            g.pc = pc
                            add(g)
                            break
                        if pc <= opc and chk is None:
                            spins += 1
                            if spins >= _SPIN and groups:  # a spin-wait: let the others run
                                g.pc = yielded = pc
                                add(g)
                                break
                        continue
                    g.pc = pc
                    if k == BARRIER:
                        if w == n_live and not n_parked:
                            # every live wave of the batch is here: the barrier releases now
                            pc += 1
                            if pc >= nxt:
                                g.pc = pc
                                add(g)
                                break
                            continue
                        parked[g.waves] = True
                        resume[g.waves] = pc + 1
                        n_parked += w
                        wgs = st.wg[g.waves]
                        parked_n[:] += np.bincount(wgs, minlength=st.n_wg)
                        n_parked -= release(np.unique(wgs))
                        break
                    if k == ENDPGM:
                        n_live -= w
                        alive[:] -= np.bincount(st.wg[g.waves], minlength=st.n_wg)
                        if n_parked:
                            n_parked -= release(np.unique(st.wg[g.waves]))
                        break
                    if k == INDIRECT:
                        tgt = np.asarray(r, np.int64)
                        for p in np.unique(tgt):
                            idx = prog.index.get(int(p))
                            if idx is None:
                                raise _bad_jump(launch, g, int(p))
                            add(Group(idx, g.waves[tgt == p], g.steps + 1))
                        break
                    raise AssertionError(f"unknown handler kind {k}")
                if not groups and n_parked:
                    if chk is not None:
                        chk.deadlock(st, parked, resume)
                    raise _deadlock(launch, st, parked, resume)
    except KeyboardInterrupt as exc:
        launch.executed = launch.budget - budget_left
        if g is not None:
            g.pc = pc
        if isinstance(exc, EmulationInterrupted):
            raise
        raise _interrupted(launch, g) from None
    launch.executed = launch.budget - budget_left


def _where(launch: Launch, idx: int) -> str:
    ins = launch.program.insts[min(idx, len(launch.program.insts) - 1)]
    line = f" ({ins.location()})" if ins.location() else ""
    return f"pc 0x{ins.addr:x}{line}: `{ins.text}`"


def _budget_error(launch: Launch, g: Group) -> BudgetExceeded:
    return BudgetExceeded(
        f"kernel {launch.kernel_name!r} exceeded its budget of {launch.budget:,} "
        f"wave-instructions (runaway loop?) at {_where(launch, g.pc)}; "
        f"pass budget=... to allow more")


def _time_error(launch: Launch, g: Group) -> TimeLimitExceeded:
    secs = time.monotonic() - launch.started
    return TimeLimitExceeded(
        f"kernel {launch.kernel_name!r} still ran after {secs:.1f} s of emulation (timeout "
        f"{launch.timeout:g} s; {launch.executed:,} "
        f"wave-instructions so far; runaway loop?) at {_where(launch, g.pc)}; "
        + (f"it stopped at max_emulation_seconds={launch.timeout:g}" if
           launch.timeout_from == "max_emulation_seconds" else
           "pass timeout=... (seconds, None for no limit) to allow more"))


def _interrupted(launch: Launch, g: Group | None) -> EmulationInterrupted:
    at = f" at {_where(launch, g.pc)}" if g is not None else ""
    return EmulationInterrupted(
        f"emulation of kernel {launch.kernel_name!r} interrupted after "
        f"{launch.executed:,} wave-instructions{at}; the launch's outputs were not written "
        f"back, and the kernel can be launched again")


def _bad_jump(launch: Launch, g: Group, addr: int) -> BudgetExceeded:
    from ..errors import EmulatorError

    return EmulatorError(f"kernel {launch.kernel_name!r}: indirect jump to 0x{addr:x}, which is "
                         f"not an instruction of the kernel, at {_where(launch, g.pc)}")


def _deadlock(launch: Launch, st: State, parked: np.ndarray, resume: np.ndarray):
    w = int(np.nonzero(parked)[0][0])
    wg = tuple(int(x) for x in st.wg_global[w])
    return BarrierDeadlock(
        f"kernel {launch.kernel_name!r}: waves of workgroup {wg} wait at s_barrier "
        f"({_where(launch, int(resume[w]) - 1)}) but the workgroup's other waves can never "
        f"arrive")
