/* hipwb/warp.h — wave-level operations: lane id, vote (ballot/any/all), shuffles.
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
 * The *_sync variants (CUDA 9 style, mask first) behave the same: a wave runs in lock-step, the
 * mask only documents which lanes take part.
 */
#ifndef HIPWB_WARP_H
#define HIPWB_WARP_H

#include "config.h"
#include "coordinates.h"
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

template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_sync(MaskT, T var, int src_lane,
                                                            int width = warpSize) {
  return __shfl(var, src_lane, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_up_sync(MaskT, T var, unsigned int delta,
                                                               int width = warpSize) {
  return __shfl_up(var, delta, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_down_sync(MaskT, T var, unsigned int delta,
                                                                 int width = warpSize) {
  return __shfl_down(var, delta, width);
}
template <typename MaskT, typename T>
__attribute__((device, always_inline)) inline T __shfl_xor_sync(MaskT, T var, int lane_mask,
                                                                int width = warpSize) {
  return __shfl_xor(var, lane_mask, width);
}
template <typename MaskT>
__attribute__((device, always_inline)) inline unsigned long long __ballot_sync(MaskT mask,
                                                                               int predicate) {
  return __ballot(predicate) & (unsigned long long)mask;
}
template <typename MaskT>
__attribute__((device, always_inline)) inline int __any_sync(MaskT mask, int predicate) {
  return __ballot_sync(mask, predicate) != 0;
}
template <typename MaskT>
__attribute__((device, always_inline)) inline int __all_sync(MaskT mask, int predicate) {
  return __ballot_sync(mask, predicate) == (__activemask() & (unsigned long long)mask);
}

#endif /* HIPWB_WARP_H */
