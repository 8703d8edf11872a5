/* hipwb/cooperative_groups.h — cooperative groups (namespace cooperative_groups) for one block.
 *
 * What HIP's cooperative groups offer inside a workgroup, on the prelude's primitives:
 *   thread_block this_thread_block()   size, thread_rank, group_index, thread_index, group_dim,
 *                                      dim_threads, num_threads, sync (s_barrier: __syncthreads)
 *   thread_block_tile<N> tiled_partition<N>(g)  N a power of two up to the wave size; a tile is
 *                                      N consecutive lanes of one wave: thread_rank, size,
 *                                      meta_group_rank, meta_group_size, sync, shfl, shfl_up,
 *                                      shfl_down, shfl_xor, ballot, any, all (the wave's lanes
 *                                      run in lock step; __shfl* with width N stay in the tile)
 *   thread_group tiled_partition(g, n) a dynamic tile: size, thread_rank, sync
 *   coalesced_group coalesced_threads() the active lanes of the wave: size, thread_rank, sync,
 *                                      ballot, any, all
 *   grid_group this_grid()             size, thread_rank, is_valid; grid-wide sync() is
 *                                      declared deleted: it needs a cooperative launch
 *                                      (hipLaunchCooperativeKernel), which hipwb does not make
 *   sync(g), thread_rank(g), group_size(g), and the plus/less/greater/bit_and/bit_or/bit_xor
 *   function objects with reduce(tile, value, op) over a thread_block_tile (shfl_xor butterfly)
 * Sources: HIP "Cooperative groups" programming guide and API reference (class and member
 * names); the hardware facts are the prelude's own (hipwb/warp.h, hipwb/sync.h).
 */
#ifndef HIPWB_COOPERATIVE_GROUPS_H
#define HIPWB_COOPERATIVE_GROUPS_H

#include "config.h"
#include "coordinates.h"
#include "sync.h"
#include "warp.h"

namespace cooperative_groups {

#define __HIPWB_CG __device__ __attribute__((__always_inline__)) inline

class thread_group {
 public:
  __HIPWB_CG thread_group(unsigned int __size, unsigned int __rank) : __size_(__size), __rank_(__rank) {}
  __HIPWB_CG unsigned int size() const { return __size_; }
  __HIPWB_CG unsigned int num_threads() const { return __size_; }
  __HIPWB_CG unsigned int thread_rank() const { return __rank_; }
  __HIPWB_CG bool is_valid() const { return __size_ != 0; }
  /* a tile of a wave needs no barrier beyond the wave's lock step; a group wider than a wave
   * is a whole block here (tiled_partition of a block into > wave-size pieces), so s_barrier */
  __HIPWB_CG void sync() const {
    if (__size_ > (unsigned int)warpSize)
      __syncthreads();
    else
      __builtin_amdgcn_wave_barrier();
  }

 protected:
  unsigned int __size_, __rank_;
};

class thread_block {
 public:
  __HIPWB_CG static unsigned int size() { return blockDim.x * blockDim.y * blockDim.z; }
  __HIPWB_CG static unsigned int num_threads() { return size(); }
  __HIPWB_CG static unsigned int thread_rank() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __HIPWB_CG static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __HIPWB_CG static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __HIPWB_CG static dim3 group_dim() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __HIPWB_CG static dim3 dim_threads() { return group_dim(); }
  __HIPWB_CG static bool is_valid() { return true; }
  __HIPWB_CG static void sync() { __syncthreads(); }
  __HIPWB_CG operator thread_group() const { return thread_group(size(), thread_rank()); }
};

__HIPWB_CG thread_block this_thread_block() { return thread_block(); }

class grid_group {
 public:
  __HIPWB_CG static unsigned long long size() {
    return (unsigned long long)thread_block::size() * gridDim.x * gridDim.y * gridDim.z;
  }
  __HIPWB_CG static unsigned long long num_threads() { return size(); }
  __HIPWB_CG static unsigned long long thread_rank() {
    unsigned long long __block = (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) *
                                   gridDim.x + blockIdx.x;
    return __block * thread_block::size() + thread_block::thread_rank();
  }
  __HIPWB_CG static bool is_valid() { return true; }
  __device__ void sync() const =
      delete("grid-wide sync needs a cooperative launch (hipLaunchCooperativeKernel), which "
             "the workbench does not make; split the kernel at the grid barrier");
};

__HIPWB_CG grid_group this_grid() { return grid_group(); }

template <unsigned int __N>
class thread_block_tile {
  static_assert(__N != 0 && (__N & (__N - 1)) == 0 && __N <= 64,
                "thread_block_tile<N>: N must be a power of two no larger than the wave size");

  __HIPWB_CG static unsigned int __first_lane() { return __lane_id() & ~(__N - 1); }
  __HIPWB_CG static unsigned long long __lanes_mask() {
    return __N == 64 ? ~0ull : (((1ull << __N) - 1) << __first_lane());
  }

