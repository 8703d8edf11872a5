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

#define __HIPWB_P5 __attribute__((__address_space__(5)))

#ifdef __HIPWB_NO_OCML
#define __HIPWB_OCML_FN(RET, NAME, PARAMS, BODY)                                             \
  __device__ RET NAME PARAMS =                                                  \
      delete(#NAME " needs AMD's device math library (ocml.bc), which was not found: "       \
             "apt-get install rocm-device-libs, or pip install triton, or set "              \
             "HIPWB_DEVICE_LIB_PATH to a folder holding ocml.bc");
#else
#define __HIPWB_OCML_FN(RET, NAME, PARAMS, BODY) __HIPWB_FN_INLINE RET NAME PARAMS { BODY }
#endif

/* ocml's own declarations (ROCm-Device-Libs ocml.h names: __ocml_NAME_f32 / _f64). O is the
 * reserved prefix __ocml_NAME: an argument passed on to another macro is macro-expanded first,
 * so a bare NAME (i0, j1) could be rewritten by a user macro of that name. */
#define __HIPWB_DECL1(O)                                                                     \
  extern "C" __device__ __attribute__((__const__)) float O##_f32(float);                  \
  extern "C" __device__ __attribute__((__const__)) double O##_f64(double);
#define __HIPWB_DECL2(O)                                                                     \
  extern "C" __device__ __attribute__((__const__)) float O##_f32(float, float);           \
  extern "C" __device__ __attribute__((__const__)) double O##_f64(double, double);

