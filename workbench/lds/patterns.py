"""Per-lane LDS access generators over a SharedTile: rows, columns, any lane->element map, and
the operand loads of an MFMA/WMMA instruction (lane formulas from ``workbench.layouts``).

Why: comparing tile layouts (padding, swizzles) for a given access needs only the addresses
each lane would use; these build them and run the same analysis as ``analyze``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .. import arch as _arch
from ..argument_types import checked
from ..errors import ArgumentIndexError, ArgumentValueError
from .analysis import Access, analyze
from .instructions import DsInstruction, ds_instruction
from .tile import SharedTile

__all__ = ["AccessGroup", "column_access", "mfma_operand_reads", "pattern", "row_access"]


class AccessGroup(Sequence[Access]):
    """The instructions one logical access needs (e.g. an MFMA operand read with ds_read_b64
    when each lane holds 16 bytes), with totals over them."""

    def __init__(self, accesses: Sequence[Access], label: str = "") -> None:
        if not accesses:
            raise ArgumentValueError("AccessGroup needs at least one Access")
        self._items = tuple(accesses)
        self.label = label

    def __getitem__(self, i):
        return self._items[i]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Access]:
        return iter(self._items)

    @property
    def conflict_cycles(self) -> int:
        return sum(a.conflict_cycles for a in self._items)

    @property
    def cycles(self) -> int:
        return sum(a.cycles for a in self._items)

    @property
    def ideal_cycles(self) -> int:
        return sum(a.ideal_cycles for a in self._items)

    @property
    def max_degree(self) -> int:
        return max(a.max_degree for a in self._items)

    @property
    def is_conflict_free(self) -> bool:
        return all(a.is_conflict_free for a in self._items)

    def summary(self) -> str:
        """Totals, then each instruction's summary."""
        head = f"{self.label}: " if self.label else ""
        verdict = "conflict-free" if self.is_conflict_free else f"{self.max_degree}-way worst phase"
        lines = [f"{head}{len(self)} x {self._items[0].instruction}: {verdict}; conflict cycles "
                 f"{self.conflict_cycles}, cycles {self.cycles} (ideal {self.ideal_cycles})"]
        for i, a in enumerate(self._items):
            lines.append(f"[{i}] " + a.summary().replace("\n", "\n    "))
        return "\n".join(lines)

    def __repr__(self) -> str:
        parts = [self.summary().split("\n", 1)[0]]
        for i, a in enumerate(self._items):
            parts.append(f"--- [{i}]\n{a!r}")
        return "\n".join(parts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AccessGroup):
            return NotImplemented
        return self._items == other._items

    __hash__ = None


def _op(instruction: str | DsInstruction) -> DsInstruction:
    op = instruction if isinstance(instruction, DsInstruction) else ds_instruction(instruction)
    if not op.touches_banks:
        raise ArgumentValueError(
            f"{op.name} does not address LDS memory; access patterns need a load, "
            "store or atomic")
    return op


def _lanes(arch: str, lanes: int | None) -> int:
    a = _arch.get(arch)
    n = a.default_wave_size if lanes is None else int(lanes)
    if n not in a.wave_sizes:
        raise ArgumentValueError(f"lanes={n} is not a wave size of {a.name} "
                                 f"(supported: {', '.join(map(str, a.wave_sizes))})")
    return n


