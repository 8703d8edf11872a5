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
 * Host and device: as in ROCm, the conversions, bit casts, packing, arithmetic and comparisons
 * are `__host__ __device__` (host code of a pasted .hip file may call __half22float2); the
 * hardware approximations (hrsqrt, hrcp, h2rsqrt, h2rcp) and __float2half_rz are device-only.
 * __half_raw / __half2_raw: ROCm's raw structs (end of this file).
 */
#ifndef HIPWB_HALF_H
#define HIPWB_HALF_H

#include "config.h"
#include "vector_types.h"

typedef _Float16 __half;
typedef _Float16 half;
typedef _Float16 __half2 __attribute__((__ext_vector_type__(2)));
typedef __half2 half2;

/* Operations shared by __half and __hip_bfloat16 (bfloat16.h instantiates them as well):
 * T is the scalar type; arithmetic rounds the exact result (computed in float, which holds the
 * product of two 11-bit or 8-bit significands exactly) back to T. */
#define __HIPWB_HALF_LIKE_OPS(T)                                                           \
  __HIPWB_HD_INLINE T __hadd(T __a, T __b) { return __a + __b; }                                   \
  __HIPWB_HD_INLINE T __hsub(T __a, T __b) { return __a - __b; }                                   \
  __HIPWB_HD_INLINE T __hmul(T __a, T __b) { return __a * __b; }                                   \
  __HIPWB_HD_INLINE T __hdiv(T __a, T __b) { return __a / __b; }                                   \
  __HIPWB_HD_INLINE T __hfma(T __a, T __b, T __c) {                                              \
    return (T)__builtin_fmaf((float)__a, (float)__b, (float)__c);                                \
  }                                                                                        \
  __HIPWB_HD_INLINE T __hneg(T __a) { return -__a; }                                           \
  __HIPWB_HD_INLINE T __habs(T __a) { return (T)__builtin_fabsf((float)__a); }                 \
  __HIPWB_HD_INLINE T __hmax(T __a, T __b) { return (T)__builtin_fmaxf((float)__a, (float)__b); }  \
  __HIPWB_HD_INLINE T __hmin(T __a, T __b) { return (T)__builtin_fminf((float)__a, (float)__b); }  \
  __HIPWB_HD_INLINE bool __heq(T __a, T __b) { return __a == __b; }                                \
  __HIPWB_HD_INLINE bool __hne(T __a, T __b) { return __a != __b; }                                \
  __HIPWB_HD_INLINE bool __hlt(T __a, T __b) { return __a < __b; }                                 \
  __HIPWB_HD_INLINE bool __hle(T __a, T __b) { return __a <= __b; }                                \
  __HIPWB_HD_INLINE bool __hgt(T __a, T __b) { return __a > __b; }                                 \
  __HIPWB_HD_INLINE bool __hge(T __a, T __b) { return __a >= __b; }                                \
  __HIPWB_HD_INLINE bool __hisnan(T __a) { return __a != __a; }                                  \
  __HIPWB_HD_INLINE int __hisinf(T __a) {                                                    \
    return __builtin_isinf((float)__a) ? (__a > (T)0 ? 1 : -1) : 0;                            \
  }                                                                                        \
  __HIPWB_HD_INLINE T hsqrt(T __a) { return (T)__builtin_sqrtf((float)__a); }                  \
  __HIPWB_FN_INLINE T hrsqrt(T __a) { return (T)__builtin_amdgcn_rsqf((float)__a); }           \
  __HIPWB_FN_INLINE T hrcp(T __a) { return (T)__builtin_amdgcn_rcpf((float)__a); }             \
  __HIPWB_HD_INLINE T hexp(T __a) { return (T)__builtin_expf((float)__a); }                    \
  __HIPWB_HD_INLINE T hexp2(T __a) { return (T)__builtin_exp2f((float)__a); }                  \
  __HIPWB_HD_INLINE T hlog(T __a) { return (T)__builtin_logf((float)__a); }                    \
  __HIPWB_HD_INLINE T hlog2(T __a) { return (T)__builtin_log2f((float)__a); }

