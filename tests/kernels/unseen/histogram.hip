// Histograms: privatised in LDS then merged with global atomics, and straight global atomics.
#include <hip/hip_runtime.h>

#define NBINS 64
__global__ void hist_lds(const unsigned char* data, unsigned int* bins, int n) {
  __shared__ unsigned int local[NBINS];
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % NBINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < NBINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__global__ void hist_global(const int* keys, int* bins, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(bins + (keys[i] % nbins), 1);
}

__global__ void atomics_mix(const int* v, int* mx, int* mn, unsigned* orv, unsigned* andv,
                            int* xch, unsigned* inc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(mx, v[i]);
    atomicMin(mn, v[i]);
    atomicOr(orv, 1u << (v[i] & 31));
    atomicAnd(andv, ~(1u << (v[i] & 31)));
    atomicSub(xch, 1);
    atomicInc(inc, 16u);  // wraps to 0 after 16
  }
}
