"""The event loop: waves of one CU issuing their recorded instructions, cycle by cycle.

Model (sources in ``chips.py``):
* 4 SIMDs; a SIMD gets an issue slot every 4 cycles (SIMD s at cycles = s mod 4). In a slot it
  issues at most one instruction per category (VALU incl. MFMA, scalar, branch, LDS, VMEM) and at
  most one per wave (GCN). Among ready waves the higher ``s_setprio`` wins, then the oldest.
* VALU: the SIMD's VALU is busy 4 cycles per wave64 instruction (16 lanes), trans ops 16.
  MFMA: issues through the VALU port (4 cycles) and keeps the SIMD's matrix pipe busy for its
  cycles; the next MFMA on that SIMD starts when the pipe is free. Hazards between dependent
  instructions are the compiler's ``s_nop`` padding (executed as stall cycles).
* LDS: one port per SIMD pair (issue waits while it is busy), then the CU's banks serve the
  access for its workbench.lds bank cycles; data returns after the LDS latency. lgkmcnt.
* VMEM: the CU's texture addresser takes each instruction for its cycles (``ta_cycles``, 4, for
  compact <= 32-bit accesses; ``ta_cycles_multi``, 16, for wider or scattered ones); the data path
  serves each instruction for its line bytes over the slowest of the L1 return path, the CU's
  share of L2 bandwidth and the CU's share of achievable HBM bandwidth (for the missing
  fraction); data returns after the L2 (or HBM) latency, in order. vmcnt. A load into LDS
  (``lds`` modifier) also takes the LDS banks for its bytes; the model charges them when it
  issues (the same bank time, not placed at the data's return).
* SMEM: fixed latency (lgkmcnt). s_waitcnt blocks until enough counters have returned;
  s_barrier until every live wave of the workgroup arrived; s_nop/s_sleep stall.
* Accounting (the per-line costs): from its dispatch to its s_endpgm a wave's every cycle is
  either an issue cycle (one issue interval per instruction it issued) or a stall cycle before
  its next issue. A stall is charged to the instruction that caused it: an s_waitcnt, s_barrier,
  s_nop or s_sleep for the time it held the wave, otherwise the instruction waiting to issue
  (for a busy unit or a taken issue slot). An lgkmcnt wait whose awaited DS instructions had
  bank conflicts charges up to their conflict cycles (``workbench.lds``) to those DS
  instructions as "LDS conflict". So issue + stall cycles, summed
  over instructions, equal the summed lifetimes of the simulated waves exactly.
"""
from __future__ import annotations

import heapq
from collections import OrderedDict
from dataclasses import dataclass, field

from . import classes as C
from .chips import Chip
from .costs import RowCosts

# timeline span kinds
SPAN_NAMES = ("MFMA", "VALU", "LDS read", "LDS write", "global load", "global store", "wait",
              "barrier", "scalar")
S_MFMA, S_VALU, S_LDSR, S_LDSW, S_GLD, S_GST, S_WAIT, S_BAR, S_SCALAR = range(9)

GEN_STRIDE = 1 << 24  # wave/group ids of later generations: id + generation * GEN_STRIDE

STALL_REASONS = ("wait vmcnt", "wait lgkmcnt", "barrier", "nop/sleep", "MFMA pipe busy",
                 "VALU busy", "LDS port busy", "VMEM issue busy", "issue slot taken",
                 "LDS conflict")
R_CONFLICT = STALL_REASONS.index("LDS conflict")


