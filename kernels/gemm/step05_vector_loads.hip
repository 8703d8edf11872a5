// Step 5 — vectorised 128-bit loads. The tile copy moves 16 bytes per thread per instruction
// (global_load_dwordx4 into registers, ds_write_b128 into LDS) instead of one element: 8x (bf16)
// or 16x (fp8) fewer memory instructions for the same bytes. Everything else as step 4.
// Launch: grid ceil(M / 128) * ceil(N / 128), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

extern "C" __global__ __launch_bounds__(256) void gemm_vec(const elem_t* A, const elem_t* B,
                                                           float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 2, LOAD_VEC, /*SWZ=*/false, /*DBUF=*/false>(A, B, C, M, N, K);
}
