/* hipwb/minifloat.h — software encode/decode of the 8-, 6- and 4-bit float formats.
 *
 * The conversions of hip/hip_fp8.h, hip/hip_fp4.h, hip/hip_fp6.h and hip/hip_ext_ocp.h use the
 * hardware's instructions where the target has them (gfx942: FNUZ fp8; gfx950: OCP fp8, fp4 and
 * the scaled forms; gfx12: OCP fp8) and these functions everywhere else: on the host and on
 * targets without those instructions, as ROCm's headers do. Plain C++ on integers and doubles
 * (no target builtins), so they compile for any device and for the host.
 *
 * A format is (E exponent bits, M mantissa bits, bias, kind):
 *   __HIPWB_MF_FNUZ    gfx942's fp8/bf8: 0x80 is the only NaN, no infinity, no -0
 *                      (E4M3FNUZ bias 8, max 240; E5M2FNUZ bias 16, max 57344)
 *   __HIPWB_MF_E4M3    OCP fp8: S.1111.111 is NaN, no infinity (bias 7, max 448)
 *   __HIPWB_MF_E5M2    OCP bf8: S.11111.00 is +-inf, S.11111.xx NaN (bias 15, max 57344)
 *   __HIPWB_MF_FINITE  OCP fp6 E2M3 (bias 1, max 7.5), E3M2 (bias 3, max 28) and fp4 E2M1
 *                      (bias 1, max 6): no infinity, no NaN
 * (OCP 8-bit Floating Point Specification rev 1.0; OCP Microscaling Formats v1.0 §5.3; HIP's
 * "Low precision floating point types" page for FNUZ.) An exponent field of 0 is subnormal.
 *
 * Encoding rounds to nearest even (subnormals included; signed zeros kept except in FNUZ). What
 * happens to NaN, infinity and values beyond the largest finite one is the policy's choice:
 *   __HIPWB_MF_CLIP    saturate: finite values beyond the largest give it (SATFINITE)
 *   __HIPWB_MF_STRICT  a value |x| > max overflows even when it would round down to max (the
 *                      software model of ROCm's hip_fp8.h, amd_hip_fp8.h cast_to_f8); without
 *                      it a value overflows only when it rounds past max (the instructions, and
 *                      AMD's OCP host model amd_hip_ocp_host.hpp that hip_ext_ocp.h uses)
 *   __HIPWB_MF_NAN7F   E5M2 NaN is S.11111.11 (hip_fp8.h's software model) instead of
 *                      S.11111.10 (the instructions)
 * Overflow gives FNUZ's NaN 0x80, E4M3's NaN S.1111.111, E5M2's +-inf and FINITE's largest
 * magnitude; a NaN input gives the NaN code (FINITE: the largest magnitude, signed); an infinite
 * input gives E5M2's infinity, the NaN code of FNUZ and E4M3 (clipped or not, as ROCm and the
 * instructions do) and FINITE's largest magnitude.
 *
 * Stochastic rounding (__hipwb_mf_encode_sr) follows AMD's host model of the v_cvt_sr_*
 * instructions (amd_hip_ocp_host.hpp from_float_sr), which the emulator implements too
 * (workbench/emu/numerics/mx.py encode_sr): the fraction of the source value (SRC_MAN bits: 23
 * for float, 10 for half, 7 for bfloat16) is truncated to the bits the target keeps after the
 * seed's top SRC_MAN - M bits have been added to the bits it drops.
 */
#ifndef HIPWB_MINIFLOAT_H
#define HIPWB_MINIFLOAT_H

#include "config.h"

#define __HIPWB_MF_FNUZ 0
#define __HIPWB_MF_E4M3 1
#define __HIPWB_MF_E5M2 2
#define __HIPWB_MF_FINITE 3

#define __HIPWB_MF_CLIP 1
#define __HIPWB_MF_STRICT 2
#define __HIPWB_MF_NAN7F 4

#define __HIPWB_MF_FN static __host__ __device__ inline __attribute__((__always_inline__))