 public:
  __HIPWB_CG static unsigned int size() { return __N; }
  __HIPWB_CG static unsigned int num_threads() { return __N; }
  __HIPWB_CG static unsigned int thread_rank() { return thread_block::thread_rank() & (__N - 1); }
  __HIPWB_CG static unsigned int meta_group_rank() { return thread_block::thread_rank() / __N; }
  __HIPWB_CG static unsigned int meta_group_size() { return (thread_block::size() + __N - 1) / __N; }
  __HIPWB_CG static bool is_valid() { return true; }
  __HIPWB_CG static void sync() { __builtin_amdgcn_wave_barrier(); }
  template <typename __T>
  __HIPWB_CG __T shfl(__T __var, int __src_rank) const { return __shfl(__var, __src_rank, (int)__N); }
  template <typename __T>
  __HIPWB_CG __T shfl_up(__T __var, unsigned int __delta) const { return __shfl_up(__var, __delta, (int)__N); }
  template <typename __T>
  __HIPWB_CG __T shfl_down(__T __var, unsigned int __delta) const {
    return __shfl_down(__var, __delta, (int)__N);
  }
  template <typename __T>
  __HIPWB_CG __T shfl_xor(__T __var, unsigned int __mask) const { return __shfl_xor(__var, __mask, (int)__N); }
  /* bit i = the predicate of the tile's thread i */
  __HIPWB_CG unsigned long long ballot(int __pred) const {
    return (__ballot(__pred) & __lanes_mask()) >> __first_lane();
  }
  __HIPWB_CG int any(int __pred) const { return ballot(__pred) != 0; }
  __HIPWB_CG int all(int __pred) const {
    return ballot(__pred) == ((__ballot(1) & __lanes_mask()) >> __first_lane());
  }
  __HIPWB_CG operator thread_group() const { return thread_group(__N, thread_rank()); }
};

template <unsigned int __N, typename __Parent>
__HIPWB_CG thread_block_tile<__N> tiled_partition(const __Parent &) {
  return thread_block_tile<__N>();
}

/* a dynamic partition of the block into tiles of n threads (n a power of two) */
__HIPWB_CG thread_group tiled_partition(const thread_block &, unsigned int __n) {
  return thread_group(__n, thread_block::thread_rank() % __n);
}
__HIPWB_CG thread_group tiled_partition(const thread_group &__g, unsigned int __n) {
  return thread_group(__n, __g.thread_rank() % __n);
}

class coalesced_group {
 public:
  __HIPWB_CG coalesced_group() : __mask_(__activemask()) {}
  __HIPWB_CG unsigned int size() const { return (unsigned int)__builtin_popcountll(__mask_); }
  __HIPWB_CG unsigned int num_threads() const { return size(); }
  __HIPWB_CG unsigned int thread_rank() const {
    unsigned int __lane = __lane_id();
    unsigned long long __below = __lane == 0 ? 0ull : (__mask_ & (~0ull >> (64 - __lane)));
    return (unsigned int)__builtin_popcountll(__below);
  }
  __HIPWB_CG bool is_valid() const { return __mask_ != 0; }
  __HIPWB_CG void sync() const { __builtin_amdgcn_wave_barrier(); }
  __HIPWB_CG unsigned long long ballot(int __pred) const { return __ballot(__pred) & __mask_; }
  __HIPWB_CG int any(int __pred) const { return ballot(__pred) != 0; }
  __HIPWB_CG int all(int __pred) const { return ballot(__pred) == __mask_; }
  __HIPWB_CG operator thread_group() const { return thread_group(size(), thread_rank()); }

 private:
  unsigned long long __mask_;
};

__HIPWB_CG coalesced_group coalesced_threads() { return coalesced_group(); }

template <typename __G>
__HIPWB_CG void sync(const __G &__g) { __g.sync(); }
template <typename __G>
__HIPWB_CG auto thread_rank(const __G &__g) -> decltype(__g.thread_rank()) { return __g.thread_rank(); }
template <typename __G>
__HIPWB_CG auto group_size(const __G &__g) -> decltype(__g.size()) { return __g.size(); }

template <typename __T> struct plus { __HIPWB_CG __T operator()(__T __a, __T __b) const { return __a + __b; } };
template <typename __T> struct less {
  __HIPWB_CG __T operator()(__T __a, __T __b) const { return __b < __a ? __b : __a; }
};
template <typename __T> struct greater {
  __HIPWB_CG __T operator()(__T __a, __T __b) const { return __a < __b ? __b : __a; }
};
template <typename __T> struct bit_and { __HIPWB_CG __T operator()(__T __a, __T __b) const { return __a & __b; } };
template <typename __T> struct bit_or { __HIPWB_CG __T operator()(__T __a, __T __b) const { return __a | __b; } };
template <typename __T> struct bit_xor { __HIPWB_CG __T operator()(__T __a, __T __b) const { return __a ^ __b; } };

/* every thread of the tile gets op over the tile's values (butterfly of shfl_xor) */
template <unsigned int __N, typename __T, typename __Op>
__HIPWB_CG __T reduce(const thread_block_tile<__N> &__tile, __T __value, __Op __op) {
#pragma unroll
  for (unsigned int __m = __N / 2; __m > 0; __m /= 2) __value = __op(__value, __tile.shfl_xor(__value, __m));
  return __value;
}

#undef __HIPWB_CG

} // namespace cooperative_groups

#endif /* HIPWB_COOPERATIVE_GROUPS_H */
