// Step 4 — online softmax: one pass computes the max and the sum together (a running max m and a
// running sum s rescaled by exp(m_old - m_new) when the max grows; Milakov & Gimelshein,
// "Online normalizer calculation for softmax", arXiv 1805.02867). x is read twice instead of three
// times; every lane keeps its own (m, s) and the wave merges them once at the end (wave_online:
// the wave's max, then each lane's sum rescaled to it, then the wave's sum). One wave per row as in
// step 3; on AMD the reductions are the DPP all-reduce, elsewhere __shfl_xor.
#include "softmax_common.h"

#define BLOCK 256

// Launch: softmax_online[ceil(rows / (256 / warpSize)), 256](x, y, rows, cols)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_online(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  int lane = threadIdx.x % warpSize;
  int r = blockIdx.x * (BLOCK / warpSize) + threadIdx.x / warpSize;
  if (r >= rows) return;
  const float* xr = x + (long)r * cols;
  float* yr = y + (long)r * cols;
  Online st = {SM_NEG_INF, 0.0f};
  for (int c = lane; c < cols; c += warpSize) st = online_add(st, xr[c]);
  st = wave_online(st);
  float inv = 1.0f / st.s;
  for (int c = lane; c < cols; c += warpSize) yr[c] = expf(xr[c] - st.m) * inv;
}
