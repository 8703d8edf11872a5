/* hipwb/bfloat16.h — __hip_bfloat16 / __hip_bfloat162 (bfloat16: 8-bit exponent, 7-bit
 * fraction) and their HIP intrinsics.
 *
 * __hip_bfloat16 is clang's `__bf16`, an arithmetic type on AMDGPU since clang 17/18: operators
 * compute in float and round back to bfloat16 (clang's default excess-precision handling), and
 * float -> bf16 conversion (LLVM fptrunc) rounds to nearest even with NaNs kept quiet; the
 * backend expands it to integer operations on targets without a bf16 convert instruction, so it
 * never calls a library. __hip_bfloat162 is an __ext_vector_type__(2) of it with .x/.y.
 *
 * Provided: __float2bfloat16 (RNE), __bfloat162float, __bfloat16_as_ushort,
 * __ushort_as_bfloat16, __float22bfloat162_rn, __floats2bfloat162_rn, __bfloat1622float2,
 * __low2bfloat16, __high2bfloat16,
 * __halves2bfloat162, __bfloat162bfloat162, __low2bfloat162, __high2bfloat162,
 * __lows2bfloat162, __highs2bfloat162, __bfloat162int_rn/_rz/_rd/_ru, __int2bfloat16_rn,
 * __uint2bfloat16_rn, and the same __hadd.../__heq.../hsqrt..., __hadd2.../__heq2.../
 * __hbeq2.../h2sqrt... and __lowhigh2highlow overloads as hipwb/half.h, host and device alike
 * as there; __hip_bfloat16_raw / __hip_bfloat162_raw (end of this file).
 */
#ifndef HIPWB_BFLOAT16_H
#define HIPWB_BFLOAT16_H

#include "config.h"
#include "half.h"

typedef __bf16 __hip_bfloat16;
typedef __bf16 __hip_bfloat162 __attribute__((__ext_vector_type__(2)));

__HIPWB_HALF_LIKE_OPS(__hip_bfloat16)
__HIPWB_HALF2_LIKE_OPS(__hip_bfloat16, __hip_bfloat162)

__HIPWB_HD_INLINE __hip_bfloat16 __float2bfloat16(float __f) { return (__hip_bfloat16)__f; }
__HIPWB_HD_INLINE float __bfloat162float(__hip_bfloat16 __b) { return (float)__b; }
__HIPWB_HD_INLINE unsigned short __bfloat16_as_ushort(__hip_bfloat16 __b) {
  return __builtin_bit_cast(unsigned short, __b);
}
__HIPWB_HD_INLINE __hip_bfloat16 __ushort_as_bfloat16(unsigned short __u) {
  return __builtin_bit_cast(__hip_bfloat16, __u);
}
__HIPWB_HD_INLINE __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 __lo, __hip_bfloat16 __hi) {
  return __hip_bfloat162{__lo, __hi};
}
__HIPWB_HD_INLINE __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 __b) {
  return __hip_bfloat162{__b, __b};
}
__HIPWB_HD_INLINE __hip_bfloat162 __floats2bfloat162_rn(float __lo, float __hi) {
  return __hip_bfloat162{(__hip_bfloat16)__lo, (__hip_bfloat16)__hi};
}
__HIPWB_HD_INLINE __hip_bfloat162 __float22bfloat162_rn(float2 __f) {
  return __hip_bfloat162{(__hip_bfloat16)__f.x, (__hip_bfloat16)__f.y};
}
__HIPWB_HD_INLINE __hip_bfloat16 __low2bfloat16(__hip_bfloat162 __b) { return __b.x; }
__HIPWB_HD_INLINE __hip_bfloat16 __high2bfloat16(__hip_bfloat162 __b) { return __b.y; }
__HIPWB_HD_INLINE __hip_bfloat162 __low2bfloat162(__hip_bfloat162 __a) {
  return __hip_bfloat162{__a.x, __a.x};
}
__HIPWB_HD_INLINE __hip_bfloat162 __high2bfloat162(__hip_bfloat162 __a) {
  return __hip_bfloat162{__a.y, __a.y};
}
__HIPWB_HD_INLINE __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 __a, __hip_bfloat162 __b) {
  return __hip_bfloat162{__a.x, __b.x};
}
__HIPWB_HD_INLINE __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 __a, __hip_bfloat162 __b) {
  return __hip_bfloat162{__a.y, __b.y};
}
/* integer conversions; the float -> bf16 ones round the exact integer once where float holds
 * it (|i| < 2^24) and otherwise through float (double rounding, as ROCm's own headers do) */
__HIPWB_HD_INLINE int __bfloat162int_rn(__hip_bfloat16 __b) { return (int)__builtin_rintf((float)__b); }
__HIPWB_HD_INLINE int __bfloat162int_rz(__hip_bfloat16 __b) { return (int)(float)__b; }
__HIPWB_HD_INLINE int __bfloat162int_rd(__hip_bfloat16 __b) {
  return (int)__builtin_floorf((float)__b);
}
__HIPWB_HD_INLINE int __bfloat162int_ru(__hip_bfloat16 __b) {
  return (int)__builtin_ceilf((float)__b);
}
__HIPWB_HD_INLINE __hip_bfloat16 __int2bfloat16_rn(int __i) { return (__hip_bfloat16)(float)__i; }
__HIPWB_HD_INLINE __hip_bfloat16 __uint2bfloat16_rn(unsigned int __i) {
  return (__hip_bfloat16)(float)__i;
}
__HIPWB_HD_INLINE float2 __bfloat1622float2(__hip_bfloat162 __b) {
  return float2((float)__b.x, (float)__b.y);
}

/* ROCm's raw bfloat16 structs (amd_hip_bf16.h): the bits of a __hip_bfloat16 (x) or of a
 * __hip_bfloat162 (x, y). Aggregates; each converts to its value type implicitly, and
 * __hipwb_bfloat16_raw(b) builds one (see __half_raw in hipwb/half.h). */
struct __hip_bfloat16_raw {
  unsigned short x;
  __host__ __device__ operator __bf16() const { return __builtin_bit_cast(__bf16, x); }
};
struct __hip_bfloat162_raw {
  unsigned short x, y;
  __host__ __device__ operator __hip_bfloat162() const {
    return __hip_bfloat162{__builtin_bit_cast(__bf16, x), __builtin_bit_cast(__bf16, y)};
  }
};
__HIPWB_HD_INLINE __hip_bfloat16_raw __hipwb_bfloat16_raw(__hip_bfloat16 __b) {
  return __hip_bfloat16_raw{__builtin_bit_cast(unsigned short, __b)};
}
__HIPWB_HD_INLINE __hip_bfloat162_raw __hipwb_bfloat162_raw(__hip_bfloat162 __b) {
  return __hip_bfloat162_raw{__builtin_bit_cast(unsigned short, __b.x),
                             __builtin_bit_cast(unsigned short, __b.y)};
}

#endif /* HIPWB_BFLOAT16_H */
