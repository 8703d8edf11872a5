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
__HIPWB_FN_INLINE float expf(float x) { return __builtin_expf(x); }
__HIPWB_FN_INLINE float exp2f(float x) { return __builtin_exp2f(x); }
__HIPWB_FN_INLINE float exp10f(float x) { return __builtin_exp10f(x); }
__HIPWB_FN_INLINE float logf(float x) { return __builtin_logf(x); }
__HIPWB_FN_INLINE float log2f(float x) { return __builtin_log2f(x); }
__HIPWB_FN_INLINE float log10f(float x) { return __builtin_log10f(x); }
__HIPWB_FN_INLINE float sqrtf(float x) { return __builtin_sqrtf(x); }
__HIPWB_FN_INLINE float rsqrtf(float x) { return __builtin_amdgcn_rsqf(x); }
__HIPWB_FN_INLINE float fabsf(float x) { return __builtin_fabsf(x); }
__HIPWB_FN_INLINE float floorf(float x) { return __builtin_floorf(x); }
__HIPWB_FN_INLINE float ceilf(float x) { return __builtin_ceilf(x); }
__HIPWB_FN_INLINE float truncf(float x) { return __builtin_truncf(x); }
__HIPWB_FN_INLINE float roundf(float x) { return __builtin_roundf(x); }
__HIPWB_FN_INLINE float rintf(float x) { return __builtin_rintf(x); }
__HIPWB_FN_INLINE float nearbyintf(float x) { return __builtin_nearbyintf(x); }
__HIPWB_FN_INLINE float fmaxf(float x, float y) { return __builtin_fmaxf(x, y); }
__HIPWB_FN_INLINE float fminf(float x, float y) { return __builtin_fminf(x, y); }
__HIPWB_FN_INLINE float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__HIPWB_FN_INLINE float copysignf(float x, float y) { return __builtin_copysignf(x, y); }
__HIPWB_FN_INLINE float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }

/* ---- float: inline algorithms (hipwb/math_inline.h) ---- */
__HIPWB_FN float tanhf(float x) { return __hipwb_tanhf(x); }
__HIPWB_FN float powf(float x, float y) { return __hipwb_powf(x, y); }
__HIPWB_FN float sinf(float x) { return __hipwb_sinf(x); }
__HIPWB_FN float cosf(float x) { return __hipwb_cosf(x); }
__HIPWB_FN float tanf(float x) { return __hipwb_tanf(x); }
__HIPWB_FN void sincosf(float x, float *s, float *c) { __hipwb_sincosf(x, s, c); }

