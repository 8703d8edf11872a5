// Step 2 — LDS tiling. A 16 x 16 block of threads computes a 16 x 16 tile of C; per K step of 16
// it copies a 16 x 16 tile of A and of B into LDS once (one element per thread) and every thread
// then reads its row of A and its row of B from LDS: each global element is now read M/16 (N/16)
// times instead of M (N). Still one fp32 FMA per element pair on the VALU.
// Launch: grid (ceil(N / 16), ceil(M / 16)), block (16, 16). Any M, N, K.
#include "gemm_common.h"

#define T 16
extern "C" __global__ __launch_bounds__(256) void gemm_lds(const elem_t* A, const elem_t* B,
                                                           float* C, int M, int N, int K) {
  __shared__ float as[T][T + 1], bs[T][T + 1];   // +1: the column reads below hit 16 banks
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  int brow = blockIdx.x * T + ty;                // the row of B (= column of C) this thread copies
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    int k = k0 + tx;
    as[ty][tx] = (row < M && k < K) ? to_float(A[(long)row * K + k]) : 0.0f;
    bs[ty][tx] = (brow < N && k < K) ? to_float(B[(long)brow * K + k]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < T; ++kk) acc += as[ty][kk] * bs[tx][kk];
    __syncthreads();
  }
  if (row < M && col < N) C[(long)row * N + col] = acc;
}
