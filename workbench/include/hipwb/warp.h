/* hipwb/warp.h — wave-level operations: lane id, vote (ballot/any/all), shuffles, lane masks,
 * warp-sync reductions and matches.
 *
 * __lane_id()      __builtin_amdgcn_mbcnt_lo(~0u, 0) (+ mbcnt_hi for wave64): the number of
 *                  set mask bits below this lane, i.e. the lane index (v_mbcnt_lo/hi_u32_b32).
 * __ballot(p)      __builtin_amdgcn_ballot_w64: 64-bit mask of active lanes with p != 0 (upper
 *                  32 bits are 0 in wave32), as HIP's `unsigned long long __ballot(int)`.
 * __any/__all      derived from __ballot; __activemask() = __ballot(1) (the EXEC mask).
 * __shfl*          __builtin_amdgcn_ds_bpermute(4 * src_lane, value): "backward permute", each
 *                  lane reads the dword of lane src_lane (ds_bpermute_b32: it uses the LDS
 *                  crossbar but reads no LDS memory, per the AMD Vega/CDNA ISA guides).
 *                  Values wider than 32 bits are moved as 32-bit pieces (two for double and
 *                  64-bit integers), narrower ones widened to 32 bits.
 *
 * Shuffle semantics are CUDA's, with `width` a power of two <= warpSize that splits the wave into
 * segments of `width` lanes:
 *   __shfl(v, src, w)       value of lane (src mod w) of this lane's segment
 *   __shfl_up(v, d, w)      value of lane (self - d); own value if that leaves the segment
 *   __shfl_down(v, d, w)    value of lane (self + d); own value if that leaves the segment
 *   __shfl_xor(v, m, w)     value of lane (self ^ m); own value if that lies in a later segment
 * (The source-lane arithmetic lives in hipwb/shuffle_lanes.h.)
 * The shuffle and vote *_sync variants (CUDA 9 style, mask first) behave the same: a wave runs
 * in lock-step, the mask only documents which lanes take part (__ballot_sync also ANDs it in).
 * HIP checks its mask rule (below) there too; hipwb checks it in the reductions and matches
 * only. As in HIP (>= 6.2, ROCm clr hipamd/include/hip/amd_detail/amd_warp_sync_functions.h) the
 * mask must be a 64-bit integer: a 32-bit one (e.g. CUDA's 0xffffffff) is a compile-time error,
 * since a promoted 32-bit mask silently drops lanes 32-63 of a wave64. In wave32 the upper 32
 * mask bits are ignored, as HIP does.
 *
 * Lane masks (HIP's amd_device_functions.h; uint64_t in wave32 and wave64 alike):
 *   __lanemask_lt()   lanes below this one that are active here (positional mask & EXEC)
 *   __lanemask_gt()   lanes above this one that are active here
 *   __lanemask_eq()   this lane's bit alone
 * HIP defines no __lanemask_le/__lanemask_ge (CUDA's PTX has them); neither does hipwb, so HIP code
 * that defines its own under those names compiles here as it does with ROCm.
 *
 * Warp-sync reductions and matches (HIP's amd_warp_sync_functions.h, CUDA's semantics):
 *   __reduce_add/min/max_sync(mask, v)   int or unsigned: the sum/min/max of v over the mask's
 *                                        lanes (the sum wraps modulo 2^32), returned to each
 *   __reduce_and/or/xor_sync(mask, v)    unsigned: bitwise and/or/xor over the mask's lanes
 *   (with HIP_ENABLE_EXTRA_WARP_SYNC_TYPES defined, as in HIP: add/min/max also for long long,
 *   unsigned long long, float and double, and/or/xor also for int, long long and unsigned
 *   long long)
 *   __match_any_sync(mask, v)            the lanes of the mask whose v equals this lane's
 *   __match_all_sync(mask, v, &pred)     the mask (pred = 1) if all its lanes hold the same v,
 *                                        else 0 (pred = 0)
 *   __match_any(v), __match_all(v, &pred)   the same with the running lanes as the mask
 *   v of __match_*: int, unsigned, long, unsigned long, long long, unsigned long long, float or
 *   double (HIP's static_assert). Values compare with ==, as HIP's loop does (+0.0 matches
 *   -0.0); a NaN matches lanes holding the same bit pattern, so a lane always matches itself
 *   (HIP's loop would never finish on a NaN).
 * Mask rule (HIP's, stated in amd_warp_sync_functions.h): the masks passed at one call
 * partition the lanes making it; each lane's mask names exactly the lanes calling with that same
 * mask, and it may differ between lanes (e.g. one mask per branch of a divergent `if`). Each
 * distinct mask is handled as one group: a loop takes the mask of the first lane not yet served
 * (readfirstlane), runs the operation with EXEC = the lanes holding that mask, and reads their
 * values one by one with v_readlane (the result is wave-uniform, so the combining is scalar).
 * A mask that is 0, or that names a lane not calling with it (an inactive lane, or one calling
 * with another mask), fails the check HIP makes unless NDEBUG: HIP executes s_trap; hipwb
 * reports a device-side assertion naming the function (the emulator raises a KernelFault with
 * the lanes). With NDEBUG the check is skipped and the result is undefined, as in HIP.
 */
