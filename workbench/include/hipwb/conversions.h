/* hipwb/conversions.h — HIP's bit casts and rounding-mode conversions (CUDA-compatible names).
 *
 * Bit casts (no conversion, the same bits read as another type; __builtin_bit_cast):
 *   __float_as_int __float_as_uint __int_as_float __uint_as_float
 *   __double_as_longlong __longlong_as_double __double2hiint __double2loint __hiloint2double
 * Conversions with an explicit rounding mode (_rn nearest-even, _rz toward zero, _rd toward
 * -inf, _ru toward +inf), as ROCm's amd_device_functions.h declares them:
 *   float/double -> int/uint/ll/ull:  __float2int_rn ... __double2ull_ru
 *   int/uint/ll/ull -> float:          __int2float_rn ... __ull2float_ru
 *   ll/ull -> double:                  __ll2double_rn ... __ull2double_ru; __int2double_rn,
 *                                      __uint2double_rn (always exact)
 *   double -> float:                   __double2float_rn ... __double2float_ru
 *   float arithmetic:                  __fadd/__fsub/__fmul/__fdiv/__frcp/__fsqrt/__fmaf with
 *                                      _rz/_rd/_ru (the _rn forms are in math.h), __frsqrt_rn
 * Float-to-integer forms round with rint/floor/ceil/trunc and then convert (exact); out-of-range
 * results are undefined, as in C and in HIP. Integer/double-to-float forms convert once with
 * round-to-nearest-even (the instruction clang emits) and then step one ulp toward the wanted
 * direction when the nearest value lies on the wrong side of the exact one, which gives the
 * correctly rounded directed result (the exact value lies between two neighbouring floats).
 */
#ifndef HIPWB_CONVERSIONS_H
#define HIPWB_CONVERSIONS_H

#include "config.h"

__HIPWB_FN_INLINE int __float_as_int(float __x) { return __builtin_bit_cast(int, __x); }
__HIPWB_FN_INLINE unsigned int __float_as_uint(float __x) {
  return __builtin_bit_cast(unsigned int, __x);
}
__HIPWB_FN_INLINE float __int_as_float(int __x) { return __builtin_bit_cast(float, __x); }
__HIPWB_FN_INLINE float __uint_as_float(unsigned int __x) { return __builtin_bit_cast(float, __x); }
__HIPWB_FN_INLINE long long __double_as_longlong(double __x) {
  return __builtin_bit_cast(long long, __x);
}
__HIPWB_FN_INLINE double __longlong_as_double(long long __x) {
  return __builtin_bit_cast(double, __x);
}
__HIPWB_FN_INLINE int __double2hiint(double __x) {
  return (int)(__builtin_bit_cast(unsigned long long, __x) >> 32);
}
__HIPWB_FN_INLINE int __double2loint(double __x) {
  return (int)(unsigned int)__builtin_bit_cast(unsigned long long, __x);
}
__HIPWB_FN_INLINE double __hiloint2double(int __hi, int __lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned int)__hi << 32) |
                                        (unsigned int)__lo);
}

/* ---- float/double -> integer ---- */
#define __HIPWB_F2I(NAME, FT, IT, RN, RZ, RD, RU)                                             \
  __HIPWB_FN_INLINE IT NAME##_rn(FT __x) { return (IT)RN(__x); }                                \
  __HIPWB_FN_INLINE IT NAME##_rz(FT __x) { return (IT)RZ(__x); }                                \
  __HIPWB_FN_INLINE IT NAME##_rd(FT __x) { return (IT)RD(__x); }                                \
  __HIPWB_FN_INLINE IT NAME##_ru(FT __x) { return (IT)RU(__x); }
__HIPWB_F2I(__float2int, float, int, __builtin_rintf, __builtin_truncf, __builtin_floorf,
            __builtin_ceilf)
__HIPWB_F2I(__float2uint, float, unsigned int, __builtin_rintf, __builtin_truncf,
            __builtin_floorf, __builtin_ceilf)
__HIPWB_F2I(__float2ll, float, long long, __builtin_rintf, __builtin_truncf, __builtin_floorf,
            __builtin_ceilf)
__HIPWB_F2I(__float2ull, float, unsigned long long, __builtin_rintf, __builtin_truncf,
            __builtin_floorf, __builtin_ceilf)
__HIPWB_F2I(__double2int, double, int, __builtin_rint, __builtin_trunc, __builtin_floor,
            __builtin_ceil)
__HIPWB_F2I(__double2uint, double, unsigned int, __builtin_rint, __builtin_trunc,
            __builtin_floor, __builtin_ceil)
