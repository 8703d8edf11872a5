// Data that lives in the code object: a static const table (.rodata), __constant__ and
// __device__ variables (.data/.bss), and a pointer table initialised with addresses of other
// globals (R_AMDGPU_RELATIVE64 relocations).
__constant__ float table[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
__device__ int hits;
__device__ const float* const picks[2] = {&table[1], &table[6]};

__device__ float lookup(const float* t, int k) { return t[k & 7]; }

extern "C" __global__ void tables(const int* idx, float* out, int* total) {
  static const unsigned primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = idx[i];
  out[3 * i] = lookup(table, k);
  out[3 * i + 1] = (float)primes[k & 15];
  out[3 * i + 2] = *picks[k & 1];
  atomicAdd(&hits, 1);
  __syncthreads();
  if (i == 0) *total = hits;
}

extern "C" __global__ void pc(unsigned long long* out) {
  unsigned long long p;
  asm volatile("s_getpc_b64 %0" : "=s"(p));
  out[threadIdx.x] = p;
}
