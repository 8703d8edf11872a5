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
__HIPWB_MATH_FN float __hipwb_reduce_pio2_large(float __x, int *__quadrant) {
  static const unsigned int __two_over_pi[8] = __HIPWB_TWO_OVER_PI_BITS;
  unsigned int __bits = __builtin_bit_cast(unsigned int, __x) & 0x7FFFFFFFu;
  int __e = (int)(__bits >> 23) - 150;                     /* x = m * 2^e */
  unsigned long long __m = (__bits & 0x7FFFFFu) | 0x800000u; /* 24-bit significand */
  int __s = __e - 1 > 1 ? __e - 1 : 1;                        /* first relevant bit (1-based) */
  int __k = (__s - 1) >> 5, __b = (__s - 1) & 31;
  unsigned int __w[3];
  for (int __j = 0; __j < 3; ++__j) {
    unsigned long long __pair =
        ((unsigned long long)__two_over_pi[__k + __j] << 32) | __two_over_pi[__k + __j + 1];
    __w[__j] = (unsigned int)(__pair >> (32 - __b));
  }
  /* P = m * (w0:w1:w2) as hi:lo 64-bit halves. */
  unsigned long long __p2 = __m * __w[2], __p1 = __m * __w[1], __p0 = __m * __w[0];
  unsigned long long __lo = __p2 + (__p1 << 32);
  unsigned long long __hi = __p0 + (__p1 >> 32) + (__lo < __p2 ? 1u : 0u);
  int __bp = __s + 95 - __e; /* binary point of P: 94 .. 103 */
  int __sh = __bp - 64;    /* 30 .. 39 */
  int __q = (int)(__hi >> __sh) & 3;
  unsigned long long __frac = (__lo >> __sh) | (__hi << (64 - __sh)); /* 64 bits below the point */
  long long __sfrac = (long long)__frac; /* >= 0.5 reads as negative: round q up, r < 0 */
  if (__sfrac < 0) __q = (__q + 1) & 3;
  double __r = (double)__sfrac * 0x1p-64 * 1.5707963267948966; /* fraction * pi/2 */
  if (__x < 0.0f) {
    __r = -__r;
    __q = (4 - __q) & 3;
  }
  *__quadrant = __q;
  return (float)__r;
}

/* Cody-Waite reduction for |x| < 2^17 with pi/2 = P1 + P2 + P3 (each the float nearest the
 * remainder of the previous ones, 0x3FC90FDB, 0xB33BBD2E, 0xA6F72CED). q*P1 is exact inside the
 * fma and x - q*P1 is a multiple of 2^-23 smaller than 2, hence exact; the later steps round
 * relative to r itself. q = rint(x*2/pi) is off by at most 0.005 below 2^17, so |r| < 0.8. */
__HIPWB_MATH_FN float __hipwb_reduce_pio2(float __x, int *__quadrant) {
  if (!(__builtin_fabsf(__x) < 0x1p17f)) {
    if (!__builtin_isfinite(__x)) {
      *__quadrant = 0;
      return __x - __x; /* NaN for +-inf and NaN */
    }
    return __hipwb_reduce_pio2_large(__x, __quadrant);
  }
  float __q = __builtin_rintf(__x * 0.636619772367581343f);
  float __r = __builtin_fmaf(-__q, 1.57079637050628662109375f, __x);
  __r = __builtin_fmaf(-__q, -4.37113882867379835807e-08f, __r);
  __r = __builtin_fmaf(-__q, -1.71512451530289358674e-15f, __r);
  *__quadrant = (int)__q & 3;
  return __q == 0.0f ? __x : __r; /* keeps the sign of -0 */
}

/* sin(r) and cos(r) for |r| < 0.8: Taylor polynomials (exact rational coefficients, folded at
 * compile time). Truncation error < 3e-9 relative for sin (up to r^9) and < 2e-10 for cos (up to
 * r^10), both far below float's 6e-8. */