__HIPWB_F2I(__double2ll, double, long long, __builtin_rint, __builtin_trunc, __builtin_floor,
            __builtin_ceil)
__HIPWB_F2I(__double2ull, double, unsigned long long, __builtin_rint, __builtin_trunc,
            __builtin_floor, __builtin_ceil)
#undef __HIPWB_F2I

/* One ulp toward -inf (dir < 0) or +inf (dir > 0) of a non-NaN float/double; +-0 goes to the
 * smallest subnormal of that sign and +-inf to +-max (the neighbours directed rounding needs). */
__HIPWB_FN_INLINE float __hipwb_step_f32(float __f, int __dir) {
  unsigned int __b = __builtin_bit_cast(unsigned int, __f);
  if ((__b & 0x7FFFFFFFu) == 0)
    return __builtin_bit_cast(float, __dir > 0 ? 1u : 0x80000001u);
  bool __away = (__dir > 0) == !(__b >> 31);  /* moving away from zero grows the magnitude */
  return __builtin_bit_cast(float, __away ? __b + 1 : __b - 1);
}
__HIPWB_FN_INLINE double __hipwb_step_f64(double __f, int __dir) {
  unsigned long long __b = __builtin_bit_cast(unsigned long long, __f);
  if ((__b & 0x7FFFFFFFFFFFFFFFull) == 0)
    return __builtin_bit_cast(double, __dir > 0 ? 1ull : 0x8000000000000001ull);
  bool __away = (__dir > 0) == !(__b >> 63);
  return __builtin_bit_cast(double, __away ? __b + 1 : __b - 1);
}

/* cmp: the sign of (rounded - exact): > 0 when the nearest value lies above the exact one.
 * MODE: 0 nearest, 1 toward zero, 2 down, 3 up. */
__HIPWB_FN_INLINE float __hipwb_fix_f32(float __f, int __cmp, bool __neg, int __mode) {
  int __dir = __mode == 2 ? -1 : __mode == 3 ? 1 : (__neg ? 1 : -1);  /* toward zero: up if negative */
  if (__mode == 0 || __cmp == 0 || (__cmp > 0) != (__dir < 0))
    return __f;
  return __hipwb_step_f32(__f, __dir);
}
__HIPWB_FN_INLINE double __hipwb_fix_f64(double __f, int __cmp, bool __neg, int __mode) {
  int __dir = __mode == 2 ? -1 : __mode == 3 ? 1 : (__neg ? 1 : -1);
  if (__mode == 0 || __cmp == 0 || (__cmp > 0) != (__dir < 0))
    return __f;
  return __hipwb_step_f64(__f, __dir);
}
/* the sign of (r - x) for an integer-valued r (a float/double that x rounded to); 2^63 and 2^64
 * are the only rounded values outside the integer type's range, and both lie above every x. */
__HIPWB_FN_INLINE int __hipwb_cmp_ll(double __r, long long __x) {
  if (__r >= 0x1p63)
    return 1;
  long long __ri = (long long)__r;
  return (__ri > __x) - (__ri < __x);
}
__HIPWB_FN_INLINE int __hipwb_cmp_ull(double __r, unsigned long long __x) {
  if (__r >= 0x1p64)
    return 1;
  unsigned long long __ri = (unsigned long long)__r;
  return (__ri > __x) - (__ri < __x);
}

/* ---- integer -> float ---- */
#define __HIPWB_I2F(NAME, IT, CMP, NEG)                                                      \
  __HIPWB_FN_INLINE float NAME##_mode(IT __x, int __mode) {                                     \
    float __f = (float)__x;                                                                     \
    return __hipwb_fix_f32(__f, CMP, NEG, __mode);                                              \
  }                                                                                         \
  __HIPWB_FN_INLINE float NAME##_rn(IT __x) { return (float)__x; }                              \
  __HIPWB_FN_INLINE float NAME##_rz(IT __x) { return NAME##_mode(__x, 1); }                     \
  __HIPWB_FN_INLINE float NAME##_rd(IT __x) { return NAME##_mode(__x, 2); }                     \
  __HIPWB_FN_INLINE float NAME##_ru(IT __x) { return NAME##_mode(__x, 3); }
/* int/uint: a double holds x exactly, so the comparison is exact */
__HIPWB_I2F(__int2float, int, ((double)__f > (double)__x) - ((double)__f < (double)__x), __x < 0)
__HIPWB_I2F(__uint2float, unsigned int, ((double)__f > (double)__x) - ((double)__f < (double)__x),
            false)
