/* hipwb/shuffle_lanes.h — which lane each shuffle reads: pure integer functions of this lane's
 * index, the shuffle argument and `width` (CUDA semantics, see hipwb/warp.h).
 *
 * Kept apart from warp.h and free of device builtins so that tests/prelude/test_prelude.py can build
 * them for the host and compare them with a numpy model of CUDA's rules for every lane, width
 * and argument. `width` must be a power of two no larger than the wave size.
 * Define __HIPWB_LANES_FN before including to change the function prefix (the host test does).
 */
#ifndef HIPWB_SHUFFLE_LANES_H
#define HIPWB_SHUFFLE_LANES_H

#ifndef __HIPWB_LANES_FN
#include "config.h"
#define __HIPWB_LANES_FN __HIPWB_FN_INLINE
#endif

/* __shfl: lane (src mod width) of this lane's width-segment. */
__HIPWB_LANES_FN int __hipwb_shfl_src_idx(int __self, int __src_lane, int __width) {
  return (__self & ~(__width - 1)) + (__src_lane & (__width - 1));
}
/* __shfl_up: self - delta, or self when that leaves the segment (falls below its start). */
__HIPWB_LANES_FN int __hipwb_shfl_src_up(int __self, unsigned int __delta, int __width) {
  int __src = __self - (int)__delta;
  return __src < (__self & ~(__width - 1)) ? __self : __src;
}
/* __shfl_down: self + delta, or self when that leaves the segment (passes its end). */
__HIPWB_LANES_FN int __hipwb_shfl_src_down(int __self, unsigned int __delta, int __width) {
  return (__self & (__width - 1)) + (int)__delta >= __width ? __self : __self + (int)__delta;
}
/* __shfl_xor: self ^ mask, or self when that lies in a later segment (earlier ones are allowed,
 * as CUDA documents for width < warpSize). */
__HIPWB_LANES_FN int __hipwb_shfl_src_xor(int __self, int __lane_mask, int __width) {
  int __src = __self ^ __lane_mask;
  return __src >= ((__self + __width) & ~(__width - 1)) ? __self : __src;
}

#endif /* HIPWB_SHUFFLE_LANES_H */