__HIPWB_MATH_FN float __hipwb_sin_poly(float __r) {
  float __s = __r * __r;
  float __p = (float)(1.0 / 362880.0);
  __p = __builtin_fmaf(__p, __s, (float)(-1.0 / 5040.0));
  __p = __builtin_fmaf(__p, __s, (float)(1.0 / 120.0));
  __p = __builtin_fmaf(__p, __s, (float)(-1.0 / 6.0));
  /* sin r has the sign of r; copysign keeps it for r = -0 too (the sum of zeros would not) */
  return __builtin_copysignf(__builtin_fmaf(__r * __s, __p, __r), __r);
}
__HIPWB_MATH_FN float __hipwb_cos_poly(float __r) {
  float __s = __r * __r;
  float __p = (float)(-1.0 / 3628800.0);
  __p = __builtin_fmaf(__p, __s, (float)(1.0 / 40320.0));
  __p = __builtin_fmaf(__p, __s, (float)(-1.0 / 720.0));
  __p = __builtin_fmaf(__p, __s, (float)(1.0 / 24.0));
  __p = __builtin_fmaf(__p, __s, -0.5f);
  return __builtin_fmaf(__s, __p, 1.0f);
}

/* sinf / cosf / sincosf: full range (Payne-Hanek above 2^17); within 2 ulp. */
__HIPWB_MATH_FN void __hipwb_sincosf(float __x, float *__sin_out, float *__cos_out) {
  int __q;
  float __r = __hipwb_reduce_pio2(__x, &__q);
  float __s = __hipwb_sin_poly(__r), __c = __hipwb_cos_poly(__r);
  float __sn = (__q & 1) ? __c : __s, __cs = (__q & 1) ? __s : __c;
  *__sin_out = (__q & 2) ? -__sn : __sn;
  *__cos_out = ((__q + 1) & 2) ? -__cs : __cs;
}
__HIPWB_MATH_FN float __hipwb_sinf(float __x) {
  int __q;
  float __r = __hipwb_reduce_pio2(__x, &__q);
  float __v = (__q & 1) ? __hipwb_cos_poly(__r) : __hipwb_sin_poly(__r);
  return (__q & 2) ? -__v : __v;
}
__HIPWB_MATH_FN float __hipwb_cosf(float __x) {
  int __q;
  float __r = __hipwb_reduce_pio2(__x, &__q);
  float __v = (__q & 1) ? __hipwb_sin_poly(__r) : __hipwb_cos_poly(__r);
  return ((__q + 1) & 2) ? -__v : __v;
}
/* tanf: sin(r)/cos(r), or -cos(r)/sin(r) in odd quadrants; within 3 ulp. */
__HIPWB_MATH_FN float __hipwb_tanf(float __x) {
  int __q;
  float __r = __hipwb_reduce_pio2(__x, &__q);
  float __s = __hipwb_sin_poly(__r), __c = __hipwb_cos_poly(__r);
  return (__q & 1) ? -__c / __s : __s / __c;
}

/* ---------------------------------------------------------------------------------------------
 * tanhf: odd Taylor polynomial below 0.55 (terms to x^17, truncation < 6e-9 relative), and
 * 1 - 2/(e^(2|x|) + 1) above (no cancellation there: the result is >= 0.5); 1 beyond 9.1, where
 * tanh rounds to 1.0f. Within 2 ulp.
 * ------------------------------------------------------------------------------------------- */