/* NAMEf(float), NAME(float), NAME(double) -> ocml O */
#define __HIPWB_M1(NAME, O)                                                                  \
  __HIPWB_DECL1(O)                                                                           \
  __HIPWB_OCML_FN(float, NAME##f, (float __x), return O##_f32(__x);)                   \
  __HIPWB_OCML_FN(float, NAME, (float __x), return O##_f32(__x);)                      \
  __HIPWB_OCML_FN(double, NAME, (double __x), return O##_f64(__x);)
#define __HIPWB_M2(NAME, O)                                                                  \
  __HIPWB_DECL2(O)                                                                           \
  __HIPWB_OCML_FN(float, NAME##f, (float __x, float __y), return O##_f32(__x, __y);)       \
  __HIPWB_OCML_FN(float, NAME, (float __x, float __y), return O##_f32(__x, __y);)          \
  __HIPWB_OCML_FN(double, NAME, (double __x, double __y), return O##_f64(__x, __y);)
/* double only (hipwb/math.h has the float forms inline) */
#define __HIPWB_D1(NAME, O)                                                                  \
  __HIPWB_DECL1(O)                                                                           \
  __HIPWB_OCML_FN(double, NAME, (double __x), return O##_f64(__x);)

__HIPWB_M1(acos, __ocml_acos)
__HIPWB_M1(acosh, __ocml_acosh)
__HIPWB_M1(asin, __ocml_asin)
__HIPWB_M1(asinh, __ocml_asinh)
__HIPWB_M1(atan, __ocml_atan)
__HIPWB_M1(atanh, __ocml_atanh)
__HIPWB_M1(cbrt, __ocml_cbrt)
__HIPWB_M1(cosh, __ocml_cosh)
__HIPWB_M1(cospi, __ocml_cospi)
__HIPWB_M1(erf, __ocml_erf)
__HIPWB_M1(erfc, __ocml_erfc)
__HIPWB_M1(erfinv, __ocml_erfinv)
__HIPWB_M1(erfcinv, __ocml_erfcinv)
__HIPWB_M1(erfcx, __ocml_erfcx)
__HIPWB_M1(expm1, __ocml_expm1)
__HIPWB_M1(j0, __ocml_j0)
__HIPWB_M1(j1, __ocml_j1)
__HIPWB_M1(y0, __ocml_y0)
__HIPWB_M1(y1, __ocml_y1)
__HIPWB_M1(lgamma, __ocml_lgamma)
__HIPWB_M1(log1p, __ocml_log1p)
__HIPWB_M1(logb, __ocml_logb)
__HIPWB_M1(rcbrt, __ocml_rcbrt)
__HIPWB_M1(sinh, __ocml_sinh)
__HIPWB_M1(sinpi, __ocml_sinpi)
__HIPWB_M1(tgamma, __ocml_tgamma)
__HIPWB_M1(normcdf, __ocml_ncdf)
__HIPWB_M1(normcdfinv, __ocml_ncdfinv)
__HIPWB_M1(cyl_bessel_i0, __ocml_i0)
__HIPWB_M1(cyl_bessel_i1, __ocml_i1)
__HIPWB_M2(atan2, __ocml_atan2)
__HIPWB_M2(fdim, __ocml_fdim)
__HIPWB_M2(fmod, __ocml_fmod)
__HIPWB_M2(hypot, __ocml_hypot)
__HIPWB_M2(nextafter, __ocml_nextafter)
__HIPWB_M2(remainder, __ocml_remainder)
__HIPWB_M2(rhypot, __ocml_rhypot)
__HIPWB_D1(exp, __ocml_exp)
__HIPWB_D1(exp2, __ocml_exp2)
__HIPWB_D1(exp10, __ocml_exp10)
__HIPWB_D1(log, __ocml_log)
__HIPWB_D1(log2, __ocml_log2)
__HIPWB_D1(log10, __ocml_log10)
__HIPWB_D1(sin, __ocml_sin)
__HIPWB_D1(cos, __ocml_cos)
__HIPWB_D1(tan, __ocml_tan)
__HIPWB_D1(tanh, __ocml_tanh)
__HIPWB_D1(rsqrt, __ocml_rsqrt)

extern "C" {
__device__ __attribute__((__const__)) double __ocml_pow_f64(double, double);
__device__ __attribute__((__const__)) float __ocml_pown_f32(float, int);
__device__ __attribute__((__const__)) double __ocml_pown_f64(double, int);
__device__ __attribute__((__const__)) int __ocml_ilogb_f32(float);
__device__ __attribute__((__const__)) int __ocml_ilogb_f64(double);
__device__ __attribute__((__const__)) float __ocml_scalbn_f32(float, int);
__device__ __attribute__((__const__)) double __ocml_scalbn_f64(double, int);
__device__ __attribute__((__const__)) float __ocml_len3_f32(float, float, float);
__device__ __attribute__((__const__)) double __ocml_len3_f64(double, double, double);
__device__ __attribute__((__const__)) float __ocml_len4_f32(float, float, float, float);
__device__ __attribute__((__const__)) double __ocml_len4_f64(double, double, double, double);
__device__ __attribute__((__const__)) float __ocml_rlen3_f32(float, float, float);
__device__ __attribute__((__const__)) double __ocml_rlen3_f64(double, double, double);
__device__ __attribute__((__const__)) float __ocml_rlen4_f32(float, float, float, float);
__device__ __attribute__((__const__)) double __ocml_rlen4_f64(double, double, double, double);
__device__ float __ocml_frexp_f32(float, __HIPWB_P5 int *);
__device__ double __ocml_frexp_f64(double, __HIPWB_P5 int *);
__device__ float __ocml_modf_f32(float, __HIPWB_P5 float *);
__device__ double __ocml_modf_f64(double, __HIPWB_P5 double *);
__device__ float __ocml_remquo_f32(float, float, __HIPWB_P5 int *);
__device__ double __ocml_remquo_f64(double, double, __HIPWB_P5 int *);
__device__ float __ocml_sincospi_f32(float, __HIPWB_P5 float *);
__device__ double __ocml_sincospi_f64(double, __HIPWB_P5 double *);
__device__ double __ocml_sincos_f64(double, __HIPWB_P5 double *);
}

__HIPWB_OCML_FN(double, pow, (double __x, double __y), return __ocml_pow_f64(__x, __y);)
__HIPWB_OCML_FN(float, pow, (float __x, int __n), return __ocml_pown_f32(__x, __n);)
__HIPWB_OCML_FN(double, pow, (double __x, int __n), return __ocml_pown_f64(__x, __n);)
__HIPWB_OCML_FN(float, powif, (float __x, int __n), return __ocml_pown_f32(__x, __n);)
__HIPWB_OCML_FN(double, powi, (double __x, int __n), return __ocml_pown_f64(__x, __n);)
__HIPWB_OCML_FN(int, ilogbf, (float __x), return __ocml_ilogb_f32(__x);)
__HIPWB_OCML_FN(int, ilogb, (float __x), return __ocml_ilogb_f32(__x);)
__HIPWB_OCML_FN(int, ilogb, (double __x), return __ocml_ilogb_f64(__x);)
__HIPWB_OCML_FN(float, scalbnf, (float __x, int __n), return __ocml_scalbn_f32(__x, __n);)
__HIPWB_OCML_FN(float, scalbn, (float __x, int __n), return __ocml_scalbn_f32(__x, __n);)
__HIPWB_OCML_FN(double, scalbn, (double __x, int __n), return __ocml_scalbn_f64(__x, __n);)
/* scalbln: a long exponent beyond int's range over/underflows anyway, so it is clamped */
__HIPWB_OCML_FN(float, scalblnf, (float __x, long __n),
                return __ocml_scalbn_f32(__x, __n > INT_MAX ? INT_MAX : __n < INT_MIN ? INT_MIN : __n);)
__HIPWB_OCML_FN(double, scalbln, (double __x, long __n),
                return __ocml_scalbn_f64(__x, __n > INT_MAX ? INT_MAX : __n < INT_MIN ? INT_MIN : __n);)
__HIPWB_OCML_FN(float, norm3df, (float __a, float __b, float __c), return __ocml_len3_f32(__a, __b, __c);)
__HIPWB_OCML_FN(double, norm3d, (double __a, double __b, double __c),
                return __ocml_len3_f64(__a, __b, __c);)
__HIPWB_OCML_FN(float, norm4df, (float __a, float __b, float __c, float __d),
                return __ocml_len4_f32(__a, __b, __c, __d);)
__HIPWB_OCML_FN(double, norm4d, (double __a, double __b, double __c, double __d),
                return __ocml_len4_f64(__a, __b, __c, __d);)
__HIPWB_OCML_FN(float, rnorm3df, (float __a, float __b, float __c), return __ocml_rlen3_f32(__a, __b, __c);)
__HIPWB_OCML_FN(double, rnorm3d, (double __a, double __b, double __c),
                return __ocml_rlen3_f64(__a, __b, __c);)
__HIPWB_OCML_FN(float, rnorm4df, (float __a, float __b, float __c, float __d),
                return __ocml_rlen4_f32(__a, __b, __c, __d);)
__HIPWB_OCML_FN(double, rnorm4d, (double __a, double __b, double __c, double __d),
                return __ocml_rlen4_f64(__a, __b, __c, __d);)
/* norm/rnorm of n values: hypot accumulation (no overflow of the squares) */
__HIPWB_OCML_FN(float, normf, (int __n, const float *__p),
                float __r = 0.0f; for (int __i = 0; __i < __n; ++__i) __r = __ocml_hypot_f32(__r, __p[__i]);
                return __r;)
__HIPWB_OCML_FN(double, norm, (int __n, const double *__p),
                double __r = 0.0; for (int __i = 0; __i < __n; ++__i) __r = __ocml_hypot_f64(__r, __p[__i]);
                return __r;)
__HIPWB_OCML_FN(float, rnormf, (int __n, const float *__p),
                float __r = 0.0f; for (int __i = 0; __i < __n; ++__i) __r = __ocml_hypot_f32(__r, __p[__i]);
                return 1.0f / __r;)
__HIPWB_OCML_FN(double, rnorm, (int __n, const double *__p),
                double __r = 0.0; for (int __i = 0; __i < __n; ++__i) __r = __ocml_hypot_f64(__r, __p[__i]);
                return 1.0 / __r;)
/* results through pointers: ocml writes private memory, the caller's pointer may be generic */
#define __HIPWB_OUT1(RET, NAME, T, O, SUF)                                                   \
  __HIPWB_OCML_FN(RET, NAME, (RET __x, T *__out), T __t; RET __r = __ocml_##O##_##SUF(             \
                      __x, (__HIPWB_P5 T *)&__t); *__out = __t; return __r;)
__HIPWB_OUT1(float, frexpf, int, frexp, f32)
__HIPWB_OUT1(float, frexp, int, frexp, f32)
__HIPWB_OUT1(double, frexp, int, frexp, f64)
__HIPWB_OUT1(float, modff, float, modf, f32)
__HIPWB_OUT1(float, modf, float, modf, f32)
__HIPWB_OUT1(double, modf, double, modf, f64)
#undef __HIPWB_OUT1
__HIPWB_OCML_FN(float, remquof, (float __x, float __y, int *__q),
                int __t; float __r = __ocml_remquo_f32(__x, __y, (__HIPWB_P5 int *)&__t); *__q = __t; return __r;)
__HIPWB_OCML_FN(float, remquo, (float __x, float __y, int *__q),
                int __t; float __r = __ocml_remquo_f32(__x, __y, (__HIPWB_P5 int *)&__t); *__q = __t; return __r;)
__HIPWB_OCML_FN(double, remquo, (double __x, double __y, int *__q),
                int __t; double __r = __ocml_remquo_f64(__x, __y, (__HIPWB_P5 int *)&__t); *__q = __t;
                return __r;)
__HIPWB_OCML_FN(void, sincospif, (float __x, float *__s, float *__c),
                float __t; *__s = __ocml_sincospi_f32(__x, (__HIPWB_P5 float *)&__t); *__c = __t;)
__HIPWB_OCML_FN(void, sincospi, (float __x, float *__s, float *__c),
                float __t; *__s = __ocml_sincospi_f32(__x, (__HIPWB_P5 float *)&__t); *__c = __t;)
__HIPWB_OCML_FN(void, sincospi, (double __x, double *__s, double *__c),
                double __t; *__s = __ocml_sincospi_f64(__x, (__HIPWB_P5 double *)&__t); *__c = __t;)
__HIPWB_OCML_FN(void, sincos, (double __x, double *__s, double *__c),
                double __t; *__s = __ocml_sincos_f64(__x, (__HIPWB_P5 double *)&__t); *__c = __t;)

#undef __HIPWB_M1
#undef __HIPWB_M2
#undef __HIPWB_D1
#undef __HIPWB_DECL1
#undef __HIPWB_DECL2
#undef __HIPWB_OCML_FN

/* ---- no library needed: rounding to integers, NaN payloads, double _rn arithmetic ---- */
__HIPWB_FN_INLINE long lrintf(float __x) { return (long)__builtin_rintf(__x); }
__HIPWB_FN_INLINE long long llrintf(float __x) { return (long long)__builtin_rintf(__x); }
__HIPWB_FN_INLINE long lroundf(float __x) { return (long)__builtin_roundf(__x); }
__HIPWB_FN_INLINE long long llroundf(float __x) { return (long long)__builtin_roundf(__x); }
__HIPWB_FN_INLINE long lrint(double __x) { return (long)__builtin_rint(__x); }
__HIPWB_FN_INLINE long long llrint(double __x) { return (long long)__builtin_rint(__x); }
__HIPWB_FN_INLINE long lround(double __x) { return (long)__builtin_round(__x); }
__HIPWB_FN_INLINE long long llround(double __x) { return (long long)__builtin_round(__x); }
__HIPWB_FN_INLINE long lrint(float __x) { return lrintf(__x); }
__HIPWB_FN_INLINE long long llrint(float __x) { return llrintf(__x); }
__HIPWB_FN_INLINE long lround(float __x) { return lroundf(__x); }
__HIPWB_FN_INLINE long long llround(float __x) { return llroundf(__x); }
__HIPWB_FN_INLINE float nanf(const char *) { return __builtin_nanf(""); }
__HIPWB_FN_INLINE double nan(const char *) { return __builtin_nan(""); }
__HIPWB_FN_INLINE double __dadd_rn(double __x, double __y) {
#pragma clang fp contract(off)
  return __x + __y;
}
__HIPWB_FN_INLINE double __dsub_rn(double __x, double __y) {
#pragma clang fp contract(off)
  return __x - __y;
}
__HIPWB_FN_INLINE double __dmul_rn(double __x, double __y) {
#pragma clang fp contract(off)
  return __x * __y;
}
__HIPWB_FN_INLINE double __ddiv_rn(double __x, double __y) { return __x / __y; }
__HIPWB_FN_INLINE double __drcp_rn(double __x) { return 1.0 / __x; }
__HIPWB_FN_INLINE double __dsqrt_rn(double __x) { return __builtin_sqrt(__x); }
__HIPWB_FN_INLINE double __fma_rn(double __x, double __y, double __z) { return __builtin_fma(__x, __y, __z); }

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
