// gemm_tiled.h — the LDS-tiled MFMA GEMM that steps 3-9 of the tutorial instantiate.
//
// One workgroup of WM x WN waves computes a BM x BN tile of C. Each K tile (BK_BYTES = 128 bytes
// of every row of A and B) is staged in LDS; each wave then reads its MFMA operands from LDS and
// accumulates a (BM/WM) x (BN/WN) block of C as TM x TN MFMA tiles of 16 x 16. The template
// arguments are the steps of the tutorial, so a step is one line and a reader can flip one:
//
//   LOAD = LOAD_ELEM    each thread copies one element at a time global -> register -> LDS
//          LOAD_VEC     each thread copies 16 bytes at a time (global_load_dwordx4, ds_write_b128)
//          LOAD_DIRECT  gfx950 only: buffer_load_dwordx4 ... lds, global -> LDS without registers
//   SWZ                 XOR-swizzle the 16-byte chunks of each LDS row (gemm_common.h: swz)
//   DBUF                two LDS buffers: the next K stage is loaded while this one is multiplied
//   KT   (default 1)    K tiles per stage: each barrier round stages KT consecutive 128-byte K
//                       tiles (a K step of KT * BK values) and multiplies all of them, so there
//                       are K / (KT * BK) rounds of barriers instead of K / BK. LDS holds, per
//                       buffer, KT tiles of A (BM x 128 bytes each, one after the other) and KT of
//                       B; each tile is laid out (and swizzled) exactly as with KT = 1, so the
//                       operand reads are the same. LDS = NBUF * KT * (BM + BN) * 128 bytes
//                       (gfx950 has 160 KiB, gfx942 64 KiB).
//
// Edges: rows of A past M and rows of B past N read as zero and C is stored only inside M x N,
// so M and N need not be multiples of the tile; K must be a multiple of KT * BK (BK = 64 bf16 /
// 128 fp8 values).
// Launch: grid = ceil(M / BM) * ceil(N / BN) (1-D, row-major over C tiles), block = 64*WM*WN.
#pragma once
#include "gemm_common.h"

enum { LOAD_ELEM = 0, LOAD_VEC = 1, LOAD_DIRECT = 2 };

// Register-staged copy of KT consecutive ROWS x 128-byte K tiles by NT threads: global ->
// registers (`regs`) -> LDS, tile kt (k0 + kt * BK ...) at lds + kt * ROWS * BK_BYTES.
template <int ROWS, int NT, int LOAD, int KT = 1>
struct Stage {
  static constexpr int CHUNKS = ROWS * 8 / NT;        // 16-byte chunks per thread per K tile
  u32x4 regs[LOAD == LOAD_VEC ? KT * CHUNKS : 1];

  __device__ __forceinline__ void load(const elem_t* G, int row0, int rows, int K, int k0) {
    int tid = threadIdx.x;
#pragma unroll
    for (int kt = 0; kt < KT; ++kt)
#pragma unroll
      for (int it = 0; it < CHUNKS; ++it) {
        int slot = it * NT + tid, row = slot >> 3, c = slot & 7;
        const u32x4* src = (const u32x4*)(G + (long)(row0 + row) * K + k0 + kt * BK) + c;
        regs[kt * CHUNKS + it] = (row0 + row < rows) ? *src : u32x4{0, 0, 0, 0};
      }
  }
  template <bool SWZ>
  __device__ __forceinline__ void store(unsigned char* lds) {
    int tid = threadIdx.x;
#pragma unroll
    for (int kt = 0; kt < KT; ++kt)
#pragma unroll
      for (int it = 0; it < CHUNKS; ++it) {
        int slot = it * NT + tid, row = slot >> 3, c = (slot & 7) ^ (SWZ ? swz(row) : 0);
        *(u32x4*)(lds + kt * ROWS * BK_BYTES + row * BK_BYTES + c * 16) = regs[kt * CHUNKS + it];
      }
  }
};

