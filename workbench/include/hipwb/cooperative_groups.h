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

#define __HIPWB_CG __attribute__((device, always_inline)) inline

class thread_group {
 public:
  __HIPWB_CG thread_group(unsigned int size, unsigned int rank) : size_(size), rank_(rank) {}
  __HIPWB_CG unsigned int size() const { return size_; }
  __HIPWB_CG unsigned int num_threads() const { return size_; }
  __HIPWB_CG unsigned int thread_rank() const { return rank_; }
  __HIPWB_CG bool is_valid() const { return size_ != 0; }
  /* a tile of a wave needs no barrier beyond the wave's lock step; a group wider than a wave
   * is a whole block here (tiled_partition of a block into > wave-size pieces), so s_barrier */
  __HIPWB_CG void sync() const {
    if (size_ > (unsigned int)warpSize)
      __syncthreads();
    else
      __builtin_amdgcn_wave_barrier();
  }

 protected:
  unsigned int size_, rank_;
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
    unsigned long long block = (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) *
                                   gridDim.x + blockIdx.x;
    return block * thread_block::size() + thread_block::thread_rank();
  }
  __HIPWB_CG static bool is_valid() { return true; }
  __attribute__((device)) void sync() const =
      delete("grid-wide sync needs a cooperative launch (hipLaunchCooperativeKernel), which "
             "the workbench does not make; split the kernel at the grid barrier");
};

__HIPWB_CG grid_group this_grid() { return grid_group(); }

template <unsigned int N>
class thread_block_tile {
  static_assert(N != 0 && (N & (N - 1)) == 0 && N <= 64,
                "thread_block_tile<N>: N must be a power of two no larger than the wave size");

  __HIPWB_CG static unsigned int first_lane() { return __lane_id() & ~(N - 1); }
  __HIPWB_CG static unsigned long long lanes_mask() {
    return N == 64 ? ~0ull : (((1ull << N) - 1) << first_lane());
  }

 public:
  __HIPWB_CG static unsigned int size() { return N; }
  __HIPWB_CG static unsigned int num_threads() { return N; }
  __HIPWB_CG static unsigned int thread_rank() { return thread_block::thread_rank() & (N - 1); }
  __HIPWB_CG static unsigned int meta_group_rank() { return thread_block::thread_rank() / N; }
  __HIPWB_CG static unsigned int meta_group_size() { return (thread_block::size() + N - 1) / N; }
  __HIPWB_CG static bool is_valid() { return true; }
  __HIPWB_CG static void sync() { __builtin_amdgcn_wave_barrier(); }
  template <typename T>
  __HIPWB_CG T shfl(T var, int src_rank) const { return __shfl(var, src_rank, (int)N); }
  template <typename T>
  __HIPWB_CG T shfl_up(T var, unsigned int delta) const { return __shfl_up(var, delta, (int)N); }
  template <typename T>
  __HIPWB_CG T shfl_down(T var, unsigned int delta) const {
    return __shfl_down(var, delta, (int)N);
  }
  template <typename T>
  __HIPWB_CG T shfl_xor(T var, unsigned int mask) const { return __shfl_xor(var, mask, (int)N); }
  /* bit i = the predicate of the tile's thread i */
  __HIPWB_CG unsigned long long ballot(int pred) const {
    return (__ballot(pred) & lanes_mask()) >> first_lane();
  }
  __HIPWB_CG int any(int pred) const { return ballot(pred) != 0; }
  __HIPWB_CG int all(int pred) const {
    return ballot(pred) == ((__ballot(1) & lanes_mask()) >> first_lane());
  }
  __HIPWB_CG operator thread_group() const { return thread_group(N, thread_rank()); }
};

template <unsigned int N, typename Parent>
__HIPWB_CG thread_block_tile<N> tiled_partition(const Parent &) {
  return thread_block_tile<N>();
}

/* a dynamic partition of the block into tiles of n threads (n a power of two) */
__HIPWB_CG thread_group tiled_partition(const thread_block &, unsigned int n) {
  return thread_group(n, thread_block::thread_rank() % n);
}
__HIPWB_CG thread_group tiled_partition(const thread_group &g, unsigned int n) {
  return thread_group(n, g.thread_rank() % n);
}

class coalesced_group {
 public:
  __HIPWB_CG coalesced_group() : mask_(__activemask()) {}
  __HIPWB_CG unsigned int size() const { return (unsigned int)__builtin_popcountll(mask_); }
  __HIPWB_CG unsigned int num_threads() const { return size(); }
  __HIPWB_CG unsigned int thread_rank() const {
    unsigned int lane = __lane_id();
    unsigned long long below = lane == 0 ? 0ull : (mask_ & (~0ull >> (64 - lane)));
    return (unsigned int)__builtin_popcountll(below);
  }
  __HIPWB_CG bool is_valid() const { return mask_ != 0; }
  __HIPWB_CG void sync() const { __builtin_amdgcn_wave_barrier(); }
  __HIPWB_CG unsigned long long ballot(int pred) const { return __ballot(pred) & mask_; }
  __HIPWB_CG int any(int pred) const { return ballot(pred) != 0; }
  __HIPWB_CG int all(int pred) const { return ballot(pred) == mask_; }
  __HIPWB_CG operator thread_group() const { return thread_group(size(), thread_rank()); }

 private:
  unsigned long long mask_;
};

__HIPWB_CG coalesced_group coalesced_threads() { return coalesced_group(); }

template <typename G>
__HIPWB_CG void sync(const G &g) { g.sync(); }
template <typename G>
__HIPWB_CG auto thread_rank(const G &g) -> decltype(g.thread_rank()) { return g.thread_rank(); }
template <typename G>
__HIPWB_CG auto group_size(const G &g) -> decltype(g.size()) { return g.size(); }

template <typename T> struct plus { __HIPWB_CG T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less {
  __HIPWB_CG T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
  __HIPWB_CG T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and { __HIPWB_CG T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or { __HIPWB_CG T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { __HIPWB_CG T operator()(T a, T b) const { return a ^ b; } };

/* every thread of the tile gets op over the tile's values (butterfly of shfl_xor) */
template <unsigned int N, typename T, typename Op>
__HIPWB_CG T reduce(const thread_block_tile<N> &tile, T value, Op op) {
#pragma unroll
  for (unsigned int m = N / 2; m > 0; m /= 2) value = op(value, tile.shfl_xor(value, m));
  return value;
}

#undef __HIPWB_CG

} // namespace cooperative_groups

#endif /* HIPWB_COOPERATIVE_GROUPS_H */
