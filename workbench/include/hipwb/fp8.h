/* hipwb/fp8.h — HIP's fp8 API (hip/hip_fp8.h): OCP and FNUZ 8-bit floats, their conversions,
 * and the E8M0 scale type.
 *
 * Written from HIP's documented API ("Low precision floating point types", hip_fp8.h reference):
 *   storage      __hip_fp8_storage_t (1 byte), __hip_fp8x2_storage_t (2), __hip_fp8x4_storage_t (4)
 *   enums        __hip_saturation_t {__HIP_NOSAT, __HIP_SATFINITE}; __hip_fp8_interpretation_t
 *                {__HIP_E4M3 = 0, __HIP_E5M2, __HIP_E4M3_FNUZ, __HIP_E5M2_FNUZ}; hipRoundMode
 *   C functions  __hip_cvt_{float,double,halfraw,bfloat16raw}_to_fp8,
 *                __hip_cvt_{float2,double2,halfraw2,bfloat16raw2}_to_fp8x2 (value, sat, interp),
 *                __hip_cvt_fp8_to_halfraw, __hip_cvt_fp8x2_to_halfraw2 (value, interp),
 *                __hip_cvt_{float,double,bfloat16raw}_to_e8m0 (value, sat, hipRoundMode),
 *                __hip_cvt_e8m0_to_bf16raw
 *   types        __hip_fp8_e4m3, __hip_fp8_e5m2 (OCP) and __hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz,
 *                each with x2 and x4 forms (__hip_fp8x2_e4m3, __hip_fp8x4_e5m2_fnuz, ...), and
 *                __hip_fp8_e8m0. Members: __x (the bits), __default_saturation (SATFINITE),
 *                __default_interpret, __we/__wm; implicit constructors from float, double, __half,
 *                __hip_bfloat16 and the integer types (x2: float2, double2, __half2,
 *                __hip_bfloat162; x4: float4, double4, two __half2 or two __hip_bfloat162, low
 *                then high) and implicit conversions to float, double, __half, __hip_bfloat16,
 *                bool and the integer types (NaN -> 0; char/short/signed char/unsigned char
 *                clamp, unsigned types clamp below at 0) (x2: float2, __half2; x4: float4).
 *   macros       HIP_FP8_TYPE_OCP, HIP_FP8_TYPE_FNUZ, HIP_FP8_CVT_FAST_PATH (as ROCm defines them)
 * Element i of an x2/x4 value is byte i (x in the lowest byte).
 *
 * Which format a target has (ROCm's choice, reproduced): gfx942 (and gfx940/941) converts FNUZ,
 * gfx950, gfx1200 and gfx1201 convert OCP, with instructions (HIP_FP8_CVT_FAST_PATH); there the
 * other family's types are host-only (their members are __host__, so device code using them
 * fails to compile, as with ROCm), and a __hip_cvt_* call asking for the other family is a
 * device-side assertion "type is unsupported by current target device" unless NDEBUG. Other
 * targets and the host have both families, converted in software (hipwb/minifloat.h).
 *
 * Rounding and saturation (ROCm's choices):
 *   - float/half/bfloat16 -> fp8 on a fast-path target: with SATFINITE a finite value is first
 *     clamped to +-max (v_med3_f32, as ROCm does), then v_cvt_pk_{fp8,bf8}_f32 rounds to nearest
 *     even; NaN and +-inf pass the clamp: FNUZ gives 0x80, E4M3 its NaN S.1111.111, E5M2 +-inf.
 *     Without saturation a value that rounds past max gives the same codes.
 *   - software (host, other targets, and double inputs everywhere, as in ROCm): round to nearest
 *     even with ROCm's software model: |x| > max (before rounding) saturates with SATFINITE and
 *     otherwise gives FNUZ 0x80, E4M3 NaN, E5M2 +-inf; NaN gives the NaN code (E5M2 S.11111.11);
 *     infinity gives E5M2 +-inf and the NaN of the others.
 *   - fp8 -> float/half/bfloat16 is exact (v_cvt_f32_{fp8,bf8} on fast-path targets); FNUZ 0x80
 *     and OCP NaN give NaN, E5M2 +-inf gives +-inf (ROCm's software model turns it into +-max
 *     under the default SATFINITE; hipwb keeps the hardware's +-inf on every path).
 * Differences from ROCm 7's source, on purpose: its device path for x2 conversions computes the
 * SATFINITE clamp but converts the unclamped values, and its x4 constructors from two half2 /
 * bfloat162 put `high` in the low bytes; here x2 conversions saturate as documented and x4 puts
 * `low` in bytes 0-1.
 */
