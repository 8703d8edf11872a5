// Step 6 — direct global -> LDS loads (gfx950 only). buffer_load_dwordx4 ... lds writes each
// lane's 16 bytes straight into LDS: no VGPRs hold the tile and no ds_write is issued (the CDNA4
// FP8 GEMM blog's "direct global->LDS" step; gfx942 moves only 4 bytes per lane this way, so the
// tutorial keeps step 5's register staging there). Rows past M / N read as 0 (buffer range check).
// Launch: grid ceil(M / 128) * ceil(N / 128), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

extern "C" __global__ __launch_bounds__(256) void gemm_direct(const elem_t* A, const elem_t* B,
                                                              float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 2, LOAD_DIRECT, /*SWZ=*/false, /*DBUF=*/false>(A, B, C, M, N, K);
}
