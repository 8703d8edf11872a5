// Register-pressure sweep: each kernel keeps N floats live across a loop, so the VGPR count
// grows with N until the launch bound's register budget forces spills (and, on gfx90a+,
// spills into AGPRs). Bounds 256 and 1024 give the compiler different register budgets.
template <int N>
__device__ __attribute__((always_inline)) void pressure(float* x, int n) {
  const int t = threadIdx.x;
  float v[N];
#pragma unroll
  for (int j = 0; j < N; ++j) v[j] = x[t + j * 1024];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < N; ++j) v[j] = v[j] * v[(j + 1) % N] + 1.0f;
  }
#pragma unroll
  for (int j = 0; j < N; ++j) x[t + j * 1024] = v[j];
}

#define REG(N, B) \
  extern "C" __global__ void __launch_bounds__(B) reg_##N##_b##B(float* x, int n) { \
    pressure<N>(x, n); \
  }
#define REG_ALL(N) REG(N, 256) REG(N, 1024)

REG_ALL(4) REG_ALL(12) REG_ALL(20) REG_ALL(28) REG_ALL(36) REG_ALL(44) REG_ALL(56)
REG_ALL(70) REG_ALL(90) REG_ALL(120)