@dataclass
class SimResult:
    """What one simulation of the CU's waves produced."""

    cycles: int  # time the last wave ended (or the stop time of a prefix run)
    retired: int  # rows issued
    total_rows: int
    complete: bool
    checkpoints: list  # (cycle, rows retired) along the run
    mfma_busy: float  # summed pipe-busy cycles over SIMDs
    valu_busy: float
    lds_busy: float  # bank-busy cycles
    vmem_busy: float  # data-path busy cycles
    flops: float
    wave_stalls: dict  # wave -> {reason: cycles}
    wave_end: dict  # wave -> end cycle
    spans: list = field(default_factory=list)  # (wave, start, end, span kind, row)
    spans_truncated: bool = False
    gen_end: list = field(default_factory=list)  # when each generation of workgroups ended
    # per instruction (index into the stream's ``instructions``): issue cycles (one issue
    # interval per issued row; s_endpgm none) and stall cycles by reason, flat
    # [instruction * len(STALL_REASONS) + reason]; summed they equal the waves' lifetimes
    inst_issue: list = field(default_factory=list)
    inst_stall: list = field(default_factory=list)
    wave_start: dict = field(default_factory=dict)  # wave -> cycle it was dispatched
    l1_hits: int = 0  # vL1D: load lines that hit
    l1_lookups: int = 0  # vL1D: load lines looked up