/* The largest finite magnitude's code (without sign) of a format. */
__HIPWB_MF_FN unsigned int __hipwb_mf_max_code(int __e, int __m, int __kind) {
  unsigned int __all = (1u << (__e + __m)) - 1u;
  return __kind == __HIPWB_MF_E4M3   ? __all - 1u                    /* S.1111.110 */
         : __kind == __HIPWB_MF_E5M2 ? __all - (1u << __m)          /* S.11110.11 */
                                     : __all;                        /* FNUZ, FINITE */
}

/* The value of code __c of a format, as a float (every value of these formats is exact). */
__HIPWB_MF_FN float __hipwb_mf_decode(unsigned int __c, int __e, int __m, int __bias,
                                      int __kind) {
  unsigned int __n = (unsigned int)(1 + __e + __m);
  __c &= (1u << __n) - 1u;
  unsigned int __sign = __c >> (__n - 1u);
  unsigned int __ef = (__c >> __m) & ((1u << __e) - 1u), __mf = __c & ((1u << __m) - 1u);
  if (__kind == __HIPWB_MF_FNUZ && __c == (1u << (__n - 1u)))
    return __builtin_nanf("");
  if (__kind == __HIPWB_MF_E4M3 && __ef == (1u << __e) - 1u && __mf == (1u << __m) - 1u)
    return __builtin_nanf("");
  if (__kind == __HIPWB_MF_E5M2 && __ef == (1u << __e) - 1u)
    return __mf != 0 ? __builtin_nanf("") : (__sign ? -__builtin_inff() : __builtin_inff());
  float __mag = __ef == 0 ? __builtin_ldexpf((float)__mf, 1 - __bias - __m)
                          : __builtin_ldexpf((float)((1u << __m) | __mf), (int)__ef - __bias - __m);
  return __sign ? -__mag : __mag;
}

/* Code of the NaN (or, for FINITE, of what NaN becomes), without sign for FNUZ. */
__HIPWB_MF_FN unsigned int __hipwb_mf_nan(unsigned int __sbit, int __e, int __m, int __kind,
                                          int __policy) {
  unsigned int __all = (1u << (__e + __m)) - 1u;
  switch (__kind) {
  case __HIPWB_MF_FNUZ: return 1u << (__e + __m);
  case __HIPWB_MF_E4M3: return __sbit | __all;
  case __HIPWB_MF_E5M2: return __sbit | ((__policy & __HIPWB_MF_NAN7F) ? __all : __all - 1u);
  default: return __sbit | __all;
  }
}

/* What a value beyond the largest finite one becomes without saturation. */
__HIPWB_MF_FN unsigned int __hipwb_mf_overflow(unsigned int __sbit, int __e, int __m,
                                               int __kind) {
  switch (__kind) {
  case __HIPWB_MF_FNUZ: return 1u << (__e + __m);
  case __HIPWB_MF_E4M3: return __sbit | ((1u << (__e + __m)) - 1u);
  case __HIPWB_MF_E5M2: return __sbit | (((1u << __e) - 1u) << __m); /* +-inf */
  default: return __sbit | ((1u << (__e + __m)) - 1u);
  }
}