#ifndef HIPWB_WARP_H
#define HIPWB_WARP_H

#include "config.h"
#include "coordinates.h"
#include "printf.h"
#include "shuffle_lanes.h"

__HIPWB_FN_INLINE unsigned int __lane_id() {
  unsigned int __lo = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#if __AMDGCN_WAVEFRONT_SIZE__ == 32
  return __lo;
#else
  return __builtin_amdgcn_mbcnt_hi(~0u, __lo);
#endif
}

__HIPWB_FN_INLINE unsigned long long __ballot(int __predicate) {
  return __builtin_amdgcn_ballot_w64(__predicate != 0);
}
__HIPWB_FN_INLINE unsigned long long __activemask() { return __ballot(1); }
__HIPWB_FN_INLINE int __any(int __predicate) { return __ballot(__predicate) != 0; }
__HIPWB_FN_INLINE int __all(int __predicate) { return __ballot(__predicate) == __ballot(1); }

/* Moves any trivially copyable value from lane `src` as ceil(sizeof(T)/4) dword permutes. */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __hipwb_permute(__T __value, int __src) {
  static_assert(__is_trivially_copyable(__T), "__shfl needs a trivially copyable type");
  constexpr int __words = (int)((sizeof(__T) + 3) / 4);
  int __buf[__words] = {};
  __builtin_memcpy(__buf, &__value, sizeof(__T));
#pragma unroll
  for (int __i = 0; __i < __words; ++__i) __buf[__i] = __builtin_amdgcn_ds_bpermute(__src << 2, __buf[__i]);
  __T __out;
  __builtin_memcpy(&__out, __buf, sizeof(__T));
  return __out;
}

template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl(__T __var, int __src_lane, int __width = warpSize) {
  return __hipwb_permute(__var, __hipwb_shfl_src_idx((int)__lane_id(), __src_lane, __width));
}
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_up(__T __var, unsigned int __lane_delta,
                                                          int __width = warpSize) {
  return __hipwb_permute(__var, __hipwb_shfl_src_up((int)__lane_id(), __lane_delta, __width));
}
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_down(__T __var, unsigned int __lane_delta,
                                                            int __width = warpSize) {
  return __hipwb_permute(__var, __hipwb_shfl_src_down((int)__lane_id(), __lane_delta, __width));
}
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_xor(__T __var, int __lane_mask,
                                                           int __width = warpSize) {
  return __hipwb_permute(__var, __hipwb_shfl_src_xor((int)__lane_id(), __lane_mask, __width));
}

/* The mask of a *_sync call as 64 bits: a compile-time error for anything but a 64-bit integer
 * (HIP's static_assert), upper half dropped in wave32 (HIP's __hip_prepare_sync_mask). */
