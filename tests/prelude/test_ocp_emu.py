"""hip/hip_ext_ocp.h, hip/hip_fp4.h and hip/hip_fp6.h on the emulator: scaled, stochastic and
fp4/fp6 conversions give the values of AMD's OCP model.

On gfx950 the prelude uses the v_cvt_scalef32_* / v_cvt_sr_* instructions; on gfx942 (no OCP
instructions) the same calls convert in software (hipwb/minifloat.h). Both must agree with the
numpy model of workbench/emu/numerics/mx.py (encode_rne / encode_sr on x / 2^scale, decode times
2^scale), and hence with each other.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench.emu.numerics.mx import MX_TABLES, encode_rne, encode_sr

SRC = r"""
#include <hip/hip_ext_ocp.h>
#include <hip/hip_fp4.h>
#include <hip/hip_fp6.h>
#define E4 __AMD_OCP_E4M3
#define E5 __AMD_OCP_E5M2
#define E2 __AMD_OCP_E2M1

__global__ void ocp(const float *xs, const unsigned int *seeds, const signed char *scales,
                    unsigned char *o, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = xs[i];
  unsigned int sd = seeds[i];
  __amd_scale_t s = scales[i];
  __amd_fp8x2_storage_t p = __amd_cvt_floatx2_to_fp8x2_scale(__amd_floatx2_storage_t{v, -v}, E4, s);
  o[i] = __amd_extract_fp8(p, 0);
  o[n + i] = __amd_extract_fp8(p, 1);
  o[2 * n + i] =
      (unsigned char)__amd_cvt_floatx2_to_fp8x2_scale(__amd_floatx2_storage_t{v, v}, E5, s);
  o[3 * n + i] = __amd_cvt_float_to_fp8_sr_scale(v, E4, sd, s);
  o[4 * n + i] = __amd_cvt_float_to_fp8_sr_scale(v, E5, sd, s);
  o[5 * n + i] = __amd_cvt_floatx2_to_fp4x2_scale(__amd_floatx2_storage_t{v, 2.0f * v}, E2, s);
  o[6 * n + i] = __amd_cvt_floatx2_to_fp4x2_sr_scale(__amd_floatx2_storage_t{v, -v}, E2, sd, s);
  o[7 * n + i] = __amd_cvt_fp16_to_fp8_sr_scale((_Float16)v, E4, sd, s);
  o[8 * n + i] = __amd_cvt_bf16_to_fp8_sr_scale((__bf16)v, E5, sd, s);
  o[9 * n + i] = __amd_cvt_float_to_fp8_sr(v, E4, sd);
  o[10 * n + i] = (unsigned char)__amd_cvt_floatx2_to_fp8x2(__amd_floatx2_storage_t{v, v}, E4);
  unsigned int c = (unsigned int)i & 255u;
  f[i] = __amd_cvt_fp8_to_float_scale((__amd_fp8_storage_t)c, E4, s);
  __amd_fp8x2_storage_t pair = (__amd_fp8x2_storage_t)(c | ((255u - c) << 8));
  f[n + i] = __amd_cvt_fp8x2_to_floatx2_scale(pair, E5, s)[1];
  f[2 * n + i] = __amd_cvt_fp4x2_to_floatx2_scale((__amd_fp4x2_storage_t)c, E2, s)[1];
  f[3 * n + i] = (float)__amd_cvt_fp8x2_to_fp16x2_scale((__amd_fp8x2_storage_t)c, E4, s)[0];
  f[4 * n + i] = (float)__amd_cvt_fp8x2_to_bf16x2_scale((__amd_fp8x2_storage_t)c, E5, s)[0];
  f[5 * n + i] = __amd_cvt_fp8_to_float((__amd_fp8_storage_t)c, E5);
}

