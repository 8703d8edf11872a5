// The early rungs of the CDNA4 FP8 GEMM blog (ROCm/rocm-blogs, blogs/software-tools-optimization/
// cdna4-gemm-kernels/README.md; shared/reference/tutorial_perf_anchors.md §3.2) in the
// configuration the blog describes, for the timing model's calibration (tests/gemm_blog.py).
// The tutorial's own kernels (kernels/gemm/step*.hip) are better than these early rungs on
// purpose (128 x 128 tiles, 4 x 4 MFMA tiles per wave); these follow the blog instead:
//
//   blog_naive     one thread per C element, TILE x TILE threads per workgroup, byte loads of A, B
//   blog_lds       LDS tiling with fp32 tiles As[TILE][TILE] and Bs[TILE][TILE] (B stored k-major,
//                  so each thread loads B[col][k0 + ty]: strided, uncoalesced global reads, as in
//                  the blog's listing); the blog's indexing needs TILE_M = TILE_N = TILE_K =
//                  blockDim
//   TILE (BLOG_TILE, default 32): the blog prints neither TILE nor blockDim. 32 is the 32 x 32
//                  C tile per workgroup that the blog states for its MFMA rungs ("one thread
//                  block runs 4 waves (2x2 wave layout)", one 16 x 16 tile per wave), kept for the
//                  two rungs before them. The naive measurement also points there: at 32 x 32 the
//                  model's naive rung is 1.01x the published time, at 16 x 16 1.71x (so that
//                  rung no longer tests the model independently). -DBLOG_TILE=16 builds the
//                  other reading; tests/bench/timing.py --early-tile 16 prints it.
//   blog_vec       MFMA 16x16x128, 4 waves (2 x 2) each holding ONE 16 x 16 C tile (the blog's lane
//                  mapping: 4 fp32 accumulators per lane), so a 32 x 32 workgroup tile and a K tile
//                  of 128; A/B tiles copied global -> registers -> LDS 16 bytes per lane
//   blog_direct    same, buffer_load ... lds (global -> LDS without registers)
//   blog_swizzle   same plus the XOR swizzle of the LDS rows
//   blog_dbuf      same plus double buffering ("one thread block runs 4 waves (2x2 wave layout),
//                  and all 4 waves share the same LDS tile region")
// The blog's "matrix-core baseline" (element loads, same 32 x 32 / 4-wave shape) is the
// tutorial's step 3 kernel unchanged. Differences kept: C is fp32 here (the blog stores bf16), and
// the k order inside an MFMA operand is the tutorial's (gemm_common.h read_operand).
// Launch: blog_naive, blog_lds: grid (ceil(N/TILE), ceil(M/TILE)), block (TILE, TILE); MFMA rungs:
// grid ceil(M/32) * ceil(N/32), block 256. K a multiple of TILE (blog_lds) or 128 (MFMA rungs).
#include "gemm_tiled.h"

#ifndef BLOG_TILE
#define BLOG_TILE 32
#endif
#define TILE BLOG_TILE

extern "C" __global__ __launch_bounds__(TILE * TILE) void blog_naive(const elem_t* A, const elem_t* B,
                                                             float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += to_float(A[(long)row * K + k]) * to_float(B[(long)col * K + k]);
  C[(long)row * N + col] = acc;
}

extern "C" __global__ __launch_bounds__(TILE * TILE) void blog_lds(const elem_t* A, const elem_t* B,
                                                           float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];   // As[m][k]
  __shared__ float Bs[TILE][TILE];   // Bs[k][n]
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = row < M ? to_float(A[(long)row * K + k0 + tx]) : 0.0f;
    Bs[ty][tx] = col < N ? to_float(B[(long)col * K + k0 + ty]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(long)row * N + col] = acc;
}

#define BLOG_RUNG(name, LOAD, SWZ, DBUF)                                                      \
  extern "C" __global__ __launch_bounds__(256) void name(const elem_t* A, const elem_t* B,    \
                                                         float* C, int M, int N, int K) {     \
    gemm_tiled<32, 32, 2, 2, LOAD, SWZ, DBUF>(A, B, C, M, N, K);                             \
  }

BLOG_RUNG(blog_vec, LOAD_VEC, false, false)
#if defined(__gfx950__)
BLOG_RUNG(blog_direct, LOAD_DIRECT, false, false)
BLOG_RUNG(blog_swizzle, LOAD_DIRECT, true, false)
BLOG_RUNG(blog_dbuf, LOAD_DIRECT, true, true)
#endif