template <typename __MaskT>
__device__ __attribute__((__always_inline__)) inline unsigned long long __hipwb_sync_mask(__MaskT __mask) {
  static_assert(__is_integral(__MaskT) && sizeof(__MaskT) == 8,
                "The mask of a HIP *_sync function must be a 64-bit integer (unsigned long long, "
                "e.g. ~0ull or __activemask()), as in HIP: a 32-bit mask such as 0xffffffff "
                "would leave out lanes 32-63 of a wave64.");
  /* __builtin_amdgcn_wavefrontsize(): a constant the backend folds (clang >= 21 no longer
   * predefines __AMDGCN_WAVEFRONT_SIZE__) */
  unsigned long long __m = (unsigned long long)__mask;
  return __builtin_amdgcn_wavefrontsize() == 32 ? __m & 0xffffffffull : __m;
}

template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_sync(__MaskT __mask, __T __var, int __src_lane,
                                                            int __width = warpSize) {
  (void)__hipwb_sync_mask(__mask);
  return __shfl(__var, __src_lane, __width);
}
template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_up_sync(__MaskT __mask, __T __var,
                                                               unsigned int __delta,
                                                               int __width = warpSize) {
  (void)__hipwb_sync_mask(__mask);
  return __shfl_up(__var, __delta, __width);
}
template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_down_sync(__MaskT __mask, __T __var,
                                                                 unsigned int __delta,
                                                                 int __width = warpSize) {
  (void)__hipwb_sync_mask(__mask);
  return __shfl_down(__var, __delta, __width);
}
template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline __T __shfl_xor_sync(__MaskT __mask, __T __var, int __lane_mask,
                                                                int __width = warpSize) {
  (void)__hipwb_sync_mask(__mask);
  return __shfl_xor(__var, __lane_mask, __width);
}
template <typename __MaskT>
__device__ __attribute__((__always_inline__)) inline unsigned long long __ballot_sync(__MaskT __mask,
                                                                               int __predicate) {
  return __ballot(__predicate) & __hipwb_sync_mask(__mask);
}
template <typename __MaskT>
__device__ __attribute__((__always_inline__)) inline int __any_sync(__MaskT __mask, int __predicate) {
  return __ballot_sync(__mask, __predicate) != 0;
}
template <typename __MaskT>
__device__ __attribute__((__always_inline__)) inline int __all_sync(__MaskT __mask, int __predicate) {
  return __ballot_sync(__mask, __predicate) == (__activemask() & __hipwb_sync_mask(__mask));
}

/* ---- lane masks (HIP's amd_device_functions.h: uint64_t, positional mask & active lanes) ---- */
__HIPWB_FN_INLINE uint64_t __lanemask_lt() {
  return ((1ull << __lane_id()) - 1ull) & __activemask();
}
__HIPWB_FN_INLINE uint64_t __lanemask_gt() {
  /* Two shifts, as lane + 1 may be 64 (a shift by 64 is undefined). No branch: a ballot inside
   * one would leave out the lanes that took the other side (HIP's version returns early for
   * lane 63 before its ballot, so its other lanes lose bit 63 of a full wave64). */
  return ((~0ull << __lane_id()) << 1) & __activemask();
}
__HIPWB_FN_INLINE uint64_t __lanemask_eq() { return 1ull << __lane_id(); }

/* ---- warp-sync reductions and matches (mask rule: see the top of this file) ---- */

/* A wave-uniform 32-bit value of lane `lane` (v_readlane_b32 with a scalar lane index). */
__HIPWB_FN_INLINE unsigned int __hipwb_lane_u32(unsigned int __v, unsigned int __lane) {
  return (unsigned int)__builtin_amdgcn_readlane((int)__v, (int)__lane);
}
/* Bits of any 4- or 8-byte value as 64 bits (the upper half 0 for 4 bytes). */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline unsigned long long __hipwb_bits64(__T __v) {
  if constexpr (sizeof(__T) == 4) {
    unsigned int __b;
    __builtin_memcpy(&__b, &__v, 4);
    return __b;
  } else {
    unsigned long long __b;
    __builtin_memcpy(&__b, &__v, 8);
    return __b;
  }
}
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __hipwb_from_bits64(unsigned long long __b) {
  __T __v;
  if constexpr (sizeof(__T) == 4) {
    unsigned int __w = (unsigned int)__b;
    __builtin_memcpy(&__v, &__w, 4);
  } else {
    __builtin_memcpy(&__v, &__b, 8);
  }
  return __v;
}
/* Lane `lane`'s value of a 4- or 8-byte T, as 32-bit readlanes. */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline __T __hipwb_lane_value(__T __v, unsigned int __lane) {
  unsigned long long __b = __hipwb_bits64(__v);
  unsigned long long __lo = __hipwb_lane_u32((unsigned int)__b, __lane);
  if constexpr (sizeof(__T) == 8)
    __lo |= (unsigned long long)__hipwb_lane_u32((unsigned int)(__b >> 32), __lane) << 32;
  return __hipwb_from_bits64<__T>(__lo);
}
/* __match_*'s equality: == (HIP's), or the same bits (so that a NaN matches itself). */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline bool __hipwb_match_eq(__T __a, __T __b) {
  return __a == __b || __hipwb_bits64(__a) == __hipwb_bits64(__b);
}

