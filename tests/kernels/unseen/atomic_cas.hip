// atomicCAS loops: float max on global memory, and a double add built from CAS.
#include <hip/hip_runtime.h>

__device__ float atomic_max_float(float* addr, float value) {
  int* iaddr = reinterpret_cast<int*>(addr);
  int old = *iaddr, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(iaddr, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void float_max(const float* x, float* result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(result, x[i]);
}

__device__ double cas_add(double* addr, double val) {
  unsigned long long* p = (unsigned long long*)addr;
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__global__ void double_sum_cas(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cas_add(out, x[i]);
}

__global__ void lds_cas_max(const unsigned* x, unsigned* out) {
  __shared__ unsigned m;
  if (threadIdx.x == 0) m = 0;
  __syncthreads();
  unsigned v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned old = m;
  while (old < v) {
    unsigned prev = atomicCAS(&m, old, v);
    if (prev == old) break;
    old = prev;
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}
