// Prefix scans in one block: Hillis-Steele (double buffered) and Blelloch (work efficient).
#include <hip/hip_runtime.h>

__global__ void hillis_steele(const int* in, int* out, int n) {
  extern __shared__ int buf[];  // 2 * n ints
  int t = threadIdx.x;
  int pout = 0, pin = 1;
  buf[t] = in[t];
  __syncthreads();
  for (int off = 1; off < n; off <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= off) buf[pout * n + t] = buf[pin * n + t] + buf[pin * n + t - off];
    else buf[pout * n + t] = buf[pin * n + t];
    __syncthreads();
  }
  out[t] = buf[pout * n + t];  // inclusive
}

#define SCAN_N 512
__global__ void blelloch(const float* in, float* out) {
  __shared__ float temp[SCAN_N];
  int t = threadIdx.x;  // SCAN_N / 2 threads
  temp[2 * t] = in[2 * t];
  temp[2 * t + 1] = in[2 * t + 1];
  int offset = 1;
  for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[SCAN_N - 1] = 0;
  for (int d = 1; d < SCAN_N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      float x = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += x;
    }
  }
  __syncthreads();
  out[2 * t] = temp[2 * t];  // exclusive
  out[2 * t + 1] = temp[2 * t + 1];
}
