"""26 everyday HIP idioms, each as a new user would paste it into a %%hipkernel cell.

Used by tests/prelude/test_idioms.py (every one must compile offline for gfx942 and gfx1100) and,
run against an older checkout, to count how many compiled before (the numbers are in the commit
that added this file).
"""
from __future__ import annotations

IDIOMS: dict[str, str] = {
    "vector_add": """
__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}""",
    "grid_stride_loop": """
__global__ void scale(float* x, size_t n, float s) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] *= s;
}""",
    "shared_tile_syncthreads": """
#define TILE 16
__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}""",
    "dynamic_shared": """
__global__ void rev(int* d, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[n - t - 1];
}""",
    "atomic_add_float": """
__global__ void total(const float* x, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, x[i]);
}""",
    "warp_shuffle_reduce": """
__global__ void wsum(const float* x, float* out) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}""",
    "ballot_popcount": """
__global__ void count_pos(const float* x, int* out) {
  unsigned long long m = __ballot(x[threadIdx.x] > 0.0f);
  if (threadIdx.x == 0) out[blockIdx.x] = __popcll(m);
}""",
    "template_launch_bounds": """
template <int BLOCK, typename T>
__global__ __launch_bounds__(BLOCK) void fill(T* x, T v) {
  x[blockIdx.x * BLOCK + threadIdx.x] = v;
}
template __global__ void fill<256, float>(float*, float);
""",
    "float4_vector_types": """
__global__ void axpy4(float a, const float4* x, float4* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = x[i];
  y[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w) + y[i];
}""",
    "half_math": """
#include <hip/hip_fp16.h>
__global__ void hadd(const __half* a, const __half* b, __half* c) {
  int i = threadIdx.x;
  c[i] = __hadd(a[i], b[i]) * __float2half(0.5f);
}""",
    "bfloat16": """
#include <hip/hip_bf16.h>
__global__ void tobf(const float* a, __hip_bfloat16* b) {
  b[threadIdx.x] = __float2bfloat16(a[threadIdx.x]);
}""",
    "fast_math_intrinsics": """
__global__ void softplus(const float* x, float* y) {
  int i = threadIdx.x;
  y[i] = __logf(1.0f + __expf(x[i])) + rsqrtf(x[i] * x[i] + 1.0f) + __fdividef(x[i], 3.0f);
}""",
    "negative_infinity_max": """
__global__ void rowmax(const float* x, float* m, int n) {
  float v = -INFINITY;
  for (int j = 0; j < n; ++j) v = fmaxf(v, x[blockIdx.x * n + j]);
  m[blockIdx.x] = v;
}""",
    "log1pf": """
__global__ void lp(const float* x, float* y) { y[threadIdx.x] = log1pf(x[threadIdx.x]); }""",
    "printf_in_kernel": """
__global__ void hello() {
  printf("hello from thread %d of block %d\\n", threadIdx.x, blockIdx.x);
}""",
    "assert_in_kernel": """
#include <cassert>
__global__ void check(const int* x) { assert(x[threadIdx.x] >= 0); }""",
    "cooperative_groups": """
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_sum(const float* x, float* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(b);
  float v = x[b.thread_rank()];
  for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_down(v, o);
  if (t.thread_rank() == 0) out[t.meta_group_rank()] = v;
  b.sync();
}""",
    "whole_hip_file": """
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>
#define HIP_CHECK(e) do { hipError_t s = (e); if (s != hipSuccess) { \\
  std::fprintf(stderr, "%s\\n", hipGetErrorString(s)); std::exit(1); } } while (0)
__global__ void square(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= x[i];
}
int main() {
  const int n = 1 << 20;
  std::vector<float> h(n, 3.0f);
  float* d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(square, dim3((n + 255) / 256), dim3(256), 0, 0, d, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  std::printf("%f\\n", h[0]);
  return 0;
}""",
    "enable_if_type_traits": """
template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
__device__ T twice(T v) { return v + v; }
__global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }""",
    "bitextract": """
__global__ void field(const unsigned* x, unsigned* y) {
  y[threadIdx.x] = __bitextract_u32(x[threadIdx.x], 8, 4);
}""",
    "printf_in_host_device_function": """
__host__ __device__ void report(int v) { printf("value %d\\n", v); }
__global__ void k(const int* x) { report(x[threadIdx.x]); }""",
    "texture_object_parameter": """
__global__ void fetch(hipTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if !defined(__HIP_NO_IMAGE_SUPPORT) || !__HIP_NO_IMAGE_SUPPORT
  if (i < n) out[i] = tex1Dfetch<float>(tex, i);
#else
  if (i < n) out[i] = 0.0f;
#endif
}""",
    "numeric_limits": """
__global__ void mn(const float* x, float* m, int n) {
  float v = std::numeric_limits<float>::max();
  for (int j = 0; j < n; ++j) v = fminf(v, x[j]);
  *m = v;
}""",
    "constant_memory": """
__constant__ float coeffs[4] = {1.0f, 0.5f, 0.25f, 0.125f};
__global__ void poly(const float* x, float* y) {
  float v = x[threadIdx.x], r = 0.0f;
  for (int j = 3; j >= 0; --j) r = r * v + coeffs[j];
  y[threadIdx.x] = r;
}""",
    "double_math": """
__global__ void dexp(const double* x, double* y) {
  y[threadIdx.x] = exp(x[threadIdx.x]) + sqrt(x[threadIdx.x]);
}""",
    "device_lambda_std_minmax": """
#include <algorithm>
__global__ void clampk(float* x, float lo, float hi) {
  auto clamp = [=](float v) { return std::min(std::max(v, lo), hi); };
  x[threadIdx.x] = clamp(x[threadIdx.x]);
}""",
}
