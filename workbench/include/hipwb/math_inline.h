/* hipwb/math_inline.h — inline implementations of float functions that LLVM cannot lower
 * without a math library: tanhf, powf, sinf, cosf, sincosf, tanf.
 *
 * With -nogpulib there is no ROCm ocml library, and the AMDGPU backend only lowers a few math
 * intrinsics itself (exp/exp2/log/log2/log10/sqrt/fma/min/max/rounding, using v_exp_f32,
 * v_log_f32, v_sqrt_f32 ... plus range/denormal fix-ups). Everything else would become a call to
 * an undefined `tanhf`, `powf`, `sinf`, ..., so this file builds them from those primitives.
 *
 * Only generic clang builtins are used (no __builtin_amdgcn_*), so the same code also compiles
 * for the host: tests/prelude/test_prelude.py builds it into a small shared library and compares it with
 * numpy in float64 (the device differs only in the accuracy of exp2/exp, about 1 ulp).
 * Accuracy, measured that way: see the per-function comments (ulp = float32 unit in the last
 * place of the correctly rounded result).
 *
 * Define __HIPWB_MATH_FN before including to change the function prefix (the host test does).
 */
#ifndef HIPWB_MATH_INLINE_H
#define HIPWB_MATH_INLINE_H

#ifndef __HIPWB_MATH_FN
#include "config.h"
#define __HIPWB_MATH_FN __HIPWB_FN
#endif

/* ---------------------------------------------------------------------------------------------
 * Trigonometric argument reduction: x = q * pi/2 + r with |r| <= ~pi/4 (a little more at large
 * |x| because q is rounded in float), returning r and q (only q mod 4 matters).
 * ------------------------------------------------------------------------------------------- */

/* Bits of 2/pi, most significant first: 2/pi = 0.A2F9836E 4E441529 ... (hex fraction).
 * Computed with mpmath at 800 bits; tests/prelude/test_prelude.py recomputes and compares them. */
#define __HIPWB_TWO_OVER_PI_BITS                                                             \
  {0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u, 0xFE5163ABu, \
   0xDEBBC561u}

/* Large |x| (>= 2^17, finite): Payne-Hanek reduction. x = M * 2^E with M a 24-bit integer;
 * x * 2/pi mod 4 only depends on the bits of 2/pi from position E-1 on (earlier bits contribute
 * multiples of 4), so a 96-bit window W of those bits times M (a 120-bit integer product) gives
 * the quadrant (2 bits above the binary point) and at least 64 fraction bits. */
__HIPWB_MATH_FN float __hipwb_reduce_pio2_large(float x, int *quadrant) {
  static const unsigned int two_over_pi[8] = __HIPWB_TWO_OVER_PI_BITS;
  unsigned int bits = __builtin_bit_cast(unsigned int, x) & 0x7FFFFFFFu;
  int e = (int)(bits >> 23) - 150;                     /* x = m * 2^e */
  unsigned long long m = (bits & 0x7FFFFFu) | 0x800000u; /* 24-bit significand */
  int s = e - 1 > 1 ? e - 1 : 1;                        /* first relevant bit (1-based) */
  int k = (s - 1) >> 5, b = (s - 1) & 31;
  unsigned int w[3];
  for (int j = 0; j < 3; ++j) {
    unsigned long long pair =
        ((unsigned long long)two_over_pi[k + j] << 32) | two_over_pi[k + j + 1];
    w[j] = (unsigned int)(pair >> (32 - b));
  }
  /* P = m * (w0:w1:w2) as hi:lo 64-bit halves. */
  unsigned long long p2 = m * w[2], p1 = m * w[1], p0 = m * w[0];
  unsigned long long lo = p2 + (p1 << 32);
  unsigned long long hi = p0 + (p1 >> 32) + (lo < p2 ? 1u : 0u);
  int bp = s + 95 - e; /* binary point of P: 94 .. 103 */
  int sh = bp - 64;    /* 30 .. 39 */
  int q = (int)(hi >> sh) & 3;
  unsigned long long frac = (lo >> sh) | (hi << (64 - sh)); /* 64 bits below the point */
  long long sfrac = (long long)frac; /* >= 0.5 reads as negative: round q up, r < 0 */
  if (sfrac < 0) q = (q + 1) & 3;
  double r = (double)sfrac * 0x1p-64 * 1.5707963267948966; /* fraction * pi/2 */
  if (x < 0.0f) {
    r = -r;
    q = (4 - q) & 3;
  }
  *quadrant = q;
  return (float)r;
}

/* Cody-Waite reduction for |x| < 2^17 with pi/2 = P1 + P2 + P3 (each the float nearest the
 * remainder of the previous ones, 0x3FC90FDB, 0xB33BBD2E, 0xA6F72CED). q*P1 is exact inside the
 * fma and x - q*P1 is a multiple of 2^-23 smaller than 2, hence exact; the later steps round
 * relative to r itself. q = rint(x*2/pi) is off by at most 0.005 below 2^17, so |r| < 0.8. */
