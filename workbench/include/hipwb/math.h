/* hipwb/math.h — HIP's device math functions (float, and double where trivial).
 *
 * How each group is implemented (no ROCm ocml library exists under -nogpulib, so nothing here
 * may lower to a call):
 *  - LLVM intrinsics the AMDGPU backend expands by itself (AMDGPUISelLowering / SIISelLowering
 *    lower llvm.exp/exp2/exp10/log/log2/log10/sqrt/fma/maxnum/minnum/floor/ceil/trunc/round/
 *    rint/ldexp/copysign/fabs to instructions, with denormal and range fix-ups around v_exp_f32,
 *    v_log_f32 and v_sqrt_f32): expf exp2f exp10f logf log2f log10f sqrtf fabsf floorf ceilf
 *    truncf roundf rintf nearbyintf fmaxf fminf fmaf copysignf ldexpf, and the double forms of
 *    sqrt fabs floor ceil trunc round rint fmax fmin fma copysign ldexp.
 *  - Hardware approximations (the ISA's transcendental unit, ~1 ulp, no special-case fix-ups):
 *    rsqrtf (v_rsq_f32) and the fast intrinsics __expf __exp10f __logf __log2f __log10f __sinf
 *    __cosf __tanf __sincosf __powf __fdividef, built on __builtin_amdgcn_exp2f/logf/sinf/cosf/
 *    rcpf (v_exp_f32, v_log_f32, v_sin_f32, v_cos_f32, v_rcp_f32; sin/cos take revolutions, so
 *    the argument is scaled by 1/(2 pi)).
 *  - Inline algorithms of hipwb/math_inline.h: tanhf powf sinf cosf tanf sincosf.
 *  - Everything else (log1pf, erfinvf, tgammaf, ..., and the double transcendental functions)
 *    is AMD's ocml, linked as bitcode: hipwb/math_ocml.h.
 * The unsuffixed names (exp, sqrt, pow, ...) have float overloads, as in HIP, so `exp(x)` on a
 * float stays in float; they are also made visible in namespace std (std::exp(x) etc.).
 */
#ifndef HIPWB_MATH_H
#define HIPWB_MATH_H

#include "config.h"
#include "math_inline.h"
#include "math_ocml.h"

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"

/* ---- float: lowered by the backend ---- */
__HIPWB_FN_INLINE float expf(float __x) { return __builtin_expf(__x); }
__HIPWB_FN_INLINE float exp2f(float __x) { return __builtin_exp2f(__x); }
__HIPWB_FN_INLINE float exp10f(float __x) { return __builtin_exp10f(__x); }
__HIPWB_FN_INLINE float logf(float __x) { return __builtin_logf(__x); }
__HIPWB_FN_INLINE float log2f(float __x) { return __builtin_log2f(__x); }
__HIPWB_FN_INLINE float log10f(float __x) { return __builtin_log10f(__x); }
__HIPWB_FN_INLINE float sqrtf(float __x) { return __builtin_sqrtf(__x); }
__HIPWB_FN_INLINE float rsqrtf(float __x) { return __builtin_amdgcn_rsqf(__x); }
__HIPWB_FN_INLINE float fabsf(float __x) { return __builtin_fabsf(__x); }
__HIPWB_FN_INLINE float floorf(float __x) { return __builtin_floorf(__x); }
__HIPWB_FN_INLINE float ceilf(float __x) { return __builtin_ceilf(__x); }
__HIPWB_FN_INLINE float truncf(float __x) { return __builtin_truncf(__x); }
__HIPWB_FN_INLINE float roundf(float __x) { return __builtin_roundf(__x); }
__HIPWB_FN_INLINE float rintf(float __x) { return __builtin_rintf(__x); }
__HIPWB_FN_INLINE float nearbyintf(float __x) { return __builtin_nearbyintf(__x); }
__HIPWB_FN_INLINE float fmaxf(float __x, float __y) { return __builtin_fmaxf(__x, __y); }
__HIPWB_FN_INLINE float fminf(float __x, float __y) { return __builtin_fminf(__x, __y); }
__HIPWB_FN_INLINE float fmaf(float __x, float __y, float __z) { return __builtin_fmaf(__x, __y, __z); }
__HIPWB_FN_INLINE float copysignf(float __x, float __y) { return __builtin_copysignf(__x, __y); }
__HIPWB_FN_INLINE float ldexpf(float __x, int __e) { return __builtin_ldexpf(__x, __e); }

