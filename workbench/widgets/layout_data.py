"""What the layout explorer draws, as numpy tables: one row per (element, register slot) pair.

Why a module of its own: the static HTML, the text and the live bokeh views all draw the same
rows, and the live widget must rebuild them within an interaction (<= 100 ms), so they are
computed once per (instruction, operand, modifiers) and cached. Every number comes from the
catalog (``MatrixInstruction.gather_index`` / ``Layout``); this module only arranges it.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from ..errors import ArgumentValueError
from ..layouts import MatrixInstruction
from ..layouts.layout import INDEX, index_names

__all__ = ["Modifiers", "Placement", "legal_modifiers", "matrix_text", "placement",
           "lane_colors", "reg_colors", "position_colors", "index_sets", "k_groups",
           "operand_note", "slot_names", "other_set_of"]


@dataclass(frozen=True)
class Modifiers:
    """The instruction modifiers that change where operands are read (all 0 = none).

    CBSZ/ABID and BLGP are the CDNA VOP3P-MAI fields (README of AMD's matrix instruction calculator,
    ROCm/amd_matrix_instruction_calculator); OPSEL bit 2 picks the
    high halves of RDNA3 16-bit C/D registers (same README). ``index_key`` is the OPSEL of an
    RDNA4 sparse ``v_swmmac_*`` (LLVM prints ``index_key:N``): which compression-index set of
    the index VGPR operand I is read (same README, "Example of Using the OPSEL Modifier to
    Change the Compression Index Set")."""

    cbsz: int = 0
    abid: int = 0
    blgp: int = 0
    opsel: int = 0
    index_key: int = 0

    def any(self) -> bool:
        return bool(self.cbsz or self.abid or self.blgp or self.opsel or self.index_key)

    def words(self) -> str:
        """``cbsz=1 abid=0`` for the non-zero fields (empty when none)."""
        return " ".join(f"{k}={v}" for k, v in self.__dict__.items() if v)


def legal_modifiers(ins: MatrixInstruction, operand: str, cbsz: int = 0
                    ) -> dict[str, tuple[int, ...]]:
    """The values each modifier may take for ``operand`` of ``ins`` (absent = not applicable).

    CBSZ/ABID exist on multi-block CDNA MFMAs and change which A block feeds each block
    (legal: CBSZ <= log2(blocks), ABID < 2**CBSZ); BLGP permutes B lanes on CDNA (or, on CDNA3
    f64, negates A/B/C); OPSEL selects the C/D halves of RDNA3 16-bit-output WMMA
    (the calculator's README; legality as ``MatrixInstruction.check_modifiers``); ``index_key``
    picks one of the index sets of a sparse instruction's operand I, where it has several."""
    op = operand.upper()
    out: dict[str, tuple[int, ...]] = {}
    if ins.cbsz_abid and op == "A":
        out["cbsz"] = tuple(range(ins.blocks.bit_length()))
        out["abid"] = tuple(range(1 << cbsz))
    if (ins.blgp == "lanes" and op == "B") or ins.blgp == "negate":
        out["blgp"] = tuple(range(8))
    if ins.cd_opsel and op in ("C", "D"):
        out["opsel"] = (0, 4)
    if op == INDEX and index_sets(ins) > 1:
        out["index_key"] = tuple(range(index_sets(ins)))
    return out


def index_sets(ins: MatrixInstruction) -> int:
    """Compression-index sets one index VGPR holds (0: a dense instruction, no operand I)."""
    return ins.index_placer.sets if ins.sparse and ins.index_placer is not None else 0


def check(ins: MatrixInstruction, operand: str, mods: Modifiers) -> None:
    """Raise ValueError naming the modifier when ``mods`` do not apply to ``operand`` of ``ins``."""
    legal = legal_modifiers(ins, operand, mods.cbsz)
    for name, value in mods.__dict__.items():
        if value == 0:
            continue
        if name not in legal:
            raise ArgumentValueError(f"{ins.name} on {ins.arch}: {name}={value} does not apply to "
                                     f"operand {operand.upper()}"
                                     + (f" (modifiers here: {', '.join(legal)})" if legal else ""))
        if value not in legal[name]:
            raise ArgumentValueError(
                f"{ins.name} on {ins.arch}: {name}={value} is not legal for operand "
                f"{operand.upper()}; allowed: {', '.join(map(str, legal[name]))}")


@dataclass(frozen=True, eq=False)  # hashed by identity: placements are cached, one per key
class Placement:
    """Rows of (element, slot) pairs of one operand, then one row per register slot no element
    uses. Arrays are int32 of one length; unused slots have block/row/col = -1.

    ``replica`` numbers the copies of a replicated RDNA3 A/B element (0 = the first);
    ``span`` is 2 for a 64-bit element (its register pair), else 1."""

    ins: MatrixInstruction
    operand: str
    mods: Modifiers
    block: np.ndarray
    row: np.ndarray
    col: np.ndarray
    lane: np.ndarray
    reg: np.ndarray
    elem: np.ndarray
    replica: np.ndarray
    bits: int
    regs: int
    elems_per_reg: int
    replicas: int

    @property
    def used(self) -> np.ndarray:
        return self.block >= 0

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.ins.shape(self.operand)

    @property
    def span(self) -> int:
        return 2 if self.bits == 64 else 1

    @property
    def slot(self) -> np.ndarray:
        """Row index of the slot in the lane-major view: ``reg * elems_per_reg + elem``."""
        return self.reg * self.elems_per_reg + self.elem

    def negated(self) -> bool:
        """Whether BLGP negates this operand (CDNA3 f64 MFMAs, the calculator's README)."""
        if self.ins.blgp != "negate" or not self.mods.blgp:
            return False
        a, b, c = self.ins.negate_mask(self.mods.blgp)
        return {"A": a, "B": b, "C": c}.get(self.operand, False)

    def lane_elements(self, lane: int) -> list[tuple[int, int, int, int, int]]:
        """(reg, elem, block, row, col) of the elements register slots of ``lane`` feed, in
        register order."""
        if not 0 <= lane < self.ins.wave_size:
            raise ArgumentValueError(f"lane={lane} out of range 0..{self.ins.wave_size - 1}")
        sel = np.flatnonzero((self.lane == lane) & self.used)
        order = sel[np.lexsort((self.col[sel], self.row[sel], self.block[sel],
                                self.elem[sel], self.reg[sel]))]
        return [(int(self.reg[i]), int(self.elem[i]), int(self.block[i]), int(self.row[i]),
                 int(self.col[i])) for i in order]


def placement(ins: MatrixInstruction, operand: str, mods: Modifiers = Modifiers()) -> Placement:
    """The (element, slot) rows of ``operand`` under ``mods`` (cached per arguments).

    ``operand`` is 'A'..'D', or 'I' (the compression index) for a sparse instruction. On I an
    ``opsel`` stands for ``index_key`` (the same OPSEL field: ``Layout.opsel`` of an I layout
    is its index set)."""
    op = operand.upper() if isinstance(operand, str) else operand
    if op not in ins.operands:
        names = ", ".join(f"'{o}'" for o in ins.operands)
        why = (f" ({ins.name} has no index operand: only the sparse RDNA4 v_swmmac_* do)"
               if op == INDEX else "")
        raise ArgumentValueError(f"operand must be one of {names}, got {operand!r}{why}")
    if op == INDEX and mods.opsel:
        if mods.index_key not in (0, mods.opsel):
            raise ArgumentValueError(f"{ins.name}: opsel={mods.opsel} and index_key="
                                     f"{mods.index_key} disagree (on SWMMAC they are one field)")
        mods = replace(mods, opsel=0, index_key=mods.opsel)
    check(ins, op, mods)
    return _placement(ins, op, mods)


@cache
def _placement(ins: MatrixInstruction, op: str, mods: Modifiers) -> Placement:
    lay = ins.layout(op, opsel=mods.opsel, index_key=mods.index_key)
    gathers = [ins.gather_index(op, cbsz=mods.cbsz, abid=mods.abid, blgp=mods.blgp,
                                opsel=mods.opsel, replica=r, index_key=mods.index_key)
               for r in range(lay.replicas)]
    b, r, c = (x.ravel() for x in np.indices(lay.shape))
    n = b.size
    # Later replicas first, so that copy 0 is drawn last (on top) where copies overlap.
    order = range(lay.replicas - 1, -1, -1)
    lane = np.concatenate([gathers[k].lane.ravel() for k in order])
    reg = np.concatenate([gathers[k].reg.ravel() for k in order])
    elem = np.concatenate([gathers[k].elem.ravel() for k in order])
    replica = np.repeat(np.array(list(order), dtype=np.int32), n)
    blocks, rows, cols = (np.tile(x, lay.replicas) for x in (b, r, c))
    # Register slots no element is read from (or written to): CBSZ broadcasts, OPSEL halves.
    taken = np.zeros((ins.wave_size, lay.regs, lay.elems_per_reg), dtype=bool)
    taken[lane, reg, elem] = True
    if lay.bits == 64:
        taken[lane, reg + 1, elem] = True
    if lay.bits == 64:  # a free 64-bit slot is a free register pair
        taken = taken[:, ::2] | taken[:, 1::2]
    ul, ur, ue = np.nonzero(~taken)
    if lay.bits == 64:
        ur = ur * 2
    minus = np.full(ul.size, -1, dtype=np.int32)

    def cat(a, extra):
        return np.ascontiguousarray(np.concatenate([a, extra]).astype(np.int32))

    return Placement(ins=ins, operand=op, mods=mods, block=cat(blocks, minus),
                     row=cat(rows, minus), col=cat(cols, minus), lane=cat(lane, ul),
                     reg=cat(reg, ur), elem=cat(elem, ue), replica=cat(replica, minus),
                     bits=lay.bits, regs=lay.regs, elems_per_reg=lay.elems_per_reg,
                     replicas=lay.replicas)


def remaps(p: Placement) -> bool:
    """Whether the modifiers move where elements are read from (CBSZ/ABID, BLGP lane patterns)."""
    m = p.mods
    return bool(m.cbsz or m.abid or (m.blgp and p.ins.blgp == "lanes"))


def matrix_text(p: Placement) -> str:
    """The ``lane.reg[.elem]`` matrix of the slots each element is read from (copy 0), in the
    format of ``print(layout)``; with no modifiers it is the catalog's own printed matrix. A
    sparse A and its index I add a row naming each stored column's group of 4 logical k; I's
    entries are ``lane[hi:lo]``, the bit field of the index VGPR."""
    lay = p.ins.layout(p.operand, opsel=p.mods.opsel, index_key=p.mods.index_key)
    groups = k_groups(p)
    if not remaps(p) and groups is None:
        return str(lay)
    first = p.used & (p.replica == 0)
    lane, reg, elem = (x[first].reshape(lay.shape) for x in (p.lane, p.reg, p.elem))
    fmt = "lane.reg.elem" if lay.elems_per_reg > 1 else "lane.reg"
    if groups is None:
        head = [lay.summary(), f"modifiers {p.mods.words()}: entries are the {fmt} each element "
                "is read from"]
        return "\n".join(head + lay.grid_lines(lane, reg, elem))
    if p.operand == INDEX:
        cells = index_cells(p, lane, reg, elem)
        key = f" (index_key={p.mods.index_key})" if index_sets(p.ins) > 1 else ""
        head = [lay.summary() + key, "entries are lane[hi:lo]: the lane and the bits of its index "
                "VGPR (v0) holding the 2-bit index of stored A[i,k]"]
    else:
        cells = np.char.add(np.char.add(lane.astype(str), "."), reg.astype(str))
        if lay.elems_per_reg > 1:
            cells = np.char.add(np.char.add(cells, "."), elem.astype(str))
        head = [lay.summary() + f" (compressed: logical A is {p.ins.m}x{p.ins.k})",
                f"entries are {fmt}"]
    return "\n".join(head + _grid(p, cells, groups))


def _grid(p: Placement, cells: np.ndarray, groups: list[str]) -> list[str]:
    """``print(layout)``'s matrix of ``cells`` with a first row of logical-k groups."""
    blocks, rows, cols = p.shape
    rname, cname = index_names(p.operand)
    label = "logical k"
    width = max(int(np.char.str_len(cells).max()), len(str(cols - 1)),
                max(len(g) for g in groups))
    rw = max(len(rname) + 1 + len(str(rows - 1)), 3, len(label))
    lines = []
    for b in range(blocks):
        lines.append(label.rjust(rw) + " " + " ".join(g.rjust(width) for g in groups))
        lines.append(f"{rname}\\{cname}".rjust(rw) + " " + " ".join(
            str(c).rjust(width) for c in range(cols)))
        lines += [f"{r}".rjust(rw) + " " + " ".join(cells[b, r, c].rjust(width)
                                                   for c in range(cols)) for r in range(rows)]
    return lines


# -- sparse (RDNA4 SWMMAC) operands ----------------------------------------------------------------
SPARSE_SOURCE = ("AMD \"RDNA4\" Instruction Set Architecture Reference Guide, V_SWMMAC_*; "
                 "AMD Matrix Instruction Calculator README, \"Example of Using the OPSEL "
                 "Modifier to Change the Compression Index Set\"")


def k_groups(p: Placement) -> list[str] | None:
    """Per stored column c of a sparse A or its index I: the logical k it comes from,
    ``4g-4g+3`` with g = c // 2 (None for other operands). Of every 4 consecutive logical k two
    values are kept, stored as columns 2g and 2g+1 (formulas.py, "RDNA4 sparse WMMA")."""
    if not p.ins.sparse or p.operand not in ("A", INDEX):
        return None
    return [f"{4 * (c // 2)}-{4 * (c // 2) + 3}" for c in range(p.shape[2])]


def index_bits(p: Placement) -> tuple[int, int]:
    """(lowest, highest) bit of the index VGPR that the selected index set of I uses."""
    lo = p.elem[p.used] * p.bits
    return int(lo.min()), int(lo.max()) + p.bits - 1


def index_cells(p: Placement, lane: np.ndarray, reg: np.ndarray, elem: np.ndarray
                ) -> np.ndarray:
    """``lane[hi:lo]`` names of index-VGPR bit fields (``lane.vR[hi:lo]`` beyond one VGPR)."""
    lo = elem * p.bits
    field = np.char.add(np.char.add(np.char.add("[", (lo + p.bits - 1).astype(str)), ":"),
                        np.char.add(lo.astype(str), "]"))
    where = lane.astype(str)
    if p.regs > 1:
        where = np.char.add(np.char.add(where, ".v"), reg.astype(str))
    return np.char.add(where, field)


def slot_names(p: Placement) -> list[str]:
    """Column names of the lane-major view: ``v3``, ``v1.2`` (sub-element), ``v0:1`` (64-bit
    pair) or, for the index operand I, the bit field ``v0[5:4]``."""
    slots, epr, step = p.regs * p.elems_per_reg, p.elems_per_reg, p.span
    if p.operand == INDEX:
        return [f"v{s // epr}[{(s % epr) * p.bits + p.bits - 1}:{(s % epr) * p.bits}]"
                for s in range(slots)]
    return [f"v{s}:{s + 1}" if step == 2 else f"v{s // epr}.{s % epr}" if epr > 1 else f"v{s}"
            for s in range(0, slots, step)]


@cache
def other_set_of(p: Placement) -> np.ndarray:
    """Per row of ``p``: for an unused slot of the index operand I, the index_key whose set
    uses it (-1 otherwise): the fields the other index sets occupy in the same VGPR."""
    out = np.full(p.lane.size, -1, dtype=np.int32)
    if p.operand != INDEX:
        return out
    for key in range(index_sets(p.ins)):
        if key == p.mods.index_key:
            continue
        q = _placement(p.ins, INDEX, Modifiers(index_key=key))
        taken = np.zeros((p.ins.wave_size, p.regs, p.elems_per_reg), dtype=bool)
        taken[q.lane[q.used], q.reg[q.used], q.elem[q.used]] = True
        out[~p.used & taken[p.lane, p.reg, p.elem]] = key
    out.setflags(write=False)
    return out


def operand_note(p: Placement) -> str:
    """What the operand is, for the operands of a sparse instruction ('' for dense ones)."""
    ins, op = p.ins, p.operand
    if not ins.sparse:
        return ""
    m, k, n = ins.m, ins.k, ins.n
    if op == "A":
        text = (f"A is stored compressed: {m} x {k // 2} {ins.a_type} values of the logical "
                f"{m} x {k} A, which has 2:4 structured sparsity (at most 2 non-zeros in each "
                "group of 4 consecutive k). Stored columns 2g and 2g+1 hold the kept values of "
                "logical k 4g..4g+3 in order; operand I says which: stored A[i,c] (c: the "
                "column shown as k) is logical A[i, 4*floor(c/2) + I[i,c]].")
    elif op == INDEX:
        sets = index_sets(ins)
        lo, hi = index_bits(p)
        pick = (f"one index VGPR holds {sets} index sets of {32 // sets} bits; index_key "
                f"(OPSEL) = {p.mods.index_key} selects bits {hi}:{lo}" if sets > 1 else
                "one index VGPR holds 1 index set (index_key must be 0)")
        text = (f"I is the compression index of the 2:4-sparse A (Src2 of the SWMMAC): for "
                f"each of the {m} x {k // 2} stored A values a 2-bit field saying which of its "
                "group's 4 logical k it is (logical k = 4*floor(c/2) + I[i,c]); " + pick + ".")
    elif op == "B":
        text = (f"B is dense, {k} x {n}: each stored A value meets the B row of its logical "
                "k (the one I names).")
    else:
        text = "C and D are the same VGPRs on a SWMMAC (D = A*B + D)."
    return f"{text} ({SPARSE_SOURCE})"


# -- colours -------------------------------------------------------------------------------------
def _hex(h: float, lightness: float, saturation: float) -> str:
    r, g, b = colorsys.hls_to_rgb(h % 1.0, lightness, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


# Lanes 0-15, 16-31, 32-47, 48-63 (the 16-lane rows the layouts are built from) get the same
# hue at four shades, so both "which lane" and "which group of 16" read off the colour.
_SHADES = ((0.82, 0.62), (0.70, 0.70), (0.60, 0.62), (0.50, 0.55))


@cache
def lane_colors(wave_size: int) -> tuple[str, ...]:
    """A colour per lane: hue by lane % 16, shade by lane // 16 (light text stays readable)."""
    return tuple(_hex((lane % 16) / 16, *_SHADES[(lane // 16) % 4]) for lane in range(wave_size))


@cache
def reg_colors(regs: int, elems_per_reg: int) -> tuple[str, ...]:
    """A colour per register slot ``reg * elems_per_reg + elem``: hue by register, shade by
    sub-element."""
    out = []
    for reg in range(regs):
        for e in range(elems_per_reg):
            shade = 0.80 - 0.30 * e / max(1, elems_per_reg - 1) if elems_per_reg > 1 else 0.70
            out.append(_hex(reg / max(regs, 1) * 0.85, shade, 0.65))
    return tuple(out)


@cache
def position_colors(rows: int, cols: int) -> tuple[str, ...]:
    """A colour per matrix position ``row * cols + col``: hue by row, shade by column."""
    return tuple(_hex(r / max(rows, 1) * 0.85, 0.82 - 0.32 * c / max(cols - 1, 1), 0.65)
                 for r in range(rows) for c in range(cols))


UNUSED_COLOR = "#e4e4e4"


def facts(ins: MatrixInstruction) -> list[tuple[str, str]]:
    """(label, value) lines about ``ins`` that every explorer view shows: shape, types, VGPRs
    per operand, cycles and FLOPs (FLOPs = 2·M·N·K·blocks; cycles per wave on one SIMD)."""
    blocks = f" x {ins.blocks} blocks" if ins.blocks > 1 else ""
    regs = ", ".join(f"{k} {v}" for k, v in ins.vgprs.items())
    out = [("shape", f"{ins.m}x{ins.n}x{ins.k}{blocks}, wave{ins.wave_size}"),
           ("types", f"{ins.a_type} x {ins.b_type} + {ins.c_type} -> {ins.d_type}"),
           ("VGPRs per lane", regs)]
    if ins.cycles:
        out.append(("cycles", f"{ins.cycles} ({ins.timing_source})"))
        out.append(("FLOPs", f"{ins.flops} per instruction, {ins.flops // ins.cycles} per cycle "
                             "per SIMD"))
    else:
        out.append(("FLOPs", f"{ins.flops} per instruction (cycles unknown)"))
    if ins.sparse:
        sets = index_sets(ins)
        out.append(("sparsity", f"A 2:4 structured: stored {ins.m}x{ins.k // 2} of the logical "
                                f"{ins.m}x{ins.k}; index operand I, {sets} index "
                                f"set{'s' if sets > 1 else ''} (index_key)"))
    out.append(("builtin", ins.builtin))
    return out


def lane_words(p: Placement, lane: int) -> str:
    """``lane 5: v0 = A[5,0] A[5,1] | v1 = ...``: what one lane's registers hold (for the
    index operand I per bit field: ``v0[1:0] = I[5,0] | v0[3:2] = ...``)."""
    name = p.operand
    if name == INDEX:
        fields = [f"v{reg}[{e * p.bits + p.bits - 1}:{e * p.bits}] = I[{r},{c}]"
                  for reg, e, _b, r, c in p.lane_elements(lane)]
        return f"lane {lane}: " + (" | ".join(fields) if fields else "no element of I")
    by_reg: dict[int, list[str]] = {}
    for reg, _elem, b, r, c in p.lane_elements(lane):
        blk = f"b{b}:" if p.ins.blocks > 1 else ""
        by_reg.setdefault(reg, []).append(f"{name}[{blk}{r},{c}]")
    if not by_reg:
        return f"lane {lane}: no element of {name}"
    pair = p.bits == 64  # a 64-bit element fills registers reg and reg+1
    parts = [f"v{reg}{f':{reg + 1}' if pair else ''} = {' '.join(els)}"
             for reg, els in sorted(by_reg.items())]
    return f"lane {lane}: " + " | ".join(parts)
