/* hipwb/ocp.h — HIP's OCP extension API (hip/hip_ext_ocp.h): the __amd_* storage types and the
 * scaled and stochastic-rounding conversions gfx950 has instructions for.
 *
 * Written from ROCm's hip_ext_ocp.h API (names, arguments and packing):
 *   storage   __amd_fp8_storage_t (uint8_t), __amd_fp8x2_storage_t (uint16_t),
 *             __amd_fp4x2_storage_t (uint8_t, element 0 in the low nibble), __amd_fp4x8_storage_t
 *             (uint32_t, element i in bits 4i..4i+3), __amd_scale_t (int8_t: the MX scale
 *             exponent, value 2^scale; -128 is the E8M0 NaN), __amd_fp16_storage_t (_Float16),
 *             __amd_bf16_storage_t (__bf16), and the ext_vector types __amd_fp8x8_storage_t,
 *             __amd_floatx{2,8,16,32}_storage_t, __amd_fp16x{2,8,32}_storage_t,
 *             __amd_bf16x{2,8,32}_storage_t, __amd_fp6x32_storage_t, __amd_uintx2_storage_t,
 *             __amd_shortx2_storage_t
 *   enums     __amd_fp8_interpretation_t {__AMD_OCP_E4M3, __AMD_OCP_E5M2},
 *             __amd_fp6_interpretation_t {__AMD_OCP_E2M3, __AMD_OCP_E3M2},
 *             __amd_fp4_interpretation_t {__AMD_OCP_E2M1}
 *   helpers   __amd_create_fp8x2, __amd_create_fp8x8, __amd_create_fp4x2, __amd_create_fp4x8,
 *             __amd_extract_fp8, __amd_extract_fp8x2, __amd_extract_fp4, __amd_extract_fp4x2,
 *             __amd_scale_to_float
 *   fp8       __amd_cvt_fp8_to_float, __amd_cvt_fp8x2_to_floatx2, __amd_cvt_floatx2_to_fp8x2,
 *             __amd_cvt_float_to_fp8_sr, __amd_cvt_fp8_to_fp16; scaled: __amd_cvt_fp8_to_float_scale,
 *             __amd_cvt_fp8_to_{fp16,bf16}_scale, __amd_cvt_fp8x2_to_{floatx2,fp16x2,bf16x2}_scale,
 *             __amd_cvt_{floatx2,fp16x2,bf16x2}_to_fp8x2_scale,
 *             __amd_cvt_fp8x8_to_{floatx8,fp16x8,bf16x8}_scale, __amd_cvt_bf16x8_to_fp8x8_scale,
 *             __amd_cvt_{float,fp16,bf16}_to_fp8_sr_scale, __amd_cvt_{fp16,bf16}x8_to_fp8x8_sr_scale
 *   fp4       __amd_cvt_fp4x2_to_{floatx2,fp16x2,bf16x2}_scale,
 *             __amd_cvt_{floatx2,fp16x2,bf16x2}_to_fp4x2_scale and _sr_scale,
 *             __amd_cvt_fp4x8_to_{floatx8,fp16x8,bf16x8}_scale,
 *             __amd_cvt_{floatx8,fp16x8,bf16x8}_to_fp4x8_scale and _sr_scale
 * Not provided: the fp6x32 conversions (__amd_cvt_*_fp6x32*), the f16/bf16 stochastic roundings
 * of f32 (__amd_cvt_float_to_fp16_sr, ...), and the C++ wrapper classes of
 * amd_hip_ocp_fp_cxx.hpp.
 *
 * Semantics (the instructions'; the emulator implements the same, workbench/emu/semantics/valu/
 * cvtscale.py and fp8cvt.py): a scaled decode is value * 2^scale rounded once to the result
 * type; a scaled encode rounds x / 2^scale to nearest even (a value that rounds past the largest
 * gives E4M3 NaN, E5M2 +-inf, fp4 its largest magnitude; NaN gives E4M3 S.1111.111, E5M2
 * S.11111.10); stochastic rounding adds the seed's top bits to the dropped fraction bits of the
 * source format (hipwb/minifloat.h). The scale -128 (E8M0 NaN) gives NaN (fp4: its largest).
 * gfx950 uses v_cvt_scalef32_*, v_cvt_sr_* and v_cvt_[pk_]{f32_fp8,fp8_f32}; f16/bf16 results and
 * non-stochastic f16/bf16 sources go through f32 there (exact: no fp8/fp4 value needs more than
 * f32's precision). Every other target and the host convert in software, as ROCm does.
 */
