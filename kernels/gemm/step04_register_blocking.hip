// Step 4 — register blocking. Same four waves, but the workgroup tile grows to 128 x 128 and each
// wave computes 4 x 4 MFMA tiles (64 x 64 of C): per k step it reads 4 A and 4 B operands from
// LDS and issues 16 MFMAs, so each operand is reused 4 times from registers, and each element
// copied into LDS serves 4x more of C than in step 3.
// Launch: grid ceil(M / 128) * ceil(N / 128), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

extern "C" __global__ __launch_bounds__(256) void gemm_regblock(const elem_t* A, const elem_t* B,
                                                                float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 2, LOAD_ELEM, /*SWZ=*/false, /*DBUF=*/false>(A, B, C, M, N, K);
}
