// Step 10 — HipKittens' 8-wave ping-pong (gfx950 only): s_barrier + s_setprio so that the two
// waves of each SIMD alternate memory and MFMA phases. The whole kernel is in pingpong.h.
// Launch: grid ceil(M / 256) * ceil(N / 256), block 512. Any M, N; K a multiple of BK.
#include "pingpong.h"

extern "C" __global__ __launch_bounds__(512) void gemm_pingpong8(const elem_t* A, const elem_t* B,
                                                                 float* C, int M, int N, int K) {
  gemm_pingpong</*REMAP=*/false>(A, B, C, M, N, K);
}
