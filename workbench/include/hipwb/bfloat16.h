/* hipwb/bfloat16.h — __hip_bfloat16 / __hip_bfloat162 (bfloat16: 8-bit exponent, 7-bit
 * fraction) and their HIP intrinsics.
 *
 * __hip_bfloat16 is clang's `__bf16`, an arithmetic type on AMDGPU since clang 17/18: operators
 * compute in float and round back to bfloat16 (clang's default excess-precision handling), and
 * float -> bf16 conversion (LLVM fptrunc) rounds to nearest even with NaNs kept quiet; the
 * backend expands it to integer operations on targets without a bf16 convert instruction, so it
 * never calls a library. __hip_bfloat162 is an ext_vector_type(2) of it with .x/.y.
 *
 * Provided: __float2bfloat16 (RNE), __bfloat162float, __bfloat16_as_ushort,
 * __ushort_as_bfloat16, __float22bfloat162_rn, __floats2bfloat162_rn, __bfloat1622float2,
 * __low2bfloat16, __high2bfloat16,
 * __halves2bfloat162, __bfloat162bfloat162, __low2bfloat162, __high2bfloat162,
 * __lows2bfloat162, __highs2bfloat162, __bfloat162int_rn/_rz/_rd/_ru, __int2bfloat16_rn,
 * __uint2bfloat16_rn, and the same __hadd.../__heq.../hsqrt..., __hadd2.../__heq2.../
 * __hbeq2.../h2sqrt... and __lowhigh2highlow overloads as hipwb/half.h.
 */
#ifndef HIPWB_BFLOAT16_H
#define HIPWB_BFLOAT16_H

#include "config.h"
#include "half.h"

typedef __bf16 __hip_bfloat16;
typedef __bf16 __hip_bfloat162 __attribute__((ext_vector_type(2)));

__HIPWB_HALF_LIKE_OPS(__hip_bfloat16)
__HIPWB_HALF2_LIKE_OPS(__hip_bfloat16, __hip_bfloat162)

__HIPWB_FN_INLINE __hip_bfloat16 __float2bfloat16(float f) { return (__hip_bfloat16)f; }
__HIPWB_FN_INLINE float __bfloat162float(__hip_bfloat16 b) { return (float)b; }
__HIPWB_FN_INLINE unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) {
  return __builtin_bit_cast(unsigned short, b);
}
__HIPWB_FN_INLINE __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) {
  return __builtin_bit_cast(__hip_bfloat16, u);
}
__HIPWB_FN_INLINE __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 lo, __hip_bfloat16 hi) {
  return __hip_bfloat162{lo, hi};
}
__HIPWB_FN_INLINE __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 b) {
  return __hip_bfloat162{b, b};
}
__HIPWB_FN_INLINE __hip_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
  return __hip_bfloat162{(__hip_bfloat16)lo, (__hip_bfloat16)hi};
}
__HIPWB_FN_INLINE __hip_bfloat162 __float22bfloat162_rn(float2 f) {
  return __hip_bfloat162{(__hip_bfloat16)f.x, (__hip_bfloat16)f.y};
}
__HIPWB_FN_INLINE __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
__HIPWB_FN_INLINE __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
__HIPWB_FN_INLINE __hip_bfloat162 __low2bfloat162(__hip_bfloat162 a) {
  return __hip_bfloat162{a.x, a.x};
}
__HIPWB_FN_INLINE __hip_bfloat162 __high2bfloat162(__hip_bfloat162 a) {
  return __hip_bfloat162{a.y, a.y};
}
__HIPWB_FN_INLINE __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162{a.x, b.x};
}
__HIPWB_FN_INLINE __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162{a.y, b.y};
}
/* integer conversions; the float -> bf16 ones round the exact integer once where float holds
 * it (|i| < 2^24) and otherwise through float (double rounding, as ROCm's own headers do) */
__HIPWB_FN_INLINE int __bfloat162int_rn(__hip_bfloat16 b) { return (int)__builtin_rintf((float)b); }
__HIPWB_FN_INLINE int __bfloat162int_rz(__hip_bfloat16 b) { return (int)(float)b; }
__HIPWB_FN_INLINE int __bfloat162int_rd(__hip_bfloat16 b) {
  return (int)__builtin_floorf((float)b);
}
__HIPWB_FN_INLINE int __bfloat162int_ru(__hip_bfloat16 b) {
  return (int)__builtin_ceilf((float)b);
}
__HIPWB_FN_INLINE __hip_bfloat16 __int2bfloat16_rn(int i) { return (__hip_bfloat16)(float)i; }
__HIPWB_FN_INLINE __hip_bfloat16 __uint2bfloat16_rn(unsigned int i) {
  return (__hip_bfloat16)(float)i;
}
__HIPWB_FN_INLINE float2 __bfloat1622float2(__hip_bfloat162 b) {
  return float2((float)b.x, (float)b.y);
}

#endif /* HIPWB_BFLOAT16_H */
