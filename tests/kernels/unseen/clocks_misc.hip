// Timing a loop with clock64()/wall_clock64(), uniform arrays indexed at run time, and a few
// integer idioms that select less common instructions.
#include <hip/hip_runtime.h>

__global__ void timed_loop(const float* x, float* y, long long* cycles, long long* ticks, int iters) {
  long long c0 = clock64();
  long long t0 = wall_clock64();
  float v = x[threadIdx.x];
  for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
  y[threadIdx.x] = v;
  long long c1 = clock64();
  long long t1 = wall_clock64();
  if (threadIdx.x == 0) { cycles[0] = c1 - c0; ticks[0] = t1 - t0; }
}

// a uniform table indexed by a uniform run-time value: LLVM may keep it in SGPRs
__global__ void uniform_table(const int* sel, int* out, int a, int b, int c, int d) {
  int t[4] = {a, b, c, d};
  int s = sel[0] & 3;
  out[threadIdx.x] = t[s] + t[(s + 1) & 3] * 10 + (int)threadIdx.x;
}

__global__ void xor3_sad(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) {
  int i = threadIdx.x;
  out[3 * i + 0] = a[i] ^ b[i] ^ c[i];
  out[3 * i + 1] = __usad(a[i], b[i], c[i] & 0xFFFF);
  out[3 * i + 2] = (a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]) + (c[i] >> 8);
}

__global__ void short_med3(const short* a, const short* b, short* out) {
  int i = threadIdx.x;
  short lo = -100, hi = 100;
  short v = a[i] + b[i];
  out[i] = v < lo ? lo : (v > hi ? hi : v);
}
