/* hipwb/intrinsics.h — CUDA/HIP integer intrinsics and clocks.
 *
 * Bit operations map onto clang's generic builtins, which LLVM selects to single instructions
 * (v_bcnt_u32_b32, v_ffbh_u32 / s_flbit, v_ffbl_b32, v_bfrev_b32, v_mul_hi_*):
 *   __popc, __popcll, __clz, __clzll, __ffs, __ffsll, __brev, __brevll, __mulhi, __umulhi,
 *   __mul64hi, __umul64hi, __mul24, __umul24, __sad, __usad, __byte_perm, __funnelshift_l/r,
 *   __bitextract_u32/u64 (v_bfe_u32), __bitinsert_u32/u64, __hadd/__rhadd/__uhadd/__urhadd.
 * __ldg(p) (a plain load, as in HIP) and __trap() (__builtin_trap: s_trap).
 * Clocks:
 *   clock64(), __clock64()   __builtin_readcyclecounter: s_memtime on gfx9, the 20-bit
 *                            SHADER_CYCLES hardware register on gfx11, SHADER_CYCLES_LO/HI on
 *                            gfx12 (per-SIMD cycle counter; only differences are meaningful)
 *   clock()                  the same as clock64() (HIP returns long long here too)
 *   wall_clock64()           __builtin_readsteadycounter: s_memrealtime (gfx9) or
 *                            s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME (gfx11+), a constant-rate
 *                            counter (100 MHz on current ROCm devices; query the device for it)
 *   __smid()                 the compute unit (HW_ID / HW_ID1 / XCC_ID registers)
 */
#ifndef HIPWB_INTRINSICS_H
#define HIPWB_INTRINSICS_H

#include "config.h"

__HIPWB_FN_INLINE int __popc(unsigned int __x) { return __builtin_popcount(__x); }
__HIPWB_FN_INLINE int __popcll(unsigned long long __x) { return __builtin_popcountll(__x); }
__HIPWB_FN_INLINE int __clz(int __x) { return __x == 0 ? 32 : __builtin_clz((unsigned int)__x); }
__HIPWB_FN_INLINE int __clzll(long long __x) {
  return __x == 0 ? 64 : __builtin_clzll((unsigned long long)__x);
}
__HIPWB_FN_INLINE int __ffs(int __x) { return __builtin_ffs(__x); }
__HIPWB_FN_INLINE int __ffsll(long long __x) { return __builtin_ffsll(__x); }
__HIPWB_FN_INLINE unsigned int __brev(unsigned int __x) { return __builtin_bitreverse32(__x); }
__HIPWB_FN_INLINE unsigned long long __brevll(unsigned long long __x) {
  return __builtin_bitreverse64(__x);
}
__HIPWB_FN_INLINE int __mulhi(int __a, int __b) { return (int)(((long long)__a * __b) >> 32); }
__HIPWB_FN_INLINE unsigned int __umulhi(unsigned int __a, unsigned int __b) {
  return (unsigned int)(((unsigned long long)__a * __b) >> 32);
}
/* High 64 bits of a 64x64-bit product, from four 32x32-bit partial products. */
__HIPWB_FN_INLINE unsigned long long __umul64hi(unsigned long long __a, unsigned long long __b) {
  unsigned long long __a_lo = (unsigned int)__a, __a_hi = __a >> 32, __b_lo = (unsigned int)__b, __b_hi = __b >> 32;
  unsigned long long __lo_lo = __a_lo * __b_lo, __hi_lo = __a_hi * __b_lo, __lo_hi = __a_lo * __b_hi;
  unsigned long long __mid = (__lo_lo >> 32) + (unsigned int)__hi_lo + (unsigned int)__lo_hi;
  return __a_hi * __b_hi + (__hi_lo >> 32) + (__lo_hi >> 32) + (__mid >> 32);
}
__HIPWB_FN_INLINE long long __mul64hi(long long __a, long long __b) {
  unsigned long long __hi = __umul64hi((unsigned long long)__a, (unsigned long long)__b);
  /* signed correction: subtract b if a < 0 and a if b < 0 (mod 2^64) */
  __hi -= (__a < 0 ? (unsigned long long)__b : 0ull) + (__b < 0 ? (unsigned long long)__a : 0ull);
  return (long long)__hi;
}
/* 24-bit multiplies: the low 24 bits of each operand (sign-extended for __mul24). */
__HIPWB_FN_INLINE int __mul24(int __a, int __b) {
  return ((int)((unsigned int)__a << 8) >> 8) * ((int)((unsigned int)__b << 8) >> 8);
}
__HIPWB_FN_INLINE unsigned int __umul24(unsigned int __a, unsigned int __b) {
  return (__a & 0xFFFFFFu) * (__b & 0xFFFFFFu);
}
__HIPWB_FN_INLINE unsigned int __sad(int __a, int __b, unsigned int __c) {
  return (__a > __b ? (unsigned int)__a - (unsigned int)__b : (unsigned int)__b - (unsigned int)__a) + __c;
}
__HIPWB_FN_INLINE unsigned int __usad(unsigned int __a, unsigned int __b, unsigned int __c) {
  return (__a > __b ? __a - __b : __b - __a) + __c;
}
/* Averages without overflow (CUDA/HIP __hadd, __rhadd, __uhadd, __urhadd): (x + y) >> 1 and
 * (x + y + 1) >> 1 computed in 64 bits; the int overload of __hadd sits beside __half's. */
