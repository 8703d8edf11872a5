"""Lane/register formulas of MFMA (CDNA), WMMA (RDNA3/RDNA4) and SWMMAC (RDNA4 sparse) operands,
as small values.

Each class is a frozen record of a few integers with a vectorised ``place`` method that maps
matrix coordinates to register slots. ``place`` takes int arrays (broadcast together) and returns
``(lanes, reg, elem)``: ``lanes`` has a leading replica axis (RDNA3 keeps copies of A/B in
several lanes), ``reg`` is the register offset from the operand's base VGPR (for 64-bit elements
the low register of the pair), ``elem`` the sub-element inside the 32-bit register
(bits ``[elem*bits, elem*bits+bits-1]``).

Sources (tags as in docs/sources.md):
  CALC   ROCm/amd_matrix_instruction_calculator matrix_calculator.py v1.3.1 (commit e7603ec):
         ``InstCalcGfx9.__get_input_reg_lanes``/``__get_output_reg_lanes`` (CDNA1-3),
         ``InstCalcGfx11`` (RDNA3) and ``InstCalcGfx12`` (RDNA4) register/lane algorithms.
         The formulas below restate those algorithms; the tests check them against the closed
         forms and equations the calculator prints (``--detail-instruction``) and its tables.
  CK     ROCm/composable_kernel warp_gemm_attribute_mfma_impl.hpp lane constants (gfx950 shapes;
         CK-MFMA).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentValueError

__all__ = ["CdnaInput", "CdnaOutput", "F8f6f4Input", "Gfx11Input", "Gfx11Output", "Gfx12Input",
           "Gfx12Output", "Gfx12SparseB", "Gfx12SparseIndex"]


def _per_reg(bits: int) -> int:
    """Elements per 32-bit register (1 for 32- and 64-bit elements)."""
    return max(1, 32 // bits)


def _slot_to_reg(slot: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """A lane's n-th storage slot -> (register offset, sub-element); 64-bit slots take 2 regs.

    A lane's elements are packed back to back from bit 0 of its first register: slot ``s``
    starts at bit ``s*bits`` of the register tuple. ``reg`` is the register holding that start
    bit and ``elem`` counts the elements that start in ``reg`` (for 4/8/16-bit elements simply
    ``s mod (32/bits)``; a 6-bit element may run on into ``reg + 1``: gfx950 fp6, 32 elements in
    6 VGPRs -- composable_kernel test/mx_mfma_op/mx_mfma_op.hpp register-mapping tables)."""
    if bits == 64:
        return 2 * slot, np.zeros_like(slot)
    reg = (slot * bits) // 32
    return reg, slot - (-(-(32 * reg) // bits))


@dataclass(frozen=True)
class CdnaInput:
    """MFMA A (outer = M) or B (outer = N) operand on CDNA1-3 and the gfx950 dense shapes.

    Each lane holds ``kpl = K*outer*blocks/64`` consecutive k values of one row (A) or column
    (B); lanes walk the outer index first, then the blocks, then the k groups:
    ``lane = i + outer*b + outer*blocks*floor(k/kpl)``, storage slot ``k mod kpl``.
    (CALC ``InstCalcGfx9.__get_input_reg_lanes``; CK lane constants give the same for gfx950
    16x16x32/32x32x16: kABKPerLane = 8, CK-MFMA.)
    """

    outer: int
    k: int
    blocks: int
    bits: int
    wave_size: int = 64
    replicas: int = 1

    @property
    def k_per_lane(self) -> int:
        kpl, rem = divmod(self.k * self.outer * self.blocks, self.wave_size)
        if rem or kpl == 0:
            raise ArgumentValueError(f"{self} does not tile a wave of {self.wave_size} lanes")
        return kpl

    def place(self, b, i, k):
        kpl = self.k_per_lane
        lane = i + self.outer * b + self.outer * self.blocks * (k // kpl)
        reg, elem = _slot_to_reg(k % kpl, self.bits)
        return lane[None], reg, elem


@dataclass(frozen=True)
class CdnaOutput:
    """MFMA C/D operand: rows are written in groups of 4 (one register each) that are N lanes
    wide; 64-bit outputs use groups of 1 row (a register pair). (CALC
    ``InstCalcGfx9.__get_output_reg_lanes``: multirow height 4 or 1, 64/N groups per register,
    ``ceil(64/(N*M/height))`` blocks side by side in one register.)"""

    m: int
    n: int
    blocks: int
    bits: int
    wave_size: int = 64
    replicas: int = 1

    def place(self, b, i, j):
        h = 1 if self.bits == 64 else 4
        groups = self.wave_size // self.n  # row groups side by side in one register
        blocks_per_reg = -(-self.wave_size // (self.n * self.m // h))
        slot = b * ((self.m * self.n) // self.wave_size) + (i // (h * groups)) * h + i % h
        lane = (b % blocks_per_reg) * self.n + ((i // h) % groups) * blocks_per_reg * self.n + j
        reg, elem = _slot_to_reg(slot, self.bits)
        return lane[None], reg, elem


@dataclass(frozen=True)
class F8f6f4Input:
    """gfx950 ``v_mfma_[scale_]f32_{16x16x128,32x32x64}_f8f6f4`` A (outer = M) / B (outer = N).

    Every lane holds 32 elements of one row (A) / column (B): ``G = 64/outer`` lane groups
    (4 for 16x16x128, 2 for 32x32x64), ``lane = i + outer*g``.
    * fp4/fp6 (4/6-bit): group ``g`` holds ``k = 32g .. 32g+31`` in storage slots 0..31, packed
      from bit 0 (fp4: 4 VGPRs, fp6: 6 VGPRs; CK-MX register-mapping tables).
    * fp8/bf8 (8-bit, 8 VGPRs): two 16-byte halves; group ``g`` holds ``k = 16g .. 16g+15`` in
      slots 0..15 (VGPRs 0-3) and ``k = 16G + 16g ..`` in slots 16..31 (VGPRs 4-7) (CK-MX
      FP8 tables). Any k permutation common to A and B gives the same product, but the scale
      blocks of the ``_scale`` forms do not: the hardware scale-source measurement (CK-MX
      ``scale_mapping_*.txt``) matches exactly this labelling with ``scale_lane`` below.
    (CK-MX = ROCm/composable_kernel test/mx_mfma_op/mx_mfma_op.hpp and scale_mapping_16x16x128 /
    32x32x64; CK xdlops_gemm.hpp lists both shapes as k-reductions over 64/outer lane groups.)
    """

    outer: int
    k: int
    bits: int
    wave_size: int = 64
    replicas: int = 1

    def place(self, b, i, k):
        del b
        groups = self.wave_size // self.outer
        if self.bits == 8:
            lane = i + self.outer * ((k // 16) % groups)
            slot = 16 * (k // (16 * groups)) + k % 16
        else:
            lane = i + self.outer * (k // 32)
            slot = k % 32
        reg, elem = _slot_to_reg(slot, self.bits)
        return lane[None], reg, elem

    def scale_lane(self, i, k):
        """The lane whose E8M0 scale byte scales element (i, k) of the ``_scale`` forms: k block
        ``floor(k/32)`` of row/column ``i`` takes lane ``i + outer*floor(k/32)`` (OCP MX block
        size 32; CK-MX hardware scale mapping, e.g. 16x16x128 fp8 a(0,64..79) from lane 16)."""
        return i + self.outer * (k // 32)


@dataclass(frozen=True)
class Gfx11Input:
    """RDNA3 WMMA A/B: every lane holds a whole row of A (column of B), storage slot k, and the
    16 lanes are replicated: lanes i, i+16 (wave32) and also i+32, i+48 (wave64).
    (CALC ``InstCalcGfx11.__get_input_reg_lanes``; GPUOPEN-WMMA3.)"""

    bits: int
    wave_size: int
    k: int = 16

    @property
    def replicas(self) -> int:
        return self.wave_size // 16

    def place(self, b, i, k):
        del b
        reg, elem = _slot_to_reg(k, self.bits)
        lanes = np.stack([i + 16 * r for r in range(self.replicas)])
        return lanes, reg, elem


@dataclass(frozen=True)
class Gfx11Output:
    """RDNA3 WMMA C/D: ``lane = 16*(i mod R) + j``, register ``floor(i/R)`` with R = wave/16
    rows per register; 16-bit results use one half of each register, chosen by OPSEL bit 2.
    (CALC ``InstCalcGfx11.__get_output_reg_lanes``; GPUOPEN-WMMA3.)"""

    bits: int
    wave_size: int
    opsel_hi: bool = False
    replicas: int = 1

    def place(self, b, i, j):
        del b
        rows = self.wave_size // 16
        lane = 16 * (i % rows) + j
        reg = i // rows
        elem = np.full_like(reg, 1 if (self.bits == 16 and self.opsel_hi) else 0)
        return lane[None], reg, elem


@dataclass(frozen=True)
class Gfx12Input:
    """RDNA4 WMMA A/B (no replication). (CALC ``InstCalcGfx12.__get_input_reg`` /
    ``__get_input_lane``, dense case; GPUOPEN-WMMA4.)"""

    bits: int
    k: int
    wave_size: int
    replicas: int = 1

    def place(self, b, i, k):
        del b
        w32 = self.wave_size == 32
        if self.bits == 16:
            if w32:
                lane = 16 * ((k // 4) % 2) + i
                reg = 2 * (k // 8) + (k // 2) % 2
            else:
                lane = 32 * ((k // 8) % 2) + 16 * ((k // 4) % 2) + i
                reg = (k // 2) % 2
        elif self.bits == 8:
            if w32:
                lane = 16 * (k // 8) + i
                reg = (k // 4) % 2
            else:
                lane = 32 * ((k // 4) % 2) + 16 * ((k // 8) % 2) + i
                reg = np.zeros_like(k)
        elif self.bits == 4:
            if self.k == 16:  # wave64 uses only lanes 0-31 here (CALC comment)
                lane = 16 * (k // 8) + i
                reg = np.zeros_like(k)
            elif w32:
                lane = 16 * (k // 16) + i
                reg = (k // 8) % 2
            else:
                lane = 32 * ((k // 8) % 2) + 16 * ((k // 16) % 2) + i
                reg = np.zeros_like(k)
        else:
            raise ArgumentValueError(f"no gfx12 WMMA input layout for {self.bits}-bit elements")
        elem = k % _per_reg(self.bits)
        return lane[None], reg, elem


@dataclass(frozen=True)
class Gfx12Output:
    """RDNA4 WMMA C/D. 32-bit: register ``i mod 8`` (wave32) / ``i mod 4`` (wave64); 16-bit:
    two rows packed per register. Lane ``16*floor(i/8) + j`` (wave32) or
    ``32*(floor(i/4) mod 2) + 16*floor(i/8) + j`` (wave64). (CALC
    ``InstCalcGfx12.__get_output_reg_lanes``; GPUOPEN-WMMA4.)"""

    bits: int
    wave_size: int
    replicas: int = 1

    def place(self, b, i, j):
        del b
        if self.wave_size == 32:
            lane = 16 * (i // 8) + j
            rows_per_set = 8
        else:
            lane = 32 * ((i // 4) % 2) + 16 * (i // 8) + j
            rows_per_set = 4
        if self.bits == 32:
            reg, elem = i % rows_per_set, np.zeros_like(i)
        else:
            reg, elem = (i // 2) % (rows_per_set // 2), i % 2
        return lane[None], reg, elem


# -- RDNA4 sparse WMMA (v_swmmac_*) ------------------------------------------------------------
# A is M x K with 2:4 structured sparsity, stored compressed as M x K/2: of every 4 consecutive k
# (group g = floor(k/4)) two values are kept, stored element c = 2g + s (s = 0, 1) in the order
# of the compression index that names them (CALC-README, "Example of Using the OPSEL Modifier to
# Change the Compression Index Set": the first stored value's index in the low 2 bits of its
# 4-bit group field, the second's in the high 2). CALC ``InstCalcGfx12.__get_input_reg`` /
# ``__get_input_lane`` put group g of row i where the dense formula puts compressed columns 2g
# and 2g+1 -- so the compressed A is ``Gfx12Input(bits, K/2, wave)``; B is a dense K x N matrix
# with its own sparse-B branch (``Gfx12SparseB``) and the index VGPR (Src2) holds one 2-bit index
# per stored A element (``Gfx12SparseIndex``), in one of 1, 2 or 4 index sets chosen by OPSEL
# (printed ``index_key:N``; CALC ``get_num_compression_sets``).


@dataclass(frozen=True)
class Gfx12SparseB:
    """RDNA4 SWMMAC B (dense K x N, K = 32 or 64): each lane holds a run of consecutive k.
    (CALC ``InstCalcGfx12.__get_input_reg`` / ``__get_input_lane``, sparse-instruction B.)"""

    bits: int
    k: int
    wave_size: int
    replicas: int = 1

    def place(self, b, j, k):
        del b
        w32, bits = self.wave_size == 32, self.bits
        if bits == 16:
            lane = 16 * ((k // 8) % 2) + j if w32 else 16 * (k // 8) + j
            reg = 4 * (k // 16) + (k // 2) % 4 if w32 else (k // 2) % 4
        elif bits == 8 or (bits == 4 and self.k == 32):
            lane = 16 * (k // 16) + j if w32 else 32 * ((k // 8) % 2) + 16 * (k // 16) + j
            if bits == 8:
                reg = (k // 4) % (4 if w32 else 2)
            else:
                reg = (k // 8) % 2 if w32 else np.zeros_like(k)
        elif bits == 4:  # K = 64
            lane = 16 * (k // 32) + j if w32 else 32 * ((k // 16) % 2) + 16 * (k // 32) + j
            reg = (k // 8) % (4 if w32 else 2)
        else:
            raise ArgumentValueError(f"no gfx12 SWMMAC B layout for {bits}-bit elements")
        return lane[None], reg, k % _per_reg(bits)


@dataclass(frozen=True)
class Gfx12SparseIndex:
    """RDNA4 SWMMAC compression index: the 2-bit index (which of its group's 4 k positions) of
    stored A element (i, c), in register 0 of the lane holding that element, at bit
    ``base(g) + 2*(c mod 2) + key * 32/sets`` with ``g = floor(c/2)``. ``in_bits`` is A's
    element width, ``k`` the logical K, ``key`` the index set (OPSEL / ``index_key``).
    (CALC ``InstCalcGfx12.__get_compression_bits``, ``__get_input_lane`` for 'k',
    ``get_num_compression_sets``.)"""

    in_bits: int
    k: int
    wave_size: int
    key: int = 0
    bits: int = 2
    replicas: int = 1

    @property
    def sets(self) -> int:
        """Index sets one VGPR holds (OPSEL picks one)."""
        if self.wave_size == 32:
            return 1 if (self.in_bits == 4 and self.k == 64) else 2
        return 4 if self.in_bits in (8, 16) else 2

    def place(self, b, i, c):
        del b
        g, s = c // 2, c % 2
        w32 = self.wave_size == 32
        if self.in_bits == 16:
            base = 8 * (g // 4) + 4 * (g % 2) if w32 else 4 * (g % 2)
            lane = 16 * ((g // 2) % 2) + i if w32 else 16 * (g // 2) + i
        elif w32:
            span = 8 if (self.in_bits == 4 and self.k == 64) else 4  # groups per lane
            base, lane = 4 * (g % span), 16 * (g // span) + i
        elif self.in_bits == 8:
            base, lane = 4 * (g % 2), 32 * ((g // 2) % 2) + 16 * (g // 4) + i
        elif self.k == 32:  # 4-bit, K = 32: A and its indices use lanes 0-31 only
            base, lane = 4 * (g % 4), 16 * (g // 4) + i
        else:  # 4-bit, K = 64
            base, lane = 4 * (g % 4), 32 * ((g // 4) % 2) + 16 * (g // 8) + i
        bit = base + 2 * s + self.key * (32 // self.sets)
        return lane[None], np.zeros_like(c), bit // 2
