"""The prelude's fp8 API (hip/hip_fp8.h) runs on the emulator and gives the values of its format.

gfx950 converts OCP E4M3/E5M2 with v_cvt_*_fp8/bf8 (the `__hip_fp8_e4m3` types), gfx942 FNUZ
(the `_fnuz` types), and gfx1100 has no fp8 instructions: there the prelude converts in
software (hipwb/minifloat.h), with ROCm's software model. Each kernel is checked against a
numpy reference of its format, built from the value tables of workbench/emu/numerics (fp8.py,
mx.py) and nothing else: round to nearest even over the table, ties to the even code.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench.emu.numerics.fp8 import FP8_TABLES
from workbench.emu.numerics.mx import MX_TABLES

SRC = r"""
#include <hip/hip_fp8.h>
#if defined(__gfx942__)
typedef __hip_fp8_e4m3_fnuz F8; typedef __hip_fp8_e5m2_fnuz B8;
typedef __hip_fp8x2_e4m3_fnuz F8x2; typedef __hip_fp8x4_e4m3_fnuz F8x4;
#else
typedef __hip_fp8_e4m3 F8; typedef __hip_fp8_e5m2 B8;
typedef __hip_fp8x2_e4m3 F8x2; typedef __hip_fp8x4_e4m3 F8x4;
#endif

// float -> fp8: the types (SATFINITE) and __hip_cvt_float_to_fp8 without saturation
__global__ void encode(const float *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = F8(in[i]).__x;
  out[n + i] = B8(in[i]).__x;
  out[2 * n + i] = __hip_cvt_float_to_fp8(in[i], __HIP_NOSAT, F8::__default_interpret);
  out[3 * n + i] = __hip_cvt_float_to_fp8(in[i], __HIP_NOSAT, B8::__default_interpret);
  out[4 * n + i] = F8((double)in[i]).__x;   // double: software on every target, as in ROCm
  out[5 * n + i] = F8(__float2half(in[i])).__x;
}

// every code -> float, __half, __hip_bfloat16 and int
__global__ void decode(float *f, float *h, float *b, int *k) {
  int c = threadIdx.x;
  F8 e4; e4.__x = (unsigned char)c;
  B8 e5; e5.__x = (unsigned char)c;
  f[c] = e4; f[256 + c] = e5;
  h[c] = __half2float(e4); h[256 + c] = __half2float(__half(e5));
  b[c] = __bfloat162float(e4); b[256 + c] = __bfloat162float(__hip_bfloat16(e5));
  k[c] = (int)e4; k[256 + c] = (signed char)e5;
}

// x2 / x4 packing: element i is byte i, both ways
__global__ void pack(const float *in, unsigned int *x4, unsigned short *x2, float *back) {
  int i = threadIdx.x;
  float4 v = make_float4(in[4 * i], in[4 * i + 1], in[4 * i + 2], in[4 * i + 3]);
  F8x4 p4(v);
  x4[i] = p4.__x;
  F8x2 p2(make_float2(in[4 * i], in[4 * i + 1]));
  x2[i] = p2.__x;
  float4 r4 = p4;
  float2 r2 = p2;
  back[6 * i] = r4.x; back[6 * i + 1] = r4.y; back[6 * i + 2] = r4.z; back[6 * i + 3] = r4.w;
  back[6 * i + 4] = r2.x; back[6 * i + 5] = r2.y;
  x2[64 + i] = __hip_cvt_float2_to_fp8x2(make_float2(in[4 * i + 2], in[4 * i + 3]),
                                         __HIP_SATFINITE, F8::__default_interpret);
}