#ifndef HIPWB_OCP_H
#define HIPWB_OCP_H

#include "config.h"
#include "half.h"
#include "bfloat16.h"
#include "minifloat.h"

#if defined(__gfx950__)
#define __HIPWB_OCP_HW 1
#else
#define __HIPWB_OCP_HW 0
#endif

typedef uint8_t __amd_fp8_storage_t;
typedef uint16_t __amd_fp8x2_storage_t;
typedef uint8_t __amd_fp4x2_storage_t;
typedef uint32_t __amd_fp4x8_storage_t;
typedef __bf16 __amd_bf16_storage_t;
typedef _Float16 __amd_fp16_storage_t;
typedef int8_t __amd_scale_t;
typedef unsigned int __amd_uintx2_storage_t __attribute__((__ext_vector_type__(2)));
typedef uint8_t __amd_fp8x8_storage_t __attribute__((__ext_vector_type__(8)));
typedef __bf16 __amd_bf16x2_storage_t __attribute__((__ext_vector_type__(2)));
typedef __bf16 __amd_bf16x8_storage_t __attribute__((__ext_vector_type__(8)));
typedef __bf16 __amd_bf16x32_storage_t __attribute__((__ext_vector_type__(32)));
typedef float __amd_floatx2_storage_t __attribute__((__ext_vector_type__(2)));
typedef float __amd_floatx8_storage_t __attribute__((__ext_vector_type__(8)));
typedef float __amd_floatx16_storage_t __attribute__((__ext_vector_type__(16)));
typedef float __amd_floatx32_storage_t __attribute__((__ext_vector_type__(32)));
typedef _Float16 __amd_fp16x2_storage_t __attribute__((__ext_vector_type__(2)));
typedef _Float16 __amd_fp16x8_storage_t __attribute__((__ext_vector_type__(8)));
typedef _Float16 __amd_fp16x32_storage_t __attribute__((__ext_vector_type__(32)));
typedef uint32_t __amd_fp6x32_storage_t __attribute__((__ext_vector_type__(6)));
typedef short __amd_shortx2_storage_t __attribute__((__ext_vector_type__(2)));

enum __amd_fp8_interpretation_t { __AMD_OCP_E4M3 = 0, __AMD_OCP_E5M2 = 1 };
enum __amd_fp6_interpretation_t { __AMD_OCP_E2M3 = 0, __AMD_OCP_E3M2 = 1 };
enum __amd_fp4_interpretation_t { __AMD_OCP_E2M1 = 0 };

#define __HIPWB_OCP_FN static __host__ __device__ inline

