// gemm_naive: C = A * B for row-major fp32 matrices A (M x K), B (K x N), C (M x N).
// One thread per element of C, no tiling or shared memory: the baseline of the GEMM tutorial.
// Launch: gemm_naive[((N + 15) // 16, (M + 15) // 16), (16, 16)](A, B, C, M, N, K)
extern "C" __global__ void gemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[(long)row * K + k] * B[(long)k * N + col];
  C[(long)row * N + col] = acc;
}
