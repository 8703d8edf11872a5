/* hipwb/math_ocml.h — the rest of HIP's device math API, on AMD's ocml library.
 *
 * ROCm's HIP implements its math functions as calls of ocml (ROCm-Device-Libs), the same
 * library ROCm links into every HIP code object. Offline, workbench/devlib.py finds an ocml.bc
 * (Debian's rocm-device-libs, the triton package's AMD backend, or HIPWB_DEVICE_LIB_PATH) and
 * links it with -mlink-builtin-bitcode, so these functions compute exactly what ROCm's do
 * (same ocml, same __oclc_* settings). The float functions hipwb/math.h already writes inline
 * (expf, sinf, powf, tanhf, ...) stay as they are; everything else is here, float and double:
 *
 *   acos acosh asin asinh atan atanh atan2 cbrt cosh cospi erf erfc erfinv erfcinv erfcx expm1
 *   fdim fmod frexp hypot ilogb j0 j1 y0 y1 lgamma log1p logb modf nextafter remainder remquo
 *   rcbrt rhypot scalbn scalbln sinh sinpi sincospi tgamma normcdf normcdfinv
 *   cyl_bessel_i0 cyl_bessel_i1 norm3d norm4d rnorm3d rnorm4d norm rnorm nan lrint llrint lround
 *   llround, pow(x, int); double exp exp2 exp10 expm1 log log2 log10 sin cos tan sincos tanh
 *   pow rsqrt; and the double _rn arithmetic intrinsics (__dadd_rn ... __dsqrt_rn, __fma_rn).
 *
 * Each comes as NAMEf(float), NAME(float) and NAME(double), and in namespace std. Without an
 * ocml (the compiler defines __HIPWB_NO_OCML) each is declared deleted with a message saying
 * how to install one, so a call fails at its line instead of at link time. Not provided: jn/yn
 * (ocml has no integer-order Bessel functions) and the directed-rounding intrinsics
 * (__fadd_rd ...: Debian's ocml lacks them).
 */
#ifndef HIPWB_MATH_OCML_H
#define HIPWB_MATH_OCML_H

#include "config.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"

#define __HIPWB_P5 __attribute__((address_space(5)))

#ifdef __HIPWB_NO_OCML
#define __HIPWB_OCML_FN(RET, NAME, PARAMS, BODY)                                             \
  __attribute__((device)) RET NAME PARAMS =                                                  \
      delete(#NAME " needs AMD's device math library (ocml.bc), which was not found: "       \
             "apt-get install rocm-device-libs, or pip install triton, or set "              \
             "HIPWB_DEVICE_LIB_PATH to a folder holding ocml.bc");
#else
#define __HIPWB_OCML_FN(RET, NAME, PARAMS, BODY) __HIPWB_FN_INLINE RET NAME PARAMS { BODY }
#endif

/* ocml's own declarations (ROCm-Device-Libs ocml.h names: __ocml_NAME_f32 / _f64). */
#define __HIPWB_DECL1(O)                                                                     \
  extern "C" __attribute__((device, const)) float __ocml_##O##_f32(float);                  \
  extern "C" __attribute__((device, const)) double __ocml_##O##_f64(double);
#define __HIPWB_DECL2(O)                                                                     \
  extern "C" __attribute__((device, const)) float __ocml_##O##_f32(float, float);           \
  extern "C" __attribute__((device, const)) double __ocml_##O##_f64(double, double);

