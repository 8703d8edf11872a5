"""Check mode: find the bugs a GPU hides — LDS races, uninitialised LDS reads, registers read
before the s_waitcnt that covers their load, barrier mismatches, spin-wait livelocks.

Why: these bugs "work" on the GPU most of the time; the emulator sees every access of every
wave, so it can prove them. The checker is an observer like ``trace``/``stream``: the engine
and the DS/VMEM handlers call it only when a launch runs in check mode (one attribute test when
off).

Models (sources in the comments where they are hardware facts):

* LDS happens-before: every wave counts the ``s_barrier``s it passed (its *epoch*). Waves of a
  workgroup leave a barrier together, so two accesses of different waves with the same epoch
  are unordered; a write and a read/write of one byte by different waves in one epoch is a
  race. LDS atomics (``ds_add_*`` ...) are exempt. Shadow per LDS byte: last writer wave and
  epoch, last reader wave (-2: several) and epoch, written-in-this-launch flag. Scratch: a
  written flag per private byte of every lane (a read of a byte the lane never wrote is
  reported).
* Counters: per wave, the outstanding memory operations in issue order with the registers they
  write. ``s_waitcnt vmcnt(N)`` retires all but the N youngest VMEM operations, ``lgkmcnt(N)``
  likewise for LDS/GDS/message operations, in order; SMEM loads return out of order, so only
  ``lgkmcnt(0)`` retires them (AMD CDNA3 ISA guide §4.4 "Data dependency resolution": "Scalar
  memory reads can return out of order"; VMEM loads return in issue order). On gfx9 stores
  also count in vmcnt (CDNA3 ISA §4.4). Checked on gfx9 (CDNA) code; RDNA's split counters
  (vscnt, GFX12 s_wait_*) are not modelled: there the check is off and the report says so.
* Barriers: per wave the barriers passed; waves of one workgroup that end after different
  numbers of barriers, or a deadlock at a barrier, are reported with the counts.
* Spin-waits: in check mode a wave group that takes a backward branch yields to the other
  groups (round robin instead of min-PC). A round in which every group that ran only came back
  to its loop head with exactly the registers it had the iteration before, and nobody wrote
  LDS or global memory, can never end: that is a livelock, reported with the waves and the
  addresses they re-read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...display import Displayable
from ..errors import Livelock

MAX_PER_KIND = 20  # distinct findings kept per kind (more are counted)


@dataclass
class Finding:
    """One problem: what, where (pc, source line, instruction), which waves/lanes/address."""

    kind: str  # "lds-race", "uninit-lds", "uninit-scratch", "waitcnt", "barrier-mismatch",
    # "deadlock", "livelock"
    kernel: str
    pc: int
    source_line: int
    instruction: str
    waves: tuple = ()
    lanes: tuple = ()
    address: int | None = None
    detail: str = ""
    header: str | None = None  # inlined header code: "tile.h:40 > sync.h:24" (source_line calls it)

    def text(self) -> str:
        line = f" line {self.source_line}" if self.source_line else ""
        line += f" (inlined from {self.header})" if self.header else ""
        addr = f", LDS address 0x{self.address:x}" if self.address is not None else ""
        lanes = f", lanes {_short(self.lanes)}" if self.lanes else ""
        return (f"[{self.kind}] {self.kernel} pc 0x{self.pc:x}{line} `{self.instruction}`: "
                f"waves {_short(self.waves)}{lanes}{addr}: {self.detail}")


def _short(xs: tuple) -> str:
    xs = list(xs)
    return ", ".join(map(str, xs[:8])) + (f" ... ({len(xs)})" if len(xs) > 8 else "")


@dataclass
class CheckReport(Displayable):
    """What check mode found in one launch (empty: nothing found)."""

    kernel: str
    findings: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)  # kind -> occurrences (also beyond those kept)
    waitcnt_checked: bool = True
    completed: bool = True  # False when a deadlock/livelock stopped the launch

    def __bool__(self) -> bool:
        return bool(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def kinds(self) -> set[str]:
        """The kinds of problem found."""
        return {f.kind for f in self.findings}

    def text(self) -> str:
        if not self.findings:
            head = (f"{self.kernel}: no LDS race, uninitialised LDS/scratch read, early "
                    f"register read, barrier mismatch or livelock found")
        else:
            per = ", ".join(f"{k} {n}" for k, n in sorted(self.counts.items()))
            total = sum(self.counts.values())
            # a finding is one (kind, instruction, place); the counts are every occurrence
            head = (f"{self.kernel}: {len(self.findings)} distinct finding(s) listed below, "
                    f"{total} occurrence(s) in the launch ({per})")
        if not self.waitcnt_checked:
            head += " (s_waitcnt not checked: RDNA counters are not modelled)"
        return "\n".join([head, *(f.text() for f in self.findings)])

    def __repr__(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        import html

        return {"text/plain": self.text(),
                "text/html": "<pre>" + html.escape(self.text()) + "</pre>"}


_REG = re.compile(r"\b([vsa])(?:\[(\d+):(\d+)\]|(\d+)\b)")
_NO_DST = ("s_cmp", "s_bitcmp", "s_waitcnt", "s_barrier", "s_branch", "s_cbranch", "s_endpgm",
           "s_nop", "s_setprio", "s_sleep", "s_sendmsg", "s_dcache", "s_icache",
           "s_set_gpr_idx", "buffer_wbinvl1", "buffer_inv", "buffer_wbl2", "s_trap")
_VMEM = ("global_", "buffer_", "scratch_", "flat_")
_WAIT = re.compile(r"(vmcnt|lgkmcnt|expcnt)\((\d+)\)")


def _regs(text: str) -> list[int]:
    """Register operands of an instruction's operand text, encoded v k -> k, s k -> 1000+k,
    a k -> 2000+k."""
    out = []
    for m in _REG.finditer(text):
        base = {"v": 0, "s": 1000, "a": 2000}[m.group(1)]
        if m.group(4) is not None:
            out.append(base + int(m.group(4)))
        else:
            out.extend(base + k for k in range(int(m.group(2)), int(m.group(3)) + 1))
    return out


@dataclass
class _Op:
    """Static facts of one instruction for the counter model."""

    counters: tuple = ()  # ("vm",) / ("lgkm",) / ("vm", "lgkm") / ("smem",)
    dst: frozenset = frozenset()  # registers its data return writes
    src: frozenset = frozenset()
    wait: dict | None = None  # s_waitcnt: counter -> N
    barrier: bool = False
    endpgm: bool = False


def _classify(ins: Any) -> _Op:
    m = ins.mnemonic
    text = ins.text
    ops = text.split(None, 1)[1] if " " in text.strip() else ""
    operands = [o.strip() for o in _split_ops(ops)]
    if m == "s_waitcnt":
        return _Op(wait={k: int(v) for k, v in _WAIT.findall(ops)} or {"vmcnt": 0, "lgkmcnt": 0})
    if m in ("s_barrier", "s_barrier_wait"):  # GFX12 splits it: s_barrier_signal, then the wait
        return _Op(barrier=True)
    if m == "s_endpgm":
        return _Op(endpgm=True)
    regs = [_regs(o) for o in operands]
    is_store = ("_store" in m or m.startswith("ds_write")
                or (m.startswith(("global_atomic", "flat_atomic", "buffer_atomic"))
                    and not re.search(r"\b(glc|sc0)\b", ops))
                or (m.startswith("ds_") and ("_rtn" not in m and not m.startswith(
                    ("ds_read", "ds_load", "ds_bpermute", "ds_permute", "ds_swizzle",
                     "ds_wrxchg", "ds_cmpst_rtn")) and not m.startswith("ds_read"))))
    # global/buffer -> LDS DMA (``global_load_lds_*``, ``buffer_load_* ... lds``) writes no VGPR
    has_dst = not (is_store or m.startswith(_NO_DST) or "_load_lds" in m
                   or re.search(r"\blds\b", ops) or not regs)
    dst = frozenset(regs[0]) if has_dst else frozenset()
    src = frozenset(r for rs in (regs[1:] if has_dst else regs) for r in rs)
    if m.startswith("s_load") or m.startswith("s_buffer_load"):
        counters: tuple = ("smem",)
    elif m.startswith("flat_"):
        counters = ("vm", "lgkm")
    elif m.startswith(_VMEM):
        counters = ("vm",)
    elif m.startswith("ds_") and not m.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
        counters = ("lgkm",)
    elif m.startswith(("ds_bpermute", "ds_permute", "ds_swizzle")):
        counters = ("lgkm",)
    else:
        counters = ()
    return _Op(counters, dst if counters else frozenset(), src)


def _split_ops(ops: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in ops:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


class Checker:
    """The check-mode observer of one launch (see the module docstring)."""

    def __init__(self, program: Any, kernel: str, lds_bytes: int, arch: str) -> None:
        self.prog = program
        self.kernel = kernel
        self.lds_bytes = max(lds_bytes, 1)
        self.ops = [_classify(i) for i in program.insts]
        self.waitcnt = arch.startswith("gfx9")
        self.report = CheckReport(kernel, waitcnt_checked=self.waitcnt)
        self._seen: set = set()
        # per batch state (reset by ``batch``)
        self.epoch = np.zeros(0, np.int64)
        self.states: list[tuple] = [()]
        self.index: dict[tuple, int] = {(): 0}
        self.trans: dict[tuple, tuple] = {}
        self.pid = np.zeros(0, np.int64)
        # spin detection
        self.deferred: set[int] = set()
        self.progress = False
        self.writes = 0  # memory writes so far (a spinning wave waits for one)
        self.hashes: dict[tuple, int] = {}
        self.stale: list = []
        self.reads: dict[int, set] = {}

    # -- batches ------------------------------------------------------------------------
    def batch(self, st: Any) -> None:
        n = st.n_wg * self.lds_bytes
        self.epoch = np.zeros(st.W, np.int64)
        self.ended_at = np.full(st.W, -1, np.int64)
        self.last_barrier = np.full(st.W, -1, np.int64)
        self.w_wave = np.full(n, -1, np.int32)
        self.w_ep = np.full(n, -1, np.int64)
        self.r_wave = np.full(n, -1, np.int32)
        self.r_ep = np.full(n, -1, np.int64)
        self.init = np.zeros(n, bool)
        self.s_init = np.zeros(st.scratch.size, bool)  # scratch bytes written in this launch
        self.pid = np.zeros(st.W, np.int64)  # per wave: index of its outstanding-ops tuple
        self.deferred.clear()
        self.hashes.clear()
        self.reads.clear()
        self.stale = []
        self.progress = False

    # -- findings -----------------------------------------------------------------------
    def add(self, kind: str, pc: int, key: Any, **kw: Any) -> None:
        rep = self.report
        rep.counts[kind] = rep.counts.get(kind, 0) + 1
        k = (kind, pc, key)
        if k in self._seen or sum(f.kind == kind for f in rep.findings) >= MAX_PER_KIND:
            return
        self._seen.add(k)
        ins = self.prog.insts[pc]
        rep.findings.append(Finding(kind, self.kernel, ins.addr, ins.source_line or 0,
                                    ins.text.strip(), header=getattr(ins, "header", None), **kw))

    # -- engine hooks -------------------------------------------------------------------
    def step(self, st: Any, g: Any) -> None:
        """Before instruction ``g.pc`` runs for the group's waves: barriers and the counter
        model (per wave an interned tuple of outstanding operations; transitions memoised)."""
        op = self.ops[g.pc]
        if op.barrier:
            self.epoch[g.waves] += 1
            self.last_barrier[g.waves] = g.pc
            self.progress = True
            return
        if op.endpgm:
            self.ended_at[g.waves] = self.epoch[g.waves]
            self.progress = True
            return
        if not self.waitcnt or not (op.wait is not None or op.src or op.counters):
            return
        sids = self.pid[g.waves]
        s0 = int(sids[0])
        for sid in ((s0,) if (sids == s0).all() else np.unique(sids).tolist()):
            key = (sid, g.pc)
            hit = self.trans.get(key)
            if hit is None:
                hit = self.trans[key] = self._transition(sid, g.pc, op)
            new, found = hit
            sel = g.waves if len(sids) == 1 or (sids == s0).all() else g.waves[sids == sid]
            if found is not None:
                self.add("waitcnt", g.pc, found[0], waves=(int(st.wave_global[sel[0]]),),
                         detail=found[1])
            self.pid[sel] = new

    def _intern(self, pend: tuple) -> int:
        sid = self.index.get(pend)
        if sid is None:
            sid = self.index[pend] = len(self.states)
            self.states.append(pend)
        return sid

    def _transition(self, sid: int, pc: int, op: _Op) -> tuple:
        pend = self.states[sid]
        found = None
        if op.wait is not None:
            return self._intern(_retire(pend, op.wait)), None
        if op.src and pend:
            hit = [e for e in pend if e[1] & op.src]
            if hit:
                e = hit[0]
                names = ", ".join(_name(r) for r in sorted(e[1] & op.src)[:4])
                ld = self.prog.insts[e[2]]
                found = ((e[2],), f"reads {names} before an s_waitcnt covers its load at pc "
                                  f"0x{ld.addr:x} `{ld.text.strip()}` "
                                  f"({'/'.join(c + 'cnt' for c in e[0])} still counts it)")
        if op.counters:
            # at most 64 operations outstanding (gfx9 vmcnt is 6 bits, CDNA3 ISA s_waitcnt)
            pend = (pend + ((op.counters, op.dst, pc),))[-64:]
        return self._intern(pend), found

    def ds(self, st: Any, g: Any, d: Any, addr: np.ndarray, width: int,
           addr2: np.ndarray | None, kind: str, mask: np.ndarray | None = None) -> None:
        """An LDS access of a group: ``kind`` is "r", "w" or "atomic" (vectorised over the
        group's waves, lanes and bytes)."""
        m = st.EM[g.ix] if mask is None else np.broadcast_to(mask, (g.w, 64))
        if kind != "r":
            self.progress = True
            self.writes += 1
        for aa in (addr,) if addr2 is None else (addr, addr2):
            a = np.broadcast_to(np.asarray(aa, np.int64), (g.w, 64))
            ok = m & (a >= 0) & (a + width <= self.lds_bytes)
            if not ok.any():
                continue
            wi, lane = np.nonzero(ok)
            wv = g.waves[wi]
            la = a[wi, lane]
            idx = ((st.wg[wv] * self.lds_bytes + la)[:, None]
                   + np.arange(width)[None, :]).reshape(-1)
            self._access(st, g, np.repeat(wv, width), np.repeat(lane, width),
                         np.repeat(la, width), idx, kind)

    def _race(self, st, g, bad, wv, other, lane, la, what: str) -> None:
        j = int(np.nonzero(bad)[0][0])
        me, ot = int(st.wave_global[wv[j]]), int(other[j])
        ot_g = (int(st.wave_global[ot]),) if ot >= 0 else ()
        by = f"wave {ot_g[0]}" if ot_g else "other waves"
        verb = {"read-after-write": f"reads what {by} wrote",
                "write-after-write": f"overwrites what {by} wrote",
                "write-after-read": f"overwrites what {by} read"}[what]
        self.add("lds-race", g.pc, (what, ot), waves=(me, *ot_g), lanes=(int(lane[j]),),
                 address=int(la[j]), detail=f"{verb} with no s_barrier between ({what} race)")

    def _access(self, st, g, wv, lane, la, idx, kind) -> None:
        ep = self.epoch[wv]
        if kind == "r":
            # for a livelock report: the first address each wave read (first 8 waves)
            first = np.concatenate([[0], np.nonzero(wv[1:] != wv[:-1])[0] + 1])[:8]
            for j in first.tolist():
                self.reads.setdefault(int(wv[j]), set()).add(("LDS", int(la[j])))
            un = ~self.init[idx]
            if un.any():
                j = int(np.nonzero(un)[0][0])
                self.add("uninit-lds", g.pc, None, waves=(int(st.wave_global[wv[j]]),),
                         lanes=(int(lane[j]),), address=int(la[j]),
                         detail="reads LDS bytes no wave wrote in this launch")
            ww = self.w_wave[idx]
            bad = (ww >= 0) & (ww != wv) & (self.w_ep[idx] == ep)
            if bad.any():
                self._race(st, g, bad, wv, ww, lane, la, "read-after-write")
            rw = self.r_wave[idx]
            same = self.r_ep[idx] == ep
            new = np.where(same & (((rw >= 0) & (rw != wv)) | (rw == -2)), -2, wv)
            self.r_wave[idx] = new
            # one byte read by two waves in this instruction: the last assignment won, so a
            # byte whose stored reader is another wave than one of its elements has several
            back = self.r_wave[idx]
            several = (back != new) & (back >= 0)
            if several.any():
                self.r_wave[idx[several]] = -2
            self.r_ep[idx] = ep
            return
        self.init[idx] = True
        if kind == "atomic":
            return
        ww = self.w_wave[idx]
        bad = (ww >= 0) & (ww != wv) & (self.w_ep[idx] == ep)
        if bad.any():
            self._race(st, g, bad, wv, ww, lane, la, "write-after-write")
        rw = self.r_wave[idx]
        bad = ((rw == -2) | ((rw >= 0) & (rw != wv))) & (self.r_ep[idx] == ep)
        if bad.any():
            self._race(st, g, bad, wv, rw, lane, la, "write-after-read")
        self.w_wave[idx] = wv
        self.w_ep[idx] = ep
        # one byte written by two waves in this instruction: the last assignment won
        back = self.w_wave[idx]
        both = back != wv
        if both.any():
            self._race(st, g, both, wv, back, lane, la, "write-after-write")

    def scratch(self, st: Any, g: Any, d: Any, flat: np.ndarray, mask: np.ndarray | None,
                nbytes: int, write: bool) -> None:
        """A scratch (private) access: ``flat`` are byte offsets into the batch's scratch."""
        m = np.ones((g.w, 64), bool) if mask is None else np.broadcast_to(mask, (g.w, 64))
        m = m & st.EM[g.ix]
        if not m.any():
            return
        wi, lane = np.nonzero(m)
        idx = (np.asarray(flat, np.int64)[wi, lane][:, None] + np.arange(nbytes)).reshape(-1)
        idx = np.clip(idx, 0, self.s_init.size - 1)
        if write:
            self.s_init[idx] = True
            return
        un = ~self.s_init[idx]
        if un.any():
            j = int(np.nonzero(un)[0][0]) // nbytes
            w, ln = int(g.waves[wi[j]]), int(lane[j])
            off = int(np.asarray(flat, np.int64)[wi[j], ln]) - (w * 64 + ln) * st.scratch_stride
            self.add("uninit-scratch", g.pc, None, waves=(int(st.wave_global[w]),),
                     lanes=(ln,), detail=f"reads private (scratch) offset {off} that this "
                                         f"lane never wrote in this launch")

    def lds_dma(self, st: Any, g: Any, d: Any, addr: np.ndarray, width: int,
                mask: np.ndarray) -> None:
        """An LDS write by global/buffer->LDS DMA (memory.ldsdma)."""
        self.ds(st, g, d, addr, width, None, "w", mask)

    def global_write(self) -> None:
        self.progress = True
        self.writes += 1

    def global_read(self, g: Any, addr: Any) -> None:
        a = np.asarray(addr).reshape(-1)
        if a.size:
            for w in g.waves[:4]:
                self.reads.setdefault(int(w), set()).add(("global", int(a[0])))

    # -- scheduling for spin detection ---------------------------------------------------
    def pick(self, groups: dict) -> int:
        """The PC of the group to run next: the lowest not deferred at a loop head; when
        every group is deferred a round ends (a round with no progress is a livelock)."""
        live = [p for p in groups if p not in self.deferred]
        if live:
            return min(live)
        if not self.progress and self.stale:
            raise Livelock("livelock")
        self.deferred.clear()
        self.progress = False
        self.stale = []
        return min(groups)

    def backedge(self, st: Any, g: Any, target: int) -> bool:
        """A group takes a backward branch to ``target``: it yields; whether its state is
        exactly what it was at its previous backward branch decides progress."""
        ix = g.ix
        key = (target, g.waves.tobytes())
        # scalar state first (a loop counter usually lives in an SGPR): vectors only if equal
        hs = hash((st.S[:, ix].tobytes(), st.SCC[ix].tobytes(), st.EM[ix].tobytes()))
        prev = self.hashes.get(key)
        if prev is not None and prev[0] == hs and prev[2] == self.writes:
            hv = hash(st.R[:, ix].tobytes())
            if prev[1] == hv:
                self.stale.append((target, g.waves.copy()))
                self.deferred.add(target)
                return True
            self.hashes[key] = (hs, hv, self.writes)
        else:
            self.hashes[key] = (hs, None, self.writes)
        self.progress = True
        self.deferred.add(target)
        return True

    def livelock(self, st: Any, parked: np.ndarray) -> None:
        for target, waves in self.stale[:4]:
            addrs = sorted(set().union(*(self.reads.get(int(w), set()) for w in waves)))
            where = ", ".join(f"{s} 0x{a:x}" for s, a in addrs[:4]) or "no memory"
            lds = [a for s, a in addrs if s == "LDS"]
            waiting = np.nonzero(parked)[0]
            ended = np.nonzero(self.ended_at >= 0)[0]
            at = ""
            if len(waiting):
                ws = ", ".join(str(int(st.wave_global[w])) for w in waiting[:8])
                at = f"; wave(s) {ws} wait at barrier #{int(self.epoch[waiting[0]])}"
            self.add("livelock", target, None,
                     waves=tuple(int(st.wave_global[w]) for w in waves),
                     address=lds[0] if lds else None,
                     detail=f"these waves spin in a loop re-reading {where} with unchanged "
                            f"state after {int(self.epoch[waves[0]])} barrier(s); nobody else "
                            f"can write before the next barrier ({len(waiting)} wave(s) wait "
                            f"at s_barrier, {len(ended)} ended{at})")
        self.report.completed = False

    def deadlock(self, st: Any, parked: np.ndarray, resume: np.ndarray) -> None:
        for wgi in np.unique(st.wg[parked]):
            ws = np.nonzero(st.wg == wgi)[0]
            wait = [w for w in ws if parked[w]]
            gone = [w for w in ws if self.ended_at[w] >= 0]
            pc = int(resume[wait[0]]) - 1
            desc = "; ".join(
                [f"waves {_short(tuple(int(st.wave_global[w]) for w in wait))} wait at "
                 f"barrier #{int(self.epoch[wait[0]])}"]
                + [f"wave {int(st.wave_global[w])} ended after {int(self.ended_at[w])} "
                   f"barrier(s)" for w in gone[:4]])
            self.add("deadlock", pc, int(wgi), waves=tuple(int(st.wave_global[w]) for w in ws),
                     detail=f"barrier mismatch, the workgroup can never continue: {desc}")
        self.report.completed = False

    def end_batch(self, st: Any) -> None:
        """After a batch: workgroups whose waves ended after different numbers of barriers."""
        for wgi in range(st.n_wg):
            ws = np.nonzero(st.wg == wgi)[0]
            counts = self.ended_at[ws]
            if len(set(counts.tolist())) > 1:
                lo, hi = int(counts.min()), int(counts.max())
                few = ws[counts == lo]
                pc = int(self.last_barrier[ws].max())
                self.add("barrier-mismatch", pc if pc >= 0 else len(self.prog.insts) - 1,
                         int(wgi),
                         waves=tuple(int(st.wave_global[w]) for w in ws),
                         detail=f"waves {_short(tuple(int(st.wave_global[w]) for w in few))} "
                                f"ended after {lo} s_barrier(s), others after {hi}: the "
                                f"barriers did not synchronise all waves (a conditional "
                                f"s_barrier)")


def _retire(pend: tuple, wait: dict) -> tuple:
    """The operations still outstanding after an s_waitcnt."""
    keep = set(range(len(pend)))
    for ctr, n in (("vm", wait.get("vmcnt")), ("lgkm", wait.get("lgkmcnt"))):
        if n is None:
            continue
        idx = [i for i, e in enumerate(pend) if ctr in e[0] or (ctr == "lgkm" and
                                                                "smem" in e[0])]
        if ctr == "lgkm" and n > 0:
            # SMEM returns out of order: only lgkmcnt(0) retires it (CDNA3 ISA §4.4)
            # (in-order ones older than the N youngest in-order ones are surely back)
            ordered = [i for i in idx if "smem" not in pend[i][0]]
            done = ordered[:max(0, len(ordered) - n)]
        else:
            done = idx[:max(0, len(idx) - n)]
        keep -= set(done)
    return tuple(e for i, e in enumerate(pend) if i in keep)


def _name(r: int) -> str:
    return ("v", "s", "a")[r // 1000] + str(r % 1000)
