"""What the layout explorer draws, as numpy tables: one row per (element, register slot) pair.

Why a module of its own: the static HTML, the text and the live bokeh views all draw the same
rows, and the live widget must rebuild them within an interaction (<= 100 ms), so they are
computed once per (instruction, operand, modifiers) and cached. Every number comes from the
catalog (``MatrixInstruction.gather_index`` / ``Layout``); this module only arranges it.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..errors import ArgumentValueError
from ..layouts import MatrixInstruction

__all__ = ["Modifiers", "Placement", "legal_modifiers", "matrix_text", "placement",
           "lane_colors", "reg_colors", "position_colors"]


@dataclass(frozen=True)
class Modifiers:
    """The instruction modifiers that change where operands are read (all 0 = none).

    CBSZ/ABID and BLGP are the CDNA VOP3P-MAI fields (README of AMD's matrix instruction calculator,
    ROCm/amd_matrix_instruction_calculator); OPSEL bit 2 picks the
    high halves of RDNA3 16-bit C/D registers (same README)."""

    cbsz: int = 0
    abid: int = 0
    blgp: int = 0
    opsel: int = 0

    def any(self) -> bool:
        return bool(self.cbsz or self.abid or self.blgp or self.opsel)

    def words(self) -> str:
        """``cbsz=1 abid=0`` for the non-zero fields (empty when none)."""
        return " ".join(f"{k}={v}" for k, v in self.__dict__.items() if v)


def legal_modifiers(ins: MatrixInstruction, operand: str, cbsz: int = 0
                    ) -> dict[str, tuple[int, ...]]:
    """The values each modifier may take for ``operand`` of ``ins`` (absent = not applicable).

    CBSZ/ABID exist on multi-block CDNA MFMAs and change which A block feeds each block
    (legal: CBSZ <= log2(blocks), ABID < 2**CBSZ); BLGP permutes B lanes on CDNA (or, on CDNA3
    f64, negates A/B/C); OPSEL selects the C/D halves of RDNA3 16-bit-output WMMA
    (the calculator's README; legality as ``MatrixInstruction.check_modifiers``)."""
    op = operand.upper()
    out: dict[str, tuple[int, ...]] = {}
    if ins.cbsz_abid and op == "A":
        out["cbsz"] = tuple(range(ins.blocks.bit_length()))
        out["abid"] = tuple(range(1 << cbsz))
    if (ins.blgp == "lanes" and op == "B") or ins.blgp == "negate":
        out["blgp"] = tuple(range(8))
    if ins.cd_opsel and op in ("C", "D"):
        out["opsel"] = (0, 4)
    return out


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
    """The (element, slot) rows of ``operand`` under ``mods`` (cached per arguments)."""
    op = operand.upper() if isinstance(operand, str) else operand
    if op not in ("A", "B", "C", "D"):
        raise ArgumentValueError(f"operand must be one of 'A', 'B', 'C', 'D', got {operand!r}")
    check(ins, op, mods)
    return _placement(ins, op, mods)


@cache
def _placement(ins: MatrixInstruction, op: str, mods: Modifiers) -> Placement:
    lay = ins.layout(op, opsel=mods.opsel)
    gathers = [ins.gather_index(op, cbsz=mods.cbsz, abid=mods.abid, blgp=mods.blgp,
                                opsel=mods.opsel, replica=r) for r in range(lay.replicas)]
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
    format of ``print(layout)``; with no modifiers it is the catalog's own printed matrix."""
    lay = p.ins.layout(p.operand, opsel=p.mods.opsel)
    if not remaps(p):
        return str(lay)
    first = p.used & (p.replica == 0)
    lane, reg, elem = (x[first].reshape(lay.shape) for x in (p.lane, p.reg, p.elem))
    fmt = "lane.reg.elem" if lay.elems_per_reg > 1 else "lane.reg"
    head = [lay.summary(), f"modifiers {p.mods.words()}: entries are the {fmt} each element "
            "is read from"]
    return "\n".join(head + lay.grid_lines(lane, reg, elem))


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
    out.append(("builtin", ins.builtin))
    return out


def lane_words(p: Placement, lane: int) -> str:
    """``lane 5: v0 = A[5,0] A[5,1] | v1 = ...``: what one lane's registers hold."""
    name = p.operand
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
