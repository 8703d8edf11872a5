// Private (scratch) arrays with dynamic indexing, register spills, real function calls
// (noinline, recursion), switch statements and 3D launch geometry.
#include <hip/hip_runtime.h>

__global__ void private_array(const int* idx, const float* x, float* out) {
  float a[24];
  int t = threadIdx.x;
  for (int k = 0; k < 24; ++k) a[k] = x[t] * (k + 1);
  a[idx[t] % 24] += 1000.0f;          // dynamic index: the array lives in scratch
  float s = 0.f;
  for (int k = 0; k < 24; ++k) s += a[(k * 7 + idx[t]) % 24] * (k & 1 ? -1.f : 1.f);
  out[t] = s;
}

__device__ __attribute__((noinline)) int collatz_steps(unsigned v) {
  int n = 0;
  while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; ++n; }
  return n;
}

__device__ __attribute__((noinline)) unsigned long long fact(int n) {
  return n <= 1 ? 1ull : n * fact(n - 1);  // recursion: a real call stack in scratch
}

__global__ void calls(const unsigned* v, int* steps, unsigned long long* f) {
  int t = threadIdx.x;
  steps[t] = collatz_steps(v[t]);
  f[t] = fact(t % 21);
}

__device__ float op(int code, float a, float b) {
  switch (code) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return fmaxf(a, b);
    case 4: return fminf(a, b);
    case 5: return a * 0.5f;
    case 6: return -b;
    default: return 0.f;
  }
}

__global__ void interpreter(const int* codes, const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(codes[i], a[i], b[i]);
}

// 3D grid and 3D blocks: each thread writes its flattened global id at its (x, y, z) slot
__global__ void grid3d(int* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int local = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[(z * ny + y) * nx + x] = block * (blockDim.x * blockDim.y * blockDim.z) + local;
  }
}

// heavy register pressure under __launch_bounds__(1024): LLVM spills to scratch
__global__ __launch_bounds__(1024) void spill(const float* x, float* out) {
  float r[96];
#pragma unroll
  for (int k = 0; k < 96; ++k) r[k] = x[threadIdx.x] * k + k;
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 96; ++k) s += r[k] * r[95 - k];
#pragma unroll
  for (int k = 0; k < 96; ++k) r[k] = r[k] * s;
  float t = 0.f;
#pragma unroll
  for (int k = 0; k < 96; ++k) t += r[k];
  out[threadIdx.x] = t;
}