/* Round-to-nearest-even encoding of __x (float, half and bfloat16 values are exact as double). */
__HIPWB_MF_FN unsigned int __hipwb_mf_encode(double __x, int __e, int __m, int __bias, int __kind,
                                             int __policy) {
  unsigned long long __bits = __builtin_bit_cast(unsigned long long, __x);
  unsigned int __sbit = (unsigned int)(__bits >> 63) << (__e + __m);
  unsigned int __maxc = __hipwb_mf_max_code(__e, __m, __kind);
  double __maxv = (double)__hipwb_mf_decode(__maxc, __e, __m, __bias, __kind);
  double __a = __builtin_fabs(__x);
  unsigned int __efield = (unsigned int)(__bits >> 52) & 0x7FFu;
  if (__efield == 0x7FFu) { /* NaN or infinity */
    if ((__bits & 0xFFFFFFFFFFFFFull) != 0)
      return __hipwb_mf_nan(__sbit, __e, __m, __kind, __policy);
    if (__kind == __HIPWB_MF_E5M2 || __kind == __HIPWB_MF_FINITE)
      return __hipwb_mf_overflow(__sbit, __e, __m, __kind);
    return __hipwb_mf_nan(__sbit, __e, __m, __kind, __policy);
  }
  bool __clip = (__policy & __HIPWB_MF_CLIP) != 0;
  if ((__policy & __HIPWB_MF_STRICT) && __a > __maxv)
    return __clip ? (__sbit | __maxc) : __hipwb_mf_overflow(__sbit, __e, __m, __kind);
  unsigned int __zero = __kind == __HIPWB_MF_FNUZ ? 0u : __sbit;
  if (__a == 0.0)
    return __zero;
  /* the quantum at |x|: 2^q with q = max(floor(log2 |x|), 1 - bias) - M */
  int __binade = __efield == 0 ? -1023 : (int)__efield - 1023;
  int __q = (__binade > 1 - __bias ? __binade : 1 - __bias) - __m;
  double __n = __builtin_rint(__builtin_ldexp(__a, -__q)); /* exact scaling, RNE */
  if (__n == 0.0)
    return __zero;
  if (__n >= (double)(2u << __m)) { /* rounded up into the next binade */
    __n = (double)(1u << __m);
    __q += 1;
  }
  if (__builtin_ldexp(__n, __q) > __maxv)
    return __clip ? (__sbit | __maxc) : __hipwb_mf_overflow(__sbit, __e, __m, __kind);
  unsigned int __ni = (unsigned int)__n;
  if (__ni < (1u << __m)) /* subnormal: q is 1 - bias - M */
    return __sbit | __ni;
  return __sbit | ((unsigned int)(__q + __m + __bias) << __m) | (__ni - (1u << __m));
}

/* Stochastic rounding of __x, a value exact in a source format with __src_man fraction bits,
 * by the random word __seed (see the top of this file). NaN, infinity and overflow as
 * __hipwb_mf_encode without saturation. */
__HIPWB_MF_FN unsigned int __hipwb_mf_encode_sr(double __x, unsigned int __seed, int __src_man,
                                                int __e, int __m, int __bias, int __kind) {
  unsigned long long __bits = __builtin_bit_cast(unsigned long long, __x);
  unsigned int __sbit = (unsigned int)(__bits >> 63) << (__e + __m);
  unsigned int __efield = (unsigned int)(__bits >> 52) & 0x7FFu;
  if (__efield == 0x7FFu)
    return __hipwb_mf_encode(__x, __e, __m, __bias, __kind, 0);
  double __a = __builtin_fabs(__x);
  unsigned int __zero = __kind == __HIPWB_MF_FNUZ ? 0u : __sbit;
  if (__a == 0.0)
    return __zero;
  int __ex = __efield == 0 ? -1023 : (int)__efield - 1023; /* floor(log2 |x|) for normals */
  /* the source fraction (exact: |x| is a normal value of the source format) */
  unsigned long long __frac =
      (unsigned long long)((__builtin_ldexp(__a, -__ex) - 1.0) * (double)(1ull << __src_man));
  int __min_exp = 1 - __bias;
  int __drop = __src_man - __m;
  unsigned long long __man = __frac;
  bool __sub = __ex < __min_exp;
  if (__sub) {
    int __shift = __min_exp - __ex;
    __man = __shift >= 32 ? 0ull : (__frac | (1ull << __src_man)) >> __shift;
  }
  __man += (unsigned long long)(__seed >> (32 - __drop)) & ((1ull << __drop) - 1ull);
  unsigned int __carry = (unsigned int)(__man >> __src_man) & 1u;
  unsigned int __kept = (unsigned int)(__man >> __drop) & ((1u << __m) - 1u);
  unsigned int __maxc = __hipwb_mf_max_code(__e, __m, __kind);
  if (__sub) {
    unsigned int __code = (__carry << __m) | __kept;
    return __code == 0 ? __zero : (__sbit | __code);
  }
  int __biased = __ex + __bias + (int)__carry;
  unsigned int __code = ((unsigned int)__biased << __m) | __kept;
  if (__biased >= (1 << __e) || __code > __maxc)
    return __hipwb_mf_overflow(__sbit, __e, __m, __kind);
  return __sbit | __code;
}

#endif /* HIPWB_MINIFLOAT_H */
