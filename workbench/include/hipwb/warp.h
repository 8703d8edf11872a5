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
  unsigned int lo = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#if __AMDGCN_WAVEFRONT_SIZE__ == 32
  return lo;
#else
  return __builtin_amdgcn_mbcnt_hi(~0u, lo);
#endif
}

__HIPWB_FN_INLINE unsigned long long __ballot(int predicate) {
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
__HIPWB_FN_INLINE unsigned long long __activemask() { return __ballot(1); }
__HIPWB_FN_INLINE int __any(int predicate) { return __ballot(predicate) != 0; }
__HIPWB_FN_INLINE int __all(int predicate) { return __ballot(predicate) == __ballot(1); }

/* Moves any trivially copyable value from lane `src` as ceil(sizeof(T)/4) dword permutes. */
template <typename T>
__attribute__((device, always_inline)) inline T __hipwb_permute(T value, int src) {
  static_assert(__is_trivially_copyable(T), "__shfl needs a trivially copyable type");
  constexpr int words = (int)((sizeof(T) + 3) / 4);
  int buf[words] = {};
  __builtin_memcpy(buf, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) buf[i] = __builtin_amdgcn_ds_bpermute(src << 2, buf[i]);
  T out;
  __builtin_memcpy(&out, buf, sizeof(T));
  return out;
}

template <typename T>
__attribute__((device, always_inline)) inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __hipwb_permute(var, __hipwb_shfl_src_idx((int)__lane_id(), src_lane, width));
}
template <typename T>
__attribute__((device, always_inline)) inline T __shfl_up(T var, unsigned int lane_delta,
                                                          int width = warpSize) {
  return __hipwb_permute(var, __hipwb_shfl_src_up((int)__lane_id(), lane_delta, width));
}
template <typename T>
__attribute__((device, always_inline)) inline T __shfl_down(T var, unsigned int lane_delta,
                                                            int width = warpSize) {
  return __hipwb_permute(var, __hipwb_shfl_src_down((int)__lane_id(), lane_delta, width));
}
template <typename T>
__attribute__((device, always_inline)) inline T __shfl_xor(T var, int lane_mask,
                                                           int width = warpSize) {
  return __hipwb_permute(var, __hipwb_shfl_src_xor((int)__lane_id(), lane_mask, width));
}

/* The mask of a *_sync call as 64 bits: a compile-time error for anything but a 64-bit integer
 * (HIP's static_assert), upper half dropped in wave32 (HIP's __hip_prepare_sync_mask). */
template <typename MaskT>
__attribute__((device, always_inline)) inline unsigned long long __hipwb_sync_mask(MaskT mask) {
  static_assert(__is_integral(MaskT) && sizeof(MaskT) == 8,
                "The mask of a HIP *_sync function must be a 64-bit integer (unsigned long long, "
                "e.g. ~0ull or __activemask()), as in HIP: a 32-bit mask such as 0xffffffff "
                "would leave out lanes 32-63 of a wave64.");
  /* __builtin_amdgcn_wavefrontsize(): a constant the backend folds (clang >= 21 no longer
   * predefines __AMDGCN_WAVEFRONT_SIZE__) */
  unsigned long long m = (unsigned long long)mask;
  return __builtin_amdgcn_wavefrontsize() == 32 ? m & 0xffffffffull : m;
}

