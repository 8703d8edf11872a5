// printf from a kernel, and grid-stride loops with more work than threads.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void hello(int tag, float f) {
  if (threadIdx.x < 2)
    printf("block %d thread %d tag=%d f=%.2f name=%s\n", (int)blockIdx.x, (int)threadIdx.x, tag, f, "hip");
}

__global__ void saxpy_grid_stride(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void count_grid_stride(const int* x, size_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    local += (x[i] % 7 == 0);
  atomicAdd(count, local);
}
