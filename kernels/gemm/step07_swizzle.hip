// Step 7 — XOR swizzle of the LDS tile. With 128-byte rows, the 16 lanes that read one MFMA
// operand column read the same 16-byte column of 16 rows: on gfx950 (64 banks x 4 B = 256 B)
// rows r and r + 2 share banks, on gfx942 (32 banks = 128 B) every row does: an 8-way conflict in
// a ds_read_b128 phase. Storing chunk c of row r at c ^ swz(r) spreads those rows over all banks
// (technique: HipKittens st_16x128_s, CDNA4 FP8 GEMM blog). Set SWZ to false to see it come back.
// gfx950: direct global -> LDS (step 6); gfx942: 16-byte register staging (step 5).
// Launch: grid ceil(M / 128) * ceil(N / 128), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

#if defined(__gfx950__)
#define STAGING LOAD_DIRECT
#else
#define STAGING LOAD_VEC
#endif

extern "C" __global__ __launch_bounds__(256) void gemm_swizzle(const elem_t* A, const elem_t* B,
                                                               float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 2, STAGING, /*SWZ=*/true, /*DBUF=*/false>(A, B, C, M, N, K);
}