/* Operations on the 2-vector type V of scalar T (all lane-wise). */
#define __HIPWB_HALF2_LIKE_OPS(T, V)                                                        \
  __HIPWB_HD_INLINE V __hadd2(V __a, V __b) { return __a + __b; }                                   \
  __HIPWB_HD_INLINE V __hsub2(V __a, V __b) { return __a - __b; }                                   \
  __HIPWB_HD_INLINE V __hmul2(V __a, V __b) { return __a * __b; }                                   \
  __HIPWB_HD_INLINE V __h2div(V __a, V __b) { return __a / __b; }                                   \
  __HIPWB_HD_INLINE V __hfma2(V __a, V __b, V __c) {                                              \
    return V{__hfma(__a.x, __b.x, __c.x), __hfma(__a.y, __b.y, __c.y)};                                 \
  }                                                                                         \
  __HIPWB_HD_INLINE V __hneg2(V __a) { return -__a; }                                           \
  __HIPWB_HD_INLINE V __habs2(V __a) { return V{__habs(__a.x), __habs(__a.y)}; }                  \
  __HIPWB_HD_INLINE V __hmax2(V __a, V __b) { return V{__hmax(__a.x, __b.x), __hmax(__a.y, __b.y)}; }   \
  __HIPWB_HD_INLINE V __hmin2(V __a, V __b) { return V{__hmin(__a.x, __b.x), __hmin(__a.y, __b.y)}; }   \
  __HIPWB_HD_INLINE T __low2half(V __a) { return __a.x; }                                       \
  __HIPWB_HD_INLINE T __high2half(V __a) { return __a.y; }                                      \
  __HIPWB_HD_INLINE float __low2float(V __a) { return (float)__a.x; }                           \
  __HIPWB_HD_INLINE float __high2float(V __a) { return (float)__a.y; }                          \
  __HIPWB_HD_INLINE V __lowhigh2highlow(V __a) { return V{__a.y, __a.x}; }                        \
  __HIPWB_HD_INLINE V h2sqrt(V __a) { return V{hsqrt(__a.x), hsqrt(__a.y)}; }                     \
  __HIPWB_FN_INLINE V h2rsqrt(V __a) { return V{hrsqrt(__a.x), hrsqrt(__a.y)}; }                  \
  __HIPWB_FN_INLINE V h2rcp(V __a) { return V{hrcp(__a.x), hrcp(__a.y)}; }                        \
  __HIPWB_HD_INLINE V h2exp(V __a) { return V{hexp(__a.x), hexp(__a.y)}; }                        \
  __HIPWB_HD_INLINE V h2exp2(V __a) { return V{hexp2(__a.x), hexp2(__a.y)}; }                     \
  __HIPWB_HD_INLINE V h2log(V __a) { return V{hlog(__a.x), hlog(__a.y)}; }                        \
  __HIPWB_HD_INLINE V h2log2(V __a) { return V{hlog2(__a.x), hlog2(__a.y)}; }                     \
  __HIPWB_HALF2_CMP(T, V, eq, ==) __HIPWB_HALF2_CMP(T, V, ne, !=)                           \
  __HIPWB_HALF2_CMP(T, V, lt, <) __HIPWB_HALF2_CMP(T, V, le, <=)                            \
  __HIPWB_HALF2_CMP(T, V, gt, >) __HIPWB_HALF2_CMP(T, V, ge, >=)                            \
  __HIPWB_HD_INLINE V __hisnan2(V __a) {                                                      \
    return V{(T)(__a.x != __a.x ? 1.0f : 0.0f), (T)(__a.y != __a.y ? 1.0f : 0.0f)};                 \
  }

/* Lane-wise comparisons of 2-vectors: __heq2 ... give 1.0/0.0 per lane, __hbeq2 ... true when
 * both lanes compare true (HIP's hip_fp16.h / hip_bf16.h names). */
#define __HIPWB_HALF2_CMP(T, V, NAME, OP)                                                   \
  __HIPWB_HD_INLINE V __h##NAME##2(V __a, V __b) {                                              \
    return V{(T)(__a.x OP __b.x ? 1.0f : 0.0f), (T)(__a.y OP __b.y ? 1.0f : 0.0f)};                 \
  }                                                                                         \
  __HIPWB_HD_INLINE bool __hb##NAME##2(V __a, V __b) { return (__a.x OP __b.x) && (__a.y OP __b.y); }

__HIPWB_HALF_LIKE_OPS(__half)
__HIPWB_HALF2_LIKE_OPS(__half, __half2)