// a small GEMM on fp8 arrays, as the blog's naive kernel writes it: C = A B^T in float
__global__ void gemm(const F8 *a, const F8 *b, float *c, int n, int k) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) acc += float(a[row * k + j]) * float(b[col * k + j]);
  c[row * n + col] = acc;
}
"""

# arch -> (E4M3 table, E5M2 table, OCP?, hardware conversions?)
ARCHS = {
    "gfx950": (MX_TABLES["float8_e4m3fn"], MX_TABLES["float8_e5m2"], True, True),
    "gfx942": (FP8_TABLES["float8_e4m3fnuz"], FP8_TABLES["float8_e5m2fnuz"], False, True),
    "gfx1100": (MX_TABLES["float8_e4m3fn"], MX_TABLES["float8_e5m2"], True, False),
}


@pytest.fixture(scope="module", params=list(ARCHS))
def arch(request):
    return request.param


@pytest.fixture(scope="module")
def mod(arch):
    return workbench.compile(SRC, arch)


def _format(table: np.ndarray, ocp: bool):
    """(codes 0..0x7F of finite non-negative values in value order, their values, max code)."""
    half = table[:128]
    codes = np.flatnonzero(np.isfinite(half))
    return codes, half[codes], codes[-1]


def ref_encode(x, table, ocp: bool, e5: bool, sat: bool, strict: bool, nan7f: bool):
    """Round to nearest even over the format's table (see the module docstring).

    sat: finite values beyond max give max; strict: |x| > max overflows before rounding (ROCm's
    software model), else only a value that rounds past max; nan7f: E5M2 NaN is S.11111.11
    (the software model) instead of S.11111.10 (the instructions)."""
    codes, vals, maxc = _format(table, ocp)
    maxv = vals[-1]
    ulp_max = vals[-1] - vals[-2] if vals[-1] - vals[-2] > 0 else 1.0
    x = np.asarray(x, np.float64)
    out = np.zeros(x.shape, np.int64)
    for i, v in enumerate(x.ravel()):
        sbit = 0x80 if np.signbit(v) else 0
        if np.isnan(v):
            code = 0x80 if not ocp else (sbit | (0x7F if (not e5 or nan7f) else 0x7E))
        elif np.isinf(v):
            code = (sbit | 0x7C) if (ocp and e5) else (0x80 if not ocp else sbit | 0x7F)
        else:
            a = abs(v)
            over = (a > maxv) if strict else (a >= maxv + ulp_max / 2 and not (
                a == maxv + ulp_max / 2 and maxc % 2 == 0))
            if over:
                if sat:
                    code = sbit | int(maxc)
                else:
                    code = 0x80 if not ocp else (sbit | (0x7C if e5 else 0x7F))
            else:
                j = int(np.searchsorted(vals, a))
                if j == 0:
                    k = 0
                elif j == len(vals):
                    k = len(vals) - 1
                else:
                    lo, hi = vals[j - 1], vals[j]
                    down = a - lo < hi - a or (a - lo == hi - a and codes[j - 1] % 2 == 0)
                    k = j - 1 if down else j
                code = int(codes[k])
                code = code | sbit if (ocp or code != 0) else 0  # FNUZ: no -0
        out.ravel()[i] = code
    return out.astype(np.uint8)


def _inputs(table) -> np.ndarray:
    """Every value of the format, the midpoints between neighbours (ties) and just beside them,
    values past the largest, tiny values, signed zeros, infinities and NaN, as float32."""
    fin = np.unique(np.abs(table[np.isfinite(table)]))
    mids = (fin[:-1] + fin[1:]) / 2
    eps = np.float64(np.finfo(np.float32).eps)
    big = fin[-1] * np.array([1.0, 1.01, 1.03, 1.0625, 1.07, 1.5, 2.0, 1e4])
    pos = np.concatenate([fin, mids, mids * (1 + 4 * eps), mids * (1 - 4 * eps), big,
                          [1e-30, fin[1] / 2, fin[1] / 3, fin[1] * 0.75]])
    vals = np.concatenate([pos, -pos, [0.0, -0.0, np.inf, -np.inf, np.nan]])
    return vals.astype(np.float32)


def test_encode_matches_the_format(arch, mod):
    e4, e5, ocp, hw = ARCHS[arch]
    x = _inputs(e4)
    x = np.concatenate([x, _inputs(e5)])
    n = x.size
    out = np.zeros(6 * n, np.uint8)
    mod.encode[(n + 255) // 256, 256](x, out, n)
    got = out.reshape(6, n)
    strict = not hw  # ROCm's software model: |x| > max overflows before rounding
    nan7f = not hw
    checks = [
        ("E4M3 type (SATFINITE)", got[0], ref_encode(x, e4, ocp, False, True, strict, nan7f)),
        ("E5M2 type (SATFINITE)", got[1], ref_encode(x, e5, ocp, True, True, strict, nan7f)),
        ("E4M3 __HIP_NOSAT", got[2], ref_encode(x, e4, ocp, False, False, strict, nan7f)),
        ("E5M2 __HIP_NOSAT", got[3], ref_encode(x, e5, ocp, True, False, strict, nan7f)),
        # double inputs use ROCm's software model on every target
        ("E4M3 from double", got[4], ref_encode(x, e4, ocp, False, True, True, True)),
    ]
    for what, g, want in checks:
        bad = np.flatnonzero(g != want)
        assert bad.size == 0, (f"{arch} {what}: {bad.size} codes differ, e.g. x={x[bad[:4]]} "
                               f"got {[hex(v) for v in g[bad[:4]]]} want "
                               f"{[hex(v) for v in want[bad[:4]]]}")
    # half inputs: the value rounded to half first (exact for every fp8 value and midpoint)
    with np.errstate(over="ignore"):
        h = x.astype(np.float16).astype(np.float32)
    want_h = ref_encode(h, e4, ocp, False, True, strict, nan7f)
    assert np.array_equal(got[5], want_h), arch


def test_decode_gives_every_value(arch, mod):
    e4, e5, ocp, hw = ARCHS[arch]
    f = np.zeros(512, np.float32)
    h = np.zeros(512, np.float32)
    b = np.zeros(512, np.float32)
    k = np.zeros(512, np.int32)
    mod.decode[1, 256](f, h, b, k)
    want = np.concatenate([e4, e5]).astype(np.float32)
    np.testing.assert_array_equal(f, want)  # NaN == NaN here; -0 vs 0 is checked below
    assert np.array_equal(np.signbit(f), np.signbit(want))
    np.testing.assert_array_equal(h, want)  # every fp8 value is exact in half and bfloat16
    np.testing.assert_array_equal(b, want)
    # int conversions: NaN -> 0, truncation toward zero; signed char clamps to [-128, 127]
    wi = np.where(np.isnan(want[:256]), 0, np.trunc(np.nan_to_num(want[:256])))
    np.testing.assert_array_equal(k[:256], wi.astype(np.int32))
    w5 = np.where(np.isnan(want[256:]), 0, np.clip(np.trunc(np.nan_to_num(
        want[256:], posinf=1e9, neginf=-1e9)), -128, 127))
    np.testing.assert_array_equal(k[256:], w5.astype(np.int32))


def test_x2_x4_pack_element_i_in_byte_i(arch, mod):
    e4, _e5, ocp, hw = ARCHS[arch]
    rng = np.random.default_rng(5)
    fin = e4[np.isfinite(e4)]
    x = rng.choice(fin, 256).astype(np.float32)  # exact values: each encodes to its own code
    x4 = np.zeros(64, np.uint32)
    x2 = np.zeros(128, np.uint16)
    back = np.zeros(6 * 64, np.float32)
    mod.pack[1, 64](x, x4, x2, back)
    codes = ref_encode(x, e4, ocp, False, True, not hw, not hw).astype(np.uint32).reshape(64, 4)
    packed = codes[:, 0] | codes[:, 1] << 8 | codes[:, 2] << 16 | codes[:, 3] << 24
    assert np.array_equal(x4, packed)
    assert np.array_equal(x2[:64], (codes[:, 0] | codes[:, 1] << 8).astype(np.uint16))
    assert np.array_equal(x2[64:], (codes[:, 2] | codes[:, 3] << 8).astype(np.uint16))
    b = back.reshape(64, 6)
    xv = x.reshape(64, 4)
    np.testing.assert_array_equal(b[:, :4], xv)
    np.testing.assert_array_equal(b[:, 4:], xv[:, :2])


def test_fp8_gemm_on_arrays_of_the_type(arch, mod):
    e4, _e5, _ocp, _hw = ARCHS[arch]
    n = k = 64
    rng = np.random.default_rng(7)
    small = e4[np.isfinite(e4) & (np.abs(e4) <= 4) & (np.abs(e4) >= 0.125)]
    codes_a = rng.integers(0, 256, (n, k))
    codes_b = rng.integers(0, 256, (n, k))
    # keep codes whose values are small multiples of 1/8 (every float sum exact in any order)
    ok = np.isin(e4[np.arange(256)], small)
    pick = np.flatnonzero(ok)
    codes_a = pick[codes_a % pick.size].astype(np.uint8)
    codes_b = pick[codes_b % pick.size].astype(np.uint8)
    a, b = e4[codes_a], e4[codes_b]
    c = np.zeros((n, n), np.float32)
    mod.gemm[(n // 16, n // 16), (16, 16)](codes_a, codes_b, c, n, k)
    np.testing.assert_array_equal(c, (a @ b.T).astype(np.float32))