def _elements_per_access(tile: SharedTile, op: DsInstruction) -> int:
    """Columns one lane's access covers (at least 1: a narrow access reads part of an element)."""
    return max(1, -(-op.size // tile.elem_bytes))


def _element_addresses(tile: SharedTile, rows: np.ndarray, cols: np.ndarray, active: np.ndarray,
                       op: DsInstruction, what: str) -> np.ndarray:
    """Start address per lane; checks that each lane's access is contiguous in the tile."""
    lanes = rows.shape[0]
    per = _elements_per_access(tile, op)
    addr = np.zeros(lanes, dtype=np.int64)
    for lane in np.flatnonzero(active):
        r, c = int(rows[lane]), int(cols[lane])
        if not (0 <= r < tile.rows and 0 <= c and c + per <= tile.cols):
            raise ArgumentIndexError(
                f"{what}: lane {lane} would access row {r}, cols {c}..{c + per - 1}"
                f" of {tile!r} with {op.name} ({op.size} B = {per} element(s))")
    act = np.flatnonzero(active)
    if act.size == 0:
        return addr
    start = np.asarray(tile.address(rows[act], cols[act]), dtype=np.int64)
    for t in range(1, per):
        nxt = np.asarray(tile.address(rows[act], cols[act] + t), dtype=np.int64)
        bad = nxt != start + t * tile.elem_bytes
        if bad.any():
            lane = int(act[np.flatnonzero(bad)[0]])
            raise ArgumentValueError(
                f"{what}: lane {lane}'s {op.name} needs elements ({rows[lane]}, "
                f"{cols[lane]})..({rows[lane]}, {cols[lane] + per - 1}) contiguous, "
                f"but {tile!r} puts them apart (a swizzle chunk boundary?)")
    addr[act] = start
    return addr


def pattern(tile: SharedTile, fn: Callable[[int], object], instruction="ds_read_b32",
            arch: str = "gfx942", *, lanes: int | None = None, label: str = "") -> Access:
    """Analyse an access where lane ``i`` touches element ``fn(i) = (row, col)`` of ``tile``.

    ``fn`` returns None for a lane that does not take part (EXEC off). For READ2/WRITE2 forms it
    returns two (row, col) pairs. A lane's access starts at that element and must be contiguous
    in the tile for the instruction's width.
    """
    op = _op(instruction)
    n = _lanes(arch, lanes)
    k = op.addresses
    rows = np.zeros((n, k), dtype=np.int64)
    cols = np.zeros((n, k), dtype=np.int64)
    active = np.zeros(n, dtype=bool)
    for lane in range(n):
        got = fn(lane)
        if got is None:
            continue
        pairs = got if k == 2 else (got,)
        try:
            if len(pairs) != k or any(len(p) != 2 for p in pairs):
                raise TypeError
            for j, (r, c) in enumerate(pairs):
                rows[lane, j], cols[lane, j] = int(r), int(c)
        except (TypeError, ValueError):
            want = "((row, col), (row, col))" if k == 2 else "(row, col)"
            raise ArgumentValueError(
                f"pattern for {op.name}: fn({lane}) returned {got!r}, expected "
                f"{want} or None") from None
        active[lane] = True
    what = label or f"pattern on {tile!r}"
    addr = np.stack([_element_addresses(tile, rows[:, j], cols[:, j], active, op, what)
                     for j in range(k)], axis=-1)
    return analyze(addr if k == 2 else addr[:, 0], active, op, arch, label=label)


@checked
def row_access(tile: SharedTile, row: int, instruction="ds_read_b32", arch: str = "gfx942", *,
               col: int = 0, lanes: int | None = None, label: str = "") -> Access:
    """Lanes read consecutive elements along a row: lane ``i`` starts at flat index
    ``col + i*w`` (``w`` = elements per access), continuing into the next rows when one row is
    not enough for the wave."""
    op = _op(instruction)
    if op.addresses != 1:
        raise ArgumentValueError(f"row_access takes single-address instructions, not {op.name}")
    w = _elements_per_access(tile, op)

    def fn(lane: int):
        flat = col + lane * w
        return (row + flat // tile.cols, flat % tile.cols)

    return pattern(tile, fn, op, arch, lanes=lanes, label=label or f"row {row} of {tile!r}")


@checked
def column_access(tile: SharedTile, col: int, instruction="ds_read_b32", arch: str = "gfx942",
                  *, row: int = 0, lanes: int | None = None, label: str = "") -> Access:
    """Transpose-style read: lane ``i`` reads element ``(row + i, col)``; when the wave is longer
    than the tile, lanes continue at the top of the next column (group)."""
    op = _op(instruction)
    if op.addresses != 1:
        raise ArgumentValueError(f"column_access takes single-address instructions, not {op.name}")
    w = _elements_per_access(tile, op)

    def fn(lane: int):
        flat = row + lane
        return (flat % tile.rows, col + (flat // tile.rows) * w)

    return pattern(tile, fn, op, arch, lanes=lanes, label=label or f"column {col} of {tile!r}")


@checked
def mfma_operand_reads(instr: str = "v_mfma_f32_16x16x16_bf16", operand: str = "A",
                       tile: SharedTile | None = None, instruction="ds_read_b64",
                       arch: str = "gfx942", *, origin: tuple[int, int] = (0, 0),
                       transpose: bool = False, wave_size: int | None = None,
                       label: str = "") -> AccessGroup:
    """The LDS accesses that fill one operand of a matrix instruction from ``tile``.

    Lane formulas come from ``workbench.layouts``. Storage: by default the operand sits in the
    tile "K-contiguous" - A as [M rows, K cols], B as [N rows, K cols] (C/D as [M, N]) - with
    blocks stacked along the rows, at ``origin`` = (row, col) of the tile; ``transpose=True``
    swaps rows and columns. Each lane's registers are filled in order, ``instruction`` bytes at a
    time, so an operand of 16 B per lane read with ds_read_b64 gives an AccessGroup of 2.
    Stores (e.g. ``operand="D", instruction="ds_write_b32"``) work the same way.
    """
    from .. import layouts  # the one source of lane formulas

    op = _op(instruction)
    if op.addresses != 1:
        raise ArgumentValueError(
            f"mfma_operand_reads takes single-address instructions, not {op.name}")
    if tile is None:
        raise ArgumentValueError("mfma_operand_reads needs the SharedTile the operand is read from")
    ins = layouts.get(instr, arch, wave_size=wave_size)
    lay = ins.layout(operand)
    name = f"{ins.name} {lay.operand}"
    if lay.bits % 8:
        raise ArgumentValueError(f"{name}: {lay.bits}-bit elements are not byte-addressable in a "
                                 "SharedTile")
    if lay.bits // 8 != tile.elem_bytes:
        raise ArgumentValueError(
            f"{name} has {lay.bits // 8}-byte {lay.dtype} elements but {tile!r} "
            f"holds {tile.elem_bytes}-byte elements")
    per = op.size // tile.elem_bytes
    if per < 1 or op.size % tile.elem_bytes:
        raise ArgumentValueError(f"{name}: {op.name} moves {op.size} B, not a whole number of "
                                 f"{tile.elem_bytes}-byte elements")
    table = lay.element_table()  # [lanes, regs, elems_per_reg, 3]
    wave = table.shape[0]
    step = 2 if lay.bits == 64 else 1  # a 64-bit element fills a register pair
    slots = table[:, ::step].reshape(wave, -1, 3)  # per lane, elements in register order
    n_el = slots.shape[1]
    if n_el % per:
        raise ArgumentValueError(f"{name}: each lane holds {n_el} elements, not a multiple of the "
                                 f"{per} that one {op.name} moves")
    blk, r, c = slots[..., 0], slots[..., 1], slots[..., 2]
    outer = lay.rows if lay.operand != "B" else lay.cols  # M (A, C, D) or N (B)
    if lay.operand == "B":  # B is [K, N]: store K-contiguous as [N rows, K cols]
        trow, tcol = blk * outer + c, r
    else:
        trow, tcol = blk * outer + r, c
    if transpose:
        trow, tcol = tcol, trow
    trow = trow + origin[0]
    tcol = tcol + origin[1]
    used = blk >= 0
    parts = []
    for p in range(n_el // per):
        sl = slice(p * per, (p + 1) * per)
        u = used[:, sl]
        active = u.all(axis=1)
        partial = u.any(axis=1) & ~active
        if partial.any():
            lane = int(np.flatnonzero(partial)[0])
            raise ArgumentValueError(f"{name}: lane {lane} has unused register slots inside "
                                     f"{op.name} #{p}")
        first_r, first_c = trow[:, p * per], tcol[:, p * per]
        # every element of the access must follow the first one along the tile row
        for t in range(1, per):
            ok = (trow[:, p * per + t] == first_r) & (tcol[:, p * per + t] == first_c + t)
            bad = active & ~ok
            if bad.any():
                lane = int(np.flatnonzero(bad)[0])
                raise ArgumentValueError(
                    f"{name}: lane {lane}'s {op.name} #{p} needs tile elements "
                    f"({first_r[lane]}, {first_c[lane]}) and ({trow[lane, p * per + t]}, "
                    f"{tcol[lane, p * per + t]}) side by side, but they are not adjacent in "
                    f"this storage{' (transpose=True)' if transpose else ''}; use a narrower "
                    "instruction or the other storage order")
        lab = label or f"{name} from {tile!r}"
        if n_el // per > 1:
            lab += f" [{op.name} #{p}]"
        rows_p = np.where(active, first_r, 0)
        cols_p = np.where(active, first_c, 0)
        addr = _element_addresses(tile, rows_p, cols_p, active, op, lab)
        parts.append(analyze(addr, active, op, arch, label=lab))
    return AccessGroup(parts, label=label or f"{name} from {tile!r}")
