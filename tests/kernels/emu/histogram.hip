// 64-bin histogram: LDS atomics per block, then global atomics; also a global float atomicAdd
// and an atomic counter whose returned values are all distinct.
extern "C" __global__ void histogram(const unsigned* x, unsigned* hist, float* fsum, int* slots,
                                     int* counter, int n) {
  __shared__ unsigned h[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t < 64) h[t] = 0;
  __syncthreads();
  if (i < n) {
    atomicAdd(&h[x[i] & 63], 1u);
    atomicAdd(fsum, 1.0f);
    slots[i] = atomicAdd(counter, 1);
  }
  __syncthreads();
  if (t < 64) atomicAdd(&hist[t], h[t]);
}

// LDS min/max/or atomics with returned values.
extern "C" __global__ void lds_atomics(const int* x, int* out) {
  __shared__ int mn, mx, orv;
  int t = threadIdx.x;
  if (t == 0) { mn = 2147483647; mx = -2147483647 - 1; orv = 0; }
  __syncthreads();
  atomicMin(&mn, x[t]);
  atomicMax(&mx, x[t]);
  atomicOr(&orv, 1 << (t & 31));
  __syncthreads();
  if (t == 0) { out[0] = mn; out[1] = mx; out[2] = orv; }
}
