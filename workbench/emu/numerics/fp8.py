"""gfx942 8-bit floats (FNUZ flavours): bit-exact decode tables for fp8 (E4M3FNUZ) and bf8
(E5M2FNUZ).

Why tables: an 8-bit code has 256 values, so one ``np.take`` decodes any array exactly.

Formats (gfx940/941/942 use the FNUZ flavour only — HIP "FP8 numbers" docs,
rocm.docs.amd.com/projects/HIP/en/docs-6.2.0/reference/fp8_numbers.html; the field layout and
special values are LLVM APFloat's ``Float8E4M3FNUZ`` / ``Float8E5M2FNUZ`` semantics,
llvm/include/llvm/ADT/APFloat.h):

* fp8 = E4M3FNUZ: sign, 4 exponent bits (bias 8), 3 mantissa bits; largest 240.
* bf8 = E5M2FNUZ: sign, 5 exponent bits (bias 16), 2 mantissa bits; largest 57344.
* Both: no infinities, no negative zero; the one NaN is 0x80 (sign set, all else 0); an
  exponent field of 0 is subnormal: ``mantissa * 2**(1 - bias - mantissa_bits)``.
"""
from __future__ import annotations

import numpy as np

FP8_FORMATS: dict[str, tuple[int, int]] = {  # name -> (exponent bits, bias); mantissa = 7 - e
    "float8_e4m3fnuz": (4, 8),
    "float8_e5m2fnuz": (5, 16),
}


def _table(exp_bits: int, bias: int) -> np.ndarray:
    """float64 value of each of the 256 codes of an FNUZ format."""
    man_bits = 7 - exp_bits
    code = np.arange(256, dtype=np.int64)
    sign = np.where(code & 0x80, -1.0, 1.0)
    e = (code >> man_bits) & ((1 << exp_bits) - 1)
    m = code & ((1 << man_bits) - 1)
    normal = (1.0 + m / (1 << man_bits)) * np.exp2(e - bias)
    sub = m * np.exp2(1 - bias - man_bits)
    v = sign * np.where(e == 0, sub, normal)
    v[0x80] = np.nan  # FNUZ: 0x80 is the only NaN (no negative zero)
    v.setflags(write=False)
    return v


FP8_TABLES: dict[str, np.ndarray] = {name: _table(*p) for name, p in FP8_FORMATS.items()}


def fp8_to_f64(codes: np.ndarray, fmt: str) -> np.ndarray:
    """Decode fp8 codes (any unsigned-int array, low 8 bits used) of ``fmt`` to float64."""
    try:
        table = FP8_TABLES[fmt]
    except KeyError:
        raise ValueError(f"unknown fp8 format {fmt!r}; known: {sorted(FP8_TABLES)}") from None
    return np.take(table, np.asarray(codes).astype(np.uint8, copy=False))


def mfma_decoder(fmt: str):
    """Decoder for the MFMA family's input formats (``semantics.matrix.mfma``): codes -> float32
    (every FNUZ value is exact in
    float32: at most 4 significant bits, exponents 2^-17 .. 2^15)."""
    table32 = FP8_TABLES[fmt].astype(np.float32)
    table32.setflags(write=False)
    return lambda bits: np.take(table32, np.asarray(bits).astype(np.uint8, copy=False))


__all__ = ["FP8_FORMATS", "FP8_TABLES", "fp8_to_f64"]
