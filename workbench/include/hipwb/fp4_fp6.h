/* hipwb/fp4_fp6.h — HIP's OCP fp4 and fp6 API (hip/hip_fp4.h, hip/hip_fp6.h, ROCm 7).
 *
 * Written from ROCm's API:
 *   fp4 (E2M1: bias 1, max 6, no inf/NaN)
 *     storage  __hip_fp4_storage_t (a byte, the value in the low nibble), __hip_fp4x2_storage_t
 *              (a byte, element 0 in the low nibble), __hip_fp4x4_storage_t (16 bits)
 *     enum     __hip_fp4_interpretation_t {__HIP_E2M1}
 *     C        __hip_cvt_{float,double,halfraw,bfloat16raw}_to_fp4,
 *              __hip_cvt_{float2,double2,halfraw2,bfloat16raw2}_to_fp4x2 (value, interp,
 *              hipRoundMode), __hip_cvt_fp4_to_halfraw, __hip_cvt_fp4x2_to_halfraw2
 *     types    __hip_fp4_e2m1, __hip_fp4x2_e2m1, __hip_fp4x4_e2m1
 *   fp6 (E2M3: bias 1, max 7.5; E3M2: bias 3, max 28; no inf/NaN)
 *     storage  __hip_fp6_storage_t (a byte, the value in its low 6 bits), __hip_fp6x2_storage_t
 *              (16 bits, element i in byte i), __hip_fp6x4_storage_t (32 bits, likewise)
 *     enum     __hip_fp6_interpretation_t {__HIP_E3M2 = 0, __HIP_E2M3 = 1}
 *     C        __hip_cvt_{float,double,halfraw,bfloat16raw}_to_fp6,
 *              __hip_cvt_{float2,double2,halfraw2,bfloat16raw2}_to_fp6x2,
 *              __hip_cvt_fp6_to_halfraw, __hip_cvt_fp6x2_to_halfraw2
 *     types    __hip_fp6_e2m3, __hip_fp6_e3m2, __hip_fp6x2_e2m3, __hip_fp6x2_e3m2,
 *              __hip_fp6x4_e2m3, __hip_fp6x4_e3m2
 * The types have explicit constructors (from __half, __hip_bfloat16, float, double and the
 * integer types; x2: __half2, __hip_bfloat162, float2, double2; x4: float4, double4, two __half2
 * or two __hip_bfloat162, the first in the low half) and implicit conversions to float and
 * double, __half_raw and __hip_bfloat16_raw (x2: float2, double2, __half2_raw,
 * __hip_bfloat162_raw; x4: float4, double4), all host and device, as in ROCm.
 *
 * Conversions round to nearest even; NaN, +-inf and values beyond the largest give the largest
 * magnitude with the sign (the formats have neither inf nor NaN; the instructions and AMD's OCP
 * host model agree). The hipRoundMode argument is ignored, as in ROCm ("AMD GPUs ... round to
 * nearest"). fp4 uses gfx950's v_cvt_scalef32_pk_{fp4_f32,f32_fp4} (scale 1) there and software
 * elsewhere; fp6 is converted in software on every target (ROCm's gfx950 path goes through the
 * 32-value pk32 instructions; the values are the same).
 */
#ifndef HIPWB_FP4_FP6_H
#define HIPWB_FP4_FP6_H

#include "config.h"
#include "vector_types.h"
#include "half.h"
#include "bfloat16.h"
#include "minifloat.h"
#include "fp8.h"
#include "ocp.h"

typedef __hip_fp8_storage_t __hip_fp4_storage_t;
typedef __hip_fp8_storage_t __hip_fp4x2_storage_t;
typedef __hip_fp8x2_storage_t __hip_fp4x4_storage_t;
typedef __hip_fp8_storage_t __hip_fp6_storage_t;
typedef __hip_fp8x2_storage_t __hip_fp6x2_storage_t;
typedef __hip_fp8x4_storage_t __hip_fp6x4_storage_t;

enum __hip_fp4_interpretation_t { __HIP_E2M1 = 0 };
enum __hip_fp6_interpretation_t { __HIP_E3M2 = 0, __HIP_E2M3 = 1 };

#define __HIPWB_FPX_FN static __host__ __device__ inline

