/* hipwb/half.h — __half / __half2 (IEEE binary16) and their HIP intrinsics.
 *
 * __half is clang's native `_Float16` (half is an alias), __half2 an ext_vector_type(2) of it,
 * with .x/.y. Arithmetic and comparison operators are the language's own: the backend uses the
 * f16 instructions (v_add_f16, v_fma_f16, ...; packed v_pk_*_f16 for __half2). This is a superset
 * of HIP's struct-based __half: mixed __half/float expressions promote to float instead of being
 * ambiguous. Conversions (LLVM fptrunc/fpext) round to nearest even.
 *
 * Provided: __float2half(_rn,_rz), __half2float, __int2half_rn, __uint2half_rn, __half2int_rz,
 * __half2uint_rz, __half_as_ushort, __ushort_as_half, __half_as_short, __short_as_half,
 * __hadd/__hsub/__hmul/__hdiv/__hfma/__hneg/__habs/__hmax/__hmin, comparisons __heq/__hne/
 * __hlt/__hle/__hgt/__hge, __hisnan/__hisinf, hsqrt/hrsqrt/hrcp/hexp/hexp2/hlog/hlog2,
 * and for __half2: __halves2half2, __half2half2, __low2half, __high2half, __low2float,
 * __high2float, __floats2half2_rn, __float2half2_rn, __float22half2_rn, __half22float2,
 * __hadd2/__hsub2/__hmul2/__h2div/__hfma2/__hneg2/__habs2/__hmax2/__hmin2, h2sqrt/h2rsqrt/
 * h2rcp/h2exp/h2exp2/h2log/h2log2, __heq2.../__hbeq2... (eq ne lt le gt ge), __hisnan2,
 * __lowhigh2highlow, __low2half2, __high2half2, __lows2half2, __highs2half2, and
 * __half2int_rn/_rd/_ru, __half2uint_rn.
 * Rounding-mode variants: _rz uses v_cvt_pkrtz_f16_f32 (__builtin_amdgcn_cvt_pkrtz); other
 * directed-rounding variants (_rd, _ru) are not provided.
 */
#ifndef HIPWB_HALF_H
#define HIPWB_HALF_H

#include "config.h"
#include "vector_types.h"

typedef _Float16 __half;
typedef _Float16 half;
typedef _Float16 __half2 __attribute__((ext_vector_type(2)));
typedef __half2 half2;

/* Operations shared by __half and __hip_bfloat16 (bfloat16.h instantiates them as well):
 * T is the scalar type; arithmetic rounds the exact result (computed in float, which holds the
 * product of two 11-bit or 8-bit significands exactly) back to T. */
#define __HIPWB_HALF_LIKE_OPS(T)                                                           \
  __HIPWB_FN_INLINE T __hadd(T a, T b) { return a + b; }                                   \
  __HIPWB_FN_INLINE T __hsub(T a, T b) { return a - b; }                                   \
  __HIPWB_FN_INLINE T __hmul(T a, T b) { return a * b; }                                   \
  __HIPWB_FN_INLINE T __hdiv(T a, T b) { return a / b; }                                   \
  __HIPWB_FN_INLINE T __hfma(T a, T b, T c) {                                              \
    return (T)__builtin_fmaf((float)a, (float)b, (float)c);                                \
  }                                                                                        \
  __HIPWB_FN_INLINE T __hneg(T a) { return -a; }                                           \
  __HIPWB_FN_INLINE T __habs(T a) { return (T)__builtin_fabsf((float)a); }                 \
  __HIPWB_FN_INLINE T __hmax(T a, T b) { return (T)__builtin_fmaxf((float)a, (float)b); }  \
  __HIPWB_FN_INLINE T __hmin(T a, T b) { return (T)__builtin_fminf((float)a, (float)b); }  \
  __HIPWB_FN_INLINE bool __heq(T a, T b) { return a == b; }                                \
  __HIPWB_FN_INLINE bool __hne(T a, T b) { return a != b; }                                \
  __HIPWB_FN_INLINE bool __hlt(T a, T b) { return a < b; }                                 \
  __HIPWB_FN_INLINE bool __hle(T a, T b) { return a <= b; }                                \
  __HIPWB_FN_INLINE bool __hgt(T a, T b) { return a > b; }                                 \
  __HIPWB_FN_INLINE bool __hge(T a, T b) { return a >= b; }                                \
  __HIPWB_FN_INLINE bool __hisnan(T a) { return a != a; }                                  \
  __HIPWB_FN_INLINE int __hisinf(T a) {                                                    \
    return __builtin_isinf((float)a) ? (a > (T)0 ? 1 : -1) : 0;                            \
  }                                                                                        \
  __HIPWB_FN_INLINE T hsqrt(T a) { return (T)__builtin_sqrtf((float)a); }                  \
  __HIPWB_FN_INLINE T hrsqrt(T a) { return (T)__builtin_amdgcn_rsqf((float)a); }           \
  __HIPWB_FN_INLINE T hrcp(T a) { return (T)__builtin_amdgcn_rcpf((float)a); }             \
  __HIPWB_FN_INLINE T hexp(T a) { return (T)__builtin_expf((float)a); }                    \
  __HIPWB_FN_INLINE T hexp2(T a) { return (T)__builtin_exp2f((float)a); }                  \
  __HIPWB_FN_INLINE T hlog(T a) { return (T)__builtin_logf((float)a); }                    \
  __HIPWB_FN_INLINE T hlog2(T a) { return (T)__builtin_log2f((float)a); }

