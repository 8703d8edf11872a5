// Row-wise layernorm and softmax, one block per row, with expf / rsqrtf and LDS reductions.
#include <hip/hip_runtime.h>
#include <cfloat>

template <int BLOCK>
__device__ float block_reduce_sum(float v, float* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  float r = sh[0];
  __syncthreads();
  return r;
}

template <int BLOCK>
__device__ float block_reduce_max(float v, float* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  float r = sh[0];
  __syncthreads();
  return r;
}

__global__ __launch_bounds__(128) void layernorm(const float* x, const float* gamma, const float* beta,
                                                 float* y, int cols, float eps) {
  __shared__ float sh[128];
  const float* row = x + blockIdx.x * (size_t)cols;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 128) s += row[c];
  float mean = block_reduce_sum<128>(s, sh) / cols;
  float v = 0.f;
  for (int c = threadIdx.x; c < cols; c += 128) { float d = row[c] - mean; v += d * d; }
  float rstd = rsqrtf(block_reduce_sum<128>(v, sh) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += 128)
    y[blockIdx.x * (size_t)cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}

__global__ __launch_bounds__(128) void softmax_rows(const float* x, float* y, int cols) {
  __shared__ float sh[128];
  const float* row = x + blockIdx.x * (size_t)cols;
  float m = -FLT_MAX;
  for (int c = threadIdx.x; c < cols; c += 128) m = fmaxf(m, row[c]);
  m = block_reduce_max<128>(m, sh);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 128) s += expf(row[c] - m);
  s = block_reduce_sum<128>(s, sh);
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += 128) y[blockIdx.x * (size_t)cols + c] = expf(row[c] - m) * inv;
}

// wave-per-row variant with __shfl_xor (one row per wave)
__global__ void softmax_wave(const float* x, float* y, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;
  if (row >= rows) return;
  const float* r = x + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += warpSize) m = fmaxf(m, r[c]);
  for (int o = warpSize / 2; o; o >>= 1) m = fmaxf(m, __shfl_xor(m, o));
  float s = 0.f;
  for (int c = lane; c < cols; c += warpSize) s += __expf(r[c] - m);
  for (int o = warpSize / 2; o; o >>= 1) s += __shfl_xor(s, o);
  for (int c = lane; c < cols; c += warpSize) y[(size_t)row * cols + c] = __expf(r[c] - m) / s;
}
