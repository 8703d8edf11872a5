// Wave-level reductions as people write them: shuffles, ballots, active masks.
#include <hip/hip_runtime.h>

__global__ void wave_sum_shfl_down(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
  if ((threadIdx.x & (warpSize - 1)) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}

__global__ void wave_max_shfl_xor(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int mask = 1; mask < warpSize; mask <<= 1) v = max(v, __shfl_xor(v, mask));
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;  // every lane holds its wave's max
}

__global__ void ballot_count(const float* in, unsigned* counts, unsigned long long* masks, float thr) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = __ballot(in[gid] > thr);
  int lane = __lane_id();
  if (lane == 0) {
    counts[gid / warpSize] = __popcll(b);
    masks[gid / warpSize] = b;
  }
}

__global__ void active_lanes(const int* in, unsigned* active, int* firsts) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[gid] & 1) {  // only odd entries take part
    unsigned long long m = __activemask();
    int leader = __ffsll((long long)m) - 1;
    int first = __shfl(in[gid], leader);
    if (__lane_id() == leader) {
      active[gid / warpSize] = __popcll(m);
      firsts[gid / warpSize] = first;
    }
  }
}

__global__ void shfl_up_scan(const int* in, int* out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    int t = __shfl_up(v, d);
    if (lane >= d) v += t;
  }
  out[gid] = v;  // inclusive scan within the wave
}

__global__ void any_all(const int* in, int* out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int a = __any(in[gid] > 100);
  int b = __all(in[gid] >= 0);
  if (threadIdx.x % warpSize == 0) {
    out[2 * (gid / warpSize)] = a;
    out[2 * (gid / warpSize) + 1] = b;
  }
}
