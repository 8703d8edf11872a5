// Block-wide votes, the "last block finishes the reduction" pattern with __threadfence, and
// cooperative groups (thread_block, tiled_partition, coalesced groups).
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void votes(const int* x, int* out) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int cnt = __syncthreads_count(v > 0);
  int all = __syncthreads_and(v > -50);
  int any = __syncthreads_or(v > 90);
  if (threadIdx.x == 0) { out[3 * blockIdx.x] = cnt; out[3 * blockIdx.x + 1] = all; out[3 * blockIdx.x + 2] = any; }
}

__device__ unsigned int retirement = 0;

__global__ void sum_last_block(const float* x, float* partial, float* total, int n) {
  __shared__ float s[128];
  __shared__ bool last;
  float v = 0.f;
  for (int i = blockIdx.x * 128 + threadIdx.x; i < n; i += 128 * gridDim.x) v += x[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int st = 64; st > 0; st >>= 1) { if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st]; __syncthreads(); }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(&retirement, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    float t = 0.f;
    for (int b = threadIdx.x; b < gridDim.x; b += 128) t += partial[b];
    s[threadIdx.x] = t;
    __syncthreads();
    for (int st = 64; st > 0; st >>= 1) { if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st]; __syncthreads(); }
    if (threadIdx.x == 0) { *total = s[0]; retirement = 0; }
  }
}

__global__ void cg_tiles(const int* x, int* tile_sums, int* block_sum) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int v = x[block.thread_rank()];
  int s = v;
  for (int o = tile.size() / 2; o > 0; o /= 2) s += tile.shfl_down(s, o);
  if (tile.thread_rank() == 0) tile_sums[block.thread_rank() / 16] = s;
  __shared__ int acc;
  if (block.thread_rank() == 0) acc = 0;
  block.sync();
  atomicAdd(&acc, v);
  block.sync();
  if (block.thread_rank() == 0) *block_sum = acc;
}

__global__ void cg_coalesced(const int* x, int* out) {
  int v = x[threadIdx.x];
  if (v % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = g.thread_rank() * 1000 + (int)g.size();
  } else {
    out[threadIdx.x] = -1;
  }
}

__global__ void shfl_width(const int* x, int* sum8, int* bcast) {
  int v = x[threadIdx.x];
  int s = v;
  for (int o = 4; o > 0; o /= 2) s += __shfl_xor(s, o, 8);  // sums within groups of 8 lanes
  sum8[threadIdx.x] = s;
  bcast[threadIdx.x] = __shfl(v, 3, 16);                   // lane 3 of each 16-lane group
}