__HIPWB_MATH_FN float __hipwb_tanhf(float __x) {
  float __t = __builtin_fabsf(__x);
  float __v;
  if (__t >= 9.1f) {
    __v = 1.0f;
  } else if (__t < 0.55f) {
    float __s = __t * __t;
    float __p = (float)(6404582.0 / 10854718875.0);
    __p = __builtin_fmaf(__p, __s, (float)(-929569.0 / 638512875.0));
    __p = __builtin_fmaf(__p, __s, (float)(21844.0 / 6081075.0));
    __p = __builtin_fmaf(__p, __s, (float)(-1382.0 / 155925.0));
    __p = __builtin_fmaf(__p, __s, (float)(62.0 / 2835.0));
    __p = __builtin_fmaf(__p, __s, (float)(-17.0 / 315.0));
    __p = __builtin_fmaf(__p, __s, (float)(2.0 / 15.0));
    __p = __builtin_fmaf(__p, __s, (float)(-1.0 / 3.0));
    __v = __builtin_fmaf(__t * __s, __p, __t);
  } else {
    __v = 1.0f - 2.0f / (__builtin_expf(2.0f * __t) + 1.0f); /* NaN stays NaN */
  }
  return __builtin_copysignf(__v, __x);
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
__HIPWB_MATH_FN double __hipwb_log2_abs(float __x) {
  unsigned int __bits = __builtin_bit_cast(unsigned int, __x) & 0x7FFFFFFFu;
  int __e = 0;
  if (__bits < 0x00800000u) { /* subnormal: scale by 2^24 first */
    __bits = __builtin_bit_cast(unsigned int, __builtin_bit_cast(float, __bits) * 0x1p24f);
    __e = -24;
  }
  __e += (int)(__bits >> 23) - 127;
  unsigned int __mbits = (__bits & 0x7FFFFFu) | 0x3F800000u; /* m in [1, 2) */
  if (__mbits > 0x3FB504F3u) { /* m > sqrt(2): use m/2 */
    __mbits -= 0x00800000u;
    __e += 1;
  }
  double __m = (double)__builtin_bit_cast(float, __mbits);
  double __s = (__m - 1.0) / (__m + 1.0);
  double __s2 = __s * __s;
  double __p = 1.0 / 17.0;
  __p = __builtin_fma(__p, __s2, 1.0 / 15.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 13.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 11.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 9.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 7.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 5.0);
  __p = __builtin_fma(__p, __s2, 1.0 / 3.0);
  double __ln_m = 2.0 * __builtin_fma(__s * __s2, __p, __s);
  return (double)__e + __ln_m * 1.4426950408889634; /* 1/ln 2 */
}

/* 0: y not an integer, 1: odd integer, 2: even integer (y finite). */
__HIPWB_MATH_FN int __hipwb_integer_kind(float __y) {
  if (__builtin_rintf(__y) != __y) return 0;
  if (__builtin_fabsf(__y) >= 0x1p24f) return 2; /* floats this large are even */
  return ((int)__y & 1) ? 1 : 2;
}

__HIPWB_MATH_FN float __hipwb_powf(float __x, float __y) {
  if (__y == 0.0f || __x == 1.0f) return 1.0f;
  if (__builtin_isnan(__x) || __builtin_isnan(__y)) return __x + __y;
  float __ax = __builtin_fabsf(__x);
  if (__builtin_isinf(__y)) {
    if (__ax == 1.0f) return 1.0f;
    return (__ax > 1.0f) == (__y > 0.0f) ? __builtin_inff() : 0.0f;
  }
  int __kind = __hipwb_integer_kind(__y);
  bool __negative = __builtin_signbit(__x) && __kind == 1;
  if (__x < 0.0f && !__builtin_isinf(__x) && __kind == 0) return __builtin_nanf("");
  float __mag;
  if (__ax == 0.0f) {
    __mag = __y > 0.0f ? 0.0f : __builtin_inff();
  } else if (__builtin_isinf(__ax)) {
    __mag = __y > 0.0f ? __builtin_inff() : 0.0f;
  } else {
    double __t = (double)__y * __hipwb_log2_abs(__x);
    if (__t >= 128.0) {
      __mag = __builtin_inff();
    } else if (__t < -151.0) {
      __mag = 0.0f;
    } else {
      double __n = __builtin_rint(__t);
      double __f = __t - __n; /* exact, |f| <= 1/2 */
      float __fh = (float)__f;
      double __fl = __f - (double)__fh;
      double __p = (double)__builtin_exp2f(__fh) * __builtin_fma(__fl, 0.6931471805599453, 1.0);
      __mag = (float)__builtin_ldexp(__p, (int)__n);
    }
  }
  return __negative ? -__mag : __mag;
}

#endif /* HIPWB_MATH_INLINE_H */