__HIPWB_MATH_FN float __hipwb_reduce_pio2(float x, int *quadrant) {
  if (!(__builtin_fabsf(x) < 0x1p17f)) {
    if (!__builtin_isfinite(x)) {
      *quadrant = 0;
      return x - x; /* NaN for +-inf and NaN */
    }
    return __hipwb_reduce_pio2_large(x, quadrant);
  }
  float q = __builtin_rintf(x * 0.636619772367581343f);
  float r = __builtin_fmaf(-q, 1.57079637050628662109375f, x);
  r = __builtin_fmaf(-q, -4.37113882867379835807e-08f, r);
  r = __builtin_fmaf(-q, -1.71512451530289358674e-15f, r);
  *quadrant = (int)q & 3;
  return q == 0.0f ? x : r; /* keeps the sign of -0 */
}

/* sin(r) and cos(r) for |r| < 0.8: Taylor polynomials (exact rational coefficients, folded at
 * compile time). Truncation error < 3e-9 relative for sin (up to r^9) and < 2e-10 for cos (up to
 * r^10), both far below float's 6e-8. */
__HIPWB_MATH_FN float __hipwb_sin_poly(float r) {
  float s = r * r;
  float p = (float)(1.0 / 362880.0);
  p = __builtin_fmaf(p, s, (float)(-1.0 / 5040.0));
  p = __builtin_fmaf(p, s, (float)(1.0 / 120.0));
  p = __builtin_fmaf(p, s, (float)(-1.0 / 6.0));
  /* sin r has the sign of r; copysign keeps it for r = -0 too (the sum of zeros would not) */
  return __builtin_copysignf(__builtin_fmaf(r * s, p, r), r);
}
__HIPWB_MATH_FN float __hipwb_cos_poly(float r) {
  float s = r * r;
  float p = (float)(-1.0 / 3628800.0);
  p = __builtin_fmaf(p, s, (float)(1.0 / 40320.0));
  p = __builtin_fmaf(p, s, (float)(-1.0 / 720.0));
  p = __builtin_fmaf(p, s, (float)(1.0 / 24.0));
  p = __builtin_fmaf(p, s, -0.5f);
  return __builtin_fmaf(s, p, 1.0f);
}

/* sinf / cosf / sincosf: full range (Payne-Hanek above 2^17); within 2 ulp. */
__HIPWB_MATH_FN void __hipwb_sincosf(float x, float *sin_out, float *cos_out) {
  int q;
  float r = __hipwb_reduce_pio2(x, &q);
  float s = __hipwb_sin_poly(r), c = __hipwb_cos_poly(r);
  float sn = (q & 1) ? c : s, cs = (q & 1) ? s : c;
  *sin_out = (q & 2) ? -sn : sn;
  *cos_out = ((q + 1) & 2) ? -cs : cs;
}
__HIPWB_MATH_FN float __hipwb_sinf(float x) {
  int q;
  float r = __hipwb_reduce_pio2(x, &q);
  float v = (q & 1) ? __hipwb_cos_poly(r) : __hipwb_sin_poly(r);
  return (q & 2) ? -v : v;
}
__HIPWB_MATH_FN float __hipwb_cosf(float x) {
  int q;
  float r = __hipwb_reduce_pio2(x, &q);
  float v = (q & 1) ? __hipwb_sin_poly(r) : __hipwb_cos_poly(r);
  return ((q + 1) & 2) ? -v : v;
}
/* tanf: sin(r)/cos(r), or -cos(r)/sin(r) in odd quadrants; within 3 ulp. */
__HIPWB_MATH_FN float __hipwb_tanf(float x) {
  int q;
  float r = __hipwb_reduce_pio2(x, &q);
  float s = __hipwb_sin_poly(r), c = __hipwb_cos_poly(r);
  return (q & 1) ? -c / s : s / c;
}

/* ---------------------------------------------------------------------------------------------
 * tanhf: odd Taylor polynomial below 0.55 (terms to x^17, truncation < 6e-9 relative), and
 * 1 - 2/(e^(2|x|) + 1) above (no cancellation there: the result is >= 0.5); 1 beyond 9.1, where
 * tanh rounds to 1.0f. Within 2 ulp.
 * ------------------------------------------------------------------------------------------- */