#ifndef HIPWB_FP8_H
#define HIPWB_FP8_H

#include "config.h"
#include "printf.h"
#include "vector_types.h"
#include "half.h"
#include "bfloat16.h"
#include "minifloat.h"

#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define HIP_FP8_CVT_FAST_PATH 1
#define HIP_FP8_TYPE_OCP 0
#define HIP_FP8_TYPE_FNUZ 1
#elif defined(__gfx950__) || defined(__gfx1200__) || defined(__gfx1201__)
#define HIP_FP8_CVT_FAST_PATH 1
#define HIP_FP8_TYPE_OCP 1
#define HIP_FP8_TYPE_FNUZ 0
#else
#define HIP_FP8_CVT_FAST_PATH 0
#define HIP_FP8_TYPE_OCP 1
#define HIP_FP8_TYPE_FNUZ 1
#endif

enum __hip_fp8_interpretation_t {
  __HIP_E4M3 = 0,
  __HIP_E5M2 = 1,
  __HIP_E4M3_FNUZ = 2,
  __HIP_E5M2_FNUZ = 3,
};
enum __hip_saturation_t {
  __HIP_NOSAT = 0,
  __HIP_SATFINITE = 1,
};
#ifndef __HIPWB_HIP_ROUND_MODE
#define __HIPWB_HIP_ROUND_MODE
enum hipRoundMode {
  hipRoundNearest = 0,
  hipRoundZero = 1,
  hipRoundPosInf = 2,
  hipRoundMinInf = 3,
};
#endif

typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short int __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

#define __HIPWB_FP8_FN static __host__ __device__ inline

