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

__HIPWB_FN_INLINE int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__HIPWB_FN_INLINE unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
__HIPWB_FN_INLINE float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__HIPWB_FN_INLINE float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
__HIPWB_FN_INLINE long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
__HIPWB_FN_INLINE double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
__HIPWB_FN_INLINE int __double2hiint(double x) {
  return (int)(__builtin_bit_cast(unsigned long long, x) >> 32);
}
__HIPWB_FN_INLINE int __double2loint(double x) {
  return (int)(unsigned int)__builtin_bit_cast(unsigned long long, x);
}
__HIPWB_FN_INLINE double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned int)hi << 32) |
                                        (unsigned int)lo);
}

/* ---- float/double -> integer ---- */
#define __HIPWB_F2I(NAME, FT, IT, RN, RZ, RD, RU)                                             \
  __HIPWB_FN_INLINE IT NAME##_rn(FT x) { return (IT)RN(x); }                                \
  __HIPWB_FN_INLINE IT NAME##_rz(FT x) { return (IT)RZ(x); }                                \
  __HIPWB_FN_INLINE IT NAME##_rd(FT x) { return (IT)RD(x); }                                \
  __HIPWB_FN_INLINE IT NAME##_ru(FT x) { return (IT)RU(x); }
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
__HIPWB_FN_INLINE float __hipwb_step_f32(float f, int dir) {
  unsigned int b = __builtin_bit_cast(unsigned int, f);
  if ((b & 0x7FFFFFFFu) == 0)
    return __builtin_bit_cast(float, dir > 0 ? 1u : 0x80000001u);
  bool away = (dir > 0) == !(b >> 31);  /* moving away from zero grows the magnitude */
  return __builtin_bit_cast(float, away ? b + 1 : b - 1);
}
__HIPWB_FN_INLINE double __hipwb_step_f64(double f, int dir) {
  unsigned long long b = __builtin_bit_cast(unsigned long long, f);
  if ((b & 0x7FFFFFFFFFFFFFFFull) == 0)
    return __builtin_bit_cast(double, dir > 0 ? 1ull : 0x8000000000000001ull);
  bool away = (dir > 0) == !(b >> 63);
  return __builtin_bit_cast(double, away ? b + 1 : b - 1);
}

/* cmp: the sign of (rounded - exact): > 0 when the nearest value lies above the exact one.
 * MODE: 0 nearest, 1 toward zero, 2 down, 3 up. */
__HIPWB_FN_INLINE float __hipwb_fix_f32(float f, int cmp, bool neg, int mode) {
  int dir = mode == 2 ? -1 : mode == 3 ? 1 : (neg ? 1 : -1);  /* toward zero: up if negative */
  if (mode == 0 || cmp == 0 || (cmp > 0) != (dir < 0))
    return f;
  return __hipwb_step_f32(f, dir);
}
__HIPWB_FN_INLINE double __hipwb_fix_f64(double f, int cmp, bool neg, int mode) {
  int dir = mode == 2 ? -1 : mode == 3 ? 1 : (neg ? 1 : -1);
  if (mode == 0 || cmp == 0 || (cmp > 0) != (dir < 0))
    return f;
  return __hipwb_step_f64(f, dir);
}
/* the sign of (r - x) for an integer-valued r (a float/double that x rounded to); 2^63 and 2^64
 * are the only rounded values outside the integer type's range, and both lie above every x. */
__HIPWB_FN_INLINE int __hipwb_cmp_ll(double r, long long x) {
  if (r >= 0x1p63)
    return 1;
  long long ri = (long long)r;
  return (ri > x) - (ri < x);
}
__HIPWB_FN_INLINE int __hipwb_cmp_ull(double r, unsigned long long x) {
  if (r >= 0x1p64)
    return 1;
  unsigned long long ri = (unsigned long long)r;
  return (ri > x) - (ri < x);
}

/* ---- integer -> float ---- */
#define __HIPWB_I2F(NAME, IT, CMP, NEG)                                                      \
  __HIPWB_FN_INLINE float NAME##_mode(IT x, int mode) {                                     \
    float f = (float)x;                                                                     \
    return __hipwb_fix_f32(f, CMP, NEG, mode);                                              \
  }                                                                                         \
  __HIPWB_FN_INLINE float NAME##_rn(IT x) { return (float)x; }                              \
  __HIPWB_FN_INLINE float NAME##_rz(IT x) { return NAME##_mode(x, 1); }                     \
  __HIPWB_FN_INLINE float NAME##_rd(IT x) { return NAME##_mode(x, 2); }                     \
  __HIPWB_FN_INLINE float NAME##_ru(IT x) { return NAME##_mode(x, 3); }
