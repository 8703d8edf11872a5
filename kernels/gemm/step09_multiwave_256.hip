// Step 9 — 256 x 256 tiles, 8 waves (2 x 4), each wave 128 x 64 of C (8 x 4 MFMA tiles: 128
// accumulator registers). Bigger tiles halve the bytes loaded per FLOP again; 8 waves give each
// SIMD two waves to switch between. LDS: 256 x 128 B per operand per buffer = 128 KiB double
// buffered, which fits gfx950's 160 KiB; gfx942 has 64 KiB, so there the tile is single-buffered
// (as HipKittens' CDNA3 kernel is).
// Launch: grid ceil(M / 256) * ceil(N / 256), block 512. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

#if defined(__gfx950__)
#define STAGING LOAD_DIRECT
#define TWO_BUFFERS true
#else
#define STAGING LOAD_VEC
#define TWO_BUFFERS false
#endif

extern "C" __global__ __launch_bounds__(512) void gemm_256(const elem_t* A, const elem_t* B,
                                                           float* C, int M, int N, int K) {
  gemm_tiled<256, 256, 2, 4, STAGING, /*SWZ=*/true, TWO_BUFFERS>(A, B, C, M, N, K);
}