template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_sync(MaskT mask, T var, int src_lane,
                                                            int width = warpSize) {
  (void)__hipwb_sync_mask(mask);
  return __shfl(var, src_lane, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_up_sync(MaskT mask, T var,
                                                               unsigned int delta,
                                                               int width = warpSize) {
  (void)__hipwb_sync_mask(mask);
  return __shfl_up(var, delta, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_down_sync(MaskT mask, T var,
                                                                 unsigned int delta,
                                                                 int width = warpSize) {
  (void)__hipwb_sync_mask(mask);
  return __shfl_down(var, delta, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask,
                                                                int width = warpSize) {
  (void)__hipwb_sync_mask(mask);
  return __shfl_xor(var, lane_mask, width);
}
template <typename MaskT>
__attribute__((device, always_inline)) inline unsigned long long __ballot_sync(MaskT mask,
                                                                               int predicate) {
  return __ballot(predicate) & __hipwb_sync_mask(mask);
}
template <typename MaskT>
__attribute__((device, always_inline)) inline int __any_sync(MaskT mask, int predicate) {
  return __ballot_sync(mask, predicate) != 0;
}
template <typename MaskT>
__attribute__((device, always_inline)) inline int __all_sync(MaskT mask, int predicate) {
  return __ballot_sync(mask, predicate) == (__activemask() & __hipwb_sync_mask(mask));
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
__HIPWB_FN_INLINE unsigned int __hipwb_lane_u32(unsigned int v, unsigned int lane) {
  return (unsigned int)__builtin_amdgcn_readlane((int)v, (int)lane);
}
/* Bits of any 4- or 8-byte value as 64 bits (the upper half 0 for 4 bytes). */
template <typename T>
__attribute__((device, always_inline)) inline unsigned long long __hipwb_bits64(T v) {
  if constexpr (sizeof(T) == 4) {
    unsigned int b;
    __builtin_memcpy(&b, &v, 4);
    return b;
  } else {
    unsigned long long b;
    __builtin_memcpy(&b, &v, 8);
    return b;
  }
}
template <typename T>
__attribute__((device, always_inline)) inline T __hipwb_from_bits64(unsigned long long b) {
  T v;
  if constexpr (sizeof(T) == 4) {
    unsigned int w = (unsigned int)b;
    __builtin_memcpy(&v, &w, 4);
  } else {
    __builtin_memcpy(&v, &b, 8);
  }
  return v;
}
/* Lane `lane`'s value of a 4- or 8-byte T, as 32-bit readlanes. */
template <typename T>
__attribute__((device, always_inline)) inline T __hipwb_lane_value(T v, unsigned int lane) {
  unsigned long long b = __hipwb_bits64(v);
  unsigned long long lo = __hipwb_lane_u32((unsigned int)b, lane);
  if constexpr (sizeof(T) == 8)
    lo |= (unsigned long long)__hipwb_lane_u32((unsigned int)(b >> 32), lane) << 32;
  return __hipwb_from_bits64<T>(lo);
}
/* __match_*'s equality: == (HIP's), or the same bits (so that a NaN matches itself). */
template <typename T>
__attribute__((device, always_inline)) inline bool __hipwb_match_eq(T a, T b) {
  return a == b || __hipwb_bits64(a) == __hipwb_bits64(b);
}

/* The mask check HIP makes (unless NDEBUG): the mask is not 0 and names exactly the lanes that
 * call with it (`lanes`: EXEC while the group of that mask value runs). A failure is a
 * device-side assertion (hipwb/printf.h) naming the warp-sync function. */
__HIPWB_FN_INLINE void __hipwb_sync_mask_check(unsigned long long mask, unsigned long long lanes,
                                                const char *fn) {
#if defined(NDEBUG)
  (void)mask, (void)lanes, (void)fn;
#else
  if (mask == 0 || mask != lanes)
    __assert_fail("mask == the lanes calling with it (HIP's rule: no inactive lane, no lane "
                  "calling with another mask, not 0)",
                  "hipwb/warp.h", __LINE__, fn);
#endif
}

/* Runs body(group) once per distinct mask value among the calling lanes, with EXEC = the lanes
 * holding that value (`group`, wave-uniform inside body). */
template <typename Body>
__attribute__((device, always_inline)) inline void __hipwb_sync_groups(unsigned long long mask,
                                                                       const char *fn,
                                                                       Body body) {
  bool done = false;
  while (__ballot(!done) != 0) {
    if (!done) {
      unsigned long long chosen =
          (unsigned long long)(unsigned int)__builtin_amdgcn_readfirstlane((int)mask) |
          (unsigned long long)(unsigned int)__builtin_amdgcn_readfirstlane((int)(mask >> 32))
              << 32;
      if (mask == chosen) {
        __hipwb_sync_mask_check(chosen, __activemask(), fn);
        body(chosen);
        done = true;
      }
    }
  }
}

/* op over the values of the lanes of `group` (all active here), in lane order. */
template <typename T, typename Op>
__attribute__((device, always_inline)) inline T __hipwb_group_reduce(unsigned long long group,
                                                                     T v, Op op) {
  unsigned long long rest = group;
  unsigned int lane = (unsigned int)__builtin_ctzll(rest);
  T acc = __hipwb_lane_value(v, lane);
  rest &= rest - 1;
  while (rest != 0) {
    lane = (unsigned int)__builtin_ctzll(rest);
    acc = op(acc, __hipwb_lane_value(v, lane));
    rest &= rest - 1;
  }
  return acc;
}

template <typename MaskT, typename T, typename Op>
__attribute__((device, always_inline)) inline T __hipwb_reduce_sync(MaskT mask, T v, Op op,
                                                                    const char *fn) {
  unsigned long long m = __hipwb_sync_mask(mask);
  T result = v;
  __hipwb_sync_groups(m, fn, [&](unsigned long long group) {
    result = __hipwb_group_reduce(group, v, op);
  });
  return result;
}

#define __HIPWB_REDUCE_SYNC(NAME, TYPE, EXPR)                                                     \
  template <typename MaskT>                                                                       \
  __attribute__((device, always_inline)) inline TYPE NAME(MaskT mask, TYPE val) {                 \
    return __hipwb_reduce_sync(                                                                   \
        mask, val, [](TYPE a, TYPE b) -> TYPE { return EXPR; }, #NAME);                           \
  }
__HIPWB_REDUCE_SYNC(__reduce_add_sync, int, (int)((unsigned int)a + (unsigned int)b))
__HIPWB_REDUCE_SYNC(__reduce_add_sync, unsigned int, a + b)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, int, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, unsigned int, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, int, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, unsigned int, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, unsigned int, a & b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, unsigned int, a | b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, unsigned int, a ^ b)
#if defined(HIP_ENABLE_EXTRA_WARP_SYNC_TYPES)
/* HIP's opt-in types (amd_warp_sync_functions.h, under the same macro). Floating-point sums are
 * taken in lane order here (HIP's tree may round differently). */
__HIPWB_REDUCE_SYNC(__reduce_add_sync, long long, (long long)((unsigned long long)a + b))
__HIPWB_REDUCE_SYNC(__reduce_add_sync, unsigned long long, a + b)
__HIPWB_REDUCE_SYNC(__reduce_add_sync, float, a + b)
__HIPWB_REDUCE_SYNC(__reduce_add_sync, double, a + b)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, long long, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, unsigned long long, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, float, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_min_sync, double, b < a ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, long long, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, unsigned long long, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, float, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_max_sync, double, a < b ? b : a)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, int, a & b)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, long long, a & b)
__HIPWB_REDUCE_SYNC(__reduce_and_sync, unsigned long long, a & b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, int, a | b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, long long, a | b)
__HIPWB_REDUCE_SYNC(__reduce_or_sync, unsigned long long, a | b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, int, a ^ b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, long long, a ^ b)
__HIPWB_REDUCE_SYNC(__reduce_xor_sync, unsigned long long, a ^ b)
#endif
#undef __HIPWB_REDUCE_SYNC

template <typename T>
__attribute__((device, always_inline)) inline void __hipwb_match_type_check() {
  static_assert((__is_integral(T) || __is_floating_point(T)) && (sizeof(T) == 4 || sizeof(T) == 8),
                "__match_any_sync/__match_all_sync take int, unsigned int, long, unsigned long, "
                "long long, unsigned long long, float or double (as in HIP)");
}

template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline unsigned long long __match_any_sync(MaskT mask,
                                                                                  T value) {
  __hipwb_match_type_check<T>();
  unsigned long long m = __hipwb_sync_mask(mask), result = 0;
  __hipwb_sync_groups(m, "__match_any_sync", [&](unsigned long long group) {
    /* one round per distinct value: the first unserved lane's value and all lanes equal to it */
    unsigned long long rest = group & __activemask(); /* (only differs with NDEBUG and a bad mask) */
    while (rest != 0) {
      T first = __hipwb_lane_value(value, (unsigned int)__builtin_ctzll(rest));
      bool same = __hipwb_match_eq(value, first);
      unsigned long long peers = __ballot(same);
      if (same) result = peers;
      rest &= ~peers;
    }
  });
  return result;
}

template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline unsigned long long __match_all_sync(MaskT mask,
                                                                                  T value,
                                                                                  int *pred) {
  __hipwb_match_type_check<T>();
  unsigned long long m = __hipwb_sync_mask(mask), result = 0;
  __hipwb_sync_groups(m, "__match_all_sync", [&](unsigned long long group) {
    T first = __hipwb_lane_value(value, (unsigned int)__builtin_ctzll(group));
    result = __ballot(__hipwb_match_eq(value, first)) == group ? group : 0ull;
  });
  *pred = result != 0;
  return result;
}

/* HIP's mask-less forms: the lanes running here are the mask. */
template <typename T>
__attribute__((device, always_inline)) inline unsigned long long __match_any(T value) {
  return __match_any_sync(__activemask(), value);
}
template <typename T>
__attribute__((device, always_inline)) inline unsigned long long __match_all(T value, int *pred) {
  return __match_all_sync(__activemask(), value, pred);
}

#endif /* HIPWB_WARP_H */