/* ---- the four formats: (E, M, bias, kind) of hipwb/minifloat.h ---- */
__HIPWB_FP8_FN bool __hipwb_fp8_is_fnuz(__hip_fp8_interpretation_t __i) {
  return __i == __HIP_E4M3_FNUZ || __i == __HIP_E5M2_FNUZ;
}
__HIPWB_FP8_FN bool __hipwb_fp8_is_e4(__hip_fp8_interpretation_t __i) {
  return __i == __HIP_E4M3 || __i == __HIP_E4M3_FNUZ;
}
__HIPWB_FP8_FN float __hipwb_fp8_decode_sw(unsigned int __c, __hip_fp8_interpretation_t __i) {
  switch (__i) {
  case __HIP_E4M3: return __hipwb_mf_decode(__c, 4, 3, 7, __HIPWB_MF_E4M3);
  case __HIP_E5M2: return __hipwb_mf_decode(__c, 5, 2, 15, __HIPWB_MF_E5M2);
  case __HIP_E4M3_FNUZ: return __hipwb_mf_decode(__c, 4, 3, 8, __HIPWB_MF_FNUZ);
  default: return __hipwb_mf_decode(__c, 5, 2, 16, __HIPWB_MF_FNUZ);
  }
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hipwb_fp8_encode_sw(double __v, __hip_saturation_t __sat,
                                                         __hip_fp8_interpretation_t __i) {
  int __p = __HIPWB_MF_STRICT | __HIPWB_MF_NAN7F | (__sat == __HIP_SATFINITE ? __HIPWB_MF_CLIP : 0);
  switch (__i) {
  case __HIP_E4M3: return (__hip_fp8_storage_t)__hipwb_mf_encode(__v, 4, 3, 7, __HIPWB_MF_E4M3, __p);
  case __HIP_E5M2: return (__hip_fp8_storage_t)__hipwb_mf_encode(__v, 5, 2, 15, __HIPWB_MF_E5M2, __p);
  case __HIP_E4M3_FNUZ:
    return (__hip_fp8_storage_t)__hipwb_mf_encode(__v, 4, 3, 8, __HIPWB_MF_FNUZ, __p);
  default: return (__hip_fp8_storage_t)__hipwb_mf_encode(__v, 5, 2, 16, __HIPWB_MF_FNUZ, __p);
  }
}
__HIPWB_FP8_FN float __hipwb_fp8_max(__hip_fp8_interpretation_t __i) {
  return __i == __HIP_E4M3 ? 448.0f : __i == __HIP_E4M3_FNUZ ? 240.0f : 57344.0f;
}

/* ROCm's device-side check that the interpretation is the target's family (fast path only). */
__HIPWB_FP8_FN void __hipwb_fp8_check(__hip_fp8_interpretation_t __i) {
#if HIP_FP8_CVT_FAST_PATH && !defined(NDEBUG)
  if (__hipwb_fp8_is_fnuz(__i) != (HIP_FP8_TYPE_FNUZ == 1))
    __assert_fail("type is unsupported by current target device", "hip/hip_fp8.h", __LINE__,
                  "__hip_cvt (fp8)");
#else
  (void)__i;
#endif
}

/* ---- the conversions that use the target's instructions (software elsewhere) ---- */
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hipwb_fp8_pack2(float __a, float __b,
                                                        __hip_saturation_t __sat,
                                                        __hip_fp8_interpretation_t __i) {
#if HIP_FP8_CVT_FAST_PATH
  __hipwb_fp8_check(__i);
  if (__sat == __HIP_SATFINITE) { /* clamp finite values; NaN and inf pass (ROCm) */
    float __m = __hipwb_fp8_max(__i);
    if (__builtin_isfinite(__a)) __a = __builtin_amdgcn_fmed3f(__a, __m, -__m);
    if (__builtin_isfinite(__b)) __b = __builtin_amdgcn_fmed3f(__b, __m, -__m);
  }
  int __w = __hipwb_fp8_is_e4(__i) ? __builtin_amdgcn_cvt_pk_fp8_f32(__a, __b, 0, false)
                                   : __builtin_amdgcn_cvt_pk_bf8_f32(__a, __b, 0, false);
  return (__hip_fp8x2_storage_t)(__w & 0xFFFF);
#else
  return (__hip_fp8x2_storage_t)(__hipwb_fp8_encode_sw(__a, __sat, __i) |
                                 (__hipwb_fp8_encode_sw(__b, __sat, __i) << 8));
#endif
}
__HIPWB_FP8_FN float __hipwb_fp8_to_float(__hip_fp8_storage_t __c,
                                          __hip_fp8_interpretation_t __i) {
#if HIP_FP8_CVT_FAST_PATH
  __hipwb_fp8_check(__i);
  return __hipwb_fp8_is_e4(__i) ? __builtin_amdgcn_cvt_f32_fp8((int)__c, 0)
                                : __builtin_amdgcn_cvt_f32_bf8((int)__c, 0);
#else
  return __hipwb_fp8_decode_sw(__c, __i);
#endif
}
__HIPWB_FP8_FN float2 __hipwb_fp8x2_to_float2(__hip_fp8x2_storage_t __c,
                                              __hip_fp8_interpretation_t __i) {
#if HIP_FP8_CVT_FAST_PATH
  __hipwb_fp8_check(__i);
  auto __v = __hipwb_fp8_is_e4(__i) ? __builtin_amdgcn_cvt_pk_f32_fp8((int)__c, false)
                                    : __builtin_amdgcn_cvt_pk_f32_bf8((int)__c, false);
  return float2(__v[0], __v[1]);
#else
  return float2(__hipwb_fp8_decode_sw(__c & 0xFFu, __i), __hipwb_fp8_decode_sw(__c >> 8, __i));
#endif
}

/* ---- HIP's C-style conversion functions ---- */
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_float_to_fp8(const float __f,
                                                          const __hip_saturation_t __sat,
                                                          const __hip_fp8_interpretation_t __i) {
#if HIP_FP8_CVT_FAST_PATH
  return (__hip_fp8_storage_t)(__hipwb_fp8_pack2(__f, __f, __sat, __i) & 0xFFu);
#else
  return __hipwb_fp8_encode_sw(__f, __sat, __i);
#endif
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(
    const float2 __f2, const __hip_saturation_t __sat, const __hip_fp8_interpretation_t __i) {
  return __hipwb_fp8_pack2(__f2.x, __f2.y, __sat, __i);
}
/* double: software on every target, as in ROCm (one rounding from the double value) */
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_double_to_fp8(const double __d,
                                                           const __hip_saturation_t __sat,
                                                           const __hip_fp8_interpretation_t __i) {
  __hipwb_fp8_check(__i);
  return __hipwb_fp8_encode_sw(__d, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_double2_to_fp8x2(
    const double2 __d2, const __hip_saturation_t __sat, const __hip_fp8_interpretation_t __i) {
  return (__hip_fp8x2_storage_t)(__hip_cvt_double_to_fp8(__d2.x, __sat, __i) |
                                 (__hip_cvt_double_to_fp8(__d2.y, __sat, __i) << 8));
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(
    const __hip_bfloat16_raw __hr, const __hip_saturation_t __sat,
    const __hip_fp8_interpretation_t __i) {
  return __hip_cvt_float_to_fp8((float)(__hip_bfloat16)__hr, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(
    const __hip_bfloat16 __h, const __hip_saturation_t __sat,
    const __hip_fp8_interpretation_t __i) {
  return __hip_cvt_float_to_fp8((float)__h, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_bfloat16raw2_to_fp8x2(
    const __hip_bfloat162_raw __hr, const __hip_saturation_t __sat,
    const __hip_fp8_interpretation_t __i) {
  __hip_bfloat162 __v = __hr;
  return __hipwb_fp8_pack2((float)__v.x, (float)__v.y, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_bfloat16raw2_to_fp8x2(
    const __hip_bfloat162 __v, const __hip_saturation_t __sat,
    const __hip_fp8_interpretation_t __i) {
  return __hipwb_fp8_pack2((float)__v.x, (float)__v.y, __sat, __i);
}
__HIPWB_FP8_FN __half_raw __hip_cvt_fp8_to_halfraw(const __hip_fp8_storage_t __x,
                                                   const __hip_fp8_interpretation_t __i) {
  return __hipwb_half_raw((__half)__hipwb_fp8_to_float(__x, __i)); /* exact */
}
__HIPWB_FP8_FN __half2_raw __hip_cvt_fp8x2_to_halfraw2(const __hip_fp8x2_storage_t __x,
                                                       const __hip_fp8_interpretation_t __i) {
  float2 __f = __hipwb_fp8x2_to_float2(__x, __i);
  return __hipwb_half2_raw(__half2{(__half)__f.x, (__half)__f.y});
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(const __half_raw __x,
                                                            const __hip_saturation_t __sat,
                                                            const __hip_fp8_interpretation_t __i) {
  return __hip_cvt_float_to_fp8((float)__x.data, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(const __half __x,
                                                            const __hip_saturation_t __sat,
                                                            const __hip_fp8_interpretation_t __i) {
  return __hip_cvt_float_to_fp8((float)__x, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(
    const __half2_raw __x, const __hip_saturation_t __sat, const __hip_fp8_interpretation_t __i) {
  return __hipwb_fp8_pack2((float)__x.data.x, (float)__x.data.y, __sat, __i);
}
__HIPWB_FP8_FN __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(
    const __half2 __x, const __hip_saturation_t __sat, const __hip_fp8_interpretation_t __i) {
  return __hipwb_fp8_pack2((float)__x.x, (float)__x.y, __sat, __i);
}

/* ---- E8M0 (the MX block scale: 2^(e - 127), 0xFF NaN) ----
 * float/double/bfloat16 -> e8m0: the exponent field; hipRoundPosInf rounds a value with a
 * non-zero fraction up to the next power of two; SATFINITE turns a finite value that would
 * give 0xFF into 0xFE (ROCm's hip_fp8.h). e8m0 -> float: 2^(e - 127), 0x00 -> 2^-127 (a float
 * subnormal), 0xFF -> NaN. */
__HIPWB_FP8_FN __hip_fp8_storage_t __hipwb_e8m0_from_exp(unsigned int __e, bool __frac,
                                                         bool __upper_half, bool __finite,
                                                         __hip_saturation_t __sat,
                                                         hipRoundMode __r) {
  if (__r == hipRoundPosInf && __frac && __upper_half && __e < 0xFFu) __e += 1;
  if (__sat == __HIP_SATFINITE && __e == 0xFFu && __finite) __e = 0xFEu;
  return (__hip_fp8_storage_t)__e;
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_float_to_e8m0(const float __v,
                                                           const __hip_saturation_t __sat,
                                                           const hipRoundMode __r) {
  unsigned int __b = __builtin_bit_cast(unsigned int, __v), __a = __b & 0x7FFFFFFFu;
  return __hipwb_e8m0_from_exp((__b >> 23) & 0xFFu, (__b & 0x7FFFFFu) != 0, __a >= 0x400000u,
                               __a <= 0x7F800000u, __sat, __r);
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_double_to_e8m0(const double __v,
                                                            const __hip_saturation_t __sat,
                                                            const hipRoundMode __r) {
  unsigned long long __b = __builtin_bit_cast(unsigned long long, __v);
  unsigned long long __a = __b & 0x7FFFFFFFFFFFFFFFull;
  unsigned int __de = (unsigned int)(__a >> 52);
  unsigned int __e = __de == 0 ? 0u : (__de - 0x380u > 0xFFu ? 0xFFu : __de - 0x380u);
  return __hipwb_e8m0_from_exp(__e, (__a & 0xFFFFFFFFFFFFFull) != 0, __a >= 0x8000000000000ull,
                               __a <= 0x7FF0000000000000ull, __sat, __r);
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_e8m0(const __hip_bfloat16_raw __hr,
                                                                 const __hip_saturation_t __sat,
                                                                 const hipRoundMode __r) {
  unsigned int __a = __hr.x & 0x7FFFu;
  return __hipwb_e8m0_from_exp((__hr.x >> 7) & 0xFFu, (__hr.x & 0x7Fu) != 0, __a >= 0x40u,
                               __a <= 0x7F80u, __sat, __r);
}
__HIPWB_FP8_FN __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_e8m0(const __hip_bfloat16 __h,
                                                                 const __hip_saturation_t __sat,
                                                                 const hipRoundMode __r) {
  return __hip_cvt_bfloat16raw_to_e8m0(__hipwb_bfloat16_raw(__h), __sat, __r);
}
__HIPWB_FP8_FN __hip_bfloat16_raw __hip_cvt_e8m0_to_bf16raw(const __hip_fp8_storage_t __x) {
  return __hip_bfloat16_raw{(unsigned short)(__x == 0 ? 0x0040u : __x == 0xFFu ? 0x7FFFu
                                                                              : (unsigned)__x << 7)};
}
__HIPWB_FP8_FN float __hipwb_e8m0_to_float(__hip_fp8_storage_t __x) {
  return __x == 0xFFu ? __builtin_nanf("") : __builtin_ldexpf(1.0f, (int)__x - 127);
}

/* ---- conversions of an fp8 value to C++ types (NaN -> 0; see the top of this file) ---- */
template <typename __I>
__host__ __device__ inline __I __hipwb_fp8_to_int(float __f, double __lo, double __hi) {
  if (__f != __f) return (__I)0;
  if ((double)__f <= __lo) return (__I)__lo;
  if ((double)__f >= __hi) return (__I)__hi;
  return (__I)__f;
}

/* Members of one scalar fp8 type. QUAL: `__host__ __device__` for the target's own family (or
 * everywhere off the fast path), `__host__` for the other family on a fast-path target. */
#define __HIPWB_FP8_SCALAR(NAME, INTERP, WE, WM, QUAL, NONZERO)                          \
  struct NAME {                                                                                 \
    __hip_fp8_storage_t __x;                                                                    \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                 \
    static constexpr __hip_fp8_interpretation_t __default_interpret = INTERP;                   \
    static constexpr unsigned int __we = WE;                                                    \
    static constexpr unsigned int __wm = WM;                                                    \
    NAME() = default;                                                                           \
    QUAL NAME(const long int __v) : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}  \
    QUAL NAME(const int __v) : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}       \
    QUAL NAME(const short int __v) : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {} \
    QUAL NAME(const unsigned long int __v)                                                      \
        : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}                   \
    QUAL NAME(const unsigned int __v)                                                           \
        : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}                   \
    QUAL NAME(const unsigned short int __v)                                                     \
        : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}                   \
    QUAL NAME(const double __v) : __x(__hip_cvt_double_to_fp8(__v, __HIP_SATFINITE, INTERP)) {} \
    QUAL NAME(const float __v) : __x(__hip_cvt_float_to_fp8(__v, __HIP_SATFINITE, INTERP)) {}   \
    QUAL NAME(const __hip_bfloat16 __v)                                                         \
        : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {}                   \
    QUAL NAME(const __half __v) : __x(__hip_cvt_float_to_fp8((float)__v, __HIP_SATFINITE, INTERP)) {} \
    QUAL operator float() const { return __hipwb_fp8_to_float(__x, INTERP); }                    \
    QUAL operator double() const { return (double)__hipwb_fp8_to_float(__x, INTERP); }           \
    QUAL operator __half() const { return (__half)__hipwb_fp8_to_float(__x, INTERP); }           \
    QUAL operator __hip_bfloat16() const {                                                      \
      return (__hip_bfloat16)__hipwb_fp8_to_float(__x, INTERP);                                 \
    }                                                                                           \
    QUAL operator bool() const { return NONZERO; }                                              \
    QUAL operator char() const {                                                                \
      return __hipwb_fp8_to_int<char>(float(*this), CHAR_MIN, CHAR_MAX);                        \
    }                                                                                           \
    QUAL operator signed char() const {                                                         \
      return __hipwb_fp8_to_int<signed char>(float(*this), SCHAR_MIN, SCHAR_MAX);               \
    }                                                                                           \
    QUAL operator unsigned char() const {                                                       \
      return __hipwb_fp8_to_int<unsigned char>(float(*this), 0, UCHAR_MAX);                     \
    }                                                                                           \
    QUAL operator short int() const {                                                           \
      return __hipwb_fp8_to_int<short>(float(*this), SHRT_MIN, SHRT_MAX);                       \
    }                                                                                           \
    QUAL operator unsigned short int() const {                                                  \
      return __hipwb_fp8_to_int<unsigned short>(float(*this), 0, USHRT_MAX);                    \
    }                                                                                           \
    QUAL operator int() const { return __hipwb_fp8_to_int<int>(float(*this), INT_MIN, INT_MAX); } \
    QUAL operator unsigned int() const {                                                        \
      return __hipwb_fp8_to_int<unsigned int>(float(*this), 0, UINT_MAX);                       \
    }                                                                                           \
    QUAL operator long int() const {                                                            \
      return __hipwb_fp8_to_int<long>(float(*this), -9.2233720368547758e18, 9.2233720368547748e18); \
    }                                                                                           \
    QUAL operator unsigned long int() const {                                                   \
      return __hipwb_fp8_to_int<unsigned long>(float(*this), 0, 1.8446744073709550e19);         \
    }                                                                                           \
    QUAL operator long long int() const {                                                       \
      return __hipwb_fp8_to_int<long long>(float(*this), -9.2233720368547758e18,                \
                                           9.2233720368547748e18);                              \
    }                                                                                           \
    QUAL operator unsigned long long int() const {                                              \
      return __hipwb_fp8_to_int<unsigned long long>(float(*this), 0, 1.8446744073709550e19);    \
    }                                                                                           \
  };

#define __HIPWB_FP8_X2(NAME, INTERP, WE, WM, QUAL)                                              \
  struct NAME {                                                                                 \
    __hip_fp8x2_storage_t __x;                                                                  \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                 \
    static constexpr __hip_fp8_interpretation_t __default_interpret = INTERP;                   \
    static constexpr unsigned int __we = WE;                                                    \
    static constexpr unsigned int __wm = WM;                                                    \
    NAME() = default;                                                                           \
    QUAL NAME(const double2 __v) : __x(__hip_cvt_double2_to_fp8x2(__v, __HIP_SATFINITE, INTERP)) {} \
    QUAL NAME(const float2 __v) : __x(__hip_cvt_float2_to_fp8x2(__v, __HIP_SATFINITE, INTERP)) {}   \
    QUAL NAME(const __hip_bfloat162 __v)                                                        \
        : __x(__hip_cvt_bfloat16raw2_to_fp8x2(__v, __HIP_SATFINITE, INTERP)) {}                 \
    QUAL NAME(const __half2 __v) : __x(__hip_cvt_halfraw2_to_fp8x2(__v, __HIP_SATFINITE, INTERP)) {} \
    QUAL operator float2() const { return __hipwb_fp8x2_to_float2(__x, INTERP); }                \
    QUAL operator __half2() const {                                                             \
      float2 __f = __hipwb_fp8x2_to_float2(__x, INTERP);                                        \
      return __half2{(__half)__f.x, (__half)__f.y};                                             \
    }                                                                                           \
  };

#define __HIPWB_FP8_X4(NAME, INTERP, WE, WM, QUAL)                                              \
  struct NAME {                                                                                 \
    __hip_fp8x4_storage_t __x;                                                                  \
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;                 \
    static constexpr __hip_fp8_interpretation_t __default_interpret = INTERP;                   \
    static constexpr unsigned int __we = WE;                                                    \
    static constexpr unsigned int __wm = WM;                                                    \
    NAME() = default;                                                                           \
    QUAL NAME(const double4 __v)                                                                \
        : __x((unsigned int)__hip_cvt_double2_to_fp8x2(double2(__v.x, __v.y), __HIP_SATFINITE, INTERP) | \
              ((unsigned int)__hip_cvt_double2_to_fp8x2(double2(__v.z, __v.w), __HIP_SATFINITE, INTERP) \
               << 16)) {}                                                                       \
    QUAL NAME(const float4 __v)                                                                 \
        : __x((unsigned int)__hipwb_fp8_pack2(__v.x, __v.y, __HIP_SATFINITE, INTERP) |          \
              ((unsigned int)__hipwb_fp8_pack2(__v.z, __v.w, __HIP_SATFINITE, INTERP) << 16)) {} \
    QUAL NAME(const __hip_bfloat162 __lo, const __hip_bfloat162 __hi)                           \
        : __x((unsigned int)__hip_cvt_bfloat16raw2_to_fp8x2(__lo, __HIP_SATFINITE, INTERP) |    \
              ((unsigned int)__hip_cvt_bfloat16raw2_to_fp8x2(__hi, __HIP_SATFINITE, INTERP) << 16)) {} \
    QUAL NAME(const __half2 __lo, const __half2 __hi)                                           \
        : __x((unsigned int)__hip_cvt_halfraw2_to_fp8x2(__lo, __HIP_SATFINITE, INTERP) |        \
              ((unsigned int)__hip_cvt_halfraw2_to_fp8x2(__hi, __HIP_SATFINITE, INTERP) << 16)) {} \
    QUAL operator float4() const {                                                              \
      float2 __l = __hipwb_fp8x2_to_float2((__hip_fp8x2_storage_t)(__x & 0xFFFFu), INTERP);     \
      float2 __h = __hipwb_fp8x2_to_float2((__hip_fp8x2_storage_t)(__x >> 16), INTERP);         \
      return float4(__l.x, __l.y, __h.x, __h.y);                                                \
    }                                                                                           \
  };

#if HIP_FP8_TYPE_FNUZ
#define __HIPWB_FP8_FNUZ_QUAL __host__ __device__ inline
#else
#define __HIPWB_FP8_FNUZ_QUAL __host__ inline
#endif
#if HIP_FP8_TYPE_OCP
#define __HIPWB_FP8_OCP_QUAL __host__ __device__ inline
#else
#define __HIPWB_FP8_OCP_QUAL __host__ inline
#endif

/* bool: FNUZ's only zero is 0x00 (its NaN 0x80 is true); OCP has +-0 */
__HIPWB_FP8_SCALAR(__hip_fp8_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3, __HIPWB_FP8_FNUZ_QUAL, __x != 0)
__HIPWB_FP8_SCALAR(__hip_fp8_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2, __HIPWB_FP8_FNUZ_QUAL, __x != 0)
__HIPWB_FP8_SCALAR(__hip_fp8_e4m3, __HIP_E4M3, 4, 3, __HIPWB_FP8_OCP_QUAL, (__x & 0x7F) != 0)
__HIPWB_FP8_SCALAR(__hip_fp8_e5m2, __HIP_E5M2, 5, 2, __HIPWB_FP8_OCP_QUAL, (__x & 0x7F) != 0)
__HIPWB_FP8_X2(__hip_fp8x2_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3, __HIPWB_FP8_FNUZ_QUAL)
__HIPWB_FP8_X2(__hip_fp8x2_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2, __HIPWB_FP8_FNUZ_QUAL)
__HIPWB_FP8_X2(__hip_fp8x2_e4m3, __HIP_E4M3, 4, 3, __HIPWB_FP8_OCP_QUAL)
__HIPWB_FP8_X2(__hip_fp8x2_e5m2, __HIP_E5M2, 5, 2, __HIPWB_FP8_OCP_QUAL)
__HIPWB_FP8_X4(__hip_fp8x4_e4m3_fnuz, __HIP_E4M3_FNUZ, 4, 3, __HIPWB_FP8_FNUZ_QUAL)
__HIPWB_FP8_X4(__hip_fp8x4_e5m2_fnuz, __HIP_E5M2_FNUZ, 5, 2, __HIPWB_FP8_FNUZ_QUAL)
__HIPWB_FP8_X4(__hip_fp8x4_e4m3, __HIP_E4M3, 4, 3, __HIPWB_FP8_OCP_QUAL)
__HIPWB_FP8_X4(__hip_fp8x4_e5m2, __HIP_E5M2, 5, 2, __HIPWB_FP8_OCP_QUAL)

#undef __HIPWB_FP8_SCALAR
#undef __HIPWB_FP8_X2
#undef __HIPWB_FP8_X4
#undef __HIPWB_FP8_FNUZ_QUAL
#undef __HIPWB_FP8_OCP_QUAL

static_assert(sizeof(__hip_fp8_e4m3) == 1 && sizeof(__hip_fp8x2_e4m3) == 2 &&
                  sizeof(__hip_fp8x4_e4m3) == 4,
              "fp8 types are their storage");

/* E8M0 scale: default SATFINITE, hipRoundPosInf (ROCm's defaults); explicit constructors and
 * conversions as in ROCm. */
struct __hip_fp8_e8m0 {
  __hip_fp8_storage_t __x;
  static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
  static constexpr hipRoundMode __default_interpret = hipRoundPosInf;
  __hip_fp8_e8m0() = default;
  __host__ __device__ explicit __hip_fp8_e8m0(const float __v)
      : __x(__hip_cvt_float_to_e8m0(__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const double __v)
      : __x(__hip_cvt_double_to_e8m0(__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const __half __v)
      : __x(__hip_cvt_float_to_e8m0((float)__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const __hip_bfloat16 __v)
      : __x(__hip_cvt_bfloat16raw_to_e8m0(__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const int __v)
      : __x(__hip_cvt_float_to_e8m0((float)__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const unsigned int __v)
      : __x(__hip_cvt_float_to_e8m0((float)__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit __hip_fp8_e8m0(const long long __v)
      : __x(__hip_cvt_float_to_e8m0((float)__v, __HIP_SATFINITE, hipRoundPosInf)) {}
  __host__ __device__ explicit operator float() const { return __hipwb_e8m0_to_float(__x); }
  __host__ __device__ explicit operator double() const { return __hipwb_e8m0_to_float(__x); }
  __host__ __device__ explicit operator __half() const {
    return (__half)__hipwb_e8m0_to_float(__x);
  }
  __host__ __device__ explicit operator __hip_bfloat16() const {
    return (__hip_bfloat16)__hip_cvt_e8m0_to_bf16raw(__x);
  }
  __host__ __device__ explicit operator bool() const { return true; } /* never zero */
  __host__ __device__ explicit operator int() const {
    return __hipwb_fp8_to_int<int>(__hipwb_e8m0_to_float(__x), INT_MIN, INT_MAX);
  }
  __host__ __device__ explicit operator unsigned int() const {
    return __hipwb_fp8_to_int<unsigned int>(__hipwb_e8m0_to_float(__x), 0, UINT_MAX);
  }
};

#undef __HIPWB_FP8_FN

#endif /* HIPWB_FP8_H */