/* ---- float: fast hardware approximations ---- */
__HIPWB_FN_INLINE float __expf(float x) {
  return __builtin_amdgcn_exp2f(x * 1.44269504088896341f); /* log2(e) */
}
__HIPWB_FN_INLINE float __exp10f(float x) {
  return __builtin_amdgcn_exp2f(x * 3.32192809488736235f); /* log2(10) */
}
__HIPWB_FN_INLINE float __log2f(float x) { return __builtin_amdgcn_logf(x); }
__HIPWB_FN_INLINE float __logf(float x) {
  return __builtin_amdgcn_logf(x) * 0.693147180559945309f; /* ln 2 */
}
__HIPWB_FN_INLINE float __log10f(float x) {
  return __builtin_amdgcn_logf(x) * 0.301029995663981195f; /* log10(2) */
}
__HIPWB_FN_INLINE float __sinf(float x) {
  return __builtin_amdgcn_sinf(x * 0.159154943091895336f); /* 1/(2 pi): revolutions */
}
__HIPWB_FN_INLINE float __cosf(float x) {
  return __builtin_amdgcn_cosf(x * 0.159154943091895336f);
}
__HIPWB_FN_INLINE float __tanf(float x) { return __sinf(x) * __builtin_amdgcn_rcpf(__cosf(x)); }
__HIPWB_FN_INLINE void __sincosf(float x, float *s, float *c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
__HIPWB_FN_INLINE float __powf(float x, float y) {
  return __builtin_amdgcn_exp2f(y * __builtin_amdgcn_logf(x));
}
__HIPWB_FN_INLINE float __fdividef(float x, float y) { return x * __builtin_amdgcn_rcpf(y); }
__HIPWB_FN_INLINE float __saturatef(float x) {
  return __builtin_fminf(__builtin_fmaxf(x, 0.0f), 1.0f);
}
/* Correctly rounded (round-to-nearest) operations: plain IEEE operations, never contracted. */
__HIPWB_FN_INLINE float __fadd_rn(float x, float y) {
#pragma clang fp contract(off)
  return x + y;
}
__HIPWB_FN_INLINE float __fsub_rn(float x, float y) {
#pragma clang fp contract(off)
  return x - y;
}
__HIPWB_FN_INLINE float __fmul_rn(float x, float y) {
#pragma clang fp contract(off)
  return x * y;
}
__HIPWB_FN_INLINE float __fdiv_rn(float x, float y) { return x / y; }
__HIPWB_FN_INLINE float __frcp_rn(float x) { return 1.0f / x; }
__HIPWB_FN_INLINE float __fsqrt_rn(float x) { return __builtin_sqrtf(x); }
__HIPWB_FN_INLINE float __fmaf_rn(float x, float y, float z) { return __builtin_fmaf(x, y, z); }

/* ---- unsuffixed float overloads (HIP/C++ style) ---- */
#define __HIPWB_FLOAT_OVERLOAD1(NAME, FN) \
  __HIPWB_FN_INLINE float NAME(float x) { return FN(x); }
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
__HIPWB_FN_INLINE float pow(float x, float y) { return powf(x, y); }
__HIPWB_FN_INLINE float fmax(float x, float y) { return fmaxf(x, y); }
__HIPWB_FN_INLINE float fmin(float x, float y) { return fminf(x, y); }
__HIPWB_FN_INLINE float fma(float x, float y, float z) { return fmaf(x, y, z); }
__HIPWB_FN_INLINE float copysign(float x, float y) { return copysignf(x, y); }
__HIPWB_FN_INLINE float ldexp(float x, int e) { return ldexpf(x, e); }
__HIPWB_FN_INLINE void sincos(float x, float *s, float *c) { sincosf(x, s, c); }

/* ---- double: the functions the backend lowers directly ---- */
__HIPWB_FN_INLINE double sqrt(double x) { return __builtin_sqrt(x); }
__HIPWB_FN_INLINE double fabs(double x) { return __builtin_fabs(x); }
__HIPWB_FN_INLINE double abs(double x) { return __builtin_fabs(x); }
__HIPWB_FN_INLINE double floor(double x) { return __builtin_floor(x); }
__HIPWB_FN_INLINE double ceil(double x) { return __builtin_ceil(x); }
__HIPWB_FN_INLINE double trunc(double x) { return __builtin_trunc(x); }
__HIPWB_FN_INLINE double round(double x) { return __builtin_round(x); }
__HIPWB_FN_INLINE double rint(double x) { return __builtin_rint(x); }
__HIPWB_FN_INLINE double nearbyint(double x) { return __builtin_nearbyint(x); }
__HIPWB_FN_INLINE double fmax(double x, double y) { return __builtin_fmax(x, y); }
__HIPWB_FN_INLINE double fmin(double x, double y) { return __builtin_fmin(x, y); }
__HIPWB_FN_INLINE double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
__HIPWB_FN_INLINE double copysign(double x, double y) { return __builtin_copysign(x, y); }
__HIPWB_FN_INLINE double ldexp(double x, int e) { return __builtin_ldexp(x, e); }

/* ---- classification (float and double) ---- */
#define __HIPWB_CLASSIFY(T)                                                          \
  __HIPWB_FN_INLINE bool isnan(T x) { return __builtin_isnan(x); }                   \
  __HIPWB_FN_INLINE bool isinf(T x) { return __builtin_isinf(x); }                   \
  __HIPWB_FN_INLINE bool isfinite(T x) { return __builtin_isfinite(x); }             \
  __HIPWB_FN_INLINE bool signbit(T x) { return __builtin_signbit(x); }
__HIPWB_CLASSIFY(float)
__HIPWB_CLASSIFY(double)
#undef __HIPWB_CLASSIFY

/* ---- integer abs, min/max ---- */
__HIPWB_FN_INLINE int abs(int x) { return x < 0 ? -x : x; }
__HIPWB_FN_INLINE long labs(long x) { return x < 0 ? -x : x; }
__HIPWB_FN_INLINE long long llabs(long long x) { return x < 0 ? -x : x; }
#define __HIPWB_MINMAX(T)                                           \
  __HIPWB_FN_INLINE T min(T a, T b) { return b < a ? b : a; }       \
  __HIPWB_FN_INLINE T max(T a, T b) { return a < b ? b : a; }
__HIPWB_MINMAX(int)
__HIPWB_MINMAX(unsigned int)
__HIPWB_MINMAX(long)
__HIPWB_MINMAX(unsigned long)
__HIPWB_MINMAX(long long)
__HIPWB_MINMAX(unsigned long long)
#undef __HIPWB_MINMAX
__HIPWB_FN_INLINE float min(float a, float b) { return __builtin_fminf(a, b); }
__HIPWB_FN_INLINE float max(float a, float b) { return __builtin_fmaxf(a, b); }
__HIPWB_FN_INLINE double min(double a, double b) { return __builtin_fmin(a, b); }
__HIPWB_FN_INLINE double max(double a, double b) { return __builtin_fmax(a, b); }

/* ---- the same names in namespace std (std::exp(x), std::max(a, b), ...) ---- */
namespace std {
using ::abs; using ::ceil; using ::copysign; using ::cos; using ::exp; using ::exp2;
using ::fabs; using ::floor; using ::fma; using ::fmax; using ::fmin; using ::isfinite;
using ::isinf; using ::isnan; using ::ldexp; using ::log; using ::log10; using ::log2;
using ::max; using ::min; using ::nearbyint; using ::pow; using ::rint; using ::round;
using ::signbit; using ::sin; using ::sqrt; using ::tan; using ::tanh; using ::trunc;
} // namespace std

#pragma clang diagnostic pop

#endif /* HIPWB_MATH_H */
