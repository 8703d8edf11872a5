// sweep_tiled.hip — one gemm_tiled kernel whose tile is set from the command line, for the tile
// sweep of notebook 03 (wb.sweep over tile shape x waves x K step): each point of the sweep is one
// build of this file with other -D values. The kernel is step 9's (step09_multiwave_256.hip): on
// gfx950 direct global->LDS loads (LOAD_DIRECT), on gfx942 16-byte register-staged loads
// (LOAD_VEC); the XOR swizzle on both.
//
//   -DSWEEP_BM=256 -DSWEEP_BN=256   C tile of one workgroup (multiples of 16 * WM, 16 * WN)
//   -DSWEEP_WM=2   -DSWEEP_WN=4     waves per workgroup, WM x WN (each (BM/WM) x (BN/WN) of C)
//   -DSWEEP_KT=1                    128-byte K tiles staged per barrier round (gemm_tiled.h KT)
//   -DSWEEP_DBUF=1|0                two LDS buffers (default 1 on gfx950, 0 on gfx942 as step 9)
// The defaults are step 9's tile. The names are SWEEP_* so they cannot collide with gemm_tiled.h's
// template parameters (BM, BN, ...). LDS = (DBUF ? 2 : 1) * KT * (BM + BN) * 128 bytes; a point
// that needs more than the chip has (gfx950 160 KiB, gfx942 64 KiB) fails to compile with the
// static_assert below, which a sweep can record as "does not fit".
// Launch: grid ceil(M / BM) * ceil(N / BN) (1-D), block 64 * WM * WN. Any M, N; K a multiple of
// KT * BK (BK = 64 bf16 / 128 fp8 values).
#include "gemm_tiled.h"

#ifndef SWEEP_BM
#define SWEEP_BM 256
#endif
#ifndef SWEEP_BN
#define SWEEP_BN 256
#endif
#ifndef SWEEP_WM
#define SWEEP_WM 2
#endif
#ifndef SWEEP_WN
#define SWEEP_WN 4
#endif
#ifndef SWEEP_KT
#define SWEEP_KT 1
#endif

#if defined(__gfx950__)
#define SWEEP_LOAD LOAD_DIRECT
#define SWEEP_LDS_LIMIT (160 * 1024)
#ifndef SWEEP_DBUF
#define SWEEP_DBUF 1
#endif
#else
#define SWEEP_LOAD LOAD_VEC
#define SWEEP_LDS_LIMIT (64 * 1024)
#ifndef SWEEP_DBUF
#define SWEEP_DBUF 0
#endif
#endif

static_assert((SWEEP_DBUF ? 2 : 1) * SWEEP_KT * (SWEEP_BM + SWEEP_BN) * BK_BYTES <= SWEEP_LDS_LIMIT,
              "sweep tile does not fit in LDS: (SWEEP_DBUF ? 2 : 1) * SWEEP_KT * (SWEEP_BM + "
              "SWEEP_BN) * 128 bytes exceeds the chip's LDS (gfx950 160 KiB, gfx942 64 KiB)");

extern "C" __global__ __launch_bounds__(64 * SWEEP_WM * SWEEP_WN) void gemm_sweep(
    const elem_t* A, const elem_t* B, float* C, int M, int N, int K) {
  gemm_tiled<SWEEP_BM, SWEEP_BN, SWEEP_WM, SWEEP_WN, SWEEP_LOAD, /*SWZ=*/true, (SWEEP_DBUF != 0),
             SWEEP_KT>(A, B, C, M, N, K);
}
