// The two multi-wave rungs of ROCm's blog "FP8 GEMM Optimization on AMD CDNA4 Architecture"
// that the tutorial's own ladder skips (kept to calibrate the timing model against the blog):
//   gemm_128_512  : 128 x 128 tile, 8 waves (2 x 4), each 64 x 32 of C
//   gemm_256_1024 : 256 x 256 tile, 16 waves (4 x 4), each 64 x 64 of C
// Both: direct global -> LDS, XOR swizzle, double buffering (gfx950 only).
// Launch: grid ceil(M / BM) * ceil(N / BN), block 512 / 1024. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

extern "C" __global__ __launch_bounds__(512) void gemm_128_512(const elem_t* A, const elem_t* B,
                                                               float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 4, LOAD_DIRECT, true, true>(A, B, C, M, N, K);
}

extern "C" __global__ __launch_bounds__(1024) void gemm_256_1024(const elem_t* A,
                                                                 const elem_t* B, float* C,
                                                                 int M, int N, int K) {
  gemm_tiled<256, 256, 4, 4, LOAD_DIRECT, true, true>(A, B, C, M, N, K);
}
