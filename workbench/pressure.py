"""Register pressure per instruction: live VGPRs, AGPRs and SGPRs, from a kernel's ISA.

Why: the compiler reports one number per register class (the highest register it used); where
in the kernel registers are tight, and whether the allocation could fit the next occupancy step,
takes the live set at every instruction (Radeon GPU Analyzer's "live register analysis").

**The rule.** A register is *live at* instruction i when it is in live-in(i) ∪ def(i):
read by i, or read later on some path of the branch graph with no write in between, or written
by i. A write that is never read (a dead def) occupies its register at that instruction only.
live-in(i) = use(i) ∪ (live-out(i) − def(i)); live-out(i) = ∪ live-in(successors). Which
operands an instruction reads and writes: `workbench.operand_roles` (by family; widths from the
printed ranges). Counts: VGPR (``v``), AGPR (``a``), SGPR (numbered ``s`` registers). VCC is not
in the SGPR count (nor are EXEC, M0, SCC, flat_scratch, ttmp, literals); the compiler's
``.sgpr_count``, shown as allocated, adds VCC, FLAT_SCRATCH and XNACK_MASK to the highest SGPR.

**Control flow.** The graph is the scalar branch graph: basic blocks end at ``s_branch``,
``s_cbranch_*`` (both ways, ``execz``/``execnz`` included), ``s_endpgm`` and ``s_setpc_b64``
(a return: nothing is live after it), and start at branch targets. A call (``s_swappc_b64``)
falls through; the registers its callee touches are not modelled (the callee's code, appended to
the listing, is analysed as its own region). Divergence: a VGPR write under a partial EXEC mask
keeps the old values of the disabled lanes, but this analysis, like any scalar-CFG liveness,
takes every write as a full kill; where those lanes' old values are read after the divergent
region, the register is missing from the live set between the region's start and the write,
and the count is low there. Seen in softmax step 2 (gfx942): ``v1 = -inf`` for all lanes, set
again inside ``if (tid < cols)``, read by all lanes after the join: one VGPR short for the
three instructions before the inner write. (LLVM keeps such values live through the region.)

**Two passes**, for cross-checking (tests run both over every tutorial kernel):
``method="dataflow"`` is the classic backward iterative analysis over basic blocks;
``method="walk"`` walks the instruction graph backwards from every use of each register until a
write of it on each path, marking the register live at each instruction passed. They share only
the def/use table and the branch decoding.

**Comparable figures.** On gfx90a/gfx942/gfx950 AGPRs follow the ArchVGPRs at ACCUM_OFFSET
(4-aligned) in one file, so the figure the occupancy thresholds apply to is VGPR+AGPR live,
against the compiler's alignTo(vgprs, 4) + agprs (`workbench.occupancy.unified_vgpr_count`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .arch import get as get_arch
from .branches import branch_target
from .errors import ArgumentValueError
from .occupancy import occupancy_table, unified_vgpr_count
from .operand_roles import def_use, reg_class, register_ranges
from .text_table import text_table

__all__ = ["Liveness", "METHODS", "Peak", "Pressure", "Threshold",
           "liveness", "pressure"]

PRESSURE_VIEW = "workbench.widgets.pressure_view"
METHODS = ("dataflow", "walk")
KINDS = ("vgpr+agpr", "vgpr", "agpr", "sgpr")
_ENDS = ("s_endpgm", "s_setpc_b64", "s_rfe_b64", "s_code_end")
# -- control flow ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Code:
    """What both passes read: per instruction its defs/uses (bit masks over ``registers``),
    whether it falls through to the next, and the index its branch goes to."""

    registers: tuple[int, ...]
    defs: tuple[int, ...]
    uses: tuple[int, ...]
    falls: tuple[bool, ...]
    jumps: tuple[int | None, ...]
    notes: tuple[str, ...]


def _code(instructions: list[Any], wave64: bool, starts: dict[str, int]) -> _Code:
    du = [def_use(ins, wave64) for ins in instructions]
    regs = tuple(sorted(set().union(*(d | u for d, u in du)))) if du else ()
    bit = {r: 1 << j for j, r in enumerate(regs)}
    index = {ins.addr: i for i, ins in enumerate(instructions)}
    jumps, notes = [], []
    for i, ins in enumerate(instructions):
        t = branch_target(ins, starts)
        if t is not None and t not in index:
            notes.append(f"#{i} {ins.text}: target {t:#x} is no instruction here (edge left out)")
        jumps.append(index.get(t) if t is not None else None)
    return _Code(
        registers=regs,
        defs=tuple(sum(bit[r] for r in d) for d, _ in du),
        uses=tuple(sum(bit[r] for r in u) for _, u in du),
        falls=tuple(not (ins.mnemonic == "s_branch" or ins.mnemonic.startswith(_ENDS))
                    for ins in instructions),
        jumps=tuple(jumps), notes=tuple(notes))


# -- pass 1: backward dataflow over basic blocks ----------------------------------------------
def _dataflow(c: _Code) -> list[int]:
    n = len(c.defs)
    leaders = {0} | {j for j in c.jumps if j is not None}
    leaders |= {i + 1 for i in range(n) if c.jumps[i] is not None or not c.falls[i]}
    firsts = sorted(x for x in leaders if x < n)
    bounds = list(zip(firsts, firsts[1:] + [n]))
    block_of = {s: b for b, (s, _) in enumerate(bounds)}
    succ, gen, kill = [], [], []
    for s, e in bounds:
        last = e - 1
        out = [block_of[c.jumps[last]]] if c.jumps[last] is not None else []
        if c.falls[last] and e < n:
            out.append(block_of[e])
        succ.append(out)
        g = k = 0
        for i in range(e - 1, s - 1, -1):
            g = c.uses[i] | (g & ~c.defs[i])
            k |= c.defs[i]
        gen.append(g)
        kill.append(k)
    live_in = [0] * len(bounds)
    changed = True
    while changed:
        changed = False
        for b in range(len(bounds) - 1, -1, -1):
            out = 0
            for s in succ[b]:
                out |= live_in[s]
            new = gen[b] | (out & ~kill[b])
            if new != live_in[b]:
                live_in[b], changed = new, True
    at = [0] * n
    for b, (s, e) in enumerate(bounds):
        live = 0
        for t in succ[b]:
            live |= live_in[t]
        for i in range(e - 1, s - 1, -1):
            live = c.uses[i] | (live & ~c.defs[i])
            at[i] = live | c.defs[i]
    return at


# -- pass 2: from each use, backwards to the defs ----------------------------------------------
def _walk(c: _Code) -> list[int]:
    n, nreg = len(c.defs), len(c.registers)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        if c.falls[i] and i + 1 < n:
            preds[i + 1].append(i)
        if c.jumps[i] is not None:
            preds[c.jumps[i]].append(i)
    uses_of: list[list[int]] = [[] for _ in range(nreg)]
    defs_of: list[list[int]] = [[] for _ in range(nreg)]
    for table, masks in ((uses_of, c.uses), (defs_of, c.defs)):
        for i, mask in enumerate(masks):
            while mask:
                low = mask & -mask
                table[low.bit_length() - 1].append(i)
                mask ^= low
    rows = []
    for j in range(nreg):
        live, done, writes = bytearray(n), bytearray(n), bytearray(n)
        for d in defs_of[j]:
            writes[d] = live[d] = 1
        todo = list(uses_of[j])
        for u in todo:
            live[u] = 1
        while todo:  # instructions where register j is live-in
            i = todo.pop()
            if done[i]:
                continue
            done[i] = 1
            for p in preds[i]:
                live[p] = 1
                if not writes[p] and not done[p]:
                    todo.append(p)
        rows.append(bytes(live))
    if not nreg:
        return [0] * n
    grid = np.frombuffer(b"".join(rows), np.uint8).reshape(nreg, n)
    packed = np.packbits(grid.T, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


@dataclass(frozen=True)
class Liveness:
    """Registers live at each instruction: ``masks[i]`` has bit j set when ``registers[j]``
    (``workbench.operand_roles`` numbering) is live at instruction i."""

    registers: tuple[int, ...]
    masks: tuple[int, ...]
    notes: tuple[str, ...] = ()

    def live(self, i: int) -> list[int]:
        m = self.masks[i]
        return [r for j, r in enumerate(self.registers) if m >> j & 1]

    def counts(self, kind: str) -> tuple[int, ...]:
        """Live registers of one class ("vgpr", "agpr", "sgpr", "vcc") per instruction."""
        sel = sum(1 << j for j, r in enumerate(self.registers) if reg_class(r) == kind)
        return tuple((m & sel).bit_count() for m in self.masks)


def _starts(listing: Any) -> dict[str, int]:
    ins = list(listing)
    out = {getattr(listing, "symbol", ""): ins[0].addr} if ins else {}
    out.update({name: a for a, name in getattr(listing, "callees", {}).items()})
    return out


def liveness(listing: Any, wave_size: int = 64, method: str = "dataflow") -> Liveness:
    """The live registers at each instruction of a `workbench.isa.Listing` (or a list of
    Instructions), by one of ``METHODS`` (module docstring)."""
    if method not in METHODS:
        raise ArgumentValueError(f"method={method!r}: use one of {', '.join(METHODS)}")
    code = _code(list(listing), wave_size == 64, _starts(listing))
    masks = _dataflow(code) if method == "dataflow" else _walk(code)
    return Liveness(code.registers, tuple(masks), code.notes)


# -- the result --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Threshold:
    """Up to ``registers`` registers per wave (lane), a SIMD holds ``waves`` waves."""

    registers: int
    waves: int


@dataclass(frozen=True)
class Peak:
    """The most registers of one class live at once, and where."""

    kind: str  # one of KINDS
    count: int
    at: tuple[int, ...] = field(repr=False)  # indices of the instructions where it is reached
    addr: int | None  # of the first of them
    instruction: str
    location: str  # Instruction.location(): "source line 10 (inlined from tile.h:4)" or ""


def _peak(kind: str, counts: tuple[int, ...], instructions: tuple[Any, ...]) -> Peak:
    top = max(counts, default=0)
    at = tuple(i for i, c in enumerate(counts) if c == top) if top else ()
    first = instructions[at[0]] if at else None
    return Peak(kind, top, at, first.addr if first else None, first.text if first else "",
                first.location() if first else "")


def waves_for(thresholds: tuple[Threshold, ...], count: int) -> int:
    """Waves/SIMD that ``count`` registers allow by the thresholds."""
    for t in thresholds:
        if count <= t.registers:
            return t.waves
    return thresholds[-1].waves if thresholds else 0


@dataclass(frozen=True, eq=False)
class Pressure:
    """Live registers per instruction of one kernel on one arch, their peaks, the compiler's
    allocation and the occupancy thresholds (module docstring: the rule)."""

    symbol: str
    arch: str
    wave_size: int
    method: str
    instructions: tuple[Any, ...] = field(repr=False)
    vgpr: tuple[int, ...] = field(repr=False)
    agpr: tuple[int, ...] = field(repr=False)
    sgpr: tuple[int, ...] = field(repr=False)
    allocated: dict[str, int]  # by KINDS; "vgpr+agpr" as the occupancy rules count it
    peak: dict[str, Peak]  # by KINDS
    thresholds: tuple[Threshold, ...]  # VGPR(+AGPR) count -> waves/SIMD, ascending
    sgpr_thresholds: tuple[Threshold, ...] = ()  # where SGPRs limit occupancy (gfx9)
    notes: tuple[str, ...] = ()
    liveness: Liveness | None = field(default=None, repr=False)

    @cached_property
    def total(self) -> tuple[int, ...]:
        """Live VGPR + AGPR per instruction (what the unified file's thresholds apply to)."""
        return tuple(v + a for v, a in zip(self.vgpr, self.agpr))

    def counts(self, kind: str) -> tuple[int, ...]:
        return {"vgpr+agpr": self.total, "vgpr": self.vgpr, "agpr": self.agpr,
                "sgpr": self.sgpr}[kind]

    def live(self, i: int) -> str:
        """The registers live at instruction i, as ranges (``v[0:5], s[2:3]``)."""
        return register_ranges(self.liveness.live(i)) if self.liveness else ""

    def waves(self, count: int) -> int:
        """Waves/SIMD ``count`` VGPR(+AGPR) registers allow on this arch."""
        return waves_for(self.thresholds, count)

    def around(self, count: int) -> tuple[Threshold | None, Threshold | None]:
        """(the threshold at or above ``count``: exceeding it costs a wave; the one below:
        reaching it gains one), None where there is none."""
        up = next((t for t in self.thresholds if count <= t.registers), None)
        down = next((t for t in reversed(self.thresholds) if t.registers < count), None)
        return up, down

    ROW_HEADER = ("#", "addr", "VGPR", "AGPR", "VGPR+AGPR", "SGPR", "instruction", "source")

    def rows(self) -> list[tuple]:
        """One row per instruction (``ROW_HEADER``)."""
        return [(i, f"{ins.addr:#x}", v, a, v + a, s, ins.text, ins.location())
                for i, (ins, v, a, s) in enumerate(zip(self.instructions, self.vgpr,
                                                       self.agpr, self.sgpr))]

    @property
    def needed(self) -> int:
        """The fewest VGPR-file registers any register assignment of these live ranges needs:
        the per-class peaks, AGPRs after alignTo(VGPRs, 4) on gfx90a+ (what ``allocated
        ["vgpr+agpr"]`` counts for the compiler's assignment); <= that allocation."""
        return unified_vgpr_count(get_arch(self.arch), self.peak["vgpr"].count,
                                  self.peak["agpr"].count)

    def text(self) -> str:
        """A short table: peak per class, where, allocated; the thresholds around the peak."""
        kinds = [k for k in KINDS if k != "agpr" or self.allocated["agpr"] or
                 self.peak["agpr"].count]
        rows = []
        for k in kinds:
            p = self.peak[k]
            where = f"#{p.at[0]} {p.instruction}" if p.at else "-"
            more = f" (+{len(p.at) - 1} more)" if len(p.at) > 1 else ""
            rows.append((k.upper(), p.count, self.allocated[k], where + more,
                         p.location or "-"))
        out = [f"register pressure of {self.symbol} on {self.arch} (wave{self.wave_size}, "
               f"{len(self.instructions)} instructions, live registers per instruction)",
               text_table(("class", "peak live", "allocated", "peak at", "source"), rows,
                          indent="  ")]
        need, alloc = self.needed, self.allocated["vgpr+agpr"]
        how = (" (VGPR peak aligned to 4 + AGPR peak)"
               if self.peak["agpr"].count and get_arch(self.arch).unified_vgpr_file else "")
        line = f"  VGPR file: needs {need}{how} -> {self.waves(need)} waves/SIMD"
        up, down = self.around(need)
        if up is not None:
            line += f" (up to {up.registers})"
        if down is not None:
            line += f"; {down.registers} or fewer -> {down.waves}"
        out.append(line + f"; allocated {alloc} -> {self.waves(alloc)} waves/SIMD")
        sg = self.allocated["sgpr"]
        if self.sgpr_thresholds and sg > self.sgpr_thresholds[0].registers:
            waves = waves_for(self.sgpr_thresholds, sg)
            out.append(f"  SGPRs limit occupancy: allocated {sg} -> {waves} waves/SIMD")
        out.append("  live = read here or later before a write, or written here (scalar "
                   "branch graph); SGPR without VCC; allocated SGPR = .sgpr_count")
        out += [f"  note: {n}" for n in self.notes]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()

    def view(self) -> Any:
        """The chart view (``workbench.widgets.pressure_view``: bokeh live, SVG static).

        The view sits in a higher layer; it is loaded by module name on first use, so importing
        this model never loads it.
        """
        return importlib.import_module(PRESSURE_VIEW).pressure_view(self)

    def _repr_html_(self) -> str:
        return self.view().html()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self.view()._repr_mimebundle_(include, exclude)


def _thresholds(rows: tuple) -> tuple[Threshold, ...]:
    return tuple(Threshold(hi, w) for _lo, hi, w in rows)


def pressure(listing: Any, resources: Any, arch: str, method: str = "dataflow") -> Pressure:
    """The `Pressure` of one kernel: its `Listing`, the compiler's `Resources`, its arch."""
    a = get_arch(arch)
    ws = int(getattr(resources, "wave_size", 0) or a.default_wave_size)
    lv = liveness(listing, ws, method)
    ins = tuple(listing)
    counts = {k: lv.counts(k) for k in ("vgpr", "agpr", "sgpr")}
    counts["vgpr+agpr"] = tuple(v + x for v, x in zip(counts["vgpr"], counts["agpr"]))
    v, x = int(resources.vgprs), int(resources.agprs or 0)
    allocated = {"vgpr+agpr": unified_vgpr_count(a, v, x), "vgpr": v, "agpr": x,
                 "sgpr": int(resources.sgprs)}
    table = occupancy_table(a, ws)
    return Pressure(
        symbol=getattr(listing, "symbol", ""), arch=a.name, wave_size=ws, method=method,
        instructions=ins, vgpr=counts["vgpr"], agpr=counts["agpr"], sgpr=counts["sgpr"],
        allocated=allocated, peak={k: _peak(k, counts[k], ins) for k in KINDS},
        thresholds=_thresholds(table.vgpr_rows),
        sgpr_thresholds=_thresholds(table.sgpr_rows) if len(table.sgpr_rows) > 1 else (),
        notes=lv.notes, liveness=lv)