def simulate(rows_of: dict, simd_of: dict, group_of: dict, costs: RowCosts, chip: Chip, *,
             vm_latency: int, max_rows: int | None = None, max_spans: int = 60_000,
             generations: int = 1) -> SimResult:
    """Run the waves (``rows_of``: wave -> list of stream rows, in program order).

    ``generations`` > 1: when all waves of a workgroup have ended, the CU starts the next
    workgroup in that slot (the dispatcher refilling the CU), replaying the same streams, until
    each slot ran ``generations`` workgroups; ``gen_end[i]`` is when generation i finished.
    """
    kind, cyc, lds_bank, lds_port = costs.kind, costs.cycles, costs.lds_bank, costs.lds_port
    lds_write, vm_cycles, waits, prio_of, flops_of = (costs.lds_write, costs.vm_cycles,
                                                      costs.waits, costs.prio, costs.flops)
    lds_dma = costs.lds_dma
    inst = costs.inst
    n_r = len(STALL_REASONS)
    n_inst = (max(inst) + 1) if inst else 0
    acc_issue = [0] * n_inst
    acc_stall = [0] * (n_inst * n_r)
    II = int(chip["issue_interval"])
    ta_of = costs.ta
    lds_lat = int(chip["lds_latency"])
    smem_lat = int(chip["smem_latency"])
    vm_lat = int(vm_latency)
    bar_lat = int(chip["barrier_latency"])
    base_waves = sorted(rows_of)
    rows_of = dict(rows_of)
    simd_of = dict(simd_of)
    group_of = dict(group_of)
    members: dict = {}
    for w in base_waves:
        members.setdefault(group_of[w], []).append(w)
    waves = base_waves
    total = sum(len(rows_of[w]) for w in waves) * generations
    gen_end = [0] * generations
    cap = total if max_rows is None else min(total, max_rows)
    pos = {w: 0 for w in waves}
    prio = {w: 0 for w in waves}
    vmq: dict = {w: [] for w in waves}  # completion times, nondecreasing (in-order return)
    lgq: dict = {w: [] for w in waves}
    last_vm = {w: 0 for w in waves}
    want = {w: 0 for w in waves}  # when the wave first wanted to issue its current row
    why = {w: 8 for w in waves}
    blame = {w: 0 for w in waves}  # instruction a wait/barrier/nop stall is charged to
    conflict: dict = {}  # wave -> [(DS instruction, its conflict cycles)] its lgkmcnt wait awaits
    lds_extra = costs.lds_conflict
    stalls = {w: [0] * len(STALL_REASONS) for w in waves}
    age = {w: i for i, w in enumerate(waves)}
    next_age = len(waves)
    alive: dict = {}
    for w in waves:
        alive[group_of[w]] = alive.get(group_of[w], 0) + 1
    arrived: dict = {g: [] for g in alive}
    slot_used = {s: [-1] * 5 for s in range(4)}
    valu_free = [0] * 4
    mfma_free = [0] * 4
    port_free = [0, 0]
    bank_free = 0
    ta_free = 0
    data_free = 0
    slots = int(chip["vmem_lines_in_flight"])
    vm_nlines = costs.vm_lines
    vm_ids = costs.vm_ids
    c_l1, c_l2 = costs.line_cost
    l1_lat = int(chip["l1_latency"])
    n_sets = int(chip["l1_sets"])
    set_cap = int(chip["l1_bytes"] // chip["line_bytes"]) // n_sets
    # the CU's vL1D: per set, line tag -> None, least recently used first; the set is the line
    # address's low bits (address bits 7-8 for 4 sets)
    l1 = [OrderedDict() for _ in range(n_sets)]
    inflight: list = []  # (release cycle, lines): the CU's line requests awaiting their data
    used = 0
    busy_mfma = busy_valu = busy_lds = busy_vm = 0.0
    l1_hits = l1_looks = 0
    flops = 0.0
    spans: list = []
    truncated = False
    ends: dict = {}
    retired = 0
    checkpoints = []
    next_cp = max(1, cap // 16)
    heap = [((simd_of[w] - 0) % II, 0, age[w], w) for w in waves]
    for w in waves:
        want[w] = heap[age[w]][0]
    start = dict(want)
    heapq.heapify(heap)
    push, pop = heapq.heappush, heapq.heappop
    cat_of = C.CATEGORY
    def release(g, t_last: int) -> None:
        """Release workgroup ``g``'s waves waiting at s_barrier at ``t_last`` (when the last live
        wave arrived, or the last one that had not arrived ended) plus the barrier latency; each
        wait is a barrier span on the timeline."""
        nonlocal truncated
        rel = max(t_last, max(x[1] for x in arrived[g])) + bar_lat
        for (w2, ta) in arrived[g]:
            if rel > ta + II:
                if len(spans) < max_spans:
                    spans.append((w2, ta, rel, S_BAR, rows_of[w2][pos[w2] - 1]))
                else:
                    truncated = True
            why[w2] = 2
            blame[w2] = inst[rows_of[w2][pos[w2] - 1]]
            want[w2] = ta + II
            tn = max(rel, ta + II)
            tn += (simd_of[w2] - tn) % II
            push(heap, (tn, -prio[w2], age[w2], w2))
        arrived[g] = []

    def charge(w, r, d: int) -> None:
        """Charge wave ``w``'s stall of ``d`` cycles before row ``r`` to its reason: a
        wait/barrier/nop's to that instruction (``blame``), any other to ``r``'s. Of an lgkmcnt
        wait, up to the awaited DS instructions' conflict cycles go to those instructions as
        "LDS conflict", oldest first."""
        y = why[w]
        if y == 1 and w in conflict:
            for i, extra in conflict.pop(w):
                c = d if extra > d else extra
                stalls[w][R_CONFLICT] += c
                acc_stall[i * n_r + R_CONFLICT] += c
                d -= c
        stalls[w][y] += d
        acc_stall[(blame[w] if y <= 3 else inst[r]) * n_r + y] += d

    t = 0
    while heap:
        t, negp, ag, w = pop(heap)
        s = simd_of[w]
        r = rows_of[w][pos[w]]
        k = kind[r]
        cat = cat_of.get(k)
        if cat is not None:  # an instruction that takes an issue slot and maybe a unit
            tf = t
            reason = 8
            if cat == 0:
                if valu_free[s] > tf:
                    tf, reason = valu_free[s], 5
                if k == C.MFMA:
                    reason = 4 if reason == 5 else reason
                    if mfma_free[s] > tf:
                        tf, reason = mfma_free[s], 4
            elif cat == 3:
                pf = port_free[s >> 1]
                if pf > tf:
                    tf, reason = pf, 6
            elif cat == 4 and ta_free > tf:
                tf, reason = ta_free, 7
            tf += (s - tf) % II
            if slot_used[s][cat] == tf:
                tf += II
            if tf > t:
                if t > want[w]:  # the wait/barrier part so far stays with its own reason
                    charge(w, r, t - want[w])
                    want[w] = t
                why[w] = reason
                push(heap, (tf, -prio[w], ag, w))
                continue
            slot_used[s][cat] = t
            if t > want[w]:
                charge(w, r, t - want[w])
            acc_issue[inst[r]] += II
            if k == C.MFMA:
                c = cyc[r]
                valu_free[s] = t + II
                mfma_free[s] = t + c
                busy_mfma += c
                flops += flops_of[r]
                span = (S_MFMA, t, t + c)
            elif k == C.VALU or k == C.TRANS:
                c = cyc[r]
                valu_free[s] = t + c
                busy_valu += c
                span = (S_VALU, t, t + c)
            elif k == C.LDS:
                pc_ = lds_port[r]
                port_free[s >> 1] = t + pc_
                tb = bank_free if bank_free > t else t
                bank_free = tb + lds_bank[r]
                busy_lds += lds_bank[r]
                done = max(t + pc_, bank_free) + lds_lat
                lgq[w].append((done, inst[r], lds_extra[r]))
                span = (S_LDSW if lds_write[r] else S_LDSR, t, done)
            elif cat == 4:
                tac = ta_of[r]
                ta_free = t + tac
                td = data_free if data_free > t + tac else t + tac
                n_l = vm_nlines[r]
                ids = vm_ids[r]
                svc, lat = vm_cycles[r], vm_lat
                if ids is not None:  # a load: its lines looked up in the vL1D (LRU, allocate
                    # on miss); replayed copies of a workgroup (w >> 20) get their own tags
                    tag = w >> 20
                    hits = 0
                    for ln in ids:
                        key = (ln << 12) | tag
                        st_ = l1[ln % n_sets]
                        if key in st_:
                            st_.move_to_end(key)
                            hits += 1
                        else:
                            st_[key] = None
                            if len(st_) > set_cap:
                                st_.popitem(False)
                    miss = n_l - hits
                    a_, b_ = n_l * c_l1, miss * c_l2
                    svc = -int(-(a_ if a_ > b_ else b_) // 1)  # ceil
                    l1_hits += hits
                    l1_looks += n_l
                    if not miss:
                        lat = l1_lat
                # the CU's line requests in flight are bounded: a request waits for free slots
                # (Little's law: lines per cycle <= slots / round-trip latency)
                ts = t + tac  # when the addresser hands it on: once enough slots are free
                while inflight and (inflight[0][0] <= ts or used + n_l > slots):
                    rel, c = heapq.heappop(inflight)
                    used -= c
                    if rel > ts:
                        ts = rel
                if ts > ta_free:  # back-pressure: the addresser holds it until slots free
                    ta_free = ts
                if ts > td:
                    td = ts
                data_free = td + svc
                busy_vm += svc
                c = lds_dma[r]
                if c:  # a load into LDS: its bytes take bank cycles (charged at issue)
                    tb = bank_free if bank_free > t else t
                    bank_free = tb + c
                    busy_lds += c
                done = data_free + lat
                heapq.heappush(inflight, (done, n_l))
                used += n_l
                if done < last_vm[w]:
                    done = last_vm[w]
                last_vm[w] = done
                vmq[w].append(done)
                span = (S_GST if k == C.VMEM_STORE else S_GLD, t, done)
            elif k == C.SMEM:
                lgq[w].append((t + smem_lat, 0, 0))
                span = (S_SCALAR, t, t + smem_lat)
            else:
                span = None
            nxt = t + II
        else:  # internal: handled in the instruction buffer, one slot
            if t > want[w]:
                charge(w, r, t - want[w])
            if k != C.END:
                acc_issue[inst[r]] += II
            nxt = t + II
            span = None
            if k == C.WAIT:
                vmc, lgc, _ = waits[r]
                tc = nxt
                why_w = 0
                q = vmq[w]
                if vmc >= 0 and q:
                    while q and q[0] <= t:
                        q.pop(0)
                    if len(q) > vmc:
                        tv = q[len(q) - vmc - 1]
                        if tv > tc:
                            tc = tv
                            why_w = 0
                if lgc >= 0 and lgq[w]:
                    q2 = [x for x in lgq[w] if x[0] > t]
                    lgq[w] = q2
                    if len(q2) > lgc:
                        q2s = sorted(q2)
                        e = q2s[len(q2s) - lgc - 1]
                        if e[0] > tc:
                            tc = e[0]
                            why_w = 1
                            hit = [(x[1], x[2]) for x in q2s[:len(q2s) - lgc] if x[2]]
                            if hit:
                                conflict[w] = hit
                if tc > nxt:
                    span = (S_WAIT, t, tc)
                    why[w] = why_w
                    blame[w] = inst[r]
                    nxt = tc
                    if why_w != 1:
                        conflict.pop(w, None)
                else:
                    conflict.pop(w, None)
            elif k == C.NOP or k == C.SLEEP:
                if t + cyc[r] > nxt:
                    nxt = t + cyc[r]
                    why[w] = 3
                    blame[w] = inst[r]
            elif k == C.PRIO:
                prio[w] = prio_of[r]
            elif k == C.BARRIER:
                g = group_of[w]
                arrived[g].append((w, t))
                pos[w] += 1
                retired += 1
                if len(arrived[g]) >= alive[g]:
                    release(g, t)
                continue
            elif k == C.END:
                ends[w] = t
                retired += 1
                g = group_of[w]
                alive[g] -= 1
                gen = g // GEN_STRIDE
                if alive[g] == 0:
                    if t > gen_end[gen]:
                        gen_end[gen] = t
                    if gen + 1 < generations:
                        g2 = g + GEN_STRIDE
                        alive[g2] = 0
                        arrived[g2] = []
                        for wb in members[g % GEN_STRIDE]:
                            w2 = wb + (gen + 1) * GEN_STRIDE
                            rows_of[w2] = rows_of[wb]
                            simd_of[w2] = simd_of[wb]
                            group_of[w2] = g2
                            alive[g2] += 1
                            pos[w2] = 0
                            prio[w2] = 0
                            vmq[w2] = []
                            lgq[w2] = []
                            last_vm[w2] = 0
                            why[w2] = 8
                            blame[w2] = 0
                            stalls[w2] = [0] * len(STALL_REASONS)
                            age[w2] = next_age
                            next_age += 1
                            tn = t + II + (simd_of[w2] - t - II) % II
                            want[w2] = tn
                            start[w2] = tn
                            push(heap, (tn, 0, age[w2], w2))
                if arrived[g] and len(arrived[g]) >= alive[g]:  # the last non-arrived wave ended
                    release(g, t)
                continue
        if span is not None:
            if len(spans) < max_spans:
                spans.append((w, span[1], span[2], span[0], r))
            else:
                truncated = True
        pos[w] += 1
        retired += 1
        if retired >= next_cp:
            checkpoints.append((t, retired))
            next_cp += max(1, cap // 16)
        if retired >= cap and retired < total:
            break
        if pos[w] >= len(rows_of[w]):  # stream ended without s_endpgm (budget-cut run)
            ends[w] = t
            continue
        # the stall clock starts at the wave's next slot: a wait/nop/sleep that pushed ``nxt``
        # later is charged to its reason when the wave issues again
        want[w] = t + II
        why[w] = why[w] if nxt > t + II else 8
        push(heap, (nxt + (s - nxt) % II, -prio[w], ag, w))
    complete = retired >= total
    end = max(ends.values()) if (complete and ends) else t
    if complete:  # stores, LDS traffic and MFMAs in flight still finish after the last s_endpgm
        end = max(end, data_free, bank_free, *mfma_free, *valu_free)
    names = STALL_REASONS
    merged: dict = {}
    for w, st in stalls.items():  # later generations reuse their slot's row
        m = merged.setdefault(w % GEN_STRIDE, [0] * len(names))
        for i, v in enumerate(st):
            m[i] += v
    stalls = merged
    spans = [(w % GEN_STRIDE, a, b, k, r) for (w, a, b, k, r) in spans]
    return SimResult(int(end), retired, total, complete, checkpoints, busy_mfma, busy_valu,
                     busy_lds, busy_vm, flops,
                     {w: {names[i]: v for i, v in enumerate(st) if v} for w, st in stalls.items()},
                     ends, spans, truncated, gen_end, acc_issue, acc_stall, start, l1_hits,
                     l1_looks)
