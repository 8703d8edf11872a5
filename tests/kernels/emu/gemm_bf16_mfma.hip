// bf16 GEMM C[M,N] = A[M,K] * B[N,K]^T with MFMA 16x16x16 bf16: 64x64 tile per workgroup,
// 4 waves (2x2) each computing 32x32, K staged through LDS 32 at a time.
// Requires M, N multiples of 64 and K a multiple of 32.
typedef short s4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));

extern "C" __global__ void __launch_bounds__(256)
gemm_bf16(const __hip_bfloat16* A, const __hip_bfloat16* B, float* C, int M, int N, int K) {
  __shared__ s4 As[64 * 32 / 4];
  __shared__ s4 Bs[64 * 32 / 4];
  const int t = threadIdx.x, w = t / 64, l = t % 64;
  const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  const int wm = (w / 2) * 32, wn = (w % 2) * 32;
  f4 acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int r = t / 4, c = (t % 4) * 8;  // each thread stages 8 bf16 of A and of B
    const s4* pa = (const s4*)(A + (long)(bm + r) * K + k0 + c);
    const s4* pb = (const s4*)(B + (long)(bn + r) * K + k0 + c);
    As[t * 2] = pa[0]; As[t * 2 + 1] = pa[1];
    Bs[t * 2] = pb[0]; Bs[t * 2 + 1] = pb[1];
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
          const int kq = kk + (l / 16) * 4;
          s4 a = As[((wm + i * 16 + l % 16) * 32 + kq) / 4];
          s4 b = Bs[((wn + j * 16 + l % 16) * 32 + kq) / 4];
          acc[i][j] = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, acc[i][j], 0, 0, 0);
        }
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int e = 0; e < 4; e++) {
        const int row = bm + wm + i * 16 + (l / 16) * 4 + e, col = bn + wn + j * 16 + l % 16;
        C[(long)row * N + col] = acc[i][j][e];
      }
}