__HIPWB_I2F(__ll2float, long long, __hipwb_cmp_ll((double)__f, __x), __x < 0)
__HIPWB_I2F(__ull2float, unsigned long long, __hipwb_cmp_ull((double)__f, __x), false)
#undef __HIPWB_I2F

/* ---- integer -> double ---- */
__HIPWB_FN_INLINE double __int2double_rn(int __x) { return (double)__x; }
__HIPWB_FN_INLINE double __uint2double_rn(unsigned int __x) { return (double)__x; }
#define __HIPWB_L2D(NAME, IT, CMP, NEG)                                                      \
  __HIPWB_FN_INLINE double NAME##_mode(IT __x, int __mode) {                                    \
    double __f = (double)__x;                                                                   \
    return __hipwb_fix_f64(__f, CMP, NEG, __mode);                                              \
  }                                                                                         \
  __HIPWB_FN_INLINE double NAME##_rn(IT __x) { return (double)__x; }                            \
  __HIPWB_FN_INLINE double NAME##_rz(IT __x) { return NAME##_mode(__x, 1); }                    \
  __HIPWB_FN_INLINE double NAME##_rd(IT __x) { return NAME##_mode(__x, 2); }                    \
  __HIPWB_FN_INLINE double NAME##_ru(IT __x) { return NAME##_mode(__x, 3); }
__HIPWB_L2D(__ll2double, long long, __hipwb_cmp_ll(__f, __x), __x < 0)
__HIPWB_L2D(__ull2double, unsigned long long, __hipwb_cmp_ull(__f, __x), false)
#undef __HIPWB_L2D

/* ---- double -> float ---- */
__HIPWB_FN_INLINE float __hipwb_d2f_mode(double __x, int __mode) {
  float __f = (float)__x;
  if (__x != __x)
    return __f;
  return __hipwb_fix_f32(__f, ((double)__f > __x) - ((double)__f < __x), __x < 0, __mode);
}
__HIPWB_FN_INLINE float __double2float_rn(double __x) { return (float)__x; }
__HIPWB_FN_INLINE float __double2float_rz(double __x) { return __hipwb_d2f_mode(__x, 1); }
__HIPWB_FN_INLINE float __double2float_rd(double __x) { return __hipwb_d2f_mode(__x, 2); }
__HIPWB_FN_INLINE float __double2float_ru(double __x) { return __hipwb_d2f_mode(__x, 3); }

/* ---- float arithmetic with a rounding mode: __fadd_rd ... __fmaf_rz, __frsqrt_rn ----
 * The nearest result r is computed as usual; an error-free transform gives the sign of
 * (r - exact): TwoSum's error for + and -, fma(a, b, -r) for *, the remainder fma(-r, b, a)
 * for / and fma(-r, r, a) for sqrt (exact while nothing underflows, so subnormal-range results
 * can be one ulp off), the double-precision sum for fma. Overflow to inf counts as above. */
