"""Bit-exact float helpers: denormal flushing, RNE f32->bf16, f16/bf16 unpacking.

numpy computes IEEE-754 with denormals and round-to-nearest-even, which is what the hardware
does in the default HIP float mode (FLOAT_DENORM_MODE_* = 3 "no flush", round mode 0 = RNE;
LLVM AMDGPUUsage, COMPUTE_PGM_RSRC1 FLOAT_DENORM_MODE / FLOAT_ROUND_MODE values). When a
descriptor asks for flushing, the emulator flushes explicitly (numpy never does) — sources,
destinations or both as the mode says.
"""
from __future__ import annotations

import numpy as np

F32_MIN_NORMAL = np.float32(1.1754944e-38)
F16_MIN_NORMAL = np.float16(6.1035e-05)
F64_MIN_NORMAL = np.float64(2.2250738585072014e-308)


def flush_src(mode: int) -> bool:
    """Denorm mode field: 0 flush src+dst, 1 flush dst, 2 flush src, 3 none (AMDGPUUsage)."""
    return mode in (0, 2)


def flush_dst(mode: int) -> bool:
    return mode in (0, 1)


def flush(x: np.ndarray) -> np.ndarray:
    """Flush denormals of a float array to signed zero."""
    x = np.asarray(x)
    tiny = {np.float32: F32_MIN_NORMAL, np.float16: F16_MIN_NORMAL,
            np.float64: F64_MIN_NORMAL}[x.dtype.type]
    return np.where(np.abs(x) < tiny, np.copysign(np.zeros((), x.dtype), x), x)


def f32_to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bit patterns (uint32, low 16 bits) with round-to-nearest-even.

    NaNs stay NaN (quiet bit forced), as LLVM's bf16 conversion lowering does for gfx9
    (AMDGPU SIISelLowering lowerFP_ROUND to bf16: add 0x7fff + lsb, NaN -> quiet).
    """
    b = np.asarray(x, np.float32).view(np.uint32)
    r = (b + np.uint32(0x7FFF) + ((b >> 16) & np.uint32(1))) >> 16
    nan = (b & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    return np.where(nan, (b >> 16) | np.uint32(0x40), r).astype(np.uint32)


def bf16_bits_to_f32(b: np.ndarray) -> np.ndarray:
    """bf16 bit patterns (any unsigned int array, low 16 bits) -> float32 (exact)."""
    return ((np.asarray(b).astype(np.uint32) & np.uint32(0xFFFF)) << 16).view(np.float32)


def f16_bits_to_f32(b: np.ndarray) -> np.ndarray:
    return (np.asarray(b).astype(np.uint32) & np.uint32(0xFFFF)).astype(np.uint16).view(
        np.float16).astype(np.float32)


def f32_to_f16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> f16 bit patterns (uint32) with RNE (numpy's cast is correctly rounded)."""
    return np.asarray(x, np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)
