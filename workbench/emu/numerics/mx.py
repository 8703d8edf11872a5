"""OCP element formats of gfx950 (fp8 E4M3 / bf8 E5M2, fp6 E2M3 / bf6 E3M2, fp4 E2M1) and the
E8M0 block scale: bit-exact decode tables.

Why tables: a code has at most 256 values, so one ``np.take`` decodes any array exactly, and
every value here is exact in float32 (at most 4 significant bits, exponents 2^-16 .. 2^15).

gfx950 uses the OCP flavours, not gfx942's FNUZ ones (Modular's Mojo docs, get_amd_fp8_dtype
[3rd-party]; the f8f6f4 MFMA format codes 0..4 as in LLVM's
mlir/test/Target/LLVMIR/rocdl.mlir). Field layouts and special values:

* fp8 E4M3 ("E4M3FN"): bias 7, largest 448; S.1111.111 is NaN (both signs), no infinities,
  -0 exists. bf8 E5M2: bias 15, largest 57344; S.11111.00 is ±inf, S.11111.{01,10,11} NaN.
  (OCP 8-bit Floating Point Specification (OFP8) rev 1.0, Table 1; LLVM APFloat
  ``Float8E4M3FN`` / ``Float8E5M2``.)
* fp6 E2M3: bias 1, largest 7.5; bf6 E3M2: bias 3, largest 28; fp4 E2M1: bias 1, largest 6. No
  infinities or NaN in any of them. (OCP Microscaling Formats (MX) v1.0, §5.3 "Element data
  types", Tables 2-3; LLVM APFloat ``Float6E2M3FN`` / ``Float6E3M2FN`` / ``Float4E2M1FN``.)
* Every format: an exponent field of 0 is subnormal, ``mantissa * 2**(1 - bias - mbits)``.
* E8M0 scale: 8 exponent bits, no sign or mantissa, value ``2**(e - 127)``; 0xFF is NaN (OCP MX
  v1.0 §5.4 "Scale data type"). gfx950 hardware agrees on the bias: the CK scale-mapping run
  (composable_kernel test/mx_mfma_op/scale_mapping_16x16x128) gives lane L the scale 127 + L and
  reads back 2^L.
"""
from __future__ import annotations

import numpy as np

# name -> (exponent bits, mantissa bits, bias, special): special "fn" = all-ones code is NaN
# (E4M3), "ieee" = top exponent is inf/NaN (E5M2), None = every code finite
MX_FORMATS: dict[str, tuple[int, int, int, str | None]] = {
    "float8_e4m3fn": (4, 3, 7, "fn"),
    "float8_e5m2": (5, 2, 15, "ieee"),
    "float6_e2m3fn": (2, 3, 1, None),
    "float6_e3m2fn": (3, 2, 3, None),
    "float4_e2m1fn": (2, 1, 1, None),
}


def _table(exp_bits: int, man_bits: int, bias: int, special: str | None) -> np.ndarray:
    """float64 value of each code (2**(1+e+m) of them) of one OCP format."""
    n = 1 + exp_bits + man_bits
    code = np.arange(1 << n, dtype=np.int64)
    sign = np.where(code >> (n - 1) & 1, -1.0, 1.0)
    e = (code >> man_bits) & ((1 << exp_bits) - 1)
    m = code & ((1 << man_bits) - 1)
    mag = np.where(e == 0, m * np.exp2(1 - bias - man_bits),
                   (1.0 + m / (1 << man_bits)) * np.exp2(e - bias))
    top = e == (1 << exp_bits) - 1
    if special == "fn":
        mag = np.where(top & (m == (1 << man_bits) - 1), np.nan, mag)
    elif special == "ieee":
        mag = np.where(top, np.where(m == 0, np.inf, np.nan), mag)
    v = sign * mag
    v.setflags(write=False)
    return v


MX_TABLES: dict[str, np.ndarray] = {name: _table(*p) for name, p in MX_FORMATS.items()}


def mx_to_f64(codes: np.ndarray, fmt: str) -> np.ndarray:
    """Decode codes (right-aligned in any unsigned-int array) of ``fmt`` to float64."""
    try:
        table = MX_TABLES[fmt]
    except KeyError:
        raise ValueError(f"unknown OCP format {fmt!r}; known: {sorted(MX_TABLES)}") from None
    return np.take(table, np.asarray(codes).astype(np.int64) & (len(table) - 1))


def e8m0_to_f64(codes: np.ndarray) -> np.ndarray:
    """E8M0 scale bytes -> float64 ``2**(e-127)``; 0xFF -> NaN (OCP MX v1.0 §5.4)."""
    e = np.asarray(codes).astype(np.int64) & 0xFF
    return np.where(e == 0xFF, np.nan, np.exp2((e - 127).astype(np.float64)))


def _codes(fmt: str) -> tuple[np.ndarray, int, int, int]:
    """(finite non-negative values in code order, overflow code, NaN code, sign bit) of a
    format, for ``encode_rne``."""
    e_bits, m_bits, _bias, special = MX_FORMATS[fmt]
    half = MX_TABLES[fmt][: 1 << (e_bits + m_bits)]
    finite = half[np.isfinite(half)]
    top = len(finite) - 1  # the largest finite magnitude's code
    if special == "fn":  # E4M3: no infinity; overflow and NaN give S.1111.111
        over, nan = 0x7F, 0x7F
    elif special == "ieee":  # E5M2: overflow -> inf S.11111.00, NaN -> S.11111.10
        over, nan = 0x7C, 0x7E
    else:  # fp6 / fp4 have neither: both give the largest magnitude
        over, nan = top, top
    return finite, over, nan, 1 << (e_bits + m_bits)


