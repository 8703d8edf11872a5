// Step 1 — one thread per element of C. Each thread walks a row of A and a row of B (B is N x K,
// K contiguous) and multiplies on the VALU in fp32. No reuse: every element of A is read N times
// from global memory (through the caches), every element of B M times.
// Launch: grid (ceil(N / 16), ceil(M / 16)), block (16, 16). Any M, N, K.
#include "gemm_common.h"

extern "C" __global__ __launch_bounds__(256) void gemm_naive(const elem_t* A, const elem_t* B,
                                                             float* C, int M, int N, int K) {
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += to_float(A[(long)row * K + k]) * to_float(B[(long)col * K + k]);
  C[(long)row * N + col] = acc;
}
