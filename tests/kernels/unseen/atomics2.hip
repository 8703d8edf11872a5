// More atomics: double and 64-bit integer atomics, float atomics in LDS, atomicExch on floats,
// and a __constant__ lookup table.
#include <hip/hip_runtime.h>

__constant__ float coef[8];

__global__ void atomics64(const double* x, const long long* v, double* dsum,
                          unsigned long long* usum, long long* mn, unsigned long long* mx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(dsum, x[i]);
    atomicAdd(usum, (unsigned long long)(v[i] & 0xFFFF));
    atomicMin(mn, v[i]);
    atomicMax(mx, (unsigned long long)v[i]);
  }
}

__global__ void lds_float_atomics(const float* x, float* out, float* last) {
  __shared__ float acc[4];
  __shared__ float slot;
  if (threadIdx.x < 4) acc[threadIdx.x] = 0.f;
  if (threadIdx.x == 0) slot = -1.f;
  __syncthreads();
  atomicAdd(&acc[threadIdx.x % 4], x[threadIdx.x]);
  if (threadIdx.x == 77) atomicExch(&slot, x[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x < 4) out[threadIdx.x] = acc[threadIdx.x];
  if (threadIdx.x == 0) *last = slot;
}

__global__ void poly_constant(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coef[k];
    y[i] = acc;
  }
}

// every thread swaps its value into one LDS slot (atomic exchanges race by design) and keeps
// what it took out: the values taken out plus the last one left are all of them
__global__ void lds_exchange_chain(const int* x, int* got, int* last) {
  __shared__ int slot;
  if (threadIdx.x == 0) slot = -1;
  __syncthreads();
  got[threadIdx.x] = atomicExch(&slot, x[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) *last = slot;
}
