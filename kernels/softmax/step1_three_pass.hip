// Step 1 — three kernels: row max, row sum of exp(x - max), normalise.
// The textbook formula, one kernel per line of it (as an unfused framework would run it):
//   m[r] = max_c x[r,c];  s[r] = sum_c exp(x[r,c] - m[r]);  y[r,c] = exp(x[r,c] - m[r]) / s[r]
// The first two kernels give one thread a whole row (neighbouring threads read addresses one row
// apart: no coalescing); the third is one thread per element. x is read three times, m and s
// make a round trip through global memory. Triton's fused-softmax tutorial counts this traffic
// for the unfused PyTorch version (triton-lang/triton python/tutorials/02-fused-softmax.py).
#include "softmax_common.h"

// Launch: row_max[ceil(rows / 256), 256](x, m, rows, cols)
extern "C" __global__ void __launch_bounds__(256)
row_max(const float* __restrict__ x, float* __restrict__ m, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + (long)r * cols;
  float v = SM_NEG_INF;
  for (int c = 0; c < cols; ++c) v = fmaxf(v, xr[c]);
  m[r] = v;
}

// Launch: row_expsum[ceil(rows / 256), 256](x, m, s, rows, cols)
extern "C" __global__ void __launch_bounds__(256)
row_expsum(const float* __restrict__ x, const float* __restrict__ m, float* __restrict__ s,
           int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* xr = x + (long)r * cols;
  float mr = m[r], acc = 0.0f;
  for (int c = 0; c < cols; ++c) acc += expf(xr[c] - mr);
  s[r] = acc;
}

// Launch: normalise[ceil(rows * cols / 256), 256](x, m, s, y, rows, cols)
extern "C" __global__ void __launch_bounds__(256)
normalise(const float* __restrict__ x, const float* __restrict__ m, const float* __restrict__ s,
          float* __restrict__ y, int rows, int cols) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long)rows * cols) return;
  int r = (int)(i / cols);
  y[i] = expf(x[i] - m[r]) / s[r];
}
