// A block-sum reduction written the way HIP code for ROCm is written: it must compile unchanged
// against the offline prelude on every target (tests/prelude/test_prelude.py).
#include <hip/hip_runtime.h>

__device__ inline float warp_reduce_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

extern "C" __global__ void __launch_bounds__(256)
block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float partial[256 / 32];  // one slot per wave, enough for wave32 and wave64
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_reduce_sum(v);
  int lane = threadIdx.x % warpSize;
  int wave = threadIdx.x / warpSize;
  if (lane == 0) partial[wave] = v;
  __syncthreads();
  if (wave == 0) {
    int waves = (blockDim.x + warpSize - 1) / warpSize;
    v = lane < waves ? partial[lane] : 0.0f;
    v = warp_reduce_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

// Same body without __launch_bounds__: clang then assumes up to 1024 threads per block.
extern "C" __global__ void block_sum_unbounded(const float* in, float* out, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float v = warp_reduce_sum(i < n ? in[i] : 0.0f);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
