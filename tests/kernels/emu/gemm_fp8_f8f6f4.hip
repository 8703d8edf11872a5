// fp8 GEMM for gfx950 with the CDNA4 f8f6f4 MFMA: C[M,N] (fp32) = A[M,K] . B[N,K]^T, A and B
// row-major with K contiguous, elements OCP fp8 E4M3 bytes (gfx950's fp8; CBSZ = BLGP = 0).
// Workgroup: 256 threads = 4 waves (2 x 2), a 64 x 64 tile of C, each wave 32 x 32 as 2 x 2
// v_mfma_f32_16x16x128_f8f6f4. K advances 128 at a time through LDS:
//  * global -> LDS directly (LDS DMA: lane l of a wave writes its bytes at LDS M0 + size*l,
//    LLVM AMDGPUUsage "LDS DMA"). A: global_load_lds_dwordx4 into an unpadded 64 x 128-byte
//    tile; B: global_load_lds_dword into a tile padded to 136 bytes per row (the usual 8-byte
//    pad against bank conflicts), each lane choosing the source dword of its LDS slot.
//  * LDS -> registers: lane l holds row l%16, k = 16*(l/16) .. +15 in VGPRs 0-3 and
//    k = 64 + 16*(l/16) .. +15 in VGPRs 4-7 (workbench.layouts F8f6f4Input, from CK's gfx950
//    mx_mfma tables): A's 16-byte pieces are 16-byte aligned (128-bit ds_read_b128), B's only
//    8-byte aligned in the padded tile (64-bit reads, ds_read2_b64 / ds_read_b64).
//  * MXFP8 variant (gemm_mxfp8_f8f6f4): the same with v_mfma_scale_f32_16x16x128_f8f6f4 and
//    E8M0 block scales SA[M][K/32], SB[N][K/32]: the scale of row r, k block b comes from lane
//    r%16 + 16*(b%4) of the operand (OCP MX block size 32).
// Requires M, N multiples of 64 and K a multiple of 128.
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
#define GLOBAL(p) ((__attribute__((address_space(1))) void*)(p))
#define LOCAL(p) ((__attribute__((address_space(3))) void*)(p))

constexpr int BM = 64, BN = 64, BK = 128, BPAD = BK + 8;

// A: one 64-row x 128-byte tile from global (row stride K bytes) into LDS (row-major,
// unpadded): pass p, wave w moves rows 32p + 8w .. +7, lane l row +l/8, bytes 16*(l%8) .. +15.
__device__ __forceinline__ void tile_to_lds_x4(const unsigned char* g, unsigned char* lds, int K,
                                               int t) {
  const int w = t / 64;
  for (int p = 0; p < 2; p++) {
    const int row = 32 * p + t / 8, col = 16 * (t % 8);
    __builtin_amdgcn_global_load_lds(GLOBAL(g + (long)row * K + col),
                                     LOCAL(lds + (32 * p + 8 * w) * BK), 16, 0, 0);
  }
}

// B: the same tile into LDS rows of BPAD bytes, 4 bytes per lane: pass p of wave w fills LDS
// bytes 1024p + 256w + 4l .. +3; pad bytes (columns 128..135) get the row's first dword.
__device__ __forceinline__ void tile_to_lds_padded(const unsigned char* g, unsigned char* lds,
                                                   int K, int t) {
  const int w = t / 64, l = t % 64;
  for (int p = 0; p < (BN * BPAD + 1023) / 1024; p++) {
    const int x = 1024 * p + 256 * w + 4 * l;  // this lane's LDS byte
    const int row = x / BPAD, col = x % BPAD < BK ? x % BPAD : 0;
    if (x < BN * BPAD)
      __builtin_amdgcn_global_load_lds(GLOBAL(g + (long)row * K + col),
                                       LOCAL(lds + 1024 * p + 256 * w), 4, 0, 0);
  }
}

__device__ __forceinline__ v8i operand_b128(const unsigned char* row_k) {
  const v4i lo = *(const v4i*)row_k, hi = *(const v4i*)(row_k + 64);
  return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
}

__device__ __forceinline__ v8i operand_b64(const unsigned char* row_k) {
  const v2i p0 = *(const v2i*)row_k, p1 = *(const v2i*)(row_k + 8);
  const v2i p2 = *(const v2i*)(row_k + 64), p3 = *(const v2i*)(row_k + 72);
  return (v8i){p0.x, p0.y, p1.x, p1.y, p2.x, p2.y, p3.x, p3.y};
}

template <bool SCALED>
__device__ __forceinline__ void gemm_tile(const unsigned char* A, const unsigned char* B,
                                          const unsigned char* SA, const unsigned char* SB,
                                          float* C, int M, int N, int K) {
  __shared__ __attribute__((aligned(16))) unsigned char As[BM * BK];
  __shared__ __attribute__((aligned(16))) unsigned char Bs[BN * BPAD];
  const int t = threadIdx.x, w = t / 64, l = t % 64;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  const int wm = (w / 2) * 32, wn = (w % 2) * 32;
  v4f acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    tile_to_lds_x4(A + (long)bm * K + k0, As, K, t);
    tile_to_lds_padded(B + (long)bn * K + k0, Bs, K, t);
    __builtin_amdgcn_s_waitcnt(0x0F70);  // vmcnt(0): the LDS DMA has landed
    __syncthreads();
    v8i a[2], b[2];
    int sa[2] = {0, 0}, sb[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
      a[i] = operand_b128(As + (wm + 16 * i + l % 16) * BK + 16 * (l / 16));
      b[i] = operand_b64(Bs + (wn + 16 * i + l % 16) * BPAD + 16 * (l / 16));
      if (SCALED) {
        sa[i] = SA[(long)(bm + wm + 16 * i + l % 16) * (K / 32) + k0 / 32 + l / 16];
        sb[i] = SB[(long)(bn + wn + 16 * i + l % 16) * (K / 32) + k0 / 32 + l / 16];
      }
    }
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        acc[i][j] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(
            a[i], b[j], acc[i][j], 0, 0, 0, sa[i], 0, sb[j]);  // fp8 x fp8
    __syncthreads();
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int e = 0; e < 4; e++) {  // D: lane l, VGPR e = row 4*(l/16) + e, column l%16
        const int row = bm + wm + 16 * i + 4 * (l / 16) + e, col = bn + wn + 16 * j + l % 16;
        C[(long)row * N + col] = acc[i][j][e];
      }
}

extern "C" __global__ void __launch_bounds__(256)
gemm_fp8_f8f6f4(const unsigned char* A, const unsigned char* B, float* C, int M, int N, int K) {
  gemm_tile<false>(A, B, nullptr, nullptr, C, M, N, K);
}

extern "C" __global__ void __launch_bounds__(256)
gemm_mxfp8_f8f6f4(const unsigned char* A, const unsigned char* B, const unsigned char* SA,
                  const unsigned char* SB, float* C, int M, int N, int K) {
  gemm_tile<true>(A, B, SA, SB, C, M, N, K);
}