// HIP's fp4 / fp6 types (ROCm 7): value -> code -> value
__global__ void small(const float *xs, unsigned char *o, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = xs[i];
  __hip_fp4_e2m1 a(v);
  __hip_fp6_e2m3 b(v);
  __hip_fp6_e3m2 c(v);
  __hip_fp4x2_e2m1 d(make_float2(v, -v));
  o[i] = a.__x; o[n + i] = b.__x; o[2 * n + i] = c.__x; o[3 * n + i] = d.__x;
  f[i] = a; f[n + i] = b; f[2 * n + i] = c;
  float2 dd = d;
  f[3 * n + i] = dd.y;
}
"""

E4, E5, E2 = "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn"


@pytest.fixture(scope="module", params=["gfx950", "gfx942"])
def mod(request):
    return workbench.compile(SRC, request.param)


def _cases(n=1536, seed=3):
    rng = np.random.default_rng(seed)
    vals = np.concatenate([MX_TABLES[E4][np.isfinite(MX_TABLES[E4])], MX_TABLES[E2]])
    x = rng.choice(vals, n) * np.exp2(rng.integers(-3, 4, n))
    x = np.where(rng.random(n) < 0.5, x, rng.standard_normal(n) * np.exp2(rng.integers(-8, 9, n)))
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-30]
    scales = rng.integers(-6, 7, n).astype(np.int8)
    seeds = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    return x.astype(np.float32), seeds, scales


def _enc(x, fmt, s):
    y = np.asarray(x, np.float64) * np.exp2(-s.astype(np.float64))
    return encode_rne(y, fmt).astype(np.uint8)


def _enc_sr(x, fmt, seeds, s, src_man=23):
    return encode_sr(np.asarray(x, np.float64) * np.exp2(-s.astype(np.float64)), seeds, fmt,
                     src_man).astype(np.uint8)


def _dec(codes, fmt, s):
    v = MX_TABLES[fmt][np.asarray(codes) & (len(MX_TABLES[fmt]) - 1)]
    with np.errstate(over="ignore", invalid="ignore"):
        return (v * np.exp2(s.astype(np.float64))).astype(np.float32)


def _same(got, want, what):
    bad = np.flatnonzero(~((got == want) | (np.isnan(got) & np.isnan(want)))
                         if got.dtype.kind == "f" else got != want)
    assert bad.size == 0, (f"{what}: {bad.size} differ, first at {bad[:4]}: {got[bad[:4]]} vs "
                           f"{want[bad[:4]]}")


def test_scaled_and_stochastic_conversions(mod):
    x, seeds, s = _cases()
    n = x.size
    o = np.zeros(11 * n, np.uint8)
    f = np.zeros(6 * n, np.float32)
    mod.ocp[(n + 255) // 256, 256](x, seeds, s, o, f, n)
    o = o.reshape(11, n)
    f = f.reshape(6, n)
    _same(o[0], _enc(x, E4, s), "floatx2 -> fp8x2 scaled, element 0")
    _same(o[1], _enc(-x, E4, s), "floatx2 -> fp8x2 scaled, element 1 in the high byte")
    _same(o[2], _enc(x, E5, s), "floatx2 -> bf8x2 scaled")
    _same(o[3], _enc_sr(x, E4, seeds, s), "float -> fp8 stochastic, scaled")
    _same(o[4], _enc_sr(x, E5, seeds, s), "float -> bf8 stochastic, scaled")
    lo, hi = _enc(x, E2, s), _enc(2.0 * x.astype(np.float64), E2, s)
    _same(o[5], lo | hi << 4, "floatx2 -> fp4x2 scaled (element 0 in the low nibble)")
    _same(o[6], _enc_sr(x, E2, seeds, s) | _enc_sr(-x.astype(np.float64), E2, seeds, s) << 4,
          "floatx2 -> fp4x2 stochastic (one seed for both)")
    with np.errstate(over="ignore"):
        h = x.astype(np.float16)
    _same(o[7], _enc_sr(h, E4, seeds, s, src_man=10), "fp16 -> fp8 stochastic (10 source bits)")
    bf = (x.view(np.uint32) + 0x7FFF + ((x.view(np.uint32) >> 16) & 1)) >> 16 << 16
    bf = np.where(np.isnan(x), np.nan, bf.view(np.float32))
    _same(o[8], _enc_sr(bf, E5, seeds, s, src_man=7), "bf16 -> bf8 stochastic (7 source bits)")
    zero = np.zeros(n, np.int8)
    _same(o[9], _enc_sr(x, E4, seeds, zero), "float -> fp8 stochastic (v_cvt_sr_fp8_f32)")
    _same(o[10], _enc(x, E4, zero), "floatx2 -> fp8x2")
    c = np.arange(n) & 255
    _same(f[0], _dec(c, E4, s), "fp8 -> float scaled")
    _same(f[1], _dec(255 - c, E5, s), "bf8x2 -> floatx2 scaled, element 1")
    _same(f[2], _dec(c >> 4, E2, s), "fp4x2 -> floatx2 scaled, element 1 = high nibble")
    _same(f[3], _dec(c, E4, s).astype(np.float16).astype(np.float32), "fp8 -> fp16 scaled")
    bfd = _dec(c, E5, s)
    _same(f[4], bfd, "bf8 -> bf16 scaled (exact: bf16 holds every bf8 value times 2^s)")
    _same(f[5], _dec(c, E5, zero), "bf8 -> float")


def _small(mod):
    rng = np.random.default_rng(11)
    x = np.concatenate([MX_TABLES["float6_e3m2fn"], MX_TABLES["float6_e2m3fn"],
                        rng.standard_normal(512) * 4, [np.inf, -np.inf, 100.0, -100.0]])
    x = x.astype(np.float32)
    n = x.size
    o = np.zeros(4 * n, np.uint8)
    f = np.zeros(4 * n, np.float32)
    mod.small[(n + 127) // 128, 128](x, o, f, n)
    return x, o.reshape(4, n), f.reshape(4, n), np.zeros(n, np.int8)


def test_hip_fp4_fp6_types(mod):
    x, o, f, zero = _small(mod)
    for row, fmt in ((0, E2), (1, "float6_e2m3fn"), (2, "float6_e3m2fn")):
        want = _enc(x, fmt, zero)
        _same(o[row], want, fmt)
        _same(f[row], _dec(want, fmt, zero), fmt + " back to float")
    _same(o[3], _enc(x, E2, zero) | _enc(-x.astype(np.float64), E2, zero) << 4, "fp4x2")


def test_hip_fp4x2_to_float2(mod):
    # On gfx950 clang allocates `v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, 1.0` here: the decode's
    # destination over its source (tests/emu/test_emu_cvtscale_alias.py checks that family).
    x, _o, f, zero = _small(mod)
    _same(f[3], _dec(_enc(-x.astype(np.float64), E2, zero), E2, zero), "fp4x2 -> float2 .y")