/* The mask check HIP makes (unless NDEBUG): the mask is not 0 and names exactly the lanes that
 * call with it (`lanes`: EXEC while the group of that mask value runs). A failure is a
 * device-side assertion (hipwb/printf.h) naming the warp-sync function. */
__HIPWB_FN_INLINE void __hipwb_sync_mask_check(unsigned long long __mask, unsigned long long __lanes,
                                                const char *__fn) {
#if defined(NDEBUG)
  (void)__mask, (void)__lanes, (void)__fn;
#else
  if (__mask == 0 || __mask != __lanes)
    __assert_fail("mask == the lanes calling with it (HIP's rule: no inactive lane, no lane "
                  "calling with another mask, not 0)",
                  "hipwb/warp.h", __LINE__, __fn);
#endif
}

/* Runs body(group) once per distinct mask value among the calling lanes, with EXEC = the lanes
 * holding that value (`group`, wave-uniform inside body). */
template <typename __Body>
__device__ __attribute__((__always_inline__)) inline void __hipwb_sync_groups(unsigned long long __mask,
                                                                       const char *__fn,
                                                                       __Body __body) {
  bool __done = false;
  while (__ballot(!__done) != 0) {
    if (!__done) {
      unsigned long long __chosen =
          (unsigned long long)(unsigned int)__builtin_amdgcn_readfirstlane((int)__mask) |
          (unsigned long long)(unsigned int)__builtin_amdgcn_readfirstlane((int)(__mask >> 32))
              << 32;
      if (__mask == __chosen) {
        __hipwb_sync_mask_check(__chosen, __activemask(), __fn);
        __body(__chosen);
        __done = true;
      }
    }
  }
}

/* op over the values of the lanes of `group` (all active here), in lane order. */
template <typename __T, typename __Op>
__device__ __attribute__((__always_inline__)) inline __T __hipwb_group_reduce(unsigned long long __group,
                                                                     __T __v, __Op __op) {
  unsigned long long __rest = __group;
  unsigned int __lane = (unsigned int)__builtin_ctzll(__rest);
  __T __acc = __hipwb_lane_value(__v, __lane);
  __rest &= __rest - 1;
  while (__rest != 0) {
    __lane = (unsigned int)__builtin_ctzll(__rest);
    __acc = __op(__acc, __hipwb_lane_value(__v, __lane));
    __rest &= __rest - 1;
  }
  return __acc;
}

template <typename __MaskT, typename __T, typename __Op>
__device__ __attribute__((__always_inline__)) inline __T __hipwb_reduce_sync(__MaskT __mask, __T __v, __Op __op,
                                                                    const char *__fn) {
  unsigned long long __m = __hipwb_sync_mask(__mask);
  __T __result = __v;
  __hipwb_sync_groups(__m, __fn, [&](unsigned long long __group) {
    __result = __hipwb_group_reduce(__group, __v, __op);
  });
  return __result;
}

