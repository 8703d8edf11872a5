// Step 11 — the 4-wave interleave (gfx950 only). One wave per SIMD (256 threads, 2 x 2 waves),
// each wave owns 128 x 128 of C (8 x 8 MFMA tiles = 256 accumulator registers: only possible
// with the whole 512-register budget of a lone wave). With no partner wave to hide memory behind,
// the wave itself spreads the next tile's global->LDS loads between its MFMAs, and
// sched_group_barrier pins that order (1 load after every 4 MFMAs) so the scheduler keeps it.
// Technique: HipKittens kernels/gemm/fp8fp32/FP8_4wave/4_wave.cu and the ROCm blog "Deep Dive
// Into 4-Wave Interleave FP8 GEMM" (rocm.blogs.amd.com, 4wave-fp8gemm); this kernel is a
// simpler form: the LDS->register reads of a K step are issued together before its MFMAs.
// Launch: grid ceil(M / 256) * ceil(N / 256), block 256. Any M, N; K a multiple of BK.
#include "gemm_common.h"
#if !defined(__gfx950__)
#error "the 4-wave interleave needs gfx950: 16-byte global->LDS loads and 128 KiB of LDS"
#endif

extern "C" __global__ __launch_bounds__(256) void gemm_interleave4(const elem_t* A,
                                                                   const elem_t* B, float* C,
                                                                   int M, int N, int K) {
  constexpr int BM = 256, BN = 256, NT = 256, TM = 8, TN = 8;
  constexpr int LOADS = BM * 8 / NT;                  // loads per operand per tile per thread: 8
  __shared__ __attribute__((aligned(16))) unsigned char As[2][BM * BK_BYTES];
  __shared__ __attribute__((aligned(16))) unsigned char Bs[2][BN * BK_BYTES];

  int tiles_n = (N + BN - 1) / BN;
  int m0 = (blockIdx.x / tiles_n) * BM, n0 = (blockIdx.x % tiles_n) * BN;
  int wave = threadIdx.x >> 6, lane = threadIdx.x & 63, wm = wave >> 1, wn = wave & 1;
  int arow = wm * 128 + (lane & 15), brow = wn * 128 + (lane & 15);
  __amdgpu_buffer_rsrc_t ra = make_rsrc(A, M, K), rb = make_rsrc(B, N, K);

  floatx4 acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = floatx4{0, 0, 0, 0};

  int ktiles = K / BK;
  load_tile_direct<BM, NT, true>(As[0], ra, m0, K, 0);
  load_tile_direct<BN, NT, true>(Bs[0], rb, n0, K, 0);
  for (int t = 0; t < ktiles; ++t) {
    int cur = t & 1;
    wait_vmcnt0();
    raw_barrier();                                    // tile t is in LDS for every wave
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ++ks) {
      int kb = ks * 4 * OPND_BYTES + (lane >> 4) * OPND_BYTES;
      opnd_t a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = read_operand<true>(As[cur], arow + i * 16, kb);
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = read_operand<true>(Bs[cur], brow + j * 16, kb);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
          acc[i][j] = mfma(a[i], b[j], acc[i][j]);
          // After every 4th MFMA of the first K step: one load of tile t + 1 (16 in all). On the
          // last tile these fetch past the K tile range into the idle buffer, which nobody reads:
          // no branch, so loads and MFMAs stay in one scheduling region.
          int n = i * TN + j;
          if (ks == 0 && n % 4 == 3 && n / 4 < 2 * LOADS) {
            int l = n / 4;
            if (l < LOADS)
              load_chunk_direct<NT, true>(As[cur ^ 1], ra, m0, K, (t + 1) * BK_BYTES, l,
                                          threadIdx.x);
            else
              load_chunk_direct<NT, true>(Bs[cur ^ 1], rb, n0, K, (t + 1) * BK_BYTES, l - LOADS,
                                          threadIdx.x);
          }
        }
      if (ks == 0) {
        // Pin the order: 16 x {4 MFMA, 1 VMEM}. Masks: 0x8 = MFMA, 0x20 = VMEM read (LLVM
        // AMDGPUUsage / IntrinsicsAMDGPU.td, llvm.amdgcn.sched.group.barrier).
#pragma unroll
        for (int g = 0; g < 2 * LOADS; ++g) {
          __builtin_amdgcn_sched_group_barrier(0x008, 4, 0);
          __builtin_amdgcn_sched_group_barrier(0x020, 1, 0);
        }
      }
    }
  }
  store_acc<TM, TN>(C, acc, m0 + wm * 128, n0 + wn * 128, M, N);
}
