// Per-lane loop trip counts (Collatz steps): waves diverge inside and between waves.
extern "C" __global__ void collatz(const unsigned* x, int* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = x[i];
  int s = 0;
  while (v != 1 && s < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    s++;
  }
  steps[i] = s;
}

// Nested divergent branches with early exit and a barrier after reconvergence.
extern "C" __global__ void branchy(const int* x, int* y) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int v = x[blockIdx.x * 128 + t];
  if (v % 3 == 0) {
    v = v * 2;
    if (v % 4 == 0) v += 7; else v -= 1;
  } else if (v % 3 == 1) {
    for (int k = 0; k < (v & 7); k++) v ^= k * 13;
  } else {
    v = -v;
  }
  s[t] = v;
  __syncthreads();
  y[blockIdx.x * 128 + t] = s[127 - t] + v;
}