/* Operations on the 2-vector type V of scalar T (all lane-wise). */
#define __HIPWB_HALF2_LIKE_OPS(T, V)                                                        \
  __HIPWB_FN_INLINE V __hadd2(V a, V b) { return a + b; }                                   \
  __HIPWB_FN_INLINE V __hsub2(V a, V b) { return a - b; }                                   \
  __HIPWB_FN_INLINE V __hmul2(V a, V b) { return a * b; }                                   \
  __HIPWB_FN_INLINE V __h2div(V a, V b) { return a / b; }                                   \
  __HIPWB_FN_INLINE V __hfma2(V a, V b, V c) {                                              \
    return V{__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};                                 \
  }                                                                                         \
  __HIPWB_FN_INLINE V __hneg2(V a) { return -a; }                                           \
  __HIPWB_FN_INLINE V __habs2(V a) { return V{__habs(a.x), __habs(a.y)}; }                  \
  __HIPWB_FN_INLINE V __hmax2(V a, V b) { return V{__hmax(a.x, b.x), __hmax(a.y, b.y)}; }   \
  __HIPWB_FN_INLINE V __hmin2(V a, V b) { return V{__hmin(a.x, b.x), __hmin(a.y, b.y)}; }   \
  __HIPWB_FN_INLINE T __low2half(V a) { return a.x; }                                       \
  __HIPWB_FN_INLINE T __high2half(V a) { return a.y; }                                      \
  __HIPWB_FN_INLINE float __low2float(V a) { return (float)a.x; }                           \
  __HIPWB_FN_INLINE float __high2float(V a) { return (float)a.y; }                          \
  __HIPWB_FN_INLINE V __lowhigh2highlow(V a) { return V{a.y, a.x}; }                        \
  __HIPWB_FN_INLINE V h2sqrt(V a) { return V{hsqrt(a.x), hsqrt(a.y)}; }                     \
  __HIPWB_FN_INLINE V h2rsqrt(V a) { return V{hrsqrt(a.x), hrsqrt(a.y)}; }                  \
  __HIPWB_FN_INLINE V h2rcp(V a) { return V{hrcp(a.x), hrcp(a.y)}; }                        \
  __HIPWB_FN_INLINE V h2exp(V a) { return V{hexp(a.x), hexp(a.y)}; }                        \
  __HIPWB_FN_INLINE V h2exp2(V a) { return V{hexp2(a.x), hexp2(a.y)}; }                     \
  __HIPWB_FN_INLINE V h2log(V a) { return V{hlog(a.x), hlog(a.y)}; }                        \
  __HIPWB_FN_INLINE V h2log2(V a) { return V{hlog2(a.x), hlog2(a.y)}; }                     \
  __HIPWB_HALF2_CMP(T, V, eq, ==) __HIPWB_HALF2_CMP(T, V, ne, !=)                           \
  __HIPWB_HALF2_CMP(T, V, lt, <) __HIPWB_HALF2_CMP(T, V, le, <=)                            \
  __HIPWB_HALF2_CMP(T, V, gt, >) __HIPWB_HALF2_CMP(T, V, ge, >=)                            \
  __HIPWB_FN_INLINE V __hisnan2(V a) {                                                      \
    return V{(T)(a.x != a.x ? 1.0f : 0.0f), (T)(a.y != a.y ? 1.0f : 0.0f)};                 \
  }