__HIPWB_HD_INLINE __half __float2half(float __f) { return (__half)__f; }
__HIPWB_HD_INLINE __half __float2half_rn(float __f) { return (__half)__f; }
__HIPWB_FN_INLINE __half __float2half_rz(float __f) { return __builtin_amdgcn_cvt_pkrtz(__f, 0.0f).x; }
__HIPWB_HD_INLINE float __half2float(__half __h) { return (float)__h; }
__HIPWB_HD_INLINE __half __int2half_rn(int __i) { return (__half)__i; }
__HIPWB_HD_INLINE __half __uint2half_rn(unsigned int __i) { return (__half)__i; }
__HIPWB_HD_INLINE int __half2int_rz(__half __h) { return (int)__h; }
__HIPWB_HD_INLINE unsigned int __half2uint_rz(__half __h) { return (unsigned int)__h; }
__HIPWB_HD_INLINE int __half2int_rn(__half __h) { return (int)__builtin_rintf((float)__h); }
__HIPWB_HD_INLINE int __half2int_rd(__half __h) { return (int)__builtin_floorf((float)__h); }
__HIPWB_HD_INLINE int __half2int_ru(__half __h) { return (int)__builtin_ceilf((float)__h); }
__HIPWB_HD_INLINE unsigned int __half2uint_rn(__half __h) {
  return (unsigned int)__builtin_rintf((float)__h);
}
__HIPWB_HD_INLINE __half2 __low2half2(__half2 __a) { return __half2{__a.x, __a.x}; }
__HIPWB_HD_INLINE __half2 __high2half2(__half2 __a) { return __half2{__a.y, __a.y}; }
__HIPWB_HD_INLINE __half2 __lows2half2(__half2 __a, __half2 __b) { return __half2{__a.x, __b.x}; }
__HIPWB_HD_INLINE __half2 __highs2half2(__half2 __a, __half2 __b) { return __half2{__a.y, __b.y}; }
__HIPWB_HD_INLINE unsigned short __half_as_ushort(__half __h) {
  return __builtin_bit_cast(unsigned short, __h);
}
__HIPWB_HD_INLINE __half __ushort_as_half(unsigned short __u) {
  return __builtin_bit_cast(__half, __u);
}
__HIPWB_HD_INLINE short __half_as_short(__half __h) { return __builtin_bit_cast(short, __h); }
__HIPWB_HD_INLINE __half __short_as_half(short __s) { return __builtin_bit_cast(__half, __s); }

__HIPWB_HD_INLINE __half2 __halves2half2(__half __lo, __half __hi) { return __half2{__lo, __hi}; }
__HIPWB_HD_INLINE __half2 __half2half2(__half __h) { return __half2{__h, __h}; }
__HIPWB_HD_INLINE __half2 __floats2half2_rn(float __lo, float __hi) {
  return __half2{(__half)__lo, (__half)__hi};
}
__HIPWB_HD_INLINE __half2 __float2half2_rn(float __f) { return __half2{(__half)__f, (__half)__f}; }
__HIPWB_HD_INLINE float2 __half22float2(__half2 __h) { return float2((float)__h.x, (float)__h.y); }
__HIPWB_HD_INLINE __half2 __float22half2_rn(float2 __f) {
  return __half2{(__half)__f.x, (__half)__f.y};
}

/* ROCm's raw half structs (amd_hip_fp16.h): the bits (x; x/y) or the value (data) of a __half
 * or __half2. Aggregates as in ROCm, so __half_raw{0x3C00} is the half 1.0; each converts to
 * __half / __half2 implicitly. __half is a builtin type here, so nothing converts a __half to
 * __half_raw implicitly: the prelude's functions that take a raw struct (hip/hip_fp8.h) have
 * __half / __half2 overloads instead, and __hipwb_half_raw(h) builds one. */
struct __half_raw {
  union {
    unsigned short x;
    _Float16 data;
  };
  __host__ __device__ operator _Float16() const { return data; }
};
struct __half2_raw {
  union {
    struct {
      unsigned short x, y;
    };
    __half2 data;
  };
  __host__ __device__ operator __half2() const { return data; }
};
__HIPWB_HD_INLINE __half_raw __hipwb_half_raw(__half __h) {
  __half_raw __r;
  __r.data = __h;
  return __r;
}
__HIPWB_HD_INLINE __half2_raw __hipwb_half2_raw(__half2 __h) {
  __half2_raw __r;
  __r.data = __h;
  return __r;
}

#endif /* HIPWB_HALF_H */