#define __HIPWB_REDUCE_SYNC(NAME, TYPE, EXPR)                                                     \
  template <typename __MaskT>                                                                       \
  __device__ __attribute__((__always_inline__)) inline TYPE NAME(__MaskT __mask, TYPE __val) {                 \
    return __hipwb_reduce_sync(                                                                   \
        __mask, __val, [](TYPE __a, TYPE __b) -> TYPE { return EXPR; }, #NAME);                           \
  }
__HIPWB_REDUCE_SYNC(__reduce_add_sync, int, (int)((unsigned int)__a + (unsigned int)__b))
__HIPWB_REDUCE_SYNC(__reduce_add_sync, unsigned int, __a + __b)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, int, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, unsigned int, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, int, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, unsigned int, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, unsigned int, __a & __b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, unsigned int, __a | __b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, unsigned int, __a ^ __b)
#if defined(HIP_ENABLE_EXTRA_WARP_SYNC_TYPES)
/* HIP's opt-in types (amd_warp_sync_functions.h, under the same macro). Floating-point sums are
 * taken in lane order here (HIP's tree may round differently). */
__HIPWB_REDUCE_SYNC(__reduce_add_sync, long long, (long long)((unsigned long long)__a + __b))
__HIPWB_REDUCE_SYNC(__reduce_add_sync, unsigned long long, __a + __b)
__HIPWB_REDUCE_SYNC(__reduce_add_sync, float, __a + __b)
__HIPWB_REDUCE_SYNC(__reduce_add_sync, double, __a + __b)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, long long, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, unsigned long long, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, float, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, double, __b < __a ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, long long, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, unsigned long long, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, float, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, double, __a < __b ? __b : __a)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, int, __a & __b)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, long long, __a & __b)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, unsigned long long, __a & __b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, int, __a | __b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, long long, __a | __b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, unsigned long long, __a | __b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, int, __a ^ __b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, long long, __a ^ __b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, unsigned long long, __a ^ __b)
#endif
#undef __HIPWB_REDUCE_SYNC

template <typename __T>
__device__ __attribute__((__always_inline__)) inline void __hipwb_match_type_check() {
  static_assert((__is_integral(__T) || __is_floating_point(__T)) && (sizeof(__T) == 4 || sizeof(__T) == 8),
                "__match_any_sync/__match_all_sync take int, unsigned int, long, unsigned long, "
                "long long, unsigned long long, float or double (as in HIP)");
}

template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline unsigned long long __match_any_sync(__MaskT __mask,
                                                                                  __T __value) {
  __hipwb_match_type_check<__T>();
  unsigned long long __m = __hipwb_sync_mask(__mask), __result = 0;
  __hipwb_sync_groups(__m, "__match_any_sync", [&](unsigned long long __group) {
    /* one round per distinct value: the first unserved lane's value and all lanes equal to it */
    unsigned long long __rest = __group & __activemask(); /* (only differs with NDEBUG and a bad mask) */
    while (__rest != 0) {
      __T __first = __hipwb_lane_value(__value, (unsigned int)__builtin_ctzll(__rest));
      bool __same = __hipwb_match_eq(__value, __first);
      unsigned long long __peers = __ballot(__same);
      if (__same) __result = __peers;
      __rest &= ~__peers;
    }
  });
  return __result;
}

template <typename __MaskT, typename __T>
__device__ __attribute__((__always_inline__)) inline unsigned long long __match_all_sync(__MaskT __mask,
                                                                                  __T __value,
                                                                                  int *__pred) {
  __hipwb_match_type_check<__T>();
  unsigned long long __m = __hipwb_sync_mask(__mask), __result = 0;
  __hipwb_sync_groups(__m, "__match_all_sync", [&](unsigned long long __group) {
    __T __first = __hipwb_lane_value(__value, (unsigned int)__builtin_ctzll(__group));
    __result = __ballot(__hipwb_match_eq(__value, __first)) == __group ? __group : 0ull;
  });
  *__pred = __result != 0;
  return __result;
}

/* HIP's mask-less forms: the lanes running here are the mask. */
template <typename __T>
__device__ __attribute__((__always_inline__)) inline unsigned long long __match_any(__T __value) {
  return __match_any_sync(__activemask(), __value);
}
template <typename __T>
__device__ __attribute__((__always_inline__)) inline unsigned long long __match_all(__T __value, int *__pred) {
  return __match_all_sync(__activemask(), __value, __pred);
}

#endif /* HIPWB_WARP_H */
