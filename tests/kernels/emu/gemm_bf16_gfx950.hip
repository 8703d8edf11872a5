// gfx950 bf16 GEMM C[M,N] = A[M,K] * B[K,N] (all row-major), f32 out, on CDNA4's features:
//  - global -> LDS DMA, 16 bytes per lane (__builtin_amdgcn_global_load_lds, size 16 ->
//    global_load_lds_dwordx4): lane l of a wave lands at M0 + 16 * l, no VGPR round trip;
//  - A operands by 128-bit LDS reads (ds_read_b128), B operands by 64-bit transposing LDS reads
//    (ds_read_b64_tr_b16: B is N-contiguous in LDS, the MFMA wants K per lane);
//  - v_mfma_f32_16x16x32_bf16 (8 bf16 of A and of B per lane).
// 64x64 tile per workgroup, 4 waves (2x2) of 32x32, K staged 32 at a time.
// Requires M, N multiples of 64 and K a multiple of 32.
typedef __bf16 bf8 __attribute__((ext_vector_type(8)));
typedef short s4 __attribute__((ext_vector_type(4)));
typedef short s8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
#define GPTR(p) ((__attribute__((address_space(1))) void*)(p))
#define LPTR(p) ((__attribute__((address_space(3))) void*)(p))

extern "C" __global__ void __launch_bounds__(256)
gemm_bf16_gfx950(const __hip_bfloat16* A, const __hip_bfloat16* B, float* C, int M, int N,
                 int K) {
  __shared__ __attribute__((aligned(16))) short As[64 * 32];  // [m][k]
  __shared__ __attribute__((aligned(16))) short Bs[32 * 64];  // [k][n]
  const int t = threadIdx.x, w = t / 64, l = t % 64;
  const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  const int wm = (w / 2) * 32, wn = (w % 2) * 32;
  // DMA sources: wave w fills 1 KiB of each tile; lane l's 16 bytes are 8 consecutive k of A
  // row 16w + l/4 and 8 consecutive n of B row 8w + l/8
  const __hip_bfloat16* ga = A + (long)(bm + 16 * w + l / 4) * K + (l % 4) * 8;
  const __hip_bfloat16* gb = B + (long)(8 * w + l / 8) * N + bn + (l % 8) * 8;
  // transposing-read addresses: in each 16-lane group, lane 4r + q reads k-row r, n 4q..4q+3
  const int g = l / 16, r = (l % 16) / 4, q = l % 4;
  f4 acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += 32) {
    __builtin_amdgcn_global_load_lds(GPTR(ga + k0), LPTR(As + 512 * w), 16, 0, 0);
    __builtin_amdgcn_global_load_lds(GPTR(gb + (long)k0 * N), LPTR(Bs + 512 * w), 16, 0, 0);
    __builtin_amdgcn_s_waitcnt(0);
    __syncthreads();
    for (int i = 0; i < 2; i++) {
      const s8 a = *(const s8*)(As + (wm + 16 * i + l % 16) * 32 + 8 * g);
      for (int j = 0; j < 2; j++) {
        const short* pb = Bs + (8 * g + r) * 64 + wn + 16 * j + 4 * q;
        const s4 b0 = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
            (__attribute__((address_space(3))) s4*)LPTR(pb));
        const s4 b1 = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
            (__attribute__((address_space(3))) s4*)LPTR(pb + 4 * 64));
        const s8 b = __builtin_shufflevector(b0, b1, 0, 1, 2, 3, 4, 5, 6, 7);
        acc[i][j] = __builtin_amdgcn_mfma_f32_16x16x32_bf16(
            __builtin_bit_cast(bf8, a), __builtin_bit_cast(bf8, b), acc[i][j], 0, 0, 0);
      }
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int e = 0; e < 4; e++) {
        const int row = bm + wm + 16 * i + 4 * g + e, col = bn + wn + 16 * j + l % 16;
        C[(long)row * N + col] = acc[i][j][e];
      }
}
