// bf16 GEMM C[M][N] = A[M][K] * B[K][N] (both row-major) with v_mfma_f32_32x32x8_bf16. One 64x64
// tile per workgroup of 4 waves (2x2, each 32x32); K staged through LDS 32 at a time. Lane
// formulas (AMD Matrix Instruction Calculator, 32x32x8 f16/bf16): lane l holds A[l%32][4*(l/32)+e]
// and B[4*(l/32)+e][l%32] for e = 0..3; D register r holds row 8*(r/4) + 4*(l/32) + r%4 of column
// l%32. Requires M, N multiples of 64 and K a multiple of 32.
typedef short s4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));

extern "C" __global__ void __launch_bounds__(256)
gemm_bf16_32x32x8(const __hip_bfloat16* A, const __hip_bfloat16* B, float* C, int M, int N,
                  int K) {
  __shared__ short As[64][32 + 4];  // row-padded to spread LDS banks
  __shared__ short Bs[32][64 + 4];
  const short* a16 = (const short*)A;
  const short* b16 = (const short*)B;
  const int t = threadIdx.x, w = t / 64, l = t % 64;
  const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  const int wm = (w / 2) * 32, wn = (w % 2) * 32;
  f16v acc = {};
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int e = t; e < 64 * 32; e += 256) {  // stage A[bm:bm+64][k0:k0+32], B[k0:k0+32][bn:+64]
      As[e / 32][e % 32] = a16[(long)(bm + e / 32) * K + k0 + e % 32];
      Bs[e / 64][e % 64] = b16[(long)(k0 + e / 64) * N + bn + e % 64];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 8) {
      s4 a, b;
      for (int e = 0; e < 4; e++) {
        a[e] = As[wm + l % 32][kk + 4 * (l / 32) + e];
        b[e] = Bs[kk + 4 * (l / 32) + e][wn + l % 32];
      }
      acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
    }
    __syncthreads();
  }
  for (int r = 0; r < 16; r++) {
    const int row = bm + wm + 8 * (r / 4) + 4 * (l / 32) + r % 4, col = bn + wn + l % 32;
    C[(long)row * N + col] = acc[r];
  }
}
