// Step 3 — one MFMA tile per wave. Four waves (2 x 2) compute a 32 x 32 tile of C; each wave owns
// one 16 x 16 block and feeds the matrix core: per MFMA, lane l reads row (l % 16) of its A and B
// tiles, KL consecutive k values (notebook 01's operand layout, gemm_common.h). The K tile is
// still copied into LDS one element per thread.
// Launch: grid ceil(M / 32) * ceil(N / 32), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

extern "C" __global__ __launch_bounds__(256) void gemm_mfma(const elem_t* A, const elem_t* B,
                                                            float* C, int M, int N, int K) {
  gemm_tiled<32, 32, 2, 2, LOAD_ELEM, /*SWZ=*/false, /*DBUF=*/false>(A, B, C, M, N, K);
}