__HIPWB_MATH_FN float __hipwb_tanhf(float x) {
  float t = __builtin_fabsf(x);
  float v;
  if (t >= 9.1f) {
    v = 1.0f;
  } else if (t < 0.55f) {
    float s = t * t;
    float p = (float)(6404582.0 / 10854718875.0);
    p = __builtin_fmaf(p, s, (float)(-929569.0 / 638512875.0));
    p = __builtin_fmaf(p, s, (float)(21844.0 / 6081075.0));
    p = __builtin_fmaf(p, s, (float)(-1382.0 / 155925.0));
    p = __builtin_fmaf(p, s, (float)(62.0 / 2835.0));
    p = __builtin_fmaf(p, s, (float)(-17.0 / 315.0));
    p = __builtin_fmaf(p, s, (float)(2.0 / 15.0));
    p = __builtin_fmaf(p, s, (float)(-1.0 / 3.0));
    v = __builtin_fmaf(t * s, p, t);
  } else {
    v = 1.0f - 2.0f / (__builtin_expf(2.0f * t) + 1.0f); /* NaN stays NaN */
  }
  return __builtin_copysignf(v, x);
}

/* ---------------------------------------------------------------------------------------------
 * powf: exp2(y * log2|x|) with log2|x| and the product in double (relative error ~1e-15, so
 * the exponent t is exact to far below float resolution even at |t| = 150), then
 * 2^t = 2^n * 2^f (n = rint t, |f| <= 1/2) with 2^f from exp2f of f's float part times a
 * first-order correction for the remaining bits. Within 2 ulp. Special cases follow C99 F.9.4.4.
 * ------------------------------------------------------------------------------------------- */

/* log2|x| in double for finite x != 0: x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh(s) = 2 (s + s^3/3 + ... + s^17/17) with s = (m-1)/(m+1), |s| < 0.1716 (the next
 * term is below 1e-15 relative). */
__HIPWB_MATH_FN double __hipwb_log2_abs(float x) {
  unsigned int bits = __builtin_bit_cast(unsigned int, x) & 0x7FFFFFFFu;
  int e = 0;
  if (bits < 0x00800000u) { /* subnormal: scale by 2^24 first */
    bits = __builtin_bit_cast(unsigned int, __builtin_bit_cast(float, bits) * 0x1p24f);
    e = -24;
  }
  e += (int)(bits >> 23) - 127;
  unsigned int mbits = (bits & 0x7FFFFFu) | 0x3F800000u; /* m in [1, 2) */
  if (mbits > 0x3FB504F3u) { /* m > sqrt(2): use m/2 */
    mbits -= 0x00800000u;
    e += 1;
  }
  double m = (double)__builtin_bit_cast(float, mbits);
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s;
  double p = 1.0 / 17.0;
  p = __builtin_fma(p, s2, 1.0 / 15.0);
  p = __builtin_fma(p, s2, 1.0 / 13.0);
  p = __builtin_fma(p, s2, 1.0 / 11.0);
  p = __builtin_fma(p, s2, 1.0 / 9.0);
  p = __builtin_fma(p, s2, 1.0 / 7.0);
  p = __builtin_fma(p, s2, 1.0 / 5.0);
  p = __builtin_fma(p, s2, 1.0 / 3.0);
  double ln_m = 2.0 * __builtin_fma(s * s2, p, s);
  return (double)e + ln_m * 1.4426950408889634; /* 1/ln 2 */
}

/* 0: y not an integer, 1: odd integer, 2: even integer (y finite). */
__HIPWB_MATH_FN int __hipwb_integer_kind(float y) {
  if (__builtin_rintf(y) != y) return 0;
  if (__builtin_fabsf(y) >= 0x1p24f) return 2; /* floats this large are even */
  return ((int)y & 1) ? 1 : 2;
}

__HIPWB_MATH_FN float __hipwb_powf(float x, float y) {
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  float ax = __builtin_fabsf(x);
  if (__builtin_isinf(y)) {
    if (ax == 1.0f) return 1.0f;
    return (ax > 1.0f) == (y > 0.0f) ? __builtin_inff() : 0.0f;
  }
  int kind = __hipwb_integer_kind(y);
  bool negative = __builtin_signbit(x) && kind == 1;
  if (x < 0.0f && !__builtin_isinf(x) && kind == 0) return __builtin_nanf("");
  float mag;
  if (ax == 0.0f) {
    mag = y > 0.0f ? 0.0f : __builtin_inff();
  } else if (__builtin_isinf(ax)) {
    mag = y > 0.0f ? __builtin_inff() : 0.0f;
  } else {
    double t = (double)y * __hipwb_log2_abs(x);
    if (t >= 128.0) {
      mag = __builtin_inff();
    } else if (t < -151.0) {
      mag = 0.0f;
    } else {
      double n = __builtin_rint(t);
      double f = t - n; /* exact, |f| <= 1/2 */
      float fh = (float)f;
      double fl = f - (double)fh;
      double p = (double)__builtin_exp2f(fh) * __builtin_fma(fl, 0.6931471805599453, 1.0);
      mag = (float)__builtin_ldexp(p, (int)n);
    }
  }
  return negative ? -mag : mag;
}

#endif /* HIPWB_MATH_INLINE_H */
