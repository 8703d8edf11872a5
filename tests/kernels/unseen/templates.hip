// Templated kernels with explicit instantiations, picked by name from Python.
#include <hip/hip_runtime.h>

template <int BLOCK, typename T>
__global__ __launch_bounds__(BLOCK) void scale_add(const T* x, T* y, T a, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void scale_add<64, float>(const float*, float*, float, int);
template __global__ void scale_add<128, double>(const double*, double*, double, int);
template __global__ void scale_add<256, int>(const int*, int*, int, int);

template <typename T, int N>
struct Vec { T v[N]; };

template <typename T, int N>
__global__ void dot_small(const Vec<T, N>* a, const Vec<T, N>* b, T* out) {
  int i = threadIdx.x;
  T acc = T(0);
#pragma unroll
  for (int k = 0; k < N; ++k) acc += a[i].v[k] * b[i].v[k];
  out[i] = acc;
}
template __global__ void dot_small<float, 4>(const Vec<float, 4>*, const Vec<float, 4>*, float*);
template __global__ void dot_small<int, 3>(const Vec<int, 3>*, const Vec<int, 3>*, int*);

namespace ops {
struct Square { __device__ float operator()(float v) const { return v * v; } };
struct Negate { __device__ float operator()(float v) const { return -v; } };
}
template <typename F>
__global__ void apply(const float* x, float* y, F f) {
  y[threadIdx.x] = f(x[threadIdx.x]);
}
template __global__ void apply<ops::Square>(const float*, float*, ops::Square);
template __global__ void apply<ops::Negate>(const float*, float*, ops::Negate);