/* ---- float: inline algorithms (hipwb/math_inline.h) ---- */
__HIPWB_FN float tanhf(float __x) { return __hipwb_tanhf(__x); }
__HIPWB_FN float powf(float __x, float __y) { return __hipwb_powf(__x, __y); }
__HIPWB_FN float sinf(float __x) { return __hipwb_sinf(__x); }
__HIPWB_FN float cosf(float __x) { return __hipwb_cosf(__x); }
__HIPWB_FN float tanf(float __x) { return __hipwb_tanf(__x); }
__HIPWB_FN void sincosf(float __x, float *__s, float *__c) { __hipwb_sincosf(__x, __s, __c); }

/* ---- float: fast hardware approximations ---- */
__HIPWB_FN_INLINE float __expf(float __x) {
  return __builtin_amdgcn_exp2f(__x * 1.44269504088896341f); /* log2(e) */
}
__HIPWB_FN_INLINE float __exp10f(float __x) {
  return __builtin_amdgcn_exp2f(__x * 3.32192809488736235f); /* log2(10) */
}
__HIPWB_FN_INLINE float __log2f(float __x) { return __builtin_amdgcn_logf(__x); }
__HIPWB_FN_INLINE float __logf(float __x) {
  return __builtin_amdgcn_logf(__x) * 0.693147180559945309f; /* ln 2 */
}
__HIPWB_FN_INLINE float __log10f(float __x) {
  return __builtin_amdgcn_logf(__x) * 0.301029995663981195f; /* log10(2) */
}
__HIPWB_FN_INLINE float __sinf(float __x) {
  return __builtin_amdgcn_sinf(__x * 0.159154943091895336f); /* 1/(2 pi): revolutions */
}
__HIPWB_FN_INLINE float __cosf(float __x) {
  return __builtin_amdgcn_cosf(__x * 0.159154943091895336f);
}
__HIPWB_FN_INLINE float __tanf(float __x) { return __sinf(__x) * __builtin_amdgcn_rcpf(__cosf(__x)); }
__HIPWB_FN_INLINE void __sincosf(float __x, float *__s, float *__c) {
  *__s = __sinf(__x);
  *__c = __cosf(__x);
}
__HIPWB_FN_INLINE float __powf(float __x, float __y) {
  return __builtin_amdgcn_exp2f(__y * __builtin_amdgcn_logf(__x));
}
__HIPWB_FN_INLINE float __fdividef(float __x, float __y) { return __x * __builtin_amdgcn_rcpf(__y); }
__HIPWB_FN_INLINE float __saturatef(float __x) {
  return __builtin_fminf(__builtin_fmaxf(__x, 0.0f), 1.0f);
}
/* Correctly rounded (round-to-nearest) operations: plain IEEE operations, never contracted. */
__HIPWB_FN_INLINE float __fadd_rn(float __x, float __y) {
#pragma clang fp contract(off)
  return __x + __y;
}
__HIPWB_FN_INLINE float __fsub_rn(float __x, float __y) {
#pragma clang fp contract(off)
  return __x - __y;
}
__HIPWB_FN_INLINE float __fmul_rn(float __x, float __y) {
#pragma clang fp contract(off)
  return __x * __y;
}
__HIPWB_FN_INLINE float __fdiv_rn(float __x, float __y) { return __x / __y; }
__HIPWB_FN_INLINE float __frcp_rn(float __x) { return 1.0f / __x; }
__HIPWB_FN_INLINE float __fsqrt_rn(float __x) { return __builtin_sqrtf(__x); }
__HIPWB_FN_INLINE float __fmaf_rn(float __x, float __y, float __z) { return __builtin_fmaf(__x, __y, __z); }