/* NAMEf(float), NAME(float), NAME(double) -> ocml O */
#define __HIPWB_M1(NAME, O)                                                                  \
  __HIPWB_DECL1(O)                                                                           \
  __HIPWB_OCML_FN(float, NAME##f, (float x), return __ocml_##O##_f32(x);)                   \
  __HIPWB_OCML_FN(float, NAME, (float x), return __ocml_##O##_f32(x);)                      \
  __HIPWB_OCML_FN(double, NAME, (double x), return __ocml_##O##_f64(x);)
#define __HIPWB_M2(NAME, O)                                                                  \
  __HIPWB_DECL2(O)                                                                           \
  __HIPWB_OCML_FN(float, NAME##f, (float x, float y), return __ocml_##O##_f32(x, y);)       \
  __HIPWB_OCML_FN(float, NAME, (float x, float y), return __ocml_##O##_f32(x, y);)          \
  __HIPWB_OCML_FN(double, NAME, (double x, double y), return __ocml_##O##_f64(x, y);)
/* double only (hipwb/math.h has the float forms inline) */
#define __HIPWB_D1(NAME, O)                                                                  \
  __HIPWB_DECL1(O)                                                                           \
  __HIPWB_OCML_FN(double, NAME, (double x), return __ocml_##O##_f64(x);)

__HIPWB_M1(acos, acos)
__HIPWB_M1(acosh, acosh)
__HIPWB_M1(asin, asin)
__HIPWB_M1(asinh, asinh)
__HIPWB_M1(atan, atan)
__HIPWB_M1(atanh, atanh)
__HIPWB_M1(cbrt, cbrt)
__HIPWB_M1(cosh, cosh)
__HIPWB_M1(cospi, cospi)
__HIPWB_M1(erf, erf)
__HIPWB_M1(erfc, erfc)
__HIPWB_M1(erfinv, erfinv)
__HIPWB_M1(erfcinv, erfcinv)
__HIPWB_M1(erfcx, erfcx)
__HIPWB_M1(expm1, expm1)
__HIPWB_M1(j0, j0)
__HIPWB_M1(j1, j1)
__HIPWB_M1(y0, y0)
__HIPWB_M1(y1, y1)
__HIPWB_M1(lgamma, lgamma)
__HIPWB_M1(log1p, log1p)
__HIPWB_M1(logb, logb)
__HIPWB_M1(rcbrt, rcbrt)
__HIPWB_M1(sinh, sinh)
__HIPWB_M1(sinpi, sinpi)
__HIPWB_M1(tgamma, tgamma)
__HIPWB_M1(normcdf, ncdf)
__HIPWB_M1(normcdfinv, ncdfinv)
__HIPWB_M1(cyl_bessel_i0, i0)
__HIPWB_M1(cyl_bessel_i1, i1)
__HIPWB_M2(atan2, atan2)
__HIPWB_M2(fdim, fdim)
__HIPWB_M2(fmod, fmod)
__HIPWB_M2(hypot, hypot)
__HIPWB_M2(nextafter, nextafter)
__HIPWB_M2(remainder, remainder)
__HIPWB_M2(rhypot, rhypot)
__HIPWB_D1(exp, exp)
__HIPWB_D1(exp2, exp2)
__HIPWB_D1(exp10, exp10)
__HIPWB_D1(log, log)
__HIPWB_D1(log2, log2)
__HIPWB_D1(log10, log10)
__HIPWB_D1(sin, sin)
__HIPWB_D1(cos, cos)
__HIPWB_D1(tan, tan)
__HIPWB_D1(tanh, tanh)
__HIPWB_D1(rsqrt, rsqrt)

extern "C" {
__attribute__((device, const)) double __ocml_pow_f64(double, double);
__attribute__((device, const)) float __ocml_pown_f32(float, int);
__attribute__((device, const)) double __ocml_pown_f64(double, int);
__attribute__((device, const)) int __ocml_ilogb_f32(float);
__attribute__((device, const)) int __ocml_ilogb_f64(double);
__attribute__((device, const)) float __ocml_scalbn_f32(float, int);
__attribute__((device, const)) double __ocml_scalbn_f64(double, int);
__attribute__((device, const)) float __ocml_len3_f32(float, float, float);
__attribute__((device, const)) double __ocml_len3_f64(double, double, double);
__attribute__((device, const)) float __ocml_len4_f32(float, float, float, float);
__attribute__((device, const)) double __ocml_len4_f64(double, double, double, double);
__attribute__((device, const)) float __ocml_rlen3_f32(float, float, float);
__attribute__((device, const)) double __ocml_rlen3_f64(double, double, double);
__attribute__((device, const)) float __ocml_rlen4_f32(float, float, float, float);
__attribute__((device, const)) double __ocml_rlen4_f64(double, double, double, double);
__attribute__((device)) float __ocml_frexp_f32(float, __HIPWB_P5 int *);
__attribute__((device)) double __ocml_frexp_f64(double, __HIPWB_P5 int *);
__attribute__((device)) float __ocml_modf_f32(float, __HIPWB_P5 float *);
__attribute__((device)) double __ocml_modf_f64(double, __HIPWB_P5 double *);
__attribute__((device)) float __ocml_remquo_f32(float, float, __HIPWB_P5 int *);
__attribute__((device)) double __ocml_remquo_f64(double, double, __HIPWB_P5 int *);
__attribute__((device)) float __ocml_sincospi_f32(float, __HIPWB_P5 float *);
__attribute__((device)) double __ocml_sincospi_f64(double, __HIPWB_P5 double *);
__attribute__((device)) double __ocml_sincos_f64(double, __HIPWB_P5 double *);
}

__HIPWB_OCML_FN(double, pow, (double x, double y), return __ocml_pow_f64(x, y);)
__HIPWB_OCML_FN(float, pow, (float x, int n), return __ocml_pown_f32(x, n);)
__HIPWB_OCML_FN(double, pow, (double x, int n), return __ocml_pown_f64(x, n);)
__HIPWB_OCML_FN(float, powif, (float x, int n), return __ocml_pown_f32(x, n);)
__HIPWB_OCML_FN(double, powi, (double x, int n), return __ocml_pown_f64(x, n);)
__HIPWB_OCML_FN(int, ilogbf, (float x), return __ocml_ilogb_f32(x);)
__HIPWB_OCML_FN(int, ilogb, (float x), return __ocml_ilogb_f32(x);)
__HIPWB_OCML_FN(int, ilogb, (double x), return __ocml_ilogb_f64(x);)
__HIPWB_OCML_FN(float, scalbnf, (float x, int n), return __ocml_scalbn_f32(x, n);)
__HIPWB_OCML_FN(float, scalbn, (float x, int n), return __ocml_scalbn_f32(x, n);)
__HIPWB_OCML_FN(double, scalbn, (double x, int n), return __ocml_scalbn_f64(x, n);)
/* scalbln: a long exponent beyond int's range over/underflows anyway, so it is clamped */
__HIPWB_OCML_FN(float, scalblnf, (float x, long n),
                return __ocml_scalbn_f32(x, n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : n);)
__HIPWB_OCML_FN(double, scalbln, (double x, long n),
                return __ocml_scalbn_f64(x, n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : n);)
__HIPWB_OCML_FN(float, norm3df, (float a, float b, float c), return __ocml_len3_f32(a, b, c);)
__HIPWB_OCML_FN(double, norm3d, (double a, double b, double c),
                return __ocml_len3_f64(a, b, c);)
__HIPWB_OCML_FN(float, norm4df, (float a, float b, float c, float d),
                return __ocml_len4_f32(a, b, c, d);)
__HIPWB_OCML_FN(double, norm4d, (double a, double b, double c, double d),
                return __ocml_len4_f64(a, b, c, d);)
__HIPWB_OCML_FN(float, rnorm3df, (float a, float b, float c), return __ocml_rlen3_f32(a, b, c);)
__HIPWB_OCML_FN(double, rnorm3d, (double a, double b, double c),
                return __ocml_rlen3_f64(a, b, c);)
__HIPWB_OCML_FN(float, rnorm4df, (float a, float b, float c, float d),
                return __ocml_rlen4_f32(a, b, c, d);)
__HIPWB_OCML_FN(double, rnorm4d, (double a, double b, double c, double d),
                return __ocml_rlen4_f64(a, b, c, d);)
/* norm/rnorm of n values: hypot accumulation (no overflow of the squares) */
__HIPWB_OCML_FN(float, normf, (int n, const float *p),
                float r = 0.0f; for (int i = 0; i < n; ++i) r = __ocml_hypot_f32(r, p[i]);
                return r;)
__HIPWB_OCML_FN(double, norm, (int n, const double *p),
                double r = 0.0; for (int i = 0; i < n; ++i) r = __ocml_hypot_f64(r, p[i]);
                return r;)
__HIPWB_OCML_FN(float, rnormf, (int n, const float *p),
                float r = 0.0f; for (int i = 0; i < n; ++i) r = __ocml_hypot_f32(r, p[i]);
                return 1.0f / r;)
__HIPWB_OCML_FN(double, rnorm, (int n, const double *p),
                double r = 0.0; for (int i = 0; i < n; ++i) r = __ocml_hypot_f64(r, p[i]);
                return 1.0 / r;)
/* results through pointers: ocml writes private memory, the caller's pointer may be generic */
#define __HIPWB_OUT1(RET, NAME, T, O, SUF)                                                   \
  __HIPWB_OCML_FN(RET, NAME, (RET x, T *out), T t; RET r = __ocml_##O##_##SUF(             \
                      x, (__HIPWB_P5 T *)&t); *out = t; return r;)
__HIPWB_OUT1(float, frexpf, int, frexp, f32)
__HIPWB_OUT1(float, frexp, int, frexp, f32)
__HIPWB_OUT1(double, frexp, int, frexp, f64)
__HIPWB_OUT1(float, modff, float, modf, f32)
__HIPWB_OUT1(float, modf, float, modf, f32)
__HIPWB_OUT1(double, modf, double, modf, f64)
#undef __HIPWB_OUT1
__HIPWB_OCML_FN(float, remquof, (float x, float y, int *q),
                int t; float r = __ocml_remquo_f32(x, y, (__HIPWB_P5 int *)&t); *q = t; return r;)
__HIPWB_OCML_FN(float, remquo, (float x, float y, int *q),
                int t; float r = __ocml_remquo_f32(x, y, (__HIPWB_P5 int *)&t); *q = t; return r;)
__HIPWB_OCML_FN(double, remquo, (double x, double y, int *q),
                int t; double r = __ocml_remquo_f64(x, y, (__HIPWB_P5 int *)&t); *q = t;
                return r;)
__HIPWB_OCML_FN(void, sincospif, (float x, float *s, float *c),
                float t; *s = __ocml_sincospi_f32(x, (__HIPWB_P5 float *)&t); *c = t;)
__HIPWB_OCML_FN(void, sincospi, (float x, float *s, float *c),
                float t; *s = __ocml_sincospi_f32(x, (__HIPWB_P5 float *)&t); *c = t;)
__HIPWB_OCML_FN(void, sincospi, (double x, double *s, double *c),
                double t; *s = __ocml_sincospi_f64(x, (__HIPWB_P5 double *)&t); *c = t;)
__HIPWB_OCML_FN(void, sincos, (double x, double *s, double *c),
                double t; *s = __ocml_sincos_f64(x, (__HIPWB_P5 double *)&t); *c = t;)

#undef __HIPWB_M1
#undef __HIPWB_M2
#undef __HIPWB_D1
#undef __HIPWB_DECL1
#undef __HIPWB_DECL2
#undef __HIPWB_OCML_FN

/* ---- no library needed: rounding to integers, NaN payloads, double _rn arithmetic ---- */
__HIPWB_FN_INLINE long lrintf(float x) { return (long)__builtin_rintf(x); }
__HIPWB_FN_INLINE long long llrintf(float x) { return (long long)__builtin_rintf(x); }
__HIPWB_FN_INLINE long lroundf(float x) { return (long)__builtin_roundf(x); }
__HIPWB_FN_INLINE long long llroundf(float x) { return (long long)__builtin_roundf(x); }
__HIPWB_FN_INLINE long lrint(double x) { return (long)__builtin_rint(x); }
__HIPWB_FN_INLINE long long llrint(double x) { return (long long)__builtin_rint(x); }
__HIPWB_FN_INLINE long lround(double x) { return (long)__builtin_round(x); }
__HIPWB_FN_INLINE long long llround(double x) { return (long long)__builtin_round(x); }
__HIPWB_FN_INLINE long lrint(float x) { return lrintf(x); }
__HIPWB_FN_INLINE long long llrint(float x) { return llrintf(x); }
__HIPWB_FN_INLINE long lround(float x) { return lroundf(x); }
__HIPWB_FN_INLINE long long llround(float x) { return llroundf(x); }
__HIPWB_FN_INLINE float nanf(const char *) { return __builtin_nanf(""); }
__HIPWB_FN_INLINE double nan(const char *) { return __builtin_nan(""); }
__HIPWB_FN_INLINE double __dadd_rn(double x, double y) {
#pragma clang fp contract(off)
  return x + y;
}
__HIPWB_FN_INLINE double __dsub_rn(double x, double y) {
#pragma clang fp contract(off)
  return x - y;
}
__HIPWB_FN_INLINE double __dmul_rn(double x, double y) {
#pragma clang fp contract(off)
  return x * y;
}
__HIPWB_FN_INLINE double __ddiv_rn(double x, double y) { return x / y; }
__HIPWB_FN_INLINE double __drcp_rn(double x) { return 1.0 / x; }
__HIPWB_FN_INLINE double __dsqrt_rn(double x) { return __builtin_sqrt(x); }
__HIPWB_FN_INLINE double __fma_rn(double x, double y, double z) { return __builtin_fma(x, y, z); }

namespace std {
using ::acos; using ::acosh; using ::asin; using ::asinh; using ::atan; using ::atan2;
using ::atanh; using ::cbrt; using ::cosh; using ::erf; using ::erfc; using ::expm1;
using ::fdim; using ::fmod; using ::frexp; using ::hypot; using ::ilogb; using ::lgamma;
using ::llrint; using ::llround; using ::log1p; using ::logb; using ::lrint; using ::lround;
using ::modf; using ::nextafter; using ::remainder; using ::remquo; using ::scalbln;
using ::scalbn; using ::sinh; using ::tgamma; using ::nan; using ::nanf;
} // namespace std

#undef __HIPWB_P5
#pragma clang diagnostic pop

#endif /* HIPWB_MATH_OCML_H */
