// Step 12 — chiplet-aware grid order (gfx950 only): the step-10 ping-pong with its workgroup id
// remapped so that each XCD works on a contiguous, L2-friendly group of C tiles
// (gemm_common.h: remap_tile). Nothing inside a workgroup changes.
// Launch: grid ceil(M / 256) * ceil(N / 256), block 512. Any M, N; K a multiple of BK.
#include "pingpong.h"

extern "C" __global__ __launch_bounds__(512) void gemm_remap(const elem_t* A, const elem_t* B,
                                                             float* C, int M, int N, int K) {
  gemm_pingpong</*REMAP=*/true>(A, B, C, M, N, K);
}