/* int/uint: a double holds x exactly, so the comparison is exact */
__HIPWB_I2F(__int2float, int, ((double)f > (double)x) - ((double)f < (double)x), x < 0)
__HIPWB_I2F(__uint2float, unsigned int, ((double)f > (double)x) - ((double)f < (double)x),
            false)
__HIPWB_I2F(__ll2float, long long, __hipwb_cmp_ll((double)f, x), x < 0)
__HIPWB_I2F(__ull2float, unsigned long long, __hipwb_cmp_ull((double)f, x), false)
#undef __HIPWB_I2F

/* ---- integer -> double ---- */
__HIPWB_FN_INLINE double __int2double_rn(int x) { return (double)x; }
__HIPWB_FN_INLINE double __uint2double_rn(unsigned int x) { return (double)x; }
#define __HIPWB_L2D(NAME, IT, CMP, NEG)                                                      \
  __HIPWB_FN_INLINE double NAME##_mode(IT x, int mode) {                                    \
    double f = (double)x;                                                                   \
    return __hipwb_fix_f64(f, CMP, NEG, mode);                                              \
  }                                                                                         \
  __HIPWB_FN_INLINE double NAME##_rn(IT x) { return (double)x; }                            \
  __HIPWB_FN_INLINE double NAME##_rz(IT x) { return NAME##_mode(x, 1); }                    \
  __HIPWB_FN_INLINE double NAME##_rd(IT x) { return NAME##_mode(x, 2); }                    \
  __HIPWB_FN_INLINE double NAME##_ru(IT x) { return NAME##_mode(x, 3); }
__HIPWB_L2D(__ll2double, long long, __hipwb_cmp_ll(f, x), x < 0)
__HIPWB_L2D(__ull2double, unsigned long long, __hipwb_cmp_ull(f, x), false)
#undef __HIPWB_L2D

/* ---- double -> float ---- */
__HIPWB_FN_INLINE float __hipwb_d2f_mode(double x, int mode) {
  float f = (float)x;
  if (x != x)
    return f;
  return __hipwb_fix_f32(f, ((double)f > x) - ((double)f < x), x < 0, mode);
}
__HIPWB_FN_INLINE float __double2float_rn(double x) { return (float)x; }
__HIPWB_FN_INLINE float __double2float_rz(double x) { return __hipwb_d2f_mode(x, 1); }
__HIPWB_FN_INLINE float __double2float_rd(double x) { return __hipwb_d2f_mode(x, 2); }
__HIPWB_FN_INLINE float __double2float_ru(double x) { return __hipwb_d2f_mode(x, 3); }

/* ---- float arithmetic with a rounding mode: __fadd_rd ... __fmaf_rz, __frsqrt_rn ----
 * The nearest result r is computed as usual; an error-free transform gives the sign of
 * (r - exact): TwoSum's error for + and -, fma(a, b, -r) for *, the remainder fma(-r, b, a)
 * for / and fma(-r, r, a) for sqrt (exact while nothing underflows, so subnormal-range results
 * can be one ulp off), the double-precision sum for fma. Overflow to inf counts as above. */
