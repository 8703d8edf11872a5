// Step 2 — one workgroup per row, fused: the three kernels of step 1 become three loops of one
// kernel, the max and the sum are reduced through LDS (a tree: 256 -> 128 -> ... -> 1 with a
// barrier per level), m and s never leave the chip. Every thread strides over the row, so a
// wave's 64 loads are 64 consecutive floats (coalesced). This is the shape of Triton's fused
// softmax (one program per row; triton python/tutorials/02-fused-softmax.py).
#include "softmax_common.h"

#define BLOCK 256

template <class Op>
__device__ float block_reduce_lds(float v, float* buf, Op op) {
  int t = threadIdx.x;
  buf[t] = v;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half /= 2) {
    if (t < half) buf[t] = op(buf[t], buf[t + half]);
    __syncthreads();
  }
  float out = buf[0];
  __syncthreads();  // buf is reused by the next reduction
  return out;
}

// Launch: softmax_block[rows, 256](x, y, rows, cols)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_block(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  __shared__ float buf[BLOCK];
  int r = blockIdx.x;
  if (r >= rows) return;
  const float* xr = x + (long)r * cols;
  float* yr = y + (long)r * cols;
  float m = SM_NEG_INF;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, xr[c]);
  m = block_reduce_lds(m, buf, OpMax());
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += expf(xr[c] - m);
  s = block_reduce_lds(s, buf, OpSum());
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += BLOCK) yr[c] = expf(xr[c] - m) * inv;
}