/* ---- unsuffixed float overloads (HIP/C++ style) ---- */
#define __HIPWB_FLOAT_OVERLOAD1(NAME, FN) \
  __HIPWB_FN_INLINE float NAME(float __x) { return FN(__x); }
__HIPWB_FLOAT_OVERLOAD1(exp, expf)
__HIPWB_FLOAT_OVERLOAD1(exp2, exp2f)
__HIPWB_FLOAT_OVERLOAD1(exp10, exp10f)
__HIPWB_FLOAT_OVERLOAD1(log, logf)
__HIPWB_FLOAT_OVERLOAD1(log2, log2f)
__HIPWB_FLOAT_OVERLOAD1(log10, log10f)
__HIPWB_FLOAT_OVERLOAD1(rsqrt, rsqrtf)
__HIPWB_FLOAT_OVERLOAD1(sin, sinf)
__HIPWB_FLOAT_OVERLOAD1(cos, cosf)
__HIPWB_FLOAT_OVERLOAD1(tan, tanf)
__HIPWB_FLOAT_OVERLOAD1(tanh, tanhf)
__HIPWB_FLOAT_OVERLOAD1(sqrt, sqrtf)
__HIPWB_FLOAT_OVERLOAD1(fabs, fabsf)
__HIPWB_FLOAT_OVERLOAD1(abs, fabsf)
__HIPWB_FLOAT_OVERLOAD1(floor, floorf)
__HIPWB_FLOAT_OVERLOAD1(ceil, ceilf)
__HIPWB_FLOAT_OVERLOAD1(trunc, truncf)
__HIPWB_FLOAT_OVERLOAD1(round, roundf)
__HIPWB_FLOAT_OVERLOAD1(rint, rintf)
__HIPWB_FLOAT_OVERLOAD1(nearbyint, nearbyintf)
#undef __HIPWB_FLOAT_OVERLOAD1
__HIPWB_FN_INLINE float pow(float __x, float __y) { return powf(__x, __y); }
__HIPWB_FN_INLINE float fmax(float __x, float __y) { return fmaxf(__x, __y); }
__HIPWB_FN_INLINE float fmin(float __x, float __y) { return fminf(__x, __y); }
__HIPWB_FN_INLINE float fma(float __x, float __y, float __z) { return fmaf(__x, __y, __z); }
__HIPWB_FN_INLINE float copysign(float __x, float __y) { return copysignf(__x, __y); }
__HIPWB_FN_INLINE float ldexp(float __x, int __e) { return ldexpf(__x, __e); }
__HIPWB_FN_INLINE void sincos(float __x, float *__s, float *__c) { sincosf(__x, __s, __c); }

/* ---- double: the functions the backend lowers directly ---- */
__HIPWB_FN_INLINE double sqrt(double __x) { return __builtin_sqrt(__x); }
__HIPWB_FN_INLINE double fabs(double __x) { return __builtin_fabs(__x); }
__HIPWB_FN_INLINE double abs(double __x) { return __builtin_fabs(__x); }
__HIPWB_FN_INLINE double floor(double __x) { return __builtin_floor(__x); }
__HIPWB_FN_INLINE double ceil(double __x) { return __builtin_ceil(__x); }
__HIPWB_FN_INLINE double trunc(double __x) { return __builtin_trunc(__x); }
__HIPWB_FN_INLINE double round(double __x) { return __builtin_round(__x); }
__HIPWB_FN_INLINE double rint(double __x) { return __builtin_rint(__x); }
__HIPWB_FN_INLINE double nearbyint(double __x) { return __builtin_nearbyint(__x); }
__HIPWB_FN_INLINE double fmax(double __x, double __y) { return __builtin_fmax(__x, __y); }
__HIPWB_FN_INLINE double fmin(double __x, double __y) { return __builtin_fmin(__x, __y); }
__HIPWB_FN_INLINE double fma(double __x, double __y, double __z) { return __builtin_fma(__x, __y, __z); }
__HIPWB_FN_INLINE double copysign(double __x, double __y) { return __builtin_copysign(__x, __y); }
__HIPWB_FN_INLINE double ldexp(double __x, int __e) { return __builtin_ldexp(__x, __e); }