// Element-at-a-time copy (steps 3-4): consecutive threads take consecutive elements of a row.
// KT consecutive K tiles (k0, k0 + BK, ...), tile kt at lds + kt * ROWS * BK_BYTES. The next tile
// is a compile-time recursion rather than a loop, so KT = 1 is exactly the one-tile copy.
template <int ROWS, int NT, bool SWZ, int KT = 1>
__device__ __forceinline__ void copy_elems(unsigned char* lds, const elem_t* G, int row0, int rows,
                                           int K, int k0) {
  elem_t* t = (elem_t*)lds;
  for (int e = threadIdx.x; e < ROWS * BK; e += NT) {
    int row = e / BK, k = e % BK;
    int kb = k * ESIZE, c = (kb >> 4) ^ (SWZ ? swz(row) : 0);
    t[(row * BK_BYTES + c * 16 + (kb & 15)) / ESIZE] =
        (row0 + row < rows) ? G[(long)(row0 + row) * K + k0 + k] : (elem_t)0;
  }
  if constexpr (KT > 1)
    copy_elems<ROWS, NT, SWZ, KT - 1>(lds + ROWS * BK_BYTES, G, row0, rows, K, k0 + BK);
}

#if defined(__gfx950__)
// Direct global->LDS copy of KT consecutive K tiles (bytes kbyte0 + kt * BK_BYTES ... of each
// row), tile kt at lds + kt * ROWS * BK_BYTES (gemm_common.h load_tile_direct per tile).
template <int ROWS, int NT, bool SWZ, int KT>
__device__ __forceinline__ void load_tiles_direct(unsigned char* lds, __amdgpu_buffer_rsrc_t rsrc,
                                                  int row0, int K, int kbyte0) {
#pragma unroll
  for (int kt = 0; kt < KT; ++kt)
    load_tile_direct<ROWS, NT, SWZ>(lds + kt * ROWS * BK_BYTES, rsrc, row0, K,
                                    kbyte0 + kt * BK_BYTES);
}
#endif