def encode_rne(x, fmt: str) -> np.ndarray:
    """float32/64 values -> codes (uint32) of OCP format ``fmt``, rounded to nearest even.

    Semantics of AMD's host model of the gfx950 conversions (HIP amd_hip_ocp_host.hpp
    ``from_float`` without saturation, vendored e.g. in triton third_party/amd): the sign is
    kept (-0 and values that round to zero give a signed zero); NaN gives E4M3 S.1111.111, E5M2
    S.11111.10; ±inf and anything that rounds past the largest finite value give E4M3
    S.1111.111 (it has no infinity), E5M2 ±inf, fp6/fp4 (no inf, no NaN) the largest
    magnitude; subnormals round with the subnormal quantum."""
    e_bits, m_bits, bias, _special = MX_FORMATS[fmt]
    finite, over, nan, sign_bit = _codes(fmt)
    x = np.asarray(x, np.float64)
    sign = np.where(np.signbit(x), sign_bit, 0).astype(np.int64)
    a = np.abs(x)
    safe = np.where(np.isfinite(a) & (a > 0), a, 1.0)
    binade = np.frexp(safe)[1].astype(np.int64) - 1  # floor(log2 a), exact
    q = np.maximum(binade, 1 - bias) - m_bits  # exponent of the quantum at |x|
    mag = np.round(np.ldexp(safe, -q)) * np.exp2(q.astype(np.float64))  # half-to-even, exact
    mag = np.where(a > 0, mag, 0.0)
    code = np.searchsorted(finite, np.minimum(mag, finite[-1])).astype(np.int64)
    code = np.where(mag > finite[-1], over, code)
    code = np.where(np.isinf(a), over, code)
    code = np.where(np.isnan(x), nan, code)
    return (code | sign).astype(np.uint32)


def encode_sr(x, seed, fmt: str, src_man: int = 23) -> np.ndarray:
    """float values (each exact in a source format with ``src_man`` fraction bits: 23 f32,
    10 f16, 7 bf16) -> codes (uint32) of OCP format ``fmt`` with stochastic rounding by the
    random words ``seed`` (uint32, one per value).

    Semantics of AMD's host model of gfx950's ``v_cvt_sr_*`` / ``v_cvt_scalef32_sr_*`` (HIP
    amd_hip_ocp_host.hpp ``from_float_sr``, which HIP's __hipext_ocp_fp8_e4m3(float, seed) uses
    off the GPU in place of __builtin_amdgcn_cvt_sr_fp8_f32; vendored e.g. in triton
    third_party/amd): the value's fraction is first truncated to the ``src_man - m`` bits the
    target drops (subnormal targets: the fraction with its leading one, shifted right by how
    far the exponent lies below the smallest normal one, low bits lost); then the seed's *top*
    ``src_man - m`` bits (``seed >> (32 - src_man + m)``) are added to those dropped bits and
    the sum is truncated: a carry out of them rounds the magnitude up (possibly into the next
    binade, or from the largest subnormal to the smallest normal). Specials as ``encode_rne``:
    NaN -> the NaN code, ±inf and magnitudes past the largest finite value (before or after the
    carry) -> E4M3 NaN / E5M2 ±inf / fp4 its largest magnitude; zeros keep their sign; so do
    values that truncate to zero."""
    e_bits, m_bits, bias, _special = MX_FORMATS[fmt]
    finite, over, nan, sign_bit = _codes(fmt)
    x = np.asarray(x, np.float64)
    sign = np.where(np.signbit(x), sign_bit, 0).astype(np.int64)
    a = np.abs(x)
    ok = np.isfinite(a) & (a > 0)
    safe = np.where(ok, a, 1.0)
    ex = np.frexp(safe)[1].astype(np.int64) - 1  # unbiased exponent, floor(log2 a)
    frac = np.round((np.ldexp(safe, -ex) - 1.0) * (1 << src_man)).astype(np.int64)  # exact
    min_exp = 1 - bias
    max_exp = int(np.frexp(finite[-1])[1]) - 1  # exponent of the largest finite value
    drop = src_man - m_bits
    sub = ex < min_exp
    shift = np.clip(min_exp - ex, 0, 63)
    man = np.where(sub, np.where(shift >= 32, 0, (frac | (1 << src_man)) >> shift), frac)
    rnd = (np.asarray(seed, np.uint32).astype(np.int64) >> (32 - drop)) & ((1 << drop) - 1)
    man = man + rnd
    carry = (man >> src_man) & 1
    kept = (man >> drop) & ((1 << m_bits) - 1)
    biased = np.where(sub, carry, ex + bias + carry)
    code = (biased << m_bits) | kept
    code = np.where(~sub & (ex + carry > max_exp), over, code)
    code = np.where(np.isinf(a), over, np.where(a == 0, 0, code))
    code = np.where(np.isnan(x), nan, code)
    return (code | sign).astype(np.uint32)


def mfma_decoder(fmt: str):
    """Decoder for the MFMA family's input formats (``semantics.matrix.mfma``): codes -> float32
    (exact)."""
    table32 = MX_TABLES[fmt].astype(np.float32)
    table32.setflags(write=False)
    mask = len(table32) - 1
    return lambda bits: np.take(table32, np.asarray(bits).astype(np.int64) & mask)


__all__ = ["MX_FORMATS", "MX_TABLES", "e8m0_to_f64", "encode_rne", "encode_sr", "mx_to_f64"]