/* ---- classification (float and double) ---- */
#define __HIPWB_CLASSIFY(T)                                                          \
  __HIPWB_FN_INLINE bool isnan(T __x) { return __builtin_isnan(__x); }                   \
  __HIPWB_FN_INLINE bool isinf(T __x) { return __builtin_isinf(__x); }                   \
  __HIPWB_FN_INLINE bool isfinite(T __x) { return __builtin_isfinite(__x); }             \
  __HIPWB_FN_INLINE bool signbit(T __x) { return __builtin_signbit(__x); }
__HIPWB_CLASSIFY(float)
__HIPWB_CLASSIFY(double)
#undef __HIPWB_CLASSIFY

/* ---- integer abs, min/max ---- */
__HIPWB_FN_INLINE int abs(int __x) { return __x < 0 ? -__x : __x; }
__HIPWB_FN_INLINE long labs(long __x) { return __x < 0 ? -__x : __x; }
__HIPWB_FN_INLINE long long llabs(long long __x) { return __x < 0 ? -__x : __x; }
#define __HIPWB_MINMAX(T)                                           \
  __HIPWB_FN_INLINE T min(T __a, T __b) { return __b < __a ? __b : __a; }       \
  __HIPWB_FN_INLINE T max(T __a, T __b) { return __a < __b ? __b : __a; }
__HIPWB_MINMAX(int)
__HIPWB_MINMAX(unsigned int)
__HIPWB_MINMAX(long)
__HIPWB_MINMAX(unsigned long)
__HIPWB_MINMAX(long long)
__HIPWB_MINMAX(unsigned long long)
#undef __HIPWB_MINMAX
__HIPWB_FN_INLINE float min(float __a, float __b) { return __builtin_fminf(__a, __b); }
__HIPWB_FN_INLINE float max(float __a, float __b) { return __builtin_fmaxf(__a, __b); }
__HIPWB_FN_INLINE double min(double __a, double __b) { return __builtin_fmin(__a, __b); }
__HIPWB_FN_INLINE double max(double __a, double __b) { return __builtin_fmax(__a, __b); }
/* HIP also gives host code int min/max (HIP math API reference, "Integer intrinsics": `__host__
 * int min(int, int)`, `__host__ int max(int, int)`; clang's __clang_hip_math.h has the same);
 * host code of AMD's libraries calls them unqualified (hipCUB's DeviceSpmv). */
static __host__ inline int min(int __a, int __b) { return __b < __a ? __b : __a; }
static __host__ inline int max(int __a, int __b) { return __a < __b ? __b : __a; }

/* ---- the same names in namespace std (std::exp(x), std::fmax(a, b), ...) ----
 * Not min/max: std::min and std::max stay libstdc++'s constexpr templates (<algorithm>), as with
 * clang's HIP wrapper (__clang_hip_cmath.h adds its min/max overloads to the global namespace
 * only, "they are not part of cmath"). Libraries rely on that: rocWMMA evaluates std::min of two
 * uint32_t in enumerator initializers, which needs a constexpr function. */
namespace std {
using ::abs; using ::ceil; using ::copysign; using ::cos; using ::exp; using ::exp2;
using ::fabs; using ::floor; using ::fma; using ::fmax; using ::fmin; using ::isfinite;
using ::isinf; using ::isnan; using ::ldexp; using ::log; using ::log10; using ::log2;
using ::nearbyint; using ::pow; using ::rint; using ::round;
using ::signbit; using ::sin; using ::sqrt; using ::tan; using ::tanh; using ::trunc;
} // namespace std

#pragma clang diagnostic pop

#endif /* HIPWB_MATH_H */