/* ---- packing helpers ---- */
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_create_fp8x2(const __amd_fp8_storage_t __x,
                                                         const __amd_fp8_storage_t __y) {
  return (__amd_fp8x2_storage_t)(__x | (__y << 8));
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_create_fp4x2(const uint8_t __x, const uint8_t __y) {
  return (__amd_fp4x2_storage_t)((__x & 0xFu) | ((__y & 0xFu) << 4));
}
__HIPWB_OCP_FN __amd_fp4x8_storage_t __amd_create_fp4x8(const __amd_fp4x2_storage_t __x,
                                                         const __amd_fp4x2_storage_t __y,
                                                         const __amd_fp4x2_storage_t __z,
                                                         const __amd_fp4x2_storage_t __w) {
  return (uint32_t)__x | ((uint32_t)__y << 8) | ((uint32_t)__z << 16) | ((uint32_t)__w << 24);
}
__HIPWB_OCP_FN __amd_fp8x8_storage_t __amd_create_fp8x8(const __amd_fp8x2_storage_t __x,
                                                         const __amd_fp8x2_storage_t __y,
                                                         const __amd_fp8x2_storage_t __z,
                                                         const __amd_fp8x2_storage_t __w) {
  return __amd_fp8x8_storage_t{(uint8_t)__x, (uint8_t)(__x >> 8), (uint8_t)__y,
                               (uint8_t)(__y >> 8), (uint8_t)__z, (uint8_t)(__z >> 8),
                               (uint8_t)__w, (uint8_t)(__w >> 8)};
}
__HIPWB_OCP_FN __amd_fp8_storage_t __amd_extract_fp8(const __amd_fp8x2_storage_t __x,
                                                     const size_t __index) {
  return (__amd_fp8_storage_t)(__index == 0 ? __x & 0xFFu : __x >> 8);
}
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_extract_fp8x2(const __amd_fp8x8_storage_t __x,
                                                         const size_t __index) {
  return (__amd_fp8x2_storage_t)(__x[2 * __index] | (__x[2 * __index + 1] << 8));
}
__HIPWB_OCP_FN uint8_t __amd_extract_fp4(const __amd_fp4x2_storage_t __x, const size_t __index) {
  return (uint8_t)(__index == 0 ? (__x & 0xFu) : (__x >> 4));
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_extract_fp4x2(const __amd_fp4x8_storage_t __x,
                                                         const size_t __index) {
  return (__amd_fp4x2_storage_t)((__x >> (__index * 8)) & 0xFFu);
}
/* gfx950's scale operand: an f32 whose exponent field is the E8M0 scale, 1.0 * 2^scale
 * (-128, the E8M0 NaN, gives the field 0xFF; -127 gives field 0, which the hardware reads as
 * 2^-127). */
__HIPWB_OCP_FN float __amd_scale_to_float(const __amd_scale_t __s) {
  uint32_t __e = __s == -128 ? 0xFFu : ((uint32_t)(__s + 127) & 0xFFu);
  return __builtin_bit_cast(float, __e << 23);
}

/* ---- software conversions (host, targets other than gfx950) ----
 * format: 0 E4M3, 1 E5M2, 2 E2M1 (fp4) */
__HIPWB_OCP_FN float __hipwb_ocp_dec(unsigned int __c, int __fmt, __amd_scale_t __s) {
  float __v = __fmt == 0   ? __hipwb_mf_decode(__c, 4, 3, 7, __HIPWB_MF_E4M3)
              : __fmt == 1 ? __hipwb_mf_decode(__c, 5, 2, 15, __HIPWB_MF_E5M2)
                           : __hipwb_mf_decode(__c, 2, 1, 1, __HIPWB_MF_FINITE);
  if (__s == -128) return __builtin_nanf("");
  return (float)__builtin_ldexp((double)__v, (int)__s); /* one rounding to f32 */
}
__HIPWB_OCP_FN unsigned int __hipwb_ocp_enc(double __x, int __fmt, __amd_scale_t __s) {
  if (__s == -128) /* NaN scale: the NaN code (fp4: the largest magnitude) */
    __x = __builtin_nan("");
  else
    __x = __builtin_ldexp(__x, -(int)__s); /* exact */
  return __fmt == 0   ? __hipwb_mf_encode(__x, 4, 3, 7, __HIPWB_MF_E4M3, 0)
         : __fmt == 1 ? __hipwb_mf_encode(__x, 5, 2, 15, __HIPWB_MF_E5M2, 0)
                      : __hipwb_mf_encode(__x, 2, 1, 1, __HIPWB_MF_FINITE, 0);
}
__HIPWB_OCP_FN unsigned int __hipwb_ocp_enc_sr(double __x, unsigned int __seed, int __src_man,
                                               int __fmt, __amd_scale_t __s) {
  if (__s == -128)
    __x = __builtin_nan("");
  else
    __x = __builtin_ldexp(__x, -(int)__s);
  return __fmt == 0   ? __hipwb_mf_encode_sr(__x, __seed, __src_man, 4, 3, 7, __HIPWB_MF_E4M3)
         : __fmt == 1 ? __hipwb_mf_encode_sr(__x, __seed, __src_man, 5, 2, 15, __HIPWB_MF_E5M2)
                      : __hipwb_mf_encode_sr(__x, __seed, __src_man, 2, 1, 1, __HIPWB_MF_FINITE);
}

/* ---- the primitives: gfx950 instructions, software elsewhere ---- */
/* two fp8 (bytes 0, 1 of __v) -> two floats, scaled */
__HIPWB_OCP_FN __amd_floatx2_storage_t __hipwb_ocp_fp8x2_dec(unsigned int __v, int __fmt,
                                                              __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  return __fmt == 0
             ? __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(__v, __amd_scale_to_float(__s), false)
             : __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(__v, __amd_scale_to_float(__s), false);
#else
  return __amd_floatx2_storage_t{__hipwb_ocp_dec(__v & 0xFFu, __fmt, __s),
                                 __hipwb_ocp_dec((__v >> 8) & 0xFFu, __fmt, __s)};
#endif
}
/* two floats -> two fp8 (x in the low byte), scaled */
__HIPWB_OCP_FN __amd_fp8x2_storage_t __hipwb_ocp_fp8x2_enc(float __a, float __b, int __fmt,
                                                           __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  __amd_shortx2_storage_t __old = {0, 0};
  __amd_shortx2_storage_t __r =
      __fmt == 0 ? __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(__old, __a, __b,
                                                            __amd_scale_to_float(__s), false)
                 : __builtin_amdgcn_cvt_scalef32_pk_bf8_f32(__old, __a, __b,
                                                            __amd_scale_to_float(__s), false);
  return (__amd_fp8x2_storage_t)__r[0];
#else
  return (__amd_fp8x2_storage_t)(__hipwb_ocp_enc(__a, __fmt, __s) |
                                 (__hipwb_ocp_enc(__b, __fmt, __s) << 8));
#endif
}
/* one value -> fp8 with stochastic rounding, scaled; __src: 0 f32, 1 f16, 2 bf16 */
__HIPWB_OCP_FN __amd_fp8_storage_t __hipwb_ocp_fp8_sr(float __a, int __src, int __fmt,
                                                      unsigned int __seed, __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  float __sf = __amd_scale_to_float(__s);
  unsigned int __r;
  if (__src == 1)
    __r = __fmt == 0 ? __builtin_amdgcn_cvt_scalef32_sr_fp8_f16(0u, (_Float16)__a, __seed, __sf, 0)
                     : __builtin_amdgcn_cvt_scalef32_sr_bf8_f16(0u, (_Float16)__a, __seed, __sf, 0);
  else if (__src == 2)
    __r = __fmt == 0 ? __builtin_amdgcn_cvt_scalef32_sr_fp8_bf16(0u, (__bf16)__a, __seed, __sf, 0)
                     : __builtin_amdgcn_cvt_scalef32_sr_bf8_bf16(0u, (__bf16)__a, __seed, __sf, 0);
  else
    __r = __fmt == 0 ? __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(0u, __a, __seed, __sf, 0)
                     : __builtin_amdgcn_cvt_scalef32_sr_bf8_f32(0u, __a, __seed, __sf, 0);
  return (__amd_fp8_storage_t)(__r & 0xFFu);
#else
  return (__amd_fp8_storage_t)__hipwb_ocp_enc_sr(__a, __seed, __src == 1 ? 10 : __src == 2 ? 7 : 23,
                                                 __fmt, __s);
#endif
}
/* fp4x2 (low nibble first) -> two floats, scaled */
__HIPWB_OCP_FN __amd_floatx2_storage_t __hipwb_ocp_fp4x2_dec(unsigned int __v, __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  return __builtin_amdgcn_cvt_scalef32_pk_f32_fp4(__v & 0xFFu, __amd_scale_to_float(__s), 0);
#else
  return __amd_floatx2_storage_t{__hipwb_ocp_dec(__v & 0xFu, 2, __s),
                                 __hipwb_ocp_dec((__v >> 4) & 0xFu, 2, __s)};
#endif
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __hipwb_ocp_fp4x2_enc(float __a, float __b, __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  return (__amd_fp4x2_storage_t)(__builtin_amdgcn_cvt_scalef32_pk_fp4_f32(
                                     0u, __a, __b, __amd_scale_to_float(__s), 0) & 0xFFu);
#else
  return (__amd_fp4x2_storage_t)(__hipwb_ocp_enc(__a, 2, __s) | (__hipwb_ocp_enc(__b, 2, __s) << 4));
#endif
}
/* two values -> fp4x2 with stochastic rounding (one seed for both, as the instruction) */
__HIPWB_OCP_FN __amd_fp4x2_storage_t __hipwb_ocp_fp4x2_sr(float __a, float __b, int __src,
                                                          unsigned int __seed, __amd_scale_t __s) {
#if __HIPWB_OCP_HW
  float __sf = __amd_scale_to_float(__s);
  unsigned int __r;
  if (__src == 1)
    __r = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f16(
        0u, __amd_fp16x2_storage_t{(_Float16)__a, (_Float16)__b}, __seed, __sf, 0);
  else if (__src == 2)
    __r = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_bf16(
        0u, __amd_bf16x2_storage_t{(__bf16)__a, (__bf16)__b}, __seed, __sf, 0);
  else
    __r = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(0u, __amd_floatx2_storage_t{__a, __b},
                                                      __seed, __sf, 0);
  return (__amd_fp4x2_storage_t)(__r & 0xFFu);
#else
  int __m = __src == 1 ? 10 : __src == 2 ? 7 : 23;
  return (__amd_fp4x2_storage_t)(__hipwb_ocp_enc_sr(__a, __seed, __m, 2, __s) |
                                 (__hipwb_ocp_enc_sr(__b, __seed, __m, 2, __s) << 4));
#endif
}

/* ---- fp8 ---- */
__HIPWB_OCP_FN float __amd_cvt_fp8_to_float(const __amd_fp8_storage_t __v,
                                            const __amd_fp8_interpretation_t __i) {
#if __HIPWB_OCP_HW
  return __i == __AMD_OCP_E4M3 ? __builtin_amdgcn_cvt_f32_fp8((int)__v, 0)
                               : __builtin_amdgcn_cvt_f32_bf8((int)__v, 0);
#else
  return __hipwb_ocp_dec(__v, (int)__i, 0);
#endif
}
__HIPWB_OCP_FN __amd_floatx2_storage_t __amd_cvt_fp8x2_to_floatx2(
    const __amd_fp8x2_storage_t __v, const __amd_fp8_interpretation_t __i) {
#if __HIPWB_OCP_HW
  return __i == __AMD_OCP_E4M3 ? __builtin_amdgcn_cvt_pk_f32_fp8((int)__v, false)
                               : __builtin_amdgcn_cvt_pk_f32_bf8((int)__v, false);
#else
  return __hipwb_ocp_fp8x2_dec(__v, (int)__i, 0);
#endif
}
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_cvt_floatx2_to_fp8x2(
    const __amd_floatx2_storage_t __v, const __amd_fp8_interpretation_t __i) {
#if __HIPWB_OCP_HW
  int __w = __i == __AMD_OCP_E4M3 ? __builtin_amdgcn_cvt_pk_fp8_f32(__v[0], __v[1], 0, false)
                                  : __builtin_amdgcn_cvt_pk_bf8_f32(__v[0], __v[1], 0, false);
  return (__amd_fp8x2_storage_t)(__w & 0xFFFF);
#else
  return __hipwb_ocp_fp8x2_enc(__v[0], __v[1], (int)__i, 0);
#endif
}
__HIPWB_OCP_FN __amd_fp8_storage_t __amd_cvt_float_to_fp8_sr(const float __v,
                                                             const __amd_fp8_interpretation_t __i,
                                                             const unsigned int __seed) {
#if __HIPWB_OCP_HW
  int __w = __i == __AMD_OCP_E4M3 ? __builtin_amdgcn_cvt_sr_fp8_f32(__v, (int)__seed, 0, 0)
                                  : __builtin_amdgcn_cvt_sr_bf8_f32(__v, (int)__seed, 0, 0);
  return (__amd_fp8_storage_t)(__w & 0xFF);
#else
  return (__amd_fp8_storage_t)__hipwb_ocp_enc_sr(__v, __seed, 23, (int)__i, 0);
#endif
}
__HIPWB_OCP_FN __amd_fp16_storage_t __amd_cvt_fp8_to_fp16(const __amd_fp8_storage_t __v,
                                                          const __amd_fp8_interpretation_t __i) {
  return (_Float16)__amd_cvt_fp8_to_float(__v, __i);
}
__HIPWB_OCP_FN float __amd_cvt_fp8_to_float_scale(const __amd_fp8_storage_t __v,
                                                  const __amd_fp8_interpretation_t __i,
                                                  const __amd_scale_t __s) {
  return __hipwb_ocp_fp8x2_dec(__v, (int)__i, __s)[0];
}
__HIPWB_OCP_FN __amd_fp16_storage_t __amd_cvt_fp8_to_fp16_scale(
    const __amd_fp8_storage_t __v, const __amd_fp8_interpretation_t __i, const __amd_scale_t __s) {
  return (_Float16)__amd_cvt_fp8_to_float_scale(__v, __i, __s);
}
__HIPWB_OCP_FN __amd_bf16_storage_t __amd_cvt_fp8_to_bf16_scale(
    const __amd_fp8_storage_t __v, const __amd_fp8_interpretation_t __i, const __amd_scale_t __s) {
  return (__bf16)__amd_cvt_fp8_to_float_scale(__v, __i, __s);
}
__HIPWB_OCP_FN __amd_floatx2_storage_t __amd_cvt_fp8x2_to_floatx2_scale(
    const __amd_fp8x2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp8x2_dec(__v, (int)__i, __s);
}
__HIPWB_OCP_FN __amd_fp16x2_storage_t __amd_cvt_fp8x2_to_fp16x2_scale(
    const __amd_fp8x2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  __amd_floatx2_storage_t __f = __hipwb_ocp_fp8x2_dec(__v, (int)__i, __s);
  return __amd_fp16x2_storage_t{(_Float16)__f[0], (_Float16)__f[1]};
}
__HIPWB_OCP_FN __amd_bf16x2_storage_t __amd_cvt_fp8x2_to_bf16x2_scale(
    const __amd_fp8x2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  __amd_floatx2_storage_t __f = __hipwb_ocp_fp8x2_dec(__v, (int)__i, __s);
  return __amd_bf16x2_storage_t{(__bf16)__f[0], (__bf16)__f[1]};
}
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_cvt_floatx2_to_fp8x2_scale(
    const __amd_floatx2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp8x2_enc(__v[0], __v[1], (int)__i, __s);
}
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_cvt_fp16x2_to_fp8x2_scale(
    const __amd_fp16x2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp8x2_enc((float)__v[0], (float)__v[1], (int)__i, __s);
}
__HIPWB_OCP_FN __amd_fp8x2_storage_t __amd_cvt_bf16x2_to_fp8x2_scale(
    const __amd_bf16x2_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp8x2_enc((float)__v[0], (float)__v[1], (int)__i, __s);
}
__HIPWB_OCP_FN __amd_fp8_storage_t __amd_cvt_float_to_fp8_sr_scale(
    const float __v, const __amd_fp8_interpretation_t __i, const unsigned int __seed,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp8_sr(__v, 0, (int)__i, __seed, __s);
}
__HIPWB_OCP_FN __amd_fp8_storage_t __amd_cvt_fp16_to_fp8_sr_scale(
    const __amd_fp16_storage_t __v, const __amd_fp8_interpretation_t __i,
    const unsigned int __seed, const __amd_scale_t __s) {
  return __hipwb_ocp_fp8_sr((float)__v, 1, (int)__i, __seed, __s);
}
__HIPWB_OCP_FN __amd_fp8_storage_t __amd_cvt_bf16_to_fp8_sr_scale(
    const __amd_bf16_storage_t __v, const __amd_fp8_interpretation_t __i,
    const unsigned int __seed, const __amd_scale_t __s) {
  return __hipwb_ocp_fp8_sr((float)__v, 2, (int)__i, __seed, __s);
}

/* x8 forms: element-wise (fp8x8 element i is byte i) */
#define __HIPWB_OCP_X8_DEC(NAME, OUT, CAST)                                                    \
  __HIPWB_OCP_FN OUT NAME(const __amd_fp8x8_storage_t __v, const __amd_fp8_interpretation_t __i, \
                          const __amd_scale_t __s) {                                          \
    OUT __r;                                                                                   \
    for (int __k = 0; __k < 8; __k += 2) {                                                     \
      __amd_floatx2_storage_t __f =                                                            \
          __hipwb_ocp_fp8x2_dec(__v[__k] | (__v[__k + 1] << 8), (int)__i, __s);                \
      __r[__k] = (CAST)__f[0];                                                                 \
      __r[__k + 1] = (CAST)__f[1];                                                             \
    }                                                                                          \
    return __r;                                                                                \
  }
__HIPWB_OCP_X8_DEC(__amd_cvt_fp8x8_to_floatx8_scale, __amd_floatx8_storage_t, float)
__HIPWB_OCP_X8_DEC(__amd_cvt_fp8x8_to_fp16x8_scale, __amd_fp16x8_storage_t, _Float16)
__HIPWB_OCP_X8_DEC(__amd_cvt_fp8x8_to_bf16x8_scale, __amd_bf16x8_storage_t, __bf16)
#undef __HIPWB_OCP_X8_DEC
__HIPWB_OCP_FN __amd_fp8x8_storage_t __amd_cvt_bf16x8_to_fp8x8_scale(
    const __amd_bf16x8_storage_t __v, const __amd_fp8_interpretation_t __i,
    const __amd_scale_t __s) {
  __amd_fp8x8_storage_t __r;
  for (int __k = 0; __k < 8; __k += 2) {
    __amd_fp8x2_storage_t __p = __hipwb_ocp_fp8x2_enc((float)__v[__k], (float)__v[__k + 1], (int)__i, __s);
    __r[__k] = (uint8_t)__p;
    __r[__k + 1] = (uint8_t)(__p >> 8);
  }
  return __r;
}
#define __HIPWB_OCP_X8_SR(NAME, IN, SRC)                                                       \
  __HIPWB_OCP_FN __amd_fp8x8_storage_t NAME(const IN __v, const __amd_fp8_interpretation_t __i, \
                                            const unsigned int __seed, const __amd_scale_t __s) { \
    __amd_fp8x8_storage_t __r;                                                                 \
    for (int __k = 0; __k < 8; ++__k)                                                          \
      __r[__k] = __hipwb_ocp_fp8_sr((float)__v[__k], SRC, (int)__i, __seed, __s);              \
    return __r;                                                                                \
  }
__HIPWB_OCP_X8_SR(__amd_cvt_fp16x8_to_fp8x8_sr_scale, __amd_fp16x8_storage_t, 1)
__HIPWB_OCP_X8_SR(__amd_cvt_bf16x8_to_fp8x8_sr_scale, __amd_bf16x8_storage_t, 2)
#undef __HIPWB_OCP_X8_SR

/* ---- fp4 (E2M1) ---- */
__HIPWB_OCP_FN __amd_floatx2_storage_t __amd_cvt_fp4x2_to_floatx2_scale(
    const __amd_fp4x2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_dec(__v, __s);
}
__HIPWB_OCP_FN __amd_fp16x2_storage_t __amd_cvt_fp4x2_to_fp16x2_scale(
    const __amd_fp4x2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  __amd_floatx2_storage_t __f = __hipwb_ocp_fp4x2_dec(__v, __s);
  return __amd_fp16x2_storage_t{(_Float16)__f[0], (_Float16)__f[1]};
}
__HIPWB_OCP_FN __amd_bf16x2_storage_t __amd_cvt_fp4x2_to_bf16x2_scale(
    const __amd_fp4x2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  __amd_floatx2_storage_t __f = __hipwb_ocp_fp4x2_dec(__v, __s);
  return __amd_bf16x2_storage_t{(__bf16)__f[0], (__bf16)__f[1]};
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_floatx2_to_fp4x2_scale(
    const __amd_floatx2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_enc(__v[0], __v[1], __s);
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_fp16x2_to_fp4x2_scale(
    const __amd_fp16x2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_enc((float)__v[0], (float)__v[1], __s);
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_bf16x2_to_fp4x2_scale(
    const __amd_bf16x2_storage_t __v, const __amd_fp4_interpretation_t, const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_enc((float)__v[0], (float)__v[1], __s);
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_floatx2_to_fp4x2_sr_scale(
    const __amd_floatx2_storage_t __v, const __amd_fp4_interpretation_t, const unsigned int __seed,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_sr(__v[0], __v[1], 0, __seed, __s);
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_fp16x2_to_fp4x2_sr_scale(
    const __amd_fp16x2_storage_t __v, const __amd_fp4_interpretation_t, const unsigned int __seed,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_sr((float)__v[0], (float)__v[1], 1, __seed, __s);
}
__HIPWB_OCP_FN __amd_fp4x2_storage_t __amd_cvt_bf16x2_to_fp4x2_sr_scale(
    const __amd_bf16x2_storage_t __v, const __amd_fp4_interpretation_t, const unsigned int __seed,
    const __amd_scale_t __s) {
  return __hipwb_ocp_fp4x2_sr((float)__v[0], (float)__v[1], 2, __seed, __s);
}
#define __HIPWB_OCP_FP4X8_DEC(NAME, OUT, CAST)                                                 \
  __HIPWB_OCP_FN OUT NAME(const __amd_fp4x8_storage_t __v, const __amd_fp4_interpretation_t,  \
                          const __amd_scale_t __s) {                                          \
    OUT __r;                                                                                   \
    for (int __k = 0; __k < 8; __k += 2) {                                                     \
      __amd_floatx2_storage_t __f = __hipwb_ocp_fp4x2_dec((__v >> (4 * __k)) & 0xFFu, __s);    \
      __r[__k] = (CAST)__f[0];                                                                 \
      __r[__k + 1] = (CAST)__f[1];                                                             \
    }                                                                                          \
    return __r;                                                                                \
  }
__HIPWB_OCP_FP4X8_DEC(__amd_cvt_fp4x8_to_floatx8_scale, __amd_floatx8_storage_t, float)
__HIPWB_OCP_FP4X8_DEC(__amd_cvt_fp4x8_to_fp16x8_scale, __amd_fp16x8_storage_t, _Float16)
__HIPWB_OCP_FP4X8_DEC(__amd_cvt_fp4x8_to_bf16x8_scale, __amd_bf16x8_storage_t, __bf16)
#undef __HIPWB_OCP_FP4X8_DEC
#define __HIPWB_OCP_FP4X8_ENC(NAME, IN)                                                        \
  __HIPWB_OCP_FN __amd_fp4x8_storage_t NAME(const IN __v, const __amd_fp4_interpretation_t,   \
                                            const __amd_scale_t __s) {                        \
    __amd_fp4x8_storage_t __r = 0;                                                             \
    for (int __k = 0; __k < 8; __k += 2)                                                       \
      __r |= (uint32_t)__hipwb_ocp_fp4x2_enc((float)__v[__k], (float)__v[__k + 1], __s)       \
             << (4 * __k);                                                                     \
    return __r;                                                                                \
  }
__HIPWB_OCP_FP4X8_ENC(__amd_cvt_floatx8_to_fp4x8_scale, __amd_floatx8_storage_t)
__HIPWB_OCP_FP4X8_ENC(__amd_cvt_fp16x8_to_fp4x8_scale, __amd_fp16x8_storage_t)
__HIPWB_OCP_FP4X8_ENC(__amd_cvt_bf16x8_to_fp4x8_scale, __amd_bf16x8_storage_t)
#undef __HIPWB_OCP_FP4X8_ENC
#define __HIPWB_OCP_FP4X8_SR(NAME, IN, SRC)                                                    \
  __HIPWB_OCP_FN __amd_fp4x8_storage_t NAME(const IN __v, const __amd_fp4_interpretation_t,   \
                                            const unsigned int __seed, const __amd_scale_t __s) { \
    __amd_fp4x8_storage_t __r = 0;                                                             \
    for (int __k = 0; __k < 8; __k += 2)                                                       \
      __r |= (uint32_t)__hipwb_ocp_fp4x2_sr((float)__v[__k], (float)__v[__k + 1], SRC, __seed, \
                                            __s)                                               \
             << (4 * __k);                                                                     \
    return __r;                                                                                \
  }
__HIPWB_OCP_FP4X8_SR(__amd_cvt_floatx8_to_fp4x8_sr_scale, __amd_floatx8_storage_t, 0)
__HIPWB_OCP_FP4X8_SR(__amd_cvt_fp16x8_to_fp4x8_sr_scale, __amd_fp16x8_storage_t, 1)
__HIPWB_OCP_FP4X8_SR(__amd_cvt_bf16x8_to_fp4x8_sr_scale, __amd_bf16x8_storage_t, 2)
#undef __HIPWB_OCP_FP4X8_SR

#undef __HIPWB_OCP_FN

#endif /* HIPWB_OCP_H */
