"""`Layout`: where every element of one MFMA/WMMA operand lives in the wave's registers.

A Layout wraps one placement formula (``workbench.layouts.formulas``) and derives every view
from it once: per-element numpy tables, the inverse slot table, point queries in both
directions and a printable ``lane.reg`` matrix.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, NamedTuple, Protocol

import numpy as np

from ..display import Displayable
from ..errors import ArgumentValueError

__all__ = ["Layout", "Location", "Placer"]

OPERANDS = ("A", "B", "C", "D")
INDEX = "I"  # the compression-index operand of a sparse (RDNA4 SWMMAC) instruction


class Placer(Protocol):
    """A formula object from ``workbench.layouts.formulas``."""

    bits: int
    wave_size: int
    replicas: int

    def place(self, b, i, k): ...


class Location(NamedTuple):
    """One register slot holding a matrix element: bits ``bit_lo..bit_hi`` of VGPR ``reg``
    (offset from the operand's base register) in ``lane``. For 64-bit elements ``reg`` is the
    low register of the pair and ``bit_hi`` is 63; a packed 6-bit element (gfx950 fp6) may also
    run past bit 31 into ``reg + 1`` (e.g. bits 30..35)."""

    lane: int
    reg: int
    bit_lo: int
    bit_hi: int


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a



def index_names(operand: str) -> tuple[str, str]:
    """Index names of an operand's rows and columns: A is (i, k), B (k, j), C/D (i, j); the
    compression index of a sparse A is indexed like the stored A, (i, k)."""
    return {"A": ("i", "k"), "B": ("k", "j"), INDEX: ("i", "k")}.get(operand.upper(), ("i", "j"))

class Layout(Displayable):
    """The register layout of one operand (A, B, C or D) of one matrix instruction.

    Coordinates are ``(block, row, col)``: A is [blocks, M, K] (row i, col k), B is
    [blocks, K, N] (row k, col j), C/D are [blocks, M, N]. A register slot is
    ``(lane, reg, elem)``: VGPR offset ``reg`` from the operand's base register, and ``elem``
    the sub-element inside the 32-bit lane value (0..1 for 16-bit, 0..3 for 8-bit, 0..7 for
    4-bit types, always 0 for 32/64-bit). A 64-bit element occupies registers ``reg`` and
    ``reg+1``; both slots map back to it.
    """

    def __init__(self, operand: str, placer: Placer, shape: tuple[int, int, int], *,
                 dtype: str, instruction: str = "", arch: str = "", matrix: Any = None,
                 opsel: int = 0) -> None:
        if operand not in (*OPERANDS, INDEX):
            raise ArgumentValueError(f"operand must be one of {OPERANDS}, got {operand!r}")
        self.operand = operand
        self.placer = placer
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        self.instruction = instruction
        self.arch = arch
        self.matrix = matrix  # the MatrixInstruction (Jupyter shows its layout explorer)
        self.opsel = opsel  # the OPSEL that selected this layout (RDNA3 16-bit C/D halves)
        self.bits = placer.bits
        self.wave_size = placer.wave_size
        self.replicas = placer.replicas
        # elements that start in one 32-bit register: 32/bits, or ceil(32/6) = 6 for packed 6-bit
        self.elems_per_reg = max(1, -(-32 // self.bits))

    # -- the formula evaluated over the whole matrix -------------------------------------------
    @cached_property
    def _placed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b, r, c = np.indices(self.shape)
        if self.operand == "B":  # formulas take (block, outer index j, k)
            lanes, reg, elem = self.placer.place(b, c, r)
        else:
            lanes, reg, elem = self.placer.place(b, r, c)
        lanes = np.broadcast_to(lanes, (self.replicas, *self.shape)).astype(np.int32)
        reg = np.broadcast_to(reg, self.shape).astype(np.int32)
        elem = np.broadcast_to(elem, self.shape).astype(np.int32)
        return _readonly(lanes.copy()), _readonly(reg.copy()), _readonly(elem.copy())

    @property
    def blocks(self) -> int:
        return self.shape[0]

    @property
    def rows(self) -> int:
        return self.shape[1]

    @property
    def cols(self) -> int:
        return self.shape[2]

    @cached_property
    def regs(self) -> int:
        """VGPRs the operand occupies (up to the register holding its highest element bit: a
        64-bit element counts its whole register pair)."""
        last = 32 * self._placed[1] + self.bit_table() + self.bits - 1
        return int(last.max()) // 32 + 1

    def lane_table(self, replica: int = 0) -> np.ndarray:
        """[blocks, rows, cols] lane of each element (replica 0 = first location)."""
        if not 0 <= replica < self.replicas:
            raise ArgumentValueError(f"replica must be in 0..{self.replicas - 1}, got {replica}")
        return self._placed[0][replica]

    def all_lanes_table(self) -> np.ndarray:
        """[replicas, blocks, rows, cols] every lane that holds each element."""
        return self._placed[0]

    def reg_table(self) -> np.ndarray:
        """[blocks, rows, cols] VGPR offset of each element."""
        return self._placed[1]

    def elem_table(self) -> np.ndarray:
        """[blocks, rows, cols] sub-element index of each element inside its 32-bit slot."""
        return self._placed[2]

    def bit_table(self) -> np.ndarray:
        """[blocks, rows, cols] lowest bit of each element inside its lane's register ``reg``
        (``elem*bits`` for 4/8/16-bit types; for packed 6-bit ones the bit where the element
        starts, which may run on into ``reg + 1``: see ``formulas._slot_to_reg``)."""
        return self._bit_table

    @cached_property
    def _bit_table(self) -> np.ndarray:
        reg, elem = self._placed[1], self._placed[2]
        if self.bits >= 32:
            return _readonly(np.zeros_like(elem))
        first = -(-(32 * reg) // self.bits)  # first element that starts in register reg
        return _readonly((self.bits * (first + elem) - 32 * reg).astype(np.int32))

    @cached_property
    def _element_table(self) -> np.ndarray:
        table = np.full((self.wave_size, self.regs, self.elems_per_reg, 3), -1, dtype=np.int32)
        coords = np.stack(np.indices(self.shape), axis=-1)
        lanes, reg, elem = self._placed
        for rep in range(self.replicas):
            table[lanes[rep], reg, elem] = coords
            if self.bits == 64:
                table[lanes[rep], reg + 1, elem] = coords
        return _readonly(table)

    def element_table(self) -> np.ndarray:
        """[lanes, regs, elems_per_reg, 3] (block, row, col) held by each slot, -1 if unused."""
        return self._element_table

    # -- point queries ---------------------------------------------------------------------------
    def _check(self, what: str, value: int, limit: int) -> int:
        if not isinstance(value, (int, np.integer)) or not 0 <= value < limit:
            raise ArgumentValueError(
                f"{self._name()}: {what}={value!r} out of range 0..{limit - 1}")
        return int(value)

    def location(self, block: int, row: int, col: int) -> list[Location]:
        """Every register slot that holds element (block, row, col); RDNA3 A/B give several."""
        b = self._check("block", block, self.blocks)
        r = self._check("row", row, self.rows)
        c = self._check("col", col, self.cols)
        lanes, reg, _elem = self._placed
        lo = int(self.bit_table()[b, r, c])
        return [Location(int(lanes[rep, b, r, c]), int(reg[b, r, c]), lo, lo + self.bits - 1)
                for rep in range(self.replicas)]

    def coords(self, lane: int, reg: int, elem: int = 0) -> tuple[int, int, int] | None:
        """The (block, row, col) held by register slot (lane, reg, elem), or None if unused."""
        self._check("lane", lane, self.wave_size)
        self._check("reg", reg, self.regs)
        self._check("elem", elem, self.elems_per_reg)
        b, r, c = (int(x) for x in self._element_table[lane, reg, elem])
        return None if b < 0 else (b, r, c)

    # -- printing --------------------------------------------------------------------------------
    def _name(self) -> str:
        what = f"{self.instruction} " if self.instruction else ""
        where = f" on {self.arch}" if self.arch else ""
        return f"{what}{self.operand}{where}"

    def _dims(self) -> tuple[str, str]:
        return index_names(self.operand)

    def summary(self) -> str:
        blocks = f"{self.blocks} blocks of " if self.blocks > 1 else ""
        rep = f", each element in {self.replicas} lanes" if self.replicas > 1 else ""
        return (f"{self._name()} (wave{self.wave_size}): {blocks}{self.rows}x{self.cols} "
                f"{self.dtype}, {self.regs} VGPRs{rep}")

    def __repr__(self) -> str:  # the matrix itself: a Layout is a value to print (notebooks)
        return str(self)

    def __str__(self) -> str:
        fmt = "lane.reg.elem" if self.elems_per_reg > 1 else "lane.reg"
        lanes, reg, elem = self._placed
        head = [self.summary(), f"entries are {fmt}"
                + (" (first copy; copies at lane +16·n)" if self.replicas > 1 else "")]
        return "\n".join(head + self.grid_lines(lanes[0], reg, elem))

    def grid_lines(self, lane: np.ndarray, reg: np.ndarray, elem: np.ndarray) -> list[str]:
        """Slots [blocks, rows, cols] of this operand as ``lane.reg[.elem]`` tables, one per
        block: the matrix ``print(layout)`` shows, for these or any other (remapped) slots."""
        cells = np.char.add(np.char.add(lane.astype(str), "."), reg.astype(str))
        if self.elems_per_reg > 1:
            cells = np.char.add(np.char.add(cells, "."), elem.astype(str))
        width = max(int(np.char.str_len(cells).max()), len(str(self.cols - 1)))
        rname, cname = self._dims()
        rw = max(len(rname) + 1 + len(str(self.rows - 1)), 3)
        lines = []
        for b in range(self.blocks):
            if self.blocks > 1:
                lines.append(f"block {b}:")
            head = f"{rname}\\{cname}".rjust(rw) + " " + " ".join(
                str(c).rjust(width) for c in range(self.cols))
            lines.append(head)
            for r in range(self.rows):
                lines.append(f"{r}".rjust(rw) + " " + " ".join(
                    cells[b, r, c].rjust(width) for c in range(self.cols)))
        return lines
