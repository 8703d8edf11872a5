// softmax_row: y[r, :] = softmax(x[r, :]) for a row-major fp32 matrix (rows x cols).
// One block per row, BLOCK threads (a multiple of warpSize, at most 1024). Each thread strides
// over the row; partial maxima and sums are reduced within a warp/wave with __shfl_xor (over
// warpSize lanes: 64 on CDNA, 32 on RDNA wave32 and on NVIDIA), then across warps through
// shared memory. Written against warpSize only, so it is portable across wave sizes.
// Launch: softmax_row[rows, BLOCK](x, y, rows, cols)
#ifndef BLOCK
#define BLOCK 256
#endif

// Largest finite float, as the neutral element of max (inputs are assumed finite).
#define SOFTMAX_NEG_MAX (-3.402823466e+38f)

__device__ float warp_max(float v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v = fmaxf(v, __shfl_xor(v, off));
  return v;
}

__device__ float warp_sum(float v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_xor(v, off);
  return v;
}

// Reduce v over the block: warp partials to shared memory, then warp 0 reduces those.
template <bool IS_MAX>
__device__ float block_reduce(float v, float* partial) {
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int warps = (blockDim.x + warpSize - 1) / warpSize;
  v = IS_MAX ? warp_max(v) : warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = lane < warps ? partial[lane] : (IS_MAX ? SOFTMAX_NEG_MAX : 0.0f);
    w = IS_MAX ? warp_max(w) : warp_sum(w);
    if (lane == 0) partial[0] = w;
  }
  __syncthreads();
  float out = partial[0];
  __syncthreads();  // partial[] is reused by the next reduction
  return out;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_row(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  __shared__ float partial[32];  // one slot per warp: 1024 / 32 at most
  int row = blockIdx.x;
  if (row >= rows) return;
  const float* xr = x + (long)row * cols;
  float* yr = y + (long)row * cols;
  float m = SOFTMAX_NEG_MAX;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  m = block_reduce<true>(m, partial);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(xr[c] - m);
  s = block_reduce<false>(s, partial);
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) * inv;
}