__HIPWB_FN_INLINE int __hipwb_sgn(float x) { return (x > 0.0f) - (x < 0.0f); }
__HIPWB_FN_INLINE int __hipwb_over(float r) { return r > 0.0f ? 1 : -1; }
__HIPWB_FN_INLINE float __hipwb_fadd_m(float a, float b, int mode) {
  float s = a + b;
  if (__builtin_isinf(s) || __builtin_isnan(s))
    return __builtin_isinf(s) && !__builtin_isinf(a) && !__builtin_isinf(b)
               ? __hipwb_fix_f32(s, __hipwb_over(s), s < 0.0f, mode) : s;
  float bb = s - a;
  float err = (a - (s - bb)) + (b - bb);  /* exact: a + b = s + err */
  return __hipwb_fix_f32(s, -__hipwb_sgn(err), (s + err) < 0.0f || (s == 0.0f && err < 0.0f),
                         mode);
}
__HIPWB_FN_INLINE float __hipwb_fmul_m(float a, float b, int mode) {
  float p = a * b;
  if (__builtin_isinf(p) || __builtin_isnan(p))
    return __builtin_isinf(p) && !__builtin_isinf(a) && !__builtin_isinf(b)
               ? __hipwb_fix_f32(p, __hipwb_over(p), p < 0.0f, mode) : p;
  float e = __builtin_fmaf(a, b, -p);  /* exact: a * b = p + e */
  return __hipwb_fix_f32(p, -__hipwb_sgn(e), __builtin_signbit(a) != __builtin_signbit(b), mode);
}
__HIPWB_FN_INLINE float __hipwb_fdiv_m(float a, float b, int mode) {
  float q = a / b;
  if (!__builtin_isfinite(q) || q == 0.0f || !__builtin_isfinite(b))
    return q;
  float r = __builtin_fmaf(-q, b, a);  /* a - q*b: the sign of (a/b - q) times sign(b) */
  return __hipwb_fix_f32(q, -__hipwb_sgn(r) * (b < 0.0f ? -1 : 1), q < 0.0f, mode);
}
__HIPWB_FN_INLINE float __hipwb_fsqrt_m(float a, int mode) {
  float s = __builtin_sqrtf(a);
  if (!__builtin_isfinite(s) || s == 0.0f)
    return s;
  return __hipwb_fix_f32(s, -__hipwb_sgn(__builtin_fmaf(-s, s, a)), false, mode);
}
__HIPWB_FN_INLINE float __hipwb_fmaf_m(float a, float b, float c, int mode) {
  float r = __builtin_fmaf(a, b, c);
  if (!__builtin_isfinite(r))
    return __builtin_isinf(r) && __builtin_isfinite(a) && __builtin_isfinite(b) &&
                   __builtin_isfinite(c) ? __hipwb_fix_f32(r, __hipwb_over(r), r < 0.0f, mode)
                                         : r;
  double p = (double)a * (double)b;  /* exact (48-bit product) */
  double s = p + (double)c, bb = s - p;
  double e = (p - (s - bb)) + ((double)c - bb);  /* exact: p + c = s + e */
  double d = ((double)r - s) - e;                 /* r - exact (r and s are close) */
  return __hipwb_fix_f32(r, (d > 0.0) - (d < 0.0), (s + e) < 0.0, mode);
}
#define __HIPWB_FOP_MODES(NAME, EXPR_ARGS, CALL)                                               \
  __HIPWB_FN_INLINE float NAME##_rz EXPR_ARGS { return CALL(1); }                             \
  __HIPWB_FN_INLINE float NAME##_rd EXPR_ARGS { return CALL(2); }                             \
  __HIPWB_FN_INLINE float NAME##_ru EXPR_ARGS { return CALL(3); }
#define __HIPWB_ADD(m) __hipwb_fadd_m(x, y, m)
#define __HIPWB_SUB(m) __hipwb_fadd_m(x, -y, m)
#define __HIPWB_MUL(m) __hipwb_fmul_m(x, y, m)
#define __HIPWB_DIV(m) __hipwb_fdiv_m(x, y, m)
#define __HIPWB_RCP(m) __hipwb_fdiv_m(1.0f, x, m)
#define __HIPWB_SQRT(m) __hipwb_fsqrt_m(x, m)
#define __HIPWB_FMA(m) __hipwb_fmaf_m(x, y, z, m)
__HIPWB_FOP_MODES(__fadd, (float x, float y), __HIPWB_ADD)
__HIPWB_FOP_MODES(__fsub, (float x, float y), __HIPWB_SUB)
__HIPWB_FOP_MODES(__fmul, (float x, float y), __HIPWB_MUL)
__HIPWB_FOP_MODES(__fdiv, (float x, float y), __HIPWB_DIV)
__HIPWB_FOP_MODES(__frcp, (float x), __HIPWB_RCP)
__HIPWB_FOP_MODES(__fsqrt, (float x), __HIPWB_SQRT)
__HIPWB_FOP_MODES(__fmaf, (float x, float y, float z), __HIPWB_FMA)
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
__HIPWB_FN_INLINE float __frsqrt_rn(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }

#endif /* HIPWB_CONVERSIONS_H */