/* Lane-wise comparisons of 2-vectors: __heq2 ... give 1.0/0.0 per lane, __hbeq2 ... true when
 * both lanes compare true (HIP's hip_fp16.h / hip_bf16.h names). */
#define __HIPWB_HALF2_CMP(T, V, NAME, OP)                                                   \
  __HIPWB_FN_INLINE V __h##NAME##2(V a, V b) {                                              \
    return V{(T)(a.x OP b.x ? 1.0f : 0.0f), (T)(a.y OP b.y ? 1.0f : 0.0f)};                 \
  }                                                                                         \
  __HIPWB_FN_INLINE bool __hb##NAME##2(V a, V b) { return (a.x OP b.x) && (a.y OP b.y); }

__HIPWB_HALF_LIKE_OPS(__half)
__HIPWB_HALF2_LIKE_OPS(__half, __half2)

__HIPWB_FN_INLINE __half __float2half(float f) { return (__half)f; }
__HIPWB_FN_INLINE __half __float2half_rn(float f) { return (__half)f; }
__HIPWB_FN_INLINE __half __float2half_rz(float f) { return __builtin_amdgcn_cvt_pkrtz(f, 0.0f).x; }
__HIPWB_FN_INLINE float __half2float(__half h) { return (float)h; }
__HIPWB_FN_INLINE __half __int2half_rn(int i) { return (__half)i; }
__HIPWB_FN_INLINE __half __uint2half_rn(unsigned int i) { return (__half)i; }
__HIPWB_FN_INLINE int __half2int_rz(__half h) { return (int)h; }
__HIPWB_FN_INLINE unsigned int __half2uint_rz(__half h) { return (unsigned int)h; }
__HIPWB_FN_INLINE int __half2int_rn(__half h) { return (int)__builtin_rintf((float)h); }
__HIPWB_FN_INLINE int __half2int_rd(__half h) { return (int)__builtin_floorf((float)h); }
__HIPWB_FN_INLINE int __half2int_ru(__half h) { return (int)__builtin_ceilf((float)h); }
__HIPWB_FN_INLINE unsigned int __half2uint_rn(__half h) {
  return (unsigned int)__builtin_rintf((float)h);
}
__HIPWB_FN_INLINE __half2 __low2half2(__half2 a) { return __half2{a.x, a.x}; }
__HIPWB_FN_INLINE __half2 __high2half2(__half2 a) { return __half2{a.y, a.y}; }
__HIPWB_FN_INLINE __half2 __lows2half2(__half2 a, __half2 b) { return __half2{a.x, b.x}; }
__HIPWB_FN_INLINE __half2 __highs2half2(__half2 a, __half2 b) { return __half2{a.y, b.y}; }
__HIPWB_FN_INLINE unsigned short __half_as_ushort(__half h) {
  return __builtin_bit_cast(unsigned short, h);
}
__HIPWB_FN_INLINE __half __ushort_as_half(unsigned short u) {
  return __builtin_bit_cast(__half, u);
}
__HIPWB_FN_INLINE short __half_as_short(__half h) { return __builtin_bit_cast(short, h); }
__HIPWB_FN_INLINE __half __short_as_half(short s) { return __builtin_bit_cast(__half, s); }

__HIPWB_FN_INLINE __half2 __halves2half2(__half lo, __half hi) { return __half2{lo, hi}; }
__HIPWB_FN_INLINE __half2 __half2half2(__half h) { return __half2{h, h}; }
__HIPWB_FN_INLINE __half2 __floats2half2_rn(float lo, float hi) {
  return __half2{(__half)lo, (__half)hi};
}
__HIPWB_FN_INLINE __half2 __float2half2_rn(float f) { return __half2{(__half)f, (__half)f}; }
__HIPWB_FN_INLINE float2 __half22float2(__half2 h) { return float2((float)h.x, (float)h.y); }
__HIPWB_FN_INLINE __half2 __float22half2_rn(float2 f) {
  return __half2{(__half)f.x, (__half)f.y};
}

#endif /* HIPWB_HALF_H */
