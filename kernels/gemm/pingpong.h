// pingpong.h — HipKittens' 8-wave ping-pong (steps 10 and 12; gfx950 only).
//
// Technique (HipKittens kernels/gemm/bf16fp32/mi350x/256_256_64_32_with16x32.cpp; the last rung
// of AMD's blog "FP8 GEMM Optimization on AMD CDNA4 Architecture"): 8 waves on a 256 x 256 tile,
// waves w and w + 4 share SIMD w % 4 (that blog). The waves alternate "memory clusters" (issue
// the next tile's global->LDS loads, read this tile's MFMA operands from LDS) and "compute
// clusters" (the MFMAs, under s_setprio 1 so the partner's memory instructions do not starve
// them), each cluster closed by s_barrier. Group 1 (waves 4-7) takes one extra barrier before the
// loop; thereafter the groups are one cluster apart: on every SIMD one wave issues MFMAs while its
// partner issues memory instructions. Group 0 takes one extra barrier at the end to even the count.
//
// Why it is safe (epoch e = between the e-th and (e+1)-th barrier after the prologue; group 0
// runs memory cluster t in epoch 2t + 1, group 1 in 2t + 2): the loads of tile t + 1 go to the
// buffer that tile t - 1 used, whose last reader (group 1, epoch 2t) finished a barrier earlier;
// each wave waits for its loads (vmcnt) and LDS reads (lgkmcnt) before the barrier that ends its
// memory cluster, so tile t + 1 is complete before the first reader (group 0, epoch 2t + 3).
//
// Each wave: 128 x 64 of C (wave grid 2 x 4, 8 x 4 MFMA tiles, 128 accumulator registers); each
// group loads its half of A's and B's rows. Edges: rows past M / N read 0 (buffer range check),
// C stored inside M x N only; K a multiple of BK. Launch: grid ceil(M/256) * ceil(N/256), block 512.
#pragma once
#include "gemm_common.h"
#if !defined(__gfx950__)
#error "the ping-pong needs gfx950: 16-byte global->LDS loads and 160 KiB of LDS (128 KiB used)"
#endif

template <bool REMAP>
__device__ __forceinline__ void gemm_pingpong(const elem_t* A, const elem_t* B, float* C, int M,
                                              int N, int K) {
  constexpr int BM = 256, BN = 256, TM = 8, TN = 4, HALF = 128;
  __shared__ __attribute__((aligned(16))) unsigned char As[2][BM * BK_BYTES];
  __shared__ __attribute__((aligned(16))) unsigned char Bs[2][BN * BK_BYTES];

  int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tm, tn;
  if (REMAP) {
    remap_tile(blockIdx.x, tiles_m, tiles_n, tm, tn);
  } else {
    tm = blockIdx.x / tiles_n;
    tn = blockIdx.x % tiles_n;
  }
  int m0 = tm * BM, n0 = tn * BN;
  int wave = threadIdx.x >> 6, lane = threadIdx.x & 63;
  int group = wave >> 2, wn = wave & 3;               // group = warp_row: rows group*128 ..
  int gtid = threadIdx.x & 255;                       // thread index inside the group
  int arow = group * HALF + (lane & 15), brow = wn * 64 + (lane & 15);
  __amdgpu_buffer_rsrc_t ra = make_rsrc(A, M, K), rb = make_rsrc(B, N, K);

  // Each group fills rows [group * 128, + 128) of both tiles.
  auto load = [&](int buf, int t) {
    load_tile_direct<HALF, 256, true>(As[buf] + group * HALF * BK_BYTES, ra, m0 + group * HALF,
                                      K, t * BK_BYTES, gtid);
    load_tile_direct<HALF, 256, true>(Bs[buf] + group * HALF * BK_BYTES, rb, n0 + group * HALF,
                                      K, t * BK_BYTES, gtid);
  };

  floatx4 acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = floatx4{0, 0, 0, 0};
  opnd_t a[KSTEPS][TM], b[KSTEPS][TN];

  int ktiles = K / BK;
  load(0, 0);
  wait_vmcnt0();
  raw_barrier();
  if (group == 1) raw_barrier();                      // the stagger: group 1 runs one cluster late

  for (int t = 0; t < ktiles; ++t) {
    // ---- memory cluster: next tile's loads, this tile's operands ----
    if (t + 1 < ktiles) load((t + 1) & 1, t + 1);
    const unsigned char* as = As[t & 1];
    const unsigned char* bs = Bs[t & 1];
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ++ks) {
      int kb = ks * 4 * OPND_BYTES + (lane >> 4) * OPND_BYTES;
#pragma unroll
      for (int i = 0; i < TM; ++i) a[ks][i] = read_operand<true>(as, arow + i * 16, kb);
#pragma unroll
      for (int j = 0; j < TN; ++j) b[ks][j] = read_operand<true>(bs, brow + j * 16, kb);
    }
    asm volatile("" ::: "memory");
    wait_lgkmcnt0();
    wait_vmcnt0();
    raw_barrier();
    // ---- compute cluster ----
    __builtin_amdgcn_s_setprio(1);
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ++ks)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = mfma(a[ks][i], b[ks][j], acc[i][j]);
    __builtin_amdgcn_s_setprio(0);
    raw_barrier();
  }
  if (group == 0) raw_barrier();                      // re-align the barrier counts

  store_acc<TM, TN>(C, acc, m0 + group * HALF, n0 + wn * 64, M, N);
}
