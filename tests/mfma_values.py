"""MFMA operand helpers shared by test_emu_mfma and test_layouts_execution: raw element bits of
the non-fp8 element types, D decoding, and per-lane register packing through the layout catalog
(``MatrixInstruction.scatter_bits`` / ``gather_bits``). Each test keeps what it does differently
(fp8 encoding: torch there, a code table here; test_layouts_execution's f16 exactness check)."""

from __future__ import annotations

import numpy as np


def encode(t: str, x: np.ndarray) -> np.ndarray:
    """Values of type ``t`` -> raw element bits, right-aligned (uint32 / uint64 for f64)."""
    if t in ("f32", "xf32"):
        return np.asarray(x, np.float32).view(np.uint32)
    if t == "f16":
        return np.asarray(x, np.float16).view(np.uint16).astype(np.uint32)
    if t == "bf16":  # only used on values exact in bf16
        b = np.asarray(x, np.float32).view(np.uint32)
        assert not (b & 0xFFFF).any(), "value not exact in bf16"
        return b >> 16
    if t == "i8":
        return np.asarray(x, np.int8).view(np.uint8).astype(np.uint32)
    if t in ("i32",):
        return np.asarray(x, np.int64).astype(np.int32).view(np.uint32)
    if t == "f64":
        return np.asarray(x, np.float64).view(np.uint64)
    raise ValueError(t)


def decode(t: str, bits: np.ndarray) -> np.ndarray:
    """Raw D bits -> values in D's own type (f32, i32 or f64 on gfx942)."""
    if t == "f32":
        return bits.astype(np.uint32).view(np.float32)
    if t == "i32":
        return bits.astype(np.uint32).view(np.int32)
    if t == "f64":
        return bits.astype(np.uint64).view(np.float64)
    raise ValueError(t)


def pack(ins, operand: str, bits: np.ndarray) -> np.ndarray:
    """[W, blocks, rows, cols] element bits -> [W, 64, regs] uint32 (lane t's registers)."""
    v = np.zeros((bits.shape[0], ins.vgprs[operand], 64), np.uint32)
    ins.scatter_bits(v, operand, bits)
    return np.ascontiguousarray(v.transpose(0, 2, 1))


def unpack(ins, operand: str, lanes: np.ndarray) -> np.ndarray:
    """[W, 64, regs] uint32 -> [W, blocks, rows, cols] element bits."""
    return ins.gather_bits(np.ascontiguousarray(lanes.transpose(0, 2, 1)), operand)