__HIPWB_FN_INLINE int __hipwb_sgn(float __x) { return (__x > 0.0f) - (__x < 0.0f); }
__HIPWB_FN_INLINE int __hipwb_over(float __r) { return __r > 0.0f ? 1 : -1; }
__HIPWB_FN_INLINE float __hipwb_fadd_m(float __a, float __b, int __mode) {
  float __s = __a + __b;
  if (__builtin_isinf(__s) || __builtin_isnan(__s))
    return __builtin_isinf(__s) && !__builtin_isinf(__a) && !__builtin_isinf(__b)
               ? __hipwb_fix_f32(__s, __hipwb_over(__s), __s < 0.0f, __mode) : __s;
  float __bb = __s - __a;
  float __err = (__a - (__s - __bb)) + (__b - __bb);  /* exact: a + b = s + err */
  return __hipwb_fix_f32(__s, -__hipwb_sgn(__err), (__s + __err) < 0.0f || (__s == 0.0f && __err < 0.0f),
                         __mode);
}
__HIPWB_FN_INLINE float __hipwb_fmul_m(float __a, float __b, int __mode) {
  float __p = __a * __b;
  if (__builtin_isinf(__p) || __builtin_isnan(__p))
    return __builtin_isinf(__p) && !__builtin_isinf(__a) && !__builtin_isinf(__b)
               ? __hipwb_fix_f32(__p, __hipwb_over(__p), __p < 0.0f, __mode) : __p;
  float __e = __builtin_fmaf(__a, __b, -__p);  /* exact: a * b = p + e */
  return __hipwb_fix_f32(__p, -__hipwb_sgn(__e), __builtin_signbit(__a) != __builtin_signbit(__b), __mode);
}
__HIPWB_FN_INLINE float __hipwb_fdiv_m(float __a, float __b, int __mode) {
  float __q = __a / __b;
  if (!__builtin_isfinite(__q) || __q == 0.0f || !__builtin_isfinite(__b))
    return __q;
  float __r = __builtin_fmaf(-__q, __b, __a);  /* a - q*b: the sign of (a/b - q) times sign(b) */
  return __hipwb_fix_f32(__q, -__hipwb_sgn(__r) * (__b < 0.0f ? -1 : 1), __q < 0.0f, __mode);
}
__HIPWB_FN_INLINE float __hipwb_fsqrt_m(float __a, int __mode) {
  float __s = __builtin_sqrtf(__a);
  if (!__builtin_isfinite(__s) || __s == 0.0f)
    return __s;
  return __hipwb_fix_f32(__s, -__hipwb_sgn(__builtin_fmaf(-__s, __s, __a)), false, __mode);
}
__HIPWB_FN_INLINE float __hipwb_fmaf_m(float __a, float __b, float __c, int __mode) {
  float __r = __builtin_fmaf(__a, __b, __c);
  if (!__builtin_isfinite(__r))
    return __builtin_isinf(__r) && __builtin_isfinite(__a) && __builtin_isfinite(__b) &&
                   __builtin_isfinite(__c) ? __hipwb_fix_f32(__r, __hipwb_over(__r), __r < 0.0f, __mode)
                                         : __r;
  double __p = (double)__a * (double)__b;  /* exact (48-bit product) */
  double __s = __p + (double)__c, __bb = __s - __p;
  double __e = (__p - (__s - __bb)) + ((double)__c - __bb);  /* exact: p + c = s + e */
  double __d = ((double)__r - __s) - __e;                 /* r - exact (r and s are close) */
  return __hipwb_fix_f32(__r, (__d > 0.0) - (__d < 0.0), (__s + __e) < 0.0, __mode);
}
#define __HIPWB_FOP_MODES(NAME, EXPR_ARGS, CALL)                                               \
  __HIPWB_FN_INLINE float NAME##_rz EXPR_ARGS { return CALL(1); }                             \
  __HIPWB_FN_INLINE float NAME##_rd EXPR_ARGS { return CALL(2); }                             \
  __HIPWB_FN_INLINE float NAME##_ru EXPR_ARGS { return CALL(3); }
#define __HIPWB_ADD(__m) __hipwb_fadd_m(__x, __y, __m)
#define __HIPWB_SUB(__m) __hipwb_fadd_m(__x, -__y, __m)
#define __HIPWB_MUL(__m) __hipwb_fmul_m(__x, __y, __m)
#define __HIPWB_DIV(__m) __hipwb_fdiv_m(__x, __y, __m)
#define __HIPWB_RCP(__m) __hipwb_fdiv_m(1.0f, __x, __m)
#define __HIPWB_SQRT(__m) __hipwb_fsqrt_m(__x, __m)
#define __HIPWB_FMA(__m) __hipwb_fmaf_m(__x, __y, __z, __m)
__HIPWB_FOP_MODES(__fadd, (float __x, float __y), __HIPWB_ADD)
__HIPWB_FOP_MODES(__fsub, (float __x, float __y), __HIPWB_SUB)
__HIPWB_FOP_MODES(__fmul, (float __x, float __y), __HIPWB_MUL)
__HIPWB_FOP_MODES(__fdiv, (float __x, float __y), __HIPWB_DIV)
__HIPWB_FOP_MODES(__frcp, (float __x), __HIPWB_RCP)
__HIPWB_FOP_MODES(__fsqrt, (float __x), __HIPWB_SQRT)
__HIPWB_FOP_MODES(__fmaf, (float __x, float __y, float __z), __HIPWB_FMA)
#undef __HIPWB_ADD
#undef __HIPWB_SUB
#undef __HIPWB_MUL
#undef __HIPWB_DIV
#undef __HIPWB_RCP
#undef __HIPWB_SQRT
#undef __HIPWB_FMA
#undef __HIPWB_FOP_MODES
/* 1/sqrt(x) rounded to nearest: through double (53 bits), so correctly rounded unless the
 * double result lands exactly on a float tie (it cannot for non-square inputs of this size) */
__HIPWB_FN_INLINE float __frsqrt_rn(float __x) { return (float)(1.0 / __builtin_sqrt((double)__x)); }

#endif /* HIPWB_CONVERSIONS_H */