/* ---- fp4 ---- */
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hipwb_fp4x2(float __a, float __b) {
  return __hipwb_ocp_fp4x2_enc(__a, __b, 0);
}
__HIPWB_FPX_FN float2 __hipwb_fp4x2_float2(unsigned int __v) {
  __amd_floatx2_storage_t __f = __hipwb_ocp_fp4x2_dec(__v & 0xFFu, 0);
  return float2(__f[0], __f[1]);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_float_to_fp4(const float __x,
                                                          const __hip_fp4_interpretation_t,
                                                          const enum hipRoundMode) {
  return (__hip_fp4_storage_t)(__hipwb_fp4x2(__x, 0.0f) & 0xFu);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_double_to_fp4(const double __x,
                                                           const __hip_fp4_interpretation_t,
                                                           const enum hipRoundMode) {
  return (__hip_fp4_storage_t)__hipwb_mf_encode(__x, 2, 1, 1, __HIPWB_MF_FINITE, 0);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_halfraw_to_fp4(const __half_raw __x,
                                                            const __hip_fp4_interpretation_t __i,
                                                            const enum hipRoundMode __r) {
  return __hip_cvt_float_to_fp4((float)__x.data, __i, __r);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_halfraw_to_fp4(const __half __x,
                                                            const __hip_fp4_interpretation_t __i,
                                                            const enum hipRoundMode __r) {
  return __hip_cvt_float_to_fp4((float)__x, __i, __r);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_bfloat16raw_to_fp4(
    const __hip_bfloat16_raw __x, const __hip_fp4_interpretation_t __i, const enum hipRoundMode __r) {
  return __hip_cvt_float_to_fp4((float)(__bf16)__x, __i, __r);
}
__HIPWB_FPX_FN __hip_fp4_storage_t __hip_cvt_bfloat16raw_to_fp4(
    const __hip_bfloat16 __x, const __hip_fp4_interpretation_t __i, const enum hipRoundMode __r) {
  return __hip_cvt_float_to_fp4((float)__x, __i, __r);
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_float2_to_fp4x2(const float2 __x,
                                                               const __hip_fp4_interpretation_t,
                                                               const enum hipRoundMode) {
  return __hipwb_fp4x2(__x.x, __x.y);
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_double2_to_fp4x2(const double2 __x,
                                                                const __hip_fp4_interpretation_t,
                                                                const enum hipRoundMode) {
  return (__hip_fp4x2_storage_t)(__hipwb_mf_encode(__x.x, 2, 1, 1, __HIPWB_MF_FINITE, 0) |
                                 (__hipwb_mf_encode(__x.y, 2, 1, 1, __HIPWB_MF_FINITE, 0) << 4));
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_halfraw2_to_fp4x2(const __half2_raw __x,
                                                                 const __hip_fp4_interpretation_t,
                                                                 const enum hipRoundMode) {
  return __hipwb_fp4x2((float)__x.data.x, (float)__x.data.y);
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_halfraw2_to_fp4x2(const __half2 __x,
                                                                 const __hip_fp4_interpretation_t,
                                                                 const enum hipRoundMode) {
  return __hipwb_fp4x2((float)__x.x, (float)__x.y);
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_bfloat16raw2_to_fp4x2(
    const __hip_bfloat162_raw __x, const __hip_fp4_interpretation_t, const enum hipRoundMode) {
  __hip_bfloat162 __v = __x;
  return __hipwb_fp4x2((float)__v.x, (float)__v.y);
}
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hip_cvt_bfloat16raw2_to_fp4x2(
    const __hip_bfloat162 __v, const __hip_fp4_interpretation_t, const enum hipRoundMode) {
  return __hipwb_fp4x2((float)__v.x, (float)__v.y);
}
__HIPWB_FPX_FN __half_raw __hip_cvt_fp4_to_halfraw(const __hip_fp4_storage_t __x,
                                                   const __hip_fp4_interpretation_t) {
  return __hipwb_half_raw((__half)__hipwb_fp4x2_float2(__x & 0xFu).x);
}
__HIPWB_FPX_FN __half2_raw __hip_cvt_fp4x2_to_halfraw2(const __hip_fp4x2_storage_t __x,
                                                       const __hip_fp4_interpretation_t) {
  float2 __f = __hipwb_fp4x2_float2(__x);
  return __hipwb_half2_raw(__half2{(__half)__f.x, (__half)__f.y});
}

/* ---- fp6 (software; element i of an x2/x4 value in byte i) ---- */
__HIPWB_FPX_FN __hip_fp6_storage_t __hipwb_fp6_enc(double __x, __hip_fp6_interpretation_t __i) {
  return (__hip_fp6_storage_t)(__i == __HIP_E2M3
                                   ? __hipwb_mf_encode(__x, 2, 3, 1, __HIPWB_MF_FINITE, 0)
                                   : __hipwb_mf_encode(__x, 3, 2, 3, __HIPWB_MF_FINITE, 0));
}
__HIPWB_FPX_FN float __hipwb_fp6_dec(unsigned int __c, __hip_fp6_interpretation_t __i) {
  return __i == __HIP_E2M3 ? __hipwb_mf_decode(__c & 0x3Fu, 2, 3, 1, __HIPWB_MF_FINITE)
                           : __hipwb_mf_decode(__c & 0x3Fu, 3, 2, 3, __HIPWB_MF_FINITE);
}
#define __HIPWB_FP6_CVT1(NAME, T, EXPR)                                                         \
  __HIPWB_FPX_FN __hip_fp6_storage_t NAME(const T __x, const __hip_fp6_interpretation_t __i,    \
                                          const enum hipRoundMode) {                            \
    return __hipwb_fp6_enc(EXPR, __i);                                                          \
  }
__HIPWB_FP6_CVT1(__hip_cvt_float_to_fp6, float, __x)
__HIPWB_FP6_CVT1(__hip_cvt_double_to_fp6, double, __x)
__HIPWB_FP6_CVT1(__hip_cvt_halfraw_to_fp6, __half_raw, (float)__x.data)
__HIPWB_FP6_CVT1(__hip_cvt_halfraw_to_fp6, __half, (float)__x)
__HIPWB_FP6_CVT1(__hip_cvt_bfloat16raw_to_fp6, __hip_bfloat16_raw, (float)(__bf16)__x)
__HIPWB_FP6_CVT1(__hip_cvt_bfloat16raw_to_fp6, __hip_bfloat16, (float)__x)
#undef __HIPWB_FP6_CVT1
#define __HIPWB_FP6_CVT2(NAME, T, A, B)                                                         \
  __HIPWB_FPX_FN __hip_fp6x2_storage_t NAME(const T __x, const __hip_fp6_interpretation_t __i,  \
                                            const enum hipRoundMode) {                          \
    return (__hip_fp6x2_storage_t)(__hipwb_fp6_enc(A, __i) | (__hipwb_fp6_enc(B, __i) << 8));  \
  }
__HIPWB_FP6_CVT2(__hip_cvt_float2_to_fp6x2, float2, __x.x, __x.y)
__HIPWB_FP6_CVT2(__hip_cvt_double2_to_fp6x2, double2, __x.x, __x.y)
__HIPWB_FP6_CVT2(__hip_cvt_halfraw2_to_fp6x2, __half2_raw, (float)__x.data.x, (float)__x.data.y)
__HIPWB_FP6_CVT2(__hip_cvt_halfraw2_to_fp6x2, __half2, (float)__x.x, (float)__x.y)
__HIPWB_FP6_CVT2(__hip_cvt_bfloat16raw2_to_fp6x2, __hip_bfloat162_raw,
                 (float)((__hip_bfloat162)__x).x, (float)((__hip_bfloat162)__x).y)
__HIPWB_FP6_CVT2(__hip_cvt_bfloat16raw2_to_fp6x2, __hip_bfloat162, (float)__x.x, (float)__x.y)
#undef __HIPWB_FP6_CVT2
__HIPWB_FPX_FN __half_raw __hip_cvt_fp6_to_halfraw(const __hip_fp6_storage_t __x,
                                                   const __hip_fp6_interpretation_t __i) {
  return __hipwb_half_raw((__half)__hipwb_fp6_dec(__x, __i));
}
__HIPWB_FPX_FN __half2_raw __hip_cvt_fp6x2_to_halfraw2(const __hip_fp6x2_storage_t __x,
                                                       const __hip_fp6_interpretation_t __i) {
  return __hipwb_half2_raw(
      __half2{(__half)__hipwb_fp6_dec(__x & 0xFFu, __i), (__half)__hipwb_fp6_dec(__x >> 8, __i)});
}

/* ---- the types (ROCm's members; see the top of this file) ---- */
#define __HIPWB_FPX_CTORS(NAME, CVT1, CVTD, INTERP)                                                   \
  NAME() = default;                                                                             \
  __host__ __device__ explicit NAME(const __half __f) : __x(CVT1((float)__f, INTERP, hipRoundNearest)) {} \
  __host__ __device__ explicit NAME(const __hip_bfloat16 __f)                                   \
      : __x(CVT1((float)__f, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const double __f) : __x(CVTD(__f, INTERP, hipRoundNearest)) {} \
  __host__ __device__ explicit NAME(const float __f) : __x(CVT1(__f, INTERP, hipRoundNearest)) {}  \
  __host__ __device__ explicit NAME(const int __v) : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {} \
  __host__ __device__ explicit NAME(const long int __v)                                         \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const long long int __v)                                    \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const short int __v)                                        \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const unsigned int __v)                                     \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const unsigned long int __v)                                \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const unsigned long long int __v)                           \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}                                       \
  __host__ __device__ explicit NAME(const unsigned short int __v)                               \
      : __x(CVT1((float)__v, INTERP, hipRoundNearest)) {}

#define __HIPWB_FPX_SCALAR(NAME, STORAGE, CVT1, CVTD, INTERP, DECODE)                                 \
  struct NAME {                                                                                 \
    STORAGE __x;                                                                                \
    __HIPWB_FPX_CTORS(NAME, CVT1, CVTD, INTERP)                                                       \
    __host__ __device__ operator float() const { return DECODE; }                               \
    __host__ __device__ operator double() const { return (double)float(*this); }                \
    __host__ __device__ operator __half_raw() const { return __hipwb_half_raw((__half)float(*this)); } \
    __host__ __device__ operator __hip_bfloat16_raw() const {                                   \
      return __hipwb_bfloat16_raw((__hip_bfloat16)float(*this));                                \
    }                                                                                           \
  };
__HIPWB_FPX_SCALAR(__hip_fp4_e2m1, __hip_fp4_storage_t, __hip_cvt_float_to_fp4,
                   __hip_cvt_double_to_fp4, __HIP_E2M1,
                   __hipwb_fp4x2_float2(__x & 0xFu).x)
__HIPWB_FPX_SCALAR(__hip_fp6_e2m3, __hip_fp6_storage_t, __hip_cvt_float_to_fp6,
                   __hip_cvt_double_to_fp6, __HIP_E2M3,
                   __hipwb_fp6_dec(__x, __HIP_E2M3))
__HIPWB_FPX_SCALAR(__hip_fp6_e3m2, __hip_fp6_storage_t, __hip_cvt_float_to_fp6,
                   __hip_cvt_double_to_fp6, __HIP_E3M2,
                   __hipwb_fp6_dec(__x, __HIP_E3M2))
#undef __HIPWB_FPX_SCALAR
#undef __HIPWB_FPX_CTORS

#define __HIPWB_FPX_X2(NAME, STORAGE, INTERP, CVT2, DEC2)                                       \
  struct NAME {                                                                                 \
    STORAGE __x;                                                                                \
    NAME() = default;                                                                           \
    __host__ __device__ explicit NAME(const __half2 __f) : __x(CVT2(float2((float)__f.x, (float)__f.y), INTERP)) {} \
    __host__ __device__ explicit NAME(const __hip_bfloat162 __f)                                \
        : __x(CVT2(float2((float)__f.x, (float)__f.y), INTERP)) {}                              \
    __host__ __device__ explicit NAME(const double2 __f)                                        \
        : __x(CVT2(float2((float)__f.x, (float)__f.y), INTERP)) {}                              \
    __host__ __device__ explicit NAME(const float2 __f) : __x(CVT2(__f, INTERP)) {}             \
    __host__ __device__ operator float2() const { return DEC2(__x, INTERP); }                   \
    __host__ __device__ operator double2() const {                                              \
      float2 __f = DEC2(__x, INTERP);                                                           \
      return double2(__f.x, __f.y);                                                             \
    }                                                                                           \
    __host__ __device__ operator __half2_raw() const {                                          \
      float2 __f = DEC2(__x, INTERP);                                                           \
      return __hipwb_half2_raw(__half2{(__half)__f.x, (__half)__f.y});                          \
    }                                                                                           \
    __host__ __device__ operator __hip_bfloat162_raw() const {                                  \
      float2 __f = DEC2(__x, INTERP);                                                           \
      return __hipwb_bfloat162_raw(__hip_bfloat162{(__bf16)__f.x, (__bf16)__f.y});              \
    }                                                                                           \
  };
/* one converter per family for the x2/x4 types: float2 -> packed pair, packed pair -> float2 */
__HIPWB_FPX_FN __hip_fp4x2_storage_t __hipwb_fp4_pack(float2 __f, __hip_fp4_interpretation_t) {
  return __hipwb_fp4x2(__f.x, __f.y);
}
__HIPWB_FPX_FN float2 __hipwb_fp4_unpack(unsigned int __v, __hip_fp4_interpretation_t) {
  return __hipwb_fp4x2_float2(__v);
}
__HIPWB_FPX_FN __hip_fp6x2_storage_t __hipwb_fp6_pack(float2 __f, __hip_fp6_interpretation_t __i) {
  return (__hip_fp6x2_storage_t)(__hipwb_fp6_enc(__f.x, __i) | (__hipwb_fp6_enc(__f.y, __i) << 8));
}
__HIPWB_FPX_FN float2 __hipwb_fp6_unpack(unsigned int __v, __hip_fp6_interpretation_t __i) {
  return float2(__hipwb_fp6_dec(__v & 0xFFu, __i), __hipwb_fp6_dec((__v >> 8) & 0xFFu, __i));
}
__HIPWB_FPX_X2(__hip_fp4x2_e2m1, __hip_fp4x2_storage_t, __HIP_E2M1, __hipwb_fp4_pack,
               __hipwb_fp4_unpack)
__HIPWB_FPX_X2(__hip_fp6x2_e2m3, __hip_fp6x2_storage_t, __HIP_E2M3, __hipwb_fp6_pack,
               __hipwb_fp6_unpack)
__HIPWB_FPX_X2(__hip_fp6x2_e3m2, __hip_fp6x2_storage_t, __HIP_E3M2, __hipwb_fp6_pack,
               __hipwb_fp6_unpack)
#undef __HIPWB_FPX_X2

/* x4: two pairs, the first (x, y / low) in the low half; SHIFT: bits per pair (fp4 8, fp6 16) */
#define __HIPWB_FPX_X4(NAME, STORAGE, INTERP, CVT2, DEC2, SHIFT)                                \
  struct NAME {                                                                                 \
    STORAGE __x;                                                                                \
    NAME() = default;                                                                           \
    __host__ __device__ explicit NAME(const __half2 __lo, const __half2 __hi)                   \
        : __x((STORAGE)(CVT2(float2((float)__lo.x, (float)__lo.y), INTERP) |                    \
                        ((unsigned int)CVT2(float2((float)__hi.x, (float)__hi.y), INTERP) << SHIFT))) {} \
    __host__ __device__ explicit NAME(const __hip_bfloat162 __lo, const __hip_bfloat162 __hi)   \
        : __x((STORAGE)(CVT2(float2((float)__lo.x, (float)__lo.y), INTERP) |                    \
                        ((unsigned int)CVT2(float2((float)__hi.x, (float)__hi.y), INTERP) << SHIFT))) {} \
    __host__ __device__ explicit NAME(const double4 __f)                                        \
        : __x((STORAGE)(CVT2(float2((float)__f.x, (float)__f.y), INTERP) |                      \
                        ((unsigned int)CVT2(float2((float)__f.z, (float)__f.w), INTERP) << SHIFT))) {} \
    __host__ __device__ explicit NAME(const float4 __f)                                         \
        : __x((STORAGE)(CVT2(float2(__f.x, __f.y), INTERP) |                                    \
                        ((unsigned int)CVT2(float2(__f.z, __f.w), INTERP) << SHIFT))) {}        \
    __host__ __device__ operator float4() const {                                               \
      float2 __l = DEC2(__x & ((1u << SHIFT) - 1u), INTERP), __h = DEC2(__x >> SHIFT, INTERP);  \
      return float4(__l.x, __l.y, __h.x, __h.y);                                                \
    }                                                                                           \
    __host__ __device__ operator double4() const {                                              \
      float4 __f = float4(*this);                                                               \
      return double4(__f.x, __f.y, __f.z, __f.w);                                               \
    }                                                                                           \
  };
__HIPWB_FPX_X4(__hip_fp4x4_e2m1, __hip_fp4x4_storage_t, __HIP_E2M1, __hipwb_fp4_pack,
               __hipwb_fp4_unpack, 8)
__HIPWB_FPX_X4(__hip_fp6x4_e2m3, __hip_fp6x4_storage_t, __HIP_E2M3, __hipwb_fp6_pack,
               __hipwb_fp6_unpack, 16)
__HIPWB_FPX_X4(__hip_fp6x4_e3m2, __hip_fp6x4_storage_t, __HIP_E3M2, __hipwb_fp6_pack,
               __hipwb_fp6_unpack, 16)
#undef __HIPWB_FPX_X4

#undef __HIPWB_FPX_FN

#endif /* HIPWB_FP4_FP6_H */
