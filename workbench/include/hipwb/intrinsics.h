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

__HIPWB_FN_INLINE int __popc(unsigned int x) { return __builtin_popcount(x); }
__HIPWB_FN_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__HIPWB_FN_INLINE int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
__HIPWB_FN_INLINE int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
__HIPWB_FN_INLINE int __ffs(int x) { return __builtin_ffs(x); }
__HIPWB_FN_INLINE int __ffsll(long long x) { return __builtin_ffsll(x); }
__HIPWB_FN_INLINE unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__HIPWB_FN_INLINE unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
__HIPWB_FN_INLINE int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
__HIPWB_FN_INLINE unsigned int __umulhi(unsigned int a, unsigned int b) {
  return (unsigned int)(((unsigned long long)a * b) >> 32);
}
/* High 64 bits of a 64x64-bit product, from four 32x32-bit partial products. */
__HIPWB_FN_INLINE unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  unsigned long long a_lo = (unsigned int)a, a_hi = a >> 32, b_lo = (unsigned int)b, b_hi = b >> 32;
  unsigned long long lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  unsigned long long mid = (lo_lo >> 32) + (unsigned int)hi_lo + (unsigned int)lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (lo_hi >> 32) + (mid >> 32);
}
__HIPWB_FN_INLINE long long __mul64hi(long long a, long long b) {
  unsigned long long hi = __umul64hi((unsigned long long)a, (unsigned long long)b);
  /* signed correction: subtract b if a < 0 and a if b < 0 (mod 2^64) */
  hi -= (a < 0 ? (unsigned long long)b : 0ull) + (b < 0 ? (unsigned long long)a : 0ull);
  return (long long)hi;
}
/* 24-bit multiplies: the low 24 bits of each operand (sign-extended for __mul24). */
__HIPWB_FN_INLINE int __mul24(int a, int b) {
  return ((int)((unsigned int)a << 8) >> 8) * ((int)((unsigned int)b << 8) >> 8);
}
__HIPWB_FN_INLINE unsigned int __umul24(unsigned int a, unsigned int b) {
  return (a & 0xFFFFFFu) * (b & 0xFFFFFFu);
}
__HIPWB_FN_INLINE unsigned int __sad(int a, int b, unsigned int c) {
  return (a > b ? (unsigned int)a - (unsigned int)b : (unsigned int)b - (unsigned int)a) + c;
}
__HIPWB_FN_INLINE unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) {
  return (a > b ? a - b : b - a) + c;
}
/* Averages without overflow (CUDA/HIP __hadd, __rhadd, __uhadd, __urhadd): (x + y) >> 1 and
 * (x + y + 1) >> 1 computed in 64 bits; the int overload of __hadd sits beside __half's. */
__HIPWB_FN_INLINE int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
__HIPWB_FN_INLINE int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
__HIPWB_FN_INLINE unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y) >> 1);
}
__HIPWB_FN_INLINE unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
/* CUDA __byte_perm: byte i of the result is byte (s >> 4i) & 7 of the 8-byte value y:x. */
__HIPWB_FN_INLINE unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned int byte = (unsigned int)(v >> (8 * ((s >> (4 * i)) & 7))) & 0xFFu;
    r |= byte << (8 * i);
  }
  return r;
}
/* Funnel shifts of the 64-bit value hi:lo (shift taken mod 32, as CUDA's non-clamped form). */
__HIPWB_FN_INLINE unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
__HIPWB_FN_INLINE unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
  return (unsigned int)((((unsigned long long)hi << 32) | lo) >> (s & 31));
}

/* HIP's bit-field extract/insert: `width` bits of src0 from bit `offset`; offset and width are
 * taken modulo the operand size, as v_bfe_u32 reads bits [4:0] of its operands (CDNA3 ISA,
 * "V_BFE_U32"); width 0 gives 0 (extract) or src0 unchanged (insert). */
__HIPWB_FN_INLINE unsigned int __bitextract_u32(unsigned int src0, unsigned int offset,
                                                unsigned int width) {
  return __builtin_amdgcn_ubfe(src0, offset, width);
}
__HIPWB_FN_INLINE unsigned long long __bitextract_u64(unsigned long long src0,
                                                      unsigned int offset, unsigned int width) {
  offset &= 63;
  width &= 63;
  if (width == 0)
    return 0;
  unsigned long long v = src0 >> offset;
  return width >= 64 - offset ? v : v & ((1ull << width) - 1);
}
__HIPWB_FN_INLINE unsigned int __bitinsert_u32(unsigned int src0, unsigned int src1,
                                               unsigned int offset, unsigned int width) {
  offset &= 31;
  width &= 31;
  unsigned int mask = ((1u << width) - 1) << offset;
  return (src0 & ~mask) | ((src1 << offset) & mask);
}
__HIPWB_FN_INLINE unsigned long long __bitinsert_u64(unsigned long long src0,
                                                     unsigned long long src1,
                                                     unsigned int offset, unsigned int width) {
  offset &= 63;
  width &= 63;
  unsigned long long mask = ((1ull << width) - 1) << offset;
  return (src0 & ~mask) | ((src1 << offset) & mask);
}

/* CUDA's read-only-cache load: on AMD GPUs every global load goes through the same caches, so
 * HIP defines it as a plain load (the compiler may still use scalar loads for uniform data). */
template <typename T>
__attribute__((device, always_inline)) inline T __ldg(const T *ptr) { return *ptr; }

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
#define __HIPWB_GETREG(id, off, size) \
  __builtin_amdgcn_s_getreg((id) | ((off) << 6) | (((size) - 1) << 11))
__HIPWB_FN_INLINE unsigned __smid(void) {
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
  unsigned wgp = __HIPWB_GETREG(23, 10, 4), sa = __HIPWB_GETREG(23, 16, 1);
  unsigned se = __HIPWB_GETREG(23, 18, 3);
  return (se << 5) | (sa << 4) | wgp;
#else
  unsigned cu = __HIPWB_GETREG(4, 8, 4), se = __HIPWB_GETREG(4, 13, 2);
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__) || defined(__gfx950__)
  unsigned xcc = __HIPWB_GETREG(20, 0, 4);
  return (xcc << 6) | (se << 4) | cu;
#else
  return (se << 4) | cu;
#endif
#endif
}
#undef __HIPWB_GETREG

#endif /* HIPWB_INTRINSICS_H */
