// Step 8 — double buffering. Two LDS buffers per operand: the loads of K tile t + 1 are issued
// before the MFMAs of tile t, so memory latency hides behind the matrix core, and one barrier per
// K tile is enough (the buffer being filled was last read a whole iteration ago).
// Launch: grid ceil(M / 128) * ceil(N / 128), block 256. Any M, N; K a multiple of BK.
#include "gemm_tiled.h"

#if defined(__gfx950__)
#define STAGING LOAD_DIRECT
#else
#define STAGING LOAD_VEC
#endif

extern "C" __global__ __launch_bounds__(256) void gemm_dbuf(const elem_t* A, const elem_t* B,
                                                            float* C, int M, int N, int K) {
  gemm_tiled<128, 128, 2, 2, STAGING, /*SWZ=*/true, /*DBUF=*/true>(A, B, C, M, N, K);
}