__HIPWB_FN_INLINE int __hadd(int __x, int __y) { return (int)(((long long)__x + __y) >> 1); }
__HIPWB_FN_INLINE int __rhadd(int __x, int __y) { return (int)(((long long)__x + __y + 1) >> 1); }
__HIPWB_FN_INLINE unsigned int __uhadd(unsigned int __x, unsigned int __y) {
  return (unsigned int)(((unsigned long long)__x + __y) >> 1);
}
__HIPWB_FN_INLINE unsigned int __urhadd(unsigned int __x, unsigned int __y) {
  return (unsigned int)(((unsigned long long)__x + __y + 1) >> 1);
}
/* CUDA __byte_perm: byte i of the result is byte (s >> 4i) & 7 of the 8-byte value y:x. */
__HIPWB_FN_INLINE unsigned int __byte_perm(unsigned int __x, unsigned int __y, unsigned int __s) {
  unsigned long long __v = ((unsigned long long)__y << 32) | __x;
  unsigned int __r = 0;
#pragma unroll
  for (int __i = 0; __i < 4; ++__i) {
    unsigned int __byte = (unsigned int)(__v >> (8 * ((__s >> (4 * __i)) & 7))) & 0xFFu;
    __r |= __byte << (8 * __i);
  }
  return __r;
}
/* Funnel shifts of the 64-bit value hi:lo (shift taken mod 32, as CUDA's non-clamped form). */
__HIPWB_FN_INLINE unsigned int __funnelshift_l(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return (unsigned int)(((((unsigned long long)__hi << 32) | __lo) << (__s & 31)) >> 32);
}
__HIPWB_FN_INLINE unsigned int __funnelshift_r(unsigned int __lo, unsigned int __hi, unsigned int __s) {
  return (unsigned int)((((unsigned long long)__hi << 32) | __lo) >> (__s & 31));
}

/* HIP's bit-field extract/insert: `width` bits of src0 from bit `offset`; offset and width are
 * taken modulo the operand size, as v_bfe_u32 reads bits [4:0] of its operands (CDNA3 ISA,
 * "V_BFE_U32"); width 0 gives 0 (extract) or src0 unchanged (insert). */
__HIPWB_FN_INLINE unsigned int __bitextract_u32(unsigned int __src0, unsigned int __offset,
                                                unsigned int __width) {
  return __builtin_amdgcn_ubfe(__src0, __offset, __width);
}
__HIPWB_FN_INLINE unsigned long long __bitextract_u64(unsigned long long __src0,
                                                      unsigned int __offset, unsigned int __width) {
  __offset &= 63;
  __width &= 63;
  if (__width == 0)
    return 0;
  unsigned long long __v = __src0 >> __offset;
  return __width >= 64 - __offset ? __v : __v & ((1ull << __width) - 1);
}
__HIPWB_FN_INLINE unsigned int __bitinsert_u32(unsigned int __src0, unsigned int __src1,
                                               unsigned int __offset, unsigned int __width) {
  __offset &= 31;
  __width &= 31;
  unsigned int __mask = ((1u << __width) - 1) << __offset;
  return (__src0 & ~__mask) | ((__src1 << __offset) & __mask);
}
__HIPWB_FN_INLINE unsigned long long __bitinsert_u64(unsigned long long __src0,
                                                     unsigned long long __src1,
                                                     unsigned int __offset, unsigned int __width) {
  __offset &= 63;
  __width &= 63;
  unsigned long long __mask = ((1ull << __width) - 1) << __offset;
  return (__src0 & ~__mask) | ((__src1 << __offset) & __mask);
}

/* CUDA's read-only-cache load: on AMD GPUs every global load goes through the same caches, so
 * HIP defines it as a plain load (the compiler may still use scalar loads for uniform data). */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __ldg(const __T *__ptr) { return *__ptr; }

/* Aborts the wave (s_trap); the emulator reports it with the faulting lane and instruction. */
__HIPWB_FN_INLINE void __trap() { __builtin_trap(); }

__HIPWB_FN_INLINE long long clock64() { return (long long)__builtin_readcyclecounter(); }
__HIPWB_FN_INLINE long long __clock64() { return clock64(); }
__HIPWB_FN_INLINE long long clock() { return clock64(); }
__HIPWB_FN_INLINE long long wall_clock64() { return (long long)__builtin_readsteadycounter(); }

/* __smid(): the compute unit the wave runs on, read from the wave's hardware ID registers with
 * s_getreg_b32 (hwreg ids from LLVM SIDefines.h: HW_ID = 4 on gfx9, HW_ID1 = 23 on GFX10+,
 * XCC_ID = 20 on gfx940+). Field layouts: CDNA3 ISA HW_ID (CU_ID 11:8, SE_ID 14:13), RDNA3
 * ISA HW_ID1 (WGP_ID 13:10, SA_ID 16, SE_ID 20:18), XCC_ID 3:0. The value packs them as
 * HIP's does: gfx9 {XCC, SE, CU} (XCC only on gfx940+), GFX10+ {SE, SA, WGP}. On the
 * emulator it is deterministic (workbench/emu/semantics/scalar/mode.py documents the modelled placement). */
#define __HIPWB_GETREG(__id, __off, __size) \
  __builtin_amdgcn_s_getreg((__id) | ((__off) << 6) | (((__size) - 1) << 11))
__HIPWB_FN_INLINE unsigned __smid(void) {
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
  unsigned __wgp = __HIPWB_GETREG(23, 10, 4), __sa = __HIPWB_GETREG(23, 16, 1);
  unsigned __se = __HIPWB_GETREG(23, 18, 3);
  return (__se << 5) | (__sa << 4) | __wgp;
#else
  unsigned __cu = __HIPWB_GETREG(4, 8, 4), __se = __HIPWB_GETREG(4, 13, 2);
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
  unsigned __xcc = __HIPWB_GETREG(20, 0, 4);
  return (__xcc << 6) | (__se << 4) | __cu;
#else
  return (__se << 4) | __cu;
#endif
#endif
}
#undef __HIPWB_GETREG

#endif /* HIPWB_INTRINSICS_H */
