// Block reductions through LDS with __syncthreads, and a two-level (wave + LDS) one.
#include <hip/hip_runtime.h>

template <int BLOCK>
__global__ void block_sum_tree(const float* in, float* out, int n) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) acc += in[i];
  s[tid] = acc;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
template __global__ void block_sum_tree<256>(const float*, float*, int);
template __global__ void block_sum_tree<128>(const float*, float*, int);

__device__ inline double warp_reduce(double v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
  return v;
}

__global__ void block_sum_two_level(const double* in, double* out, int n) {
  __shared__ double partial[32];
  double v = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = warp_reduce(v);
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  int nwaves = (blockDim.x + warpSize - 1) / warpSize;
  v = (threadIdx.x < nwaves) ? partial[threadIdx.x] : 0.0;
  if (wid == 0) v = warp_reduce(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}