template <int BM, int BN, int WM, int WN, int LOAD, bool SWZ, bool DBUF, int KT = 1>
__device__ __forceinline__ void gemm_tiled(const elem_t* A, const elem_t* B, float* C, int M,
                                           int N, int K) {
  constexpr int NT = 64 * WM * WN, TM = BM / WM / 16, TN = BN / WN / 16, NBUF = DBUF ? 2 : 1;
  static_assert(TM >= 1 && TN >= 1 && BM % (16 * WM) == 0 && BN % (16 * WN) == 0, "tile shape");
  static_assert(LOAD == LOAD_ELEM || (BM * 8) % NT == 0 && (BN * 8) % NT == 0, "chunks/thread");
  static_assert(!(DBUF && LOAD == LOAD_ELEM), "double buffering needs LOAD_VEC or LOAD_DIRECT");
  static_assert(KT >= 1, "KT: K tiles per stage");
  constexpr int SK = KT * BK, SKB = KT * BK_BYTES;    // one stage: K values, bytes of each row
  __shared__ __attribute__((aligned(16))) unsigned char As[NBUF][KT * BM * BK_BYTES];
  __shared__ __attribute__((aligned(16))) unsigned char Bs[NBUF][KT * BN * BK_BYTES];

  int tiles_n = (N + BN - 1) / BN;
  int m0 = (blockIdx.x / tiles_n) * BM, n0 = (blockIdx.x % tiles_n) * BN;
  int wave = threadIdx.x >> 6, lane = threadIdx.x & 63;
  int wm = wave / WN, wn = wave % WN;                 // this wave's place in the WM x WN grid
  int arow = wm * (BM / WM) + (lane & 15), brow = wn * (BN / WN) + (lane & 15);

  floatx4 acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = floatx4{0, 0, 0, 0};

  // The MFMAs of one stage (KT K tiles): read operands from LDS, multiply; each A operand is
  // reused TN times and each B operand TM times (register blocking).
  auto compute = [&](const unsigned char* as, const unsigned char* bs) {
#pragma unroll
    for (int kt = 0; kt < KT; ++kt)
#pragma unroll
      for (int ks = 0; ks < KSTEPS; ++ks) {
        int kb = ks * 4 * OPND_BYTES + (lane >> 4) * OPND_BYTES;
        opnd_t a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i)
          a[i] = read_operand<SWZ>(as + kt * BM * BK_BYTES, arow + i * 16, kb);
#pragma unroll
        for (int j = 0; j < TN; ++j)
          b[j] = read_operand<SWZ>(bs + kt * BN * BK_BYTES, brow + j * 16, kb);
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = mfma(a[i], b[j], acc[i][j]);
      }
  };

  int stages = K / SK;                                // K stages (of KT K tiles each)
  if constexpr (LOAD == LOAD_DIRECT) {
#if defined(__gfx950__)
    __amdgpu_buffer_rsrc_t ra = make_rsrc(A, M, K), rb = make_rsrc(B, N, K);
    load_tiles_direct<BM, NT, SWZ, KT>(As[0], ra, m0, K, 0);
    load_tiles_direct<BN, NT, SWZ, KT>(Bs[0], rb, n0, K, 0);
    for (int t = 0; t < stages; ++t) {
      int cur = DBUF ? t & 1 : 0;
      wait_vmcnt0();                    // this wave's loads of stage t have landed in LDS ...
      __syncthreads();                  // ... and every other wave's too
      if (DBUF && t + 1 < stages) {     // prefetch the next stage into the other buffer
        load_tiles_direct<BM, NT, SWZ, KT>(As[cur ^ 1], ra, m0, K, (t + 1) * SKB);
        load_tiles_direct<BN, NT, SWZ, KT>(Bs[cur ^ 1], rb, n0, K, (t + 1) * SKB);
      }
      compute(As[cur], Bs[cur]);
      if (!DBUF && t + 1 < stages) {    // single buffer: wait until all waves are done with it
        __syncthreads();
        load_tiles_direct<BM, NT, SWZ, KT>(As[0], ra, m0, K, (t + 1) * SKB);
        load_tiles_direct<BN, NT, SWZ, KT>(Bs[0], rb, n0, K, (t + 1) * SKB);
      }
    }
#else
    static_assert(LOAD != LOAD_DIRECT, "LOAD_DIRECT (16-byte global->LDS) needs gfx950");
#endif
  } else if constexpr (LOAD == LOAD_VEC && !DBUF) {
    Stage<BM, NT, LOAD, KT> sa;
    Stage<BN, NT, LOAD, KT> sb;
    for (int t = 0; t < stages; ++t) {
      if (t) __syncthreads();           // everyone is done reading the previous stage
      sa.load(A, m0, M, K, t * SK);
      sb.load(B, n0, N, K, t * SK);
      sa.template store<SWZ>(As[0]);
      sb.template store<SWZ>(Bs[0]);
      __syncthreads();
      compute(As[0], Bs[0]);
    }
  } else if constexpr (LOAD == LOAD_VEC) {
    Stage<BM, NT, LOAD, KT> sa;
    Stage<BN, NT, LOAD, KT> sb;
    sa.load(A, m0, M, K, 0);
    sb.load(B, n0, N, K, 0);
    sa.template store<SWZ>(As[0]);
    sb.template store<SWZ>(Bs[0]);
    for (int t = 0; t < stages; ++t) {
      int cur = t & 1;
      __syncthreads();                  // stage t is in LDS; nobody reads buffer cur ^ 1 any more
      bool next = t + 1 < stages;
      if (next) {                       // the next stage's global loads are in flight ...
        sa.load(A, m0, M, K, (t + 1) * SK);
        sb.load(B, n0, N, K, (t + 1) * SK);
      }
      compute(As[cur], Bs[cur]);        // ... while this stage is multiplied
      if (next) {
        sa.template store<SWZ>(As[cur ^ 1]);
        sb.template store<SWZ>(Bs[cur ^ 1]);
      }
    }
  } else {
    for (int t = 0; t < stages; ++t) {
      if (t) __syncthreads();
      copy_elems<BM, NT, SWZ, KT>(As[0], A, m0, M, K, t * SK);
      copy_elems<BN, NT, SWZ, KT>(Bs[0], B, n0, N, K, t * SK);
      __syncthreads();
      compute(As[0], Bs[0]);
    }
  }
  store_acc<TM, TN>(C, acc, m0 + wm * (BM / WM), n0 + wn * (BN / WN), M, N);
}
