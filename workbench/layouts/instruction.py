"""`MatrixInstruction`: one MFMA/WMMA/SWMMAC instruction on one arch, its operand layouts,
modifiers and the vectorised gather/scatter indices an emulator uses to execute it.

Modifier semantics (the AMD Matrix Instruction Calculator's README, CALC-README; CALC in
docs/sources.md):
  CBSZ/ABID  (CDNA multi-block ops): block ``b`` of A is read from block
             ``(b >> CBSZ << CBSZ) + ABID``; legal CBSZ <= log2(blocks), ABID < 2**CBSZ.
  BLGP       (CDNA, B operand): logical lane ``L`` reads physical lane
             0: L; 1: L mod 32; 2: L mod 32 + 32; 3: (L + 16) mod 64; 4..7: 16*(BLGP-4) + L mod 16.
             On CDNA3 f64 MFMAs BLGP is a negate mask instead: bit0 A, bit1 B, bit2 C.
  OPSEL      (RDNA3 16-bit-output WMMA): bit 2 selects the high halves of C/D registers.
  CBSZ/BLGP  on the gfx950 f8f6f4 MFMAs (``formats`` non-empty) select the A / B element format
             instead: 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3, 3 bf6 E3M2, 4 fp4 E2M1 (ROCDL-TEST:
             MLIR rocdl.mlir format codes; llvm-objdump prints ``cbsz:2 blgp:4``);
             ``with_formats(cbsz, blgp)`` is the entry for one selection.
  OPSEL      (RDNA4 SWMMAC, printed ``index_key:N``): picks the compression-index set of the
             index VGPR (``layout("I", index_key=N)``).

Sparse instructions (RDNA4 ``v_swmmac_*``, ``sparse``): A is M x K with 2:4 structured sparsity
and is stored compressed, M x K/2 (operand ``"A"`` is that stored matrix); the index operand
``"I"`` (Src2) holds per stored element the 2-bit position of its value inside its group of 4
k, and C/D share the destination registers (D += A·B; formulas.py, "RDNA4 sparse WMMA").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import NamedTuple

import numpy as np

from ..display import Displayable
from ..errors import ArgumentValueError
from .layout import INDEX, OPERANDS, Layout, Location, Placer

__all__ = ["GatherIndex", "MatrixInstruction", "blgp_lane", "spans_registers"]


class GatherIndex(NamedTuple):
    """Where each element of an operand is read from / written to: int32 arrays of shape
    [blocks, rows, cols]. ``shift`` = ``elem * bits`` (bit offset inside the lane's register);
    for 64-bit elements the value spans ``reg`` (low) and ``reg + 1`` (high)."""

    lane: np.ndarray
    reg: np.ndarray
    elem: np.ndarray
    shift: np.ndarray
    bits: int


def blgp_lane(lane, blgp: int):
    """Physical lane read for logical B lane ``lane`` under BLGP (CALC-README)."""
    lane = np.asarray(lane)
    if blgp == 0:
        return lane
    if blgp == 1:
        return lane % 32
    if blgp == 2:
        return lane % 32 + 32
    if blgp == 3:
        return (lane + 16) % 64
    if 4 <= blgp <= 7:
        return 16 * (blgp - 4) + lane % 16
    raise ArgumentValueError(f"blgp must be in 0..7, got {blgp!r}")


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.int32)
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class MatrixInstruction(Displayable):
    """A dense matrix instruction (``D = A·B + C`` per block) on one arch and wave size."""

    name: str  # the mnemonic LLVM 19 prints for this arch
    arch: str
    family: str  # calculator ISA family: cdna2 | cdna3 | cdna4 | rdna3 | rdna4
    m: int
    n: int
    k: int
    blocks: int
    a_type: str
    b_type: str
    c_type: str
    d_type: str
    wave_size: int
    cycles: int | None  # per wave on one SIMD (CALC), or passes*4 (SCHED) where CALC has none
    passes: int | None  # LLVM scheduling-model passes (1 pass = 4 cycles), when known
    timing_source: str
    builtin: str  # clang builtin that emits this instruction
    builtin_types: tuple[str, str, str, str]  # C types of (result, A, B, C) for probe kernels
    builtin_form: str  # argument order: "mfma" | "wmma" | "wmma_opsel" | "wmma_int"
    a_placer: Placer = field(repr=False)
    b_placer: Placer = field(repr=False)
    cd_placer: Placer = field(repr=False)
    aliases: tuple[str, ...] = ()  # other spellings LLVM accepts for this arch
    cbsz_abid: bool = False
    blgp: str | None = None  # None | "lanes" | "negate" | "format" (f8f6f4: B format code)
    cd_opsel: bool = False
    min_llvm: int = 19  # first LLVM major whose clang has the builtin
    source: str = ""  # where the layout comes from
    formats: tuple[str, ...] = ()  # f8f6f4: element type per CBSZ (A) / BLGP (B) format code
    format_codes: tuple[int, int] = (0, 0)  # f8f6f4: the (CBSZ, BLGP) this entry stands for
    scaled: bool = False  # v_mfma_scale_*: A/B carry E8M0 block scales (scale_lane)
    passes_by_bits: tuple[int, int] | None = None  # f8f6f4 passes: (any 8-bit input, none)
    sparse: bool = False  # SWMMAC: A stored compressed (M x K/2), index operand "I"
    index_placer: Placer | None = field(default=None, repr=False)  # SWMMAC index formula

    # -- derived numbers -------------------------------------------------------------------------
    @property
    def flops(self) -> int:
        """Multiply-adds ×2 per instruction (all blocks)."""
        return 2 * self.m * self.n * self.k * self.blocks

    @property
    def operands(self) -> tuple[str, ...]:
        """'A', 'B', 'C', 'D', and 'I' (the compression index) for a sparse instruction."""
        return (*OPERANDS, INDEX) if self.sparse else OPERANDS

    @property
    def vgprs(self) -> dict[str, int]:
        """VGPRs per operand (C and D are the same size)."""
        return {op: self.layout(op).regs for op in self.operands}

    @property
    def A(self) -> Layout:
        return self.layout("A")

    @property
    def B(self) -> Layout:
        return self.layout("B")

    @property
    def C(self) -> Layout:
        return self.layout("C")

    @property
    def D(self) -> Layout:
        return self.layout("D")

    def shape(self, operand: str) -> tuple[int, int, int]:
        """[blocks, rows, cols] of an operand (a sparse A and its index: the stored M x K/2)."""
        op = _operand(operand, self)
        ka = self.k // 2 if self.sparse else self.k
        rows, cols = {"A": (self.m, ka), INDEX: (self.m, ka), "B": (self.k, self.n)}.get(
            op, (self.m, self.n))
        return (self.blocks, rows, cols)

    def dtype(self, operand: str) -> str:
        op = _operand(operand, self)
        return {"A": self.a_type, "B": self.b_type, "C": self.c_type, "D": self.d_type,
                INDEX: "u2"}[op]

    # -- layouts ---------------------------------------------------------------------------------
    def layout(self, operand: str, *, opsel: int = 0, index_key: int = 0) -> Layout:
        """The Layout of operand 'A', 'B', 'C' or 'D' (OPSEL only for RDNA3 16-bit C/D), or 'I',
        the compression index of a sparse instruction in index set ``index_key``."""
        op = _operand(operand, self)
        self._check_opsel(op, opsel)
        key = self._check_index_key(op, index_key)
        return _layout(self, op, bool(opsel & 4) and op in "CD", key)

    def _check_index_key(self, op: str, key: int) -> int:
        sets = self.index_placer.sets if self.index_placer is not None else 1
        if not isinstance(key, (int, np.integer)) or not 0 <= key < sets:
            raise ArgumentValueError(f"{self.name}: index_key must be in 0..{sets - 1}, "
                                     f"got {key!r}")
        return int(key) if op == INDEX else 0

    def _check_opsel(self, op: str, opsel: int) -> None:
        if not isinstance(opsel, int) or not 0 <= opsel <= 7:
            raise ArgumentValueError(f"{self.name}: opsel must be in 0..7, got {opsel!r}")
        if opsel and not self.cd_opsel:
            raise ArgumentValueError(f"{self.name} on {self.arch} has no OPSEL-selected C/D halves "
                                     "(only RDNA3 16-bit-output WMMA does)")

    # -- f8f6f4 format selection -----------------------------------------------------------------
    def with_formats(self, cbsz: int = 0, blgp: int = 0) -> MatrixInstruction:
        """This f8f6f4 MFMA with A in format ``cbsz`` and B in format ``blgp`` (types, layouts,
        register counts and passes follow; SCHED: 8-bit inputs on either side take the longer
        pass count). The result is a fixed selection: its ``formats`` is empty and
        ``format_codes`` says which one it is, so its layouts need no modifiers."""
        if not self.formats:
            raise ArgumentValueError(
                f"{self.name} on {self.arch} has no CBSZ/BLGP format selection"
                + (f" (this entry is the selection cbsz={self.format_codes[0]}, "
                   f"blgp={self.format_codes[1]})" if self.passes_by_bits else ""))
        self.check_modifiers(cbsz, 0, blgp)
        return _variant(self, int(cbsz), int(blgp))

    def scale_lane(self, operand: str) -> np.ndarray:
        """[blocks, rows, cols] lane whose E8M0 scale byte scales each A or B element of a
        ``v_mfma_scale_*`` op (with op_sel picking the byte in that lane's scale VGPR)."""
        op = _operand(operand)
        placer = self.a_placer if op == "A" else self.b_placer if op == "B" else None
        if not self.scaled or placer is None:
            raise ArgumentValueError(f"{self.name}: no block scales for operand {op}")
        b, r, c = np.indices(self.shape(op))
        lane = placer.scale_lane(r, c) if op == "A" else placer.scale_lane(c, r)
        return _ro(lane)

    # -- modifiers -------------------------------------------------------------------------------
    def check_modifiers(self, cbsz: int = 0, abid: int = 0, blgp: int = 0) -> None:
        """Raise ValueError naming the modifier if CBSZ/ABID/BLGP are illegal here."""
        for nm, v in (("cbsz", cbsz), ("abid", abid), ("blgp", blgp)):
            if not isinstance(v, (int, np.integer)) or v < 0:
                raise ArgumentValueError(f"{self.name}: {nm} must be a non-negative int, got {v!r}")
        if self.formats:
            for nm, v in (("cbsz", cbsz), ("blgp", blgp)):
                if v >= len(self.formats):
                    raise ArgumentValueError(f"{self.name}: {nm}={v} is not a format code; "
                                             + ", ".join(f"{i} = {t}" for i, t in
                                                         enumerate(self.formats)))
            if abid:
                raise ArgumentValueError(
                    f"{self.name}: abid={abid} (no A broadcast on f8f6f4 MFMAs)")
            return
        if (cbsz or abid) and not self.cbsz_abid:
            raise ArgumentValueError(f"{self.name} on {self.arch} does not support CBSZ/ABID "
                                     f"(cbsz={cbsz}, abid={abid})")
        max_cbsz = self.blocks.bit_length() - 1
        if cbsz > max_cbsz:
            raise ArgumentValueError(f"{self.name}: cbsz={cbsz} exceeds log2(blocks)={max_cbsz}")
        if abid >= 1 << cbsz:
            raise ArgumentValueError(f"{self.name}: abid={abid} must be < 2**cbsz={1 << cbsz}")
        if blgp and self.blgp is None:
            raise ArgumentValueError(
                f"{self.name} on {self.arch} does not support BLGP (blgp={blgp})")
        if blgp > 7:
            raise ArgumentValueError(f"{self.name}: blgp must be in 0..7, got {blgp}")

    def source_block(self, block: int, cbsz: int = 0, abid: int = 0) -> int:
        """The A block that feeds `block` under CBSZ/ABID."""
        self.check_modifiers(cbsz, abid, 0)
        if not 0 <= block < self.blocks:
            raise ArgumentValueError(
                f"{self.name}: block={block} out of range 0..{self.blocks - 1}")
        return ((block >> cbsz) << cbsz) + abid

    def negate_mask(self, blgp: int) -> tuple[bool, bool, bool]:
        """(negate A, negate B, negate C) that BLGP means on CDNA3 f64 MFMAs (CALC-README)."""
        self.check_modifiers(0, 0, blgp)
        if self.blgp != "negate":
            return (False, False, False)
        return (bool(blgp & 1), bool(blgp & 2), bool(blgp & 4))

    def effective_source(self, operand: str, block: int, row: int, col: int, *,
                         cbsz: int = 0, abid: int = 0, blgp: int = 0) -> Location:
        """The register slot the hardware reads for element (block,row,col) with modifiers."""
        if self.formats:
            return self.with_formats(cbsz, blgp).effective_source(operand, block, row, col)
        g = self.gather_index(operand, cbsz=cbsz, abid=abid, blgp=blgp)
        layout = self.layout(operand)
        layout.location(block, row, col)  # validates coordinates with a clear message
        lo = int(g.shift[block, row, col])
        return Location(int(g.lane[block, row, col]), int(g.reg[block, row, col]), lo,
                        lo + g.bits - 1)

    # -- vectorised gather / scatter ---------------------------------------------------------------
    def gather_index(self, operand: str, *, cbsz: int = 0, abid: int = 0, blgp: int = 0,
                     opsel: int = 0, replica: int = 0, index_key: int = 0) -> GatherIndex:
        """Cached int32 index arrays [blocks, rows, cols] to read (A, B, C) or write (D).

        ``replica`` picks which copy of a replicated RDNA3 A/B element to read (0..wave/16-1),
        so an emulator can check that a kernel filled every copy as the hardware requires;
        ``index_key`` the index set of a sparse instruction's operand 'I'."""
        op = _operand(operand, self)
        self.check_modifiers(cbsz, abid, blgp)
        self._check_opsel(op, opsel)
        key = self._check_index_key(op, index_key)
        if self.formats:  # CBSZ/BLGP choose formats: the gather of that format selection
            return _gather(self.with_formats(cbsz, blgp), op, 0, 0, 0, False, replica, 0)
        if (cbsz or abid) and op != "A":
            raise ArgumentValueError(f"{self.name}: CBSZ/ABID apply to operand A, not {op}")
        if blgp and self.blgp == "lanes" and op != "B":
            raise ArgumentValueError(
                f"{self.name}: BLGP lane patterns apply to operand B, not {op}")
        reps = self.layout(op).replicas
        if not isinstance(replica, int) or not 0 <= replica < reps:
            raise ArgumentValueError(f"{self.name}: replica={replica!r} out of range 0..{reps - 1} "
                                     f"for operand {op}")
        return _gather(self, op, cbsz, abid, blgp if self.blgp == "lanes" else 0,
                       bool(opsel & 4) and op in "CD", replica, key)

    def scatter_index(self, operand: str, *, opsel: int = 0) -> np.ndarray:
        """[lanes, regs, elems_per_reg, 3] inverse table: (block,row,col) per slot, -1 unused."""
        return self.layout(operand, opsel=opsel).element_table()

    def gather_bits(self, vgprs: np.ndarray, operand: str, **modifiers: int) -> np.ndarray:
        """Read an operand's raw element bits from ``vgprs`` [W, regs, lanes] (uint32, the
        operand's registers starting at its base VGPR) -> [W, blocks, rows, cols] right-aligned
        (uint32, or uint64 for 64-bit elements)."""
        g = self.gather_index(operand, **modifiers)
        v = _check_vgprs(self, vgprs, operand, g)
        if g.bits == 64:
            lo = v[:, g.reg, g.lane].astype(np.uint64)
            hi = v[:, g.reg + 1, g.lane].astype(np.uint64)
            return lo | (hi << np.uint64(32))
        words = v[:, g.reg, g.lane]
        if g.bits == 32:
            return words
        if spans_registers(g):  # packed 6-bit: an element may continue in the next register
            nxt = v[:, np.minimum(g.reg + 1, v.shape[1] - 1), g.lane]
            words = words.astype(np.uint64) | (nxt.astype(np.uint64) << np.uint64(32))
            out = (words >> g.shift.astype(np.uint64)) & np.uint64((1 << g.bits) - 1)
            return out.astype(np.uint32)
        return (words >> g.shift.astype(np.uint32)) & np.uint32((1 << g.bits) - 1)

    def scatter_bits(self, vgprs: np.ndarray, operand: str, values: np.ndarray, *,
                     opsel: int = 0, index_key: int = 0) -> None:
        """Write raw element bits ``values`` [W, blocks, rows, cols] into ``vgprs``
        [W, regs, lanes] (uint32, in place) at every location of each element (all RDNA3
        replicas); bits of a register outside the element are kept."""
        lay = self.layout(operand, opsel=opsel, index_key=index_key)
        g = self.gather_index(operand, opsel=opsel, index_key=index_key)
        v = _check_vgprs(self, vgprs, operand, g)
        want = (v.shape[0], *lay.shape)
        if np.shape(values) != want:
            raise ArgumentValueError(f"{self.name}: values for {operand} must have shape {want}, "
                                     f"got {np.shape(values)}")
        lanes, reg = lay.all_lanes_table(), lay.reg_table()
        if lay.bits == 64:
            vals = np.asarray(values, dtype=np.uint64)
            for ln in lanes:
                v[:, reg, ln] = (vals & np.uint64(0xFFFFFFFF)).astype(np.uint32)
                v[:, reg + 1, ln] = (vals >> np.uint64(32)).astype(np.uint32)
            return
        vals = np.asarray(values).astype(np.uint32)
        if lay.bits == 32:
            for ln in lanes:
                v[:, reg, ln] = vals
            return
        # Sub-dword: elements sharing a register word are merged one bit offset at a time; a
        # packed 6-bit element that runs past bit 31 puts its high bits into the next register.
        bits = lay.bits
        vals = vals & np.uint32((1 << bits) - 1)
        bit = lay.bit_table()
        for lo in np.unique(bit):
            sel = bit == lo
            lo = int(lo)
            n_lo = min(bits, 32 - lo)
            mask = np.uint32(((1 << n_lo) - 1) << lo)
            part = (vals[:, sel] << np.uint32(lo)) & mask
            for ln in lanes:
                r, lane = reg[sel], ln[sel]
                v[:, r, lane] = (v[:, r, lane] & ~mask) | part
                if n_lo < bits:
                    hmask = np.uint32((1 << (bits - n_lo)) - 1)
                    v[:, r + 1, lane] = (v[:, r + 1, lane] & ~hmask) | (
                        vals[:, sel] >> np.uint32(n_lo))

    def __str__(self) -> str:
        blk = f" x{self.blocks} blocks" if self.blocks > 1 else ""
        regs = ", ".join(f"{k}:{v}" for k, v in self.vgprs.items())
        cyc = f"{self.cycles} cycles" if self.cycles else "cycles unknown"
        return (f"{self.name} [{self.arch}, wave{self.wave_size}] {self.m}x{self.n}x{self.k}{blk}"
                f" {self.a_type}*{self.b_type}+{self.c_type}->{self.d_type}; VGPRs {regs}; "
                f"{cyc}; builtin {self.builtin}")


def spans_registers(g: GatherIndex) -> bool:
    """Whether some element of ``g`` continues past bit 31 into the next register (packed
    6-bit formats; 64-bit elements are register pairs and handled apart)."""
    return g.bits < 32 and bool((g.shift + g.bits > 32).any())


def _operand(operand: str, ins: MatrixInstruction | None = None) -> str:
    op = operand.upper() if isinstance(operand, str) else operand
    if op == INDEX and ins is not None and ins.sparse:
        return op
    if op not in OPERANDS:
        extra = ", 'I'" if ins is not None and ins.sparse else ""
        raise ArgumentValueError(f"operand must be one of 'A', 'B', 'C', 'D'{extra}, "
                                 f"got {operand!r}")
    return op


def _check_vgprs(ins: MatrixInstruction, vgprs, operand: str, g: GatherIndex) -> np.ndarray:
    v = vgprs
    if not isinstance(v, np.ndarray) or v.dtype != np.uint32 or v.ndim != 3:
        raise ArgumentValueError(f"{ins.name}: vgprs for {operand} must be a uint32 array "
                                 f"[waves, regs, lanes], got {getattr(v, 'dtype', type(v))} "
                                 f"{getattr(v, 'shape', '')}")
    need = ins.layout(operand).regs
    if v.shape[1] < need or v.shape[2] < ins.wave_size:
        raise ArgumentValueError(
            f"{ins.name}: operand {operand} needs [W, >={need}, >={ins.wave_size}]"
            f" registers, got {v.shape}")
    return v


@cache
def _variant(ins: MatrixInstruction, cbsz: int, blgp: int) -> MatrixInstruction:
    ta, tb = ins.formats[cbsz], ins.formats[blgp]
    pa = replace(ins.a_placer, bits=_format_bits(ta))
    pb = replace(ins.b_placer, bits=_format_bits(tb))
    passes = ins.passes
    if ins.passes_by_bits is not None:
        passes = ins.passes_by_bits[0 if 8 in (pa.bits, pb.bits) else 1]
    return replace(ins, a_type=ta, b_type=tb, a_placer=pa, b_placer=pb, format_codes=(cbsz, blgp),
                   passes=passes, cycles=None if passes is None else 4 * passes, formats=(),
                   blgp=None)


def _format_bits(t: str) -> int:
    """Element width of an f8f6f4 format name (float8_*, float6_*, float4_*)."""
    return int(t.removeprefix("float")[0])


@cache
def _layout(ins: MatrixInstruction, op: str, opsel_hi: bool, key: int = 0) -> Layout:
    placer = {"A": ins.a_placer, "B": ins.b_placer, INDEX: ins.index_placer}.get(op,
                                                                                 ins.cd_placer)
    if opsel_hi:
        placer = type(placer)(**{**placer.__dict__, "opsel_hi": True})
    if key:
        placer = replace(placer, key=key)
    return Layout(op, placer, ins.shape(op), dtype=ins.dtype(op), instruction=ins.name,
                  arch=ins.arch, matrix=ins, opsel=4 if opsel_hi else key)


@cache
def _gather(ins: MatrixInstruction, op: str, cbsz: int, abid: int, blgp: int,
            opsel_hi: bool, replica: int, key: int) -> GatherIndex:
    lay = _layout(ins, op, opsel_hi, key)
    lane, reg, elem = lay.lane_table(replica), lay.reg_table(), lay.elem_table()
    if op == "A" and (cbsz or abid):
        src = ((np.arange(ins.blocks) >> cbsz) << cbsz) + abid
        lane, reg, elem = lane[src], reg[src], elem[src]
    if op == "B" and blgp:
        lane = blgp_lane(lane, blgp)
    shift = lay.bit_table()
    if op == "A" and (cbsz or abid):
        shift = shift[src]
    return GatherIndex(_ro(lane), _ro(reg), _ro(elem), _ro(shift), lay.bits)
