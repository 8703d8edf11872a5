// Declarations people copy from CUDA code: __align__ on dynamic shared memory, templates on an
// enum class picked by name, a __device__ counter read back from Python.
#include <hip/hip_runtime.h>

extern __shared__ __align__(16) float dyn[];
__global__ void dyn_reverse(float* x) {
  dyn[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

enum class Op { Add, Mul };
template <Op O> __device__ float apply(float a, float b) { return O == Op::Add ? a + b : a * b; }
template <Op O>
__global__ void __launch_bounds__(128, 2) binop(const float* a, const float* b, float* c) {
  c[threadIdx.x] = apply<O>(a[threadIdx.x], b[threadIdx.x]);
}
template __global__ void binop<Op::Add>(const float*, const float*, float*);
template __global__ void binop<Op::Mul>(const float*, const float*, float*);

__device__ int hits = 0;
__global__ void count_hits(const int* x) {
  if (x[threadIdx.x] > 0) atomicAdd(&hits, 1);
}
