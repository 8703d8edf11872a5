// The eleven rungs of AMD's CDNA4 FP8 GEMM tutorial, reconstructed for the timing model's
// calibration (tests/gemm_blog.py). Sources: the tutorial notebook (ROCm/gpuaidev @ da0b2b5,
// docs/notebooks/gpu_dev_optimize/fp8_gemm_hip_cdna4.ipynb) and the blog that publishes its
// MI355X numbers (ROCm/rocm-blogs @ c9ef8066,
// blogs/software-tools-optimization/cdna4-gemm-kernels/README.md). Each kernel below is our own
// code for the algorithm of one notebook rung: the same tiles, thread-to-data mapping, load
// widths, LDS layout, swizzle, buffering, wave layout and launch, so that registers, LDS and the
// executed instruction mix follow the notebook's kernel.
//
// C (M x N, bf16) = alpha * A (M x K, fp8 e4m3, row-major) . B^T (B: N x K, fp8 e4m3, row-major)
// [+ beta * C] (tests/gemm_blog.py passes lda = ldb = K, ldc = N). Rungs 1-10 take (A, B, C, M,
// N, K, lda, ldb, ldc, alpha, beta); the ping-pong takes (A, B, C) and is compiled per shape.
//
//  1 fp8_naive         notebook rung "naive": one thread per C element, byte loads.
//                      grid (N/16, M/16), block (16, 16)
//  2 fp8_lds_tiled     rung "LDS tiling": each wave (16 x 4 threads) owns PRIVATE fp32 LDS tiles
//                      (A 4 x 16, B 16 x 16) of a 16-deep K slice; 16 x 16 C per block.
//                      grid (N/16, M/16), block (16, 16)
//  3 fp8_mfma          rung "MFMA 16x16x128": 4 waves (2 x 2), one 16 x 16 C tile each, each wave
//                      stages its own 16 x 128 A and B tiles in PRIVATE LDS with byte loads.
//                      grid (N/32, M/32), block (64, 4)
//  4 fp8_mfma_vec      rung "vectorized loads": as 3, tiles copied global -> VGPR -> LDS 16 bytes
//                      per lane (two rows of A and of B per lane). Same launch as 3.
//  5 fp8_bufferload    rung "direct global -> LDS": as 4 with buffer_load_dwordx4 ... lds and
//                      ds_read_b128 operand reads. Same launch as 3.
//  6 fp8_bufferload_swz rung "XOR LDS swizzle": as 5, 16-byte chunks of each row pair XOR-permuted
//                      (chosen at the global source, undone at the LDS read). Same launch as 3.
//  7 fp8_double_buffer rung "double buffering": 64 x 64 block tile, 2 x 2 waves of 32 x 32 (2 x 2
//                      MFMA tiles), one SHARED double-buffered LDS tile, next K slice prefetched
//                      while this one is multiplied. grid (N/64, M/64), block (64, 4)
//  8 fp8_mw128_t512    rung "multi-wave 128x128, 512 threads": 8 waves of 64 x 32 (4 x 2 MFMA
//                      tiles), the 128 x 128 x 128 tiles double-buffered in shared LDS.
//                      grid (N/128, M/128), block 512
//  9 fp8_mw256_t512    rung "multi-wave 256x256x128, 512 threads": 8 waves of 128 x 64 (8 x 4 MFMA
//                      tiles), LDS in 128-row halves, launch_bounds(512, 2); the instance the
//                      notebook launches for beta == 0 (beta is not read). grid (N/256, M/256),
//                      block 512
// 10 fp8_mw256_t1024   rung "multi-wave 256x256, 1024 threads": 16 waves, each two 64 x 32 wave
//                      tiles, launch_bounds(1024, 2); beta == 0 instance. grid (N/256, M/256),
//                      block 1024
// 11 fp8_pingpong_<n>  rung "8-wave ping-pong": 256 x 256 x 128, two groups of 4 waves offset by
//                      one barrier so that one group multiplies while the other loads; C stored
//                      with truncating bf16. Compiled for M = N = K = n (n = 256, 512, 1024,
//                      4096, 8192). grid (M * N / 65536), block 512
//
// Inlining: clang inlines a __forceinline__ helper before optimising the caller and a plain
// `inline` one after optimising the helper on its own. Both give correct code, but register
// allocation and schedule differ; each helper below uses the order that reproduces the notebook
// kernel's registers and instruction mix (the ping-pong's helpers and rungs 5-6's body are plain
// inline for that reason).
#include <hip/hip_runtime.h>
#include <hip/hip_fp8.h>
#include <hip/hip_ext_ocp.h>

#include <cstdint>

typedef __hip_fp8_e4m3 e4m3_t;
typedef __hip_bfloat16 bf16_t;
typedef __amd_fp8_storage_t raw8;                                // one fp8 value as its byte
typedef raw8 raw8x16 __attribute__((vector_size(16)));
typedef raw8 raw8x32 __attribute__((vector_size(32)));            // an MFMA operand per lane
typedef float f32x4 __attribute__((vector_size(16)));             // an MFMA accumulator per lane
typedef int32_t s32x4 __attribute__((ext_vector_type(4)));
typedef uint32_t u32x4 __attribute__((ext_vector_type(4)));
typedef int32_t s32x8 __attribute__((vector_size(32)));
typedef __attribute__((address_space(3))) uint32_t* lds_u32p;

#define LADDER_ARGS                                                                            \
  const e4m3_t *A, const e4m3_t *B, bf16_t *C, int M, int N, int K, int lda, int ldb, int ldc, \
      float alpha, float beta

// ---- shared pieces ----------------------------------------------------------------------------

// C[at] = alpha * v + beta * C[at], C read only when beta != 0
__device__ __forceinline__ void put_c(bf16_t* C, int at, float alpha, float v, float beta) {
  const float old = (beta == 0.0f) ? 0.0f : static_cast<float>(C[at]);
  C[at] = bf16_t(alpha * v + beta * old);
}

// 16x16x128 fp8 x fp8 -> fp32 (formats 0 = e4m3, unit scales)
__device__ __forceinline__ f32x4 mma_fp8(raw8x32 a, raw8x32 b, f32x4 c) {
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 0, 0, 0, 0, 0, 0);
}

// llvm.amdgcn.raw.buffer.load.lds: `bytes` per lane from the buffer at voffset into LDS at the
// wave-uniform `dst` (+ 16 bytes per lane)
__device__ void buffer_to_lds(s32x4 rsrc, lds_u32p dst, int bytes, int voffset, int soffset,
                              int imm, int aux) __asm("llvm.amdgcn.raw.buffer.load.lds");

// a raw buffer descriptor: 64-bit base, byte range, dword 3 = 0x110000 (the notebook's value)
__device__ inline s32x4 buffer_desc(const void* base, uint32_t range) {
  struct { uint64_t addr; uint32_t bytes; uint32_t word3; } d = {
      static_cast<uint64_t>(reinterpret_cast<uintptr_t>(base)), range, 0x110000u};
  return *reinterpret_cast<const s32x4*>(&d);
}

__device__ __forceinline__ lds_u32p as_lds(void* p) { return (lds_u32p)p; }

__device__ __forceinline__ uint32_t lds_addr(const void* p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}

// the XOR swizzle of rungs 6-10: in rows 2p and 2p + 1 (p = row / 2 mod 8) the 16-byte chunk
// index is XORed with p, bit 0 of p flipped when bits 1 and 2 of p differ (a permutation of 0-7
// per row pair, so that the 16 rows of an MFMA operand read spread over the LDS banks)
__device__ __forceinline__ int chunk_xor(int row) {
  const int p = (row >> 1) & 7;
  return (p ^ (((p >> 1) ^ (p >> 2)) & 1)) << 4;
}

// the same for a row of one 16-row tile (rung 6: rows are < 16, no wrap needed)
__device__ __forceinline__ int chunk_xor16(int row) {
  const int p = row >> 1;
  return (p ^ (((p >> 1) ^ (p >> 2)) & 1)) << 4;
}

// two MFMA operands (32 bytes each) filled from four 16-byte LDS reads
union operand_pair {
  struct { u32x4 lo, hi; } half;
  raw8x32 v;
};

// four ds_read_b128 (a.lo, a.hi, b.lo, b.hi) without a wait
__device__ inline void lds_read4(operand_pair& a, operand_pair& b, uint32_t p0, uint32_t p1,
                                 uint32_t p2, uint32_t p3) {
  asm volatile(
      "ds_read_b128 %0, %4\n\t"
      "ds_read_b128 %1, %5\n\t"
      "ds_read_b128 %2, %6\n\t"
      "ds_read_b128 %3, %7"
      : "=&v"(a.half.lo), "=&v"(a.half.hi), "=&v"(b.half.lo), "=&v"(b.half.hi)
      : "v"(p0), "v"(p1), "v"(p2), "v"(p3)
      : "memory");
}

__device__ inline void wait_lds() { asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory"); }
__device__ __forceinline__ void wait_vmem() { asm volatile("s_waitcnt vmcnt(0)" ::: "memory"); }

// ---- 1: naive ---------------------------------------------------------------------------------

extern "C" __global__ void fp8_naive(LADDER_ARGS) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;  // C row
  const int j = blockIdx.x * blockDim.x + threadIdx.x;  // C column
  if (i >= M || j >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += float(A[i * lda + k]) * float(B[j * ldb + k]);
  put_c(C, i * ldc + j, alpha, sum, beta);
}

// ---- 2: LDS tiling, one private tile pair per wave ----------------------------------------------

extern "C" __global__ void fp8_lds_tiled(LADDER_ARGS) {
  constexpr int WR = 4;       // C rows per wave = threadIdx.y values per wave
  constexpr int NC = 16;      // C columns per block = blockDim.x
  constexpr int KD = 16;      // K depth of one LDS tile
  constexpr int NW = 4;       // waves per block
  __shared__ float a_t[NW][WR][KD];
  __shared__ float b_t[NW][KD][NC];

  const int w = threadIdx.y / WR;
  const int y = threadIdx.y % WR;
  const int i = blockIdx.y * (WR * NW) + w * WR + y;
  const int j = blockIdx.x * NC + threadIdx.x;

  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += KD) {
    a_t[w][y][threadIdx.x] = float(A[i * lda + (k0 + threadIdx.x)]);  // one A byte per thread
#pragma unroll
    for (int kk = y; kk < KD; kk += WR)                                // four B bytes per thread
      b_t[w][kk][threadIdx.x] = float(B[j * ldb + (k0 + kk)]);
    __syncthreads();
    for (int k = 0; k < KD; ++k) sum += a_t[w][y][k] * b_t[w][k][threadIdx.x];
    __syncthreads();
  }
  put_c(C, i * ldc + j, alpha, sum, beta);
}

// ---- 3-6: one 16 x 16 MFMA tile per wave, private 16 x 128 LDS tiles per wave -----------------

// rung 3's staging: the wave's lanes copy a 16 x 128 byte tile element by element (zero outside
// rows < rows_end or k < K)
__device__ __forceinline__ void stage_bytewise(raw8 (*dst)[128], const raw8* src, int row0,
                                               int rows_end, int ld, int k0, int K) {
  for (int e = threadIdx.x; e < 16 * 128; e += blockDim.x) {
    const int r = e / 128;
    const int c = e % 128;
    const int gr = row0 + r;
    const int gk = k0 + c;
    dst[r][c] = (gr < rows_end && gk < K) ? src[gr * ld + gk] : raw8{};
  }
}

extern "C" __global__ void fp8_mfma(LADDER_ARGS) {
  if ((K % 128) != 0) return;
  const int w = threadIdx.y;
  if (w >= 4) return;
  const int m0 = blockIdx.y * 32 + (w / 2) * 16;
  const int n0 = blockIdx.x * 32 + (w % 2) * 16;

  __shared__ raw8 a_t[4][16][128] __attribute__((aligned(32)));
  __shared__ raw8 b_t[4][16][128] __attribute__((aligned(32)));

  const int lane = threadIdx.x & 63;
  const int r = lane & 15;          // A row / B column of this lane's operand
  const int q = lane >> 4;          // which 16-byte k chunk (and q + 4)
  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  f32x4 acc = {0.f, 0.f, 0.f, 0.f};

  for (int k0 = 0; k0 < K; k0 += 128) {
    stage_bytewise(a_t[w], a8, m0, M, lda, k0, K);
    stage_bytewise(b_t[w], b8, n0, N, ldb, k0, K);
    __syncthreads();
    raw8x32 a{}, b{};
#pragma unroll
    for (int t = 0; t < 16; ++t) {
      a[t] = a_t[w][r][q * 16 + t];
      b[t] = b_t[w][r][q * 16 + t];
      a[16 + t] = a_t[w][r][64 + q * 16 + t];
      b[16 + t] = b_t[w][r][64 + q * 16 + t];
    }
    acc = mma_fp8(a, b, acc);
    __syncthreads();
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const int i = m0 + q * 4 + e;
    const int j = n0 + r;
    if (i < M && j < N) put_c(C, i * ldc + j, alpha, acc[e], beta);
  }
}

// 16 fp8 bytes from global memory as one 128-bit (uint4) load
__device__ __forceinline__ raw8x16 load16(const raw8* p) {
  const uint4 bits = *reinterpret_cast<const uint4*>(p);
  return *reinterpret_cast<const raw8x16*>(&bits);
}

extern "C" __global__ void fp8_mfma_vec(LADDER_ARGS) {
  if ((M % 32) != 0 || (N % 32) != 0 || (K % 128) != 0) return;
  const int w = threadIdx.y;
  if (w >= 4) return;
  const int m0 = blockIdx.y * 32 + (w / 2) * 16;
  const int n0 = blockIdx.x * 32 + (w % 2) * 16;

  __shared__ __align__(16) raw8 a_t[4][16][128];
  __shared__ __align__(16) raw8 b_t[4][16][128];

  const int t = threadIdx.x;
  const int r = (t & 63) & 15;
  const int q = (t & 63) >> 4;
  f32x4 acc = {0.f, 0.f, 0.f, 0.f};
  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);

  for (int k0 = 0; k0 < K; k0 += 128) {
    // this lane's two 16-byte chunks of each tile: rows t/8 and t/8 + 8, bytes (t%8)*16 ..
    const int row_a = t / 8;
    const int row_b = (t + 64) / 8;
    const int kc = (t % 8) * 16;
    const raw8x16 ga0 = load16(a8 + (m0 + row_a) * lda + (k0 + kc));
    const raw8x16 ga1 = load16(a8 + (m0 + row_b) * lda + (k0 + kc));
    *reinterpret_cast<raw8x16*>(&a_t[w][row_a][kc]) = ga0;
    *reinterpret_cast<raw8x16*>(&a_t[w][row_b][kc]) = ga1;
    const raw8x16 gb0 = load16(b8 + (n0 + row_a) * ldb + (k0 + kc));
    const raw8x16 gb1 = load16(b8 + (n0 + row_b) * ldb + (k0 + kc));
    *reinterpret_cast<raw8x16*>(&b_t[w][row_a][kc]) = gb0;
    *reinterpret_cast<raw8x16*>(&b_t[w][row_b][kc]) = gb1;
    __syncthreads();

    const raw8x16 alo = *reinterpret_cast<const raw8x16*>(&a_t[w][r][q * 16]);
    const raw8x16 ahi = *reinterpret_cast<const raw8x16*>(&a_t[w][r][q * 16 + 64]);
    const raw8x16 blo = *reinterpret_cast<const raw8x16*>(&b_t[w][r][q * 16]);
    const raw8x16 bhi = *reinterpret_cast<const raw8x16*>(&b_t[w][r][q * 16 + 64]);
    raw8x32 a{}, b{};
#pragma unroll
    for (int u = 0; u < 16; ++u) {
      a[u] = alo[u];
      a[16 + u] = ahi[u];
      b[u] = blo[u];
      b[16 + u] = bhi[u];
    }
    acc = mma_fp8(a, b, acc);
    __syncthreads();
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) put_c(C, (m0 + q * 4 + e) * ldc + (n0 + r), alpha, acc[e], beta);
}

// rungs 5 and 6: one template, SWZ = the chunk permutation on (rung 6) or off (rung 5)
template <bool SWZ>
__device__ inline void one_tile_per_wave_direct(LADDER_ARGS) {
  if ((M % 32) != 0 || (N % 32) != 0 || (K % 128) != 0) return;
  const int w = threadIdx.y;
  if (w >= 4) return;
  const int m0 = blockIdx.y * 32 + (w / 2) * 16;
  const int n0 = blockIdx.x * 32 + (w % 2) * 16;

  __shared__ __align__(16) raw8 a_t[4][16][128];
  __shared__ __align__(16) raw8 b_t[4][16][128];

  const int t = threadIdx.x;
  const int r = (t & 63) & 15;
  const int q = (t & 63) >> 4;
  // copy side: lane t fills LDS bytes [t * 16, t * 16 + 16) of rows 0-7 and of rows 8-15
  const int crow0 = t >> 3;
  const int crow1 = crow0 + 8;
  const int cbyte = (t & 7) * 16;
  // rung 6: the chunk stored at cbyte comes from global chunk cbyte ^ perm(row)
  const int src0 = SWZ ? (cbyte ^ chunk_xor16(crow0)) : cbyte;
  const int src1 = SWZ ? (cbyte ^ chunk_xor16(crow1)) : cbyte;

  f32x4 acc = {0.f, 0.f, 0.f, 0.f};
  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  const uint32_t a_bytes = static_cast<uint32_t>(M * lda * sizeof(raw8));
  const uint32_t b_bytes = static_cast<uint32_t>(N * ldb * sizeof(raw8));
  const s32x4 ra = buffer_desc(a8, a_bytes);
  const s32x4 rb = buffer_desc(b8, b_bytes);
  const int va0 = (m0 + crow0) * lda + src0;
  const int va1 = (m0 + crow1) * lda + src1;
  const int vb0 = (n0 + crow0) * ldb + src0;
  const int vb1 = (n0 + crow1) * ldb + src1;
  lds_u32p da0 = as_lds(&a_t[w][crow0][cbyte]);
  lds_u32p da1 = as_lds(&a_t[w][crow1][cbyte]);
  lds_u32p db0 = as_lds(&b_t[w][crow0][cbyte]);
  lds_u32p db1 = as_lds(&b_t[w][crow1][cbyte]);

  for (int k0 = 0; k0 < K; k0 += 128) {
    buffer_to_lds(ra, da0, 16, va0 + k0, 0, 0, 0);
    buffer_to_lds(ra, da1, 16, va1 + k0, 0, 0, 0);
    buffer_to_lds(rb, db0, 16, vb0 + k0, 0, 0, 0);
    buffer_to_lds(rb, db1, 16, vb1 + k0, 0, 0, 0);
    asm volatile("s_waitcnt vmcnt(0)");
    __syncthreads();

    // read side: this lane's k chunks q and q + 4 of row r, where they were stored
    const int xr = SWZ ? chunk_xor16(r) : 0;
    const int c0 = (q * 16) ^ xr, c1 = (q * 16 + 64) ^ xr;
    const uint32_t pa0 = lds_addr(&a_t[w][r][c0]);
    const uint32_t pa1 = lds_addr(&a_t[w][r][c1]);
    const uint32_t pb0 = lds_addr(&b_t[w][r][c0]);
    const uint32_t pb1 = lds_addr(&b_t[w][r][c1]);

    u32x4 x0, x1, y0, y1;
    asm volatile(
        "ds_read_b128 %0, %4\n\t"
        "ds_read_b128 %1, %5\n\t"
        "ds_read_b128 %2, %6\n\t"
        "ds_read_b128 %3, %7\n\t"
        "s_waitcnt lgkmcnt(0)"
        : "=v"(x0), "=v"(x1), "=v"(y0), "=v"(y1)
        : "v"(pa0), "v"(pa1), "v"(pb0), "v"(pb1)
        : "memory");
    union { u32x4 u; raw8x16 f; } a_lo, a_hi, b_lo, b_hi;
    a_lo.u = x0;
    a_hi.u = x1;
    b_lo.u = y0;
    b_hi.u = y1;
    raw8x32 a{}, b{};
#pragma unroll
    for (int u = 0; u < 16; ++u) {
      a[u] = a_lo.f[u];
      a[16 + u] = a_hi.f[u];
      b[u] = b_lo.f[u];
      b[16 + u] = b_hi.f[u];
    }
    acc = mma_fp8(a, b, acc);
    __syncthreads();
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) put_c(C, (m0 + q * 4 + e) * ldc + (n0 + r), alpha, acc[e], beta);
}

extern "C" __global__ void fp8_bufferload(LADDER_ARGS) {
  one_tile_per_wave_direct<false>(A, B, C, M, N, K, lda, ldb, ldc, alpha, beta);
}

extern "C" __global__ void fp8_bufferload_swz(LADDER_ARGS) {
  one_tile_per_wave_direct<true>(A, B, C, M, N, K, lda, ldb, ldc, alpha, beta);
}

// ---- 7: 64 x 64 block, 32 x 32 per wave, shared double-buffered LDS ----------------------------

extern "C" __global__ void fp8_double_buffer(LADDER_ARGS) {
  constexpr int BT = 64;          // block tile (M and N)
  constexpr int WT = 32;          // wave tile (M and N)
  constexpr int KT = 128;
  constexpr int ROWS_PER_WAVE = BT / 4;                  // rows of A (and of B) a wave copies
  constexpr int CHUNKS_PER_LANE = ROWS_PER_WAVE * 8 / 64;
  if ((M % BT) != 0 || (N % BT) != 0 || (K % KT) != 0) return;
  if (threadIdx.x >= 64) return;
  const int w = threadIdx.y;
  if (w >= 4) return;
  const int wy = w / 2, wx = w % 2;   // the wave's place in the 2 x 2 wave grid

  const int bm = blockIdx.y * BT;
  const int bn = blockIdx.x * BT;
  const int wm = wy * WT;         // the wave's rows inside the block tile
  const int wn = wx * WT;         // the wave's columns inside the block tile
  const int m0 = bm + wm;
  const int n0 = bn + wn;

  __shared__ __align__(16) raw8 a_t[2][BT][KT];
  __shared__ __align__(16) raw8 b_t[2][BT][KT];

  const int lane = threadIdx.x & 63;
  const int r = lane & 15;
  const int q = lane >> 4;
  const int klo = q * 16;
  const int khi = klo + 64;
  const int xa0 = chunk_xor(r), xa1 = chunk_xor(r + 16);
  const int xb0 = chunk_xor(r), xb1 = chunk_xor(r + 16);

  f32x4 acc00 = {0.f, 0.f, 0.f, 0.f}, acc01 = {0.f, 0.f, 0.f, 0.f};
  f32x4 acc10 = {0.f, 0.f, 0.f, 0.f}, acc11 = {0.f, 0.f, 0.f, 0.f};

  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  const uint32_t a_bytes = static_cast<uint32_t>(M * lda * sizeof(raw8));
  const uint32_t b_bytes = static_cast<uint32_t>(N * ldb * sizeof(raw8));
  const s32x4 ra = buffer_desc(a8, a_bytes);
  const s32x4 rb = buffer_desc(b8, b_bytes);

  // operand addresses in both buffers: A rows r and r + 16, B rows r and r + 16 of the wave
  uint32_t pa[2][4], pb[2][4];
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    pa[s][0] = lds_addr(&a_t[s][wm + r][klo ^ xa0]);
    pa[s][1] = lds_addr(&a_t[s][wm + r][khi ^ xa0]);
    pa[s][2] = lds_addr(&a_t[s][wm + r + 16][klo ^ xa1]);
    pa[s][3] = lds_addr(&a_t[s][wm + r + 16][khi ^ xa1]);
    pb[s][0] = lds_addr(&b_t[s][wn + r][klo ^ xb0]);
    pb[s][1] = lds_addr(&b_t[s][wn + r][khi ^ xb0]);
    pb[s][2] = lds_addr(&b_t[s][wn + r + 16][klo ^ xb1]);
    pb[s][3] = lds_addr(&b_t[s][wn + r + 16][khi ^ xb1]);
  }

  // the whole block copies A rows [bm, bm + 64) and B rows [bn, bn + 64) of one K slice:
  // wave w rows w*16 .. w*16 + 15, 8 lanes per row
  auto fetch = [&](int s, int k0) {
#pragma unroll
    for (int c = 0; c < CHUNKS_PER_LANE; ++c) {
      const int v = lane + c * 64;
      const int row = w * ROWS_PER_WAVE + (v >> 3);
      const int kb = (v & 7) * 16;
      const int src = kb ^ chunk_xor(row);
      buffer_to_lds(ra, as_lds(&a_t[s][row][kb]), 16, (bm + row) * lda + (k0 + src), 0, 0, 0);
    }
#pragma unroll
    for (int c = 0; c < CHUNKS_PER_LANE; ++c) {
      const int v = lane + c * 64;
      const int row = w * ROWS_PER_WAVE + (v >> 3);
      const int kb = (v & 7) * 16;
      const int src = kb ^ chunk_xor(row);
      buffer_to_lds(rb, as_lds(&b_t[s][row][kb]), 16, (bn + row) * ldb + (k0 + src), 0, 0, 0);
    }
  };

  fetch(0, 0);
  wait_vmem();
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += KT) {
    const int kn = k0 + KT;
    const int sn = s ^ 1;
    if (kn < K) fetch(sn, kn);

    operand_pair a0, a1, b0, b1;
    if (s == 0) {
      asm volatile(
          "ds_read_b128 %0, %8\n\tds_read_b128 %1, %9\n\tds_read_b128 %2, %10\n\t"
          "ds_read_b128 %3, %11\n\tds_read_b128 %4, %12\n\tds_read_b128 %5, %13\n\t"
          "ds_read_b128 %6, %14\n\tds_read_b128 %7, %15\n\ts_waitcnt lgkmcnt(0)"
          : "=v"(a0.half.lo), "=v"(a0.half.hi), "=v"(a1.half.lo), "=v"(a1.half.hi),
            "=v"(b0.half.lo), "=v"(b0.half.hi), "=v"(b1.half.lo), "=v"(b1.half.hi)
          : "v"(pa[0][0]), "v"(pa[0][1]), "v"(pa[0][2]), "v"(pa[0][3]),
            "v"(pb[0][0]), "v"(pb[0][1]), "v"(pb[0][2]), "v"(pb[0][3])
          : "memory");
    } else {
      asm volatile(
          "ds_read_b128 %0, %8\n\tds_read_b128 %1, %9\n\tds_read_b128 %2, %10\n\t"
          "ds_read_b128 %3, %11\n\tds_read_b128 %4, %12\n\tds_read_b128 %5, %13\n\t"
          "ds_read_b128 %6, %14\n\tds_read_b128 %7, %15\n\ts_waitcnt lgkmcnt(0)"
          : "=v"(a0.half.lo), "=v"(a0.half.hi), "=v"(a1.half.lo), "=v"(a1.half.hi),
            "=v"(b0.half.lo), "=v"(b0.half.hi), "=v"(b1.half.lo), "=v"(b1.half.hi)
          : "v"(pa[1][0]), "v"(pa[1][1]), "v"(pa[1][2]), "v"(pa[1][3]),
            "v"(pb[1][0]), "v"(pb[1][1]), "v"(pb[1][2]), "v"(pb[1][3])
          : "memory");
    }
    acc00 = mma_fp8(a0.v, b0.v, acc00);
    acc01 = mma_fp8(a0.v, b1.v, acc01);
    acc10 = mma_fp8(a1.v, b0.v, acc10);
    acc11 = mma_fp8(a1.v, b1.v, acc11);

    if (kn < K) {
      wait_vmem();
      __syncthreads();
      s = sn;
    }
  }

#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const int i0 = m0 + q * 4 + e, i1 = i0 + 16;
    const int j0 = n0 + r, j1 = j0 + 16;
    const float o00 = (beta == 0.0f) ? 0.0f : static_cast<float>(C[i0 * ldc + j0]);
    const float o01 = (beta == 0.0f) ? 0.0f : static_cast<float>(C[i0 * ldc + j1]);
    const float o10 = (beta == 0.0f) ? 0.0f : static_cast<float>(C[i1 * ldc + j0]);
    const float o11 = (beta == 0.0f) ? 0.0f : static_cast<float>(C[i1 * ldc + j1]);
    C[i0 * ldc + j0] = bf16_t(alpha * acc00[e] + beta * o00);
    C[i0 * ldc + j1] = bf16_t(alpha * acc01[e] + beta * o01);
    C[i1 * ldc + j0] = bf16_t(alpha * acc10[e] + beta * o10);
    C[i1 * ldc + j1] = bf16_t(alpha * acc11[e] + beta * o11);
  }
}

// ---- 8: 128 x 128 block, 8 waves of 64 x 32 ---------------------------------------------------

extern "C" __global__ void fp8_mw128_t512(LADDER_ARGS) {
  constexpr int BT = 128, KT = 128;
  if ((M % BT) != 0 || (N % BT) != 0 || (K % KT) != 0) return;
  if (blockDim.x != 512) return;

  const int bm = blockIdx.y * BT;
  const int bn = blockIdx.x * BT;
  __shared__ __align__(16) raw8 a_t[2][BT][KT];
  __shared__ __align__(16) raw8 b_t[2][BT][KT];

  const int t = threadIdx.x;
  const int w = t >> 6;
  const int lane = t & 63;
  const int r = lane & 15;
  const int q = lane >> 4;
  const int klo = q * 16, khi = klo + 64;
  const int wm = (w < 4) ? 0 : 64;      // waves 0-3: rows 0-63, waves 4-7: rows 64-127
  const int wn = (w & 3) * 32;          // 32 columns per wave

  // A rows wm + r + 16 * x (x = 0..3), B rows wn + r + 16 * y (y = 0..1)
  int ar[4], ax[4], br[2], bx[2];
#pragma unroll
  for (int x = 0; x < 4; ++x) { ar[x] = wm + r + 16 * x; ax[x] = chunk_xor(ar[x]); }
#pragma unroll
  for (int y = 0; y < 2; ++y) { br[y] = wn + r + 16 * y; bx[y] = chunk_xor(br[y]); }

  f32x4 acc[4][2];
#pragma unroll
  for (int x = 0; x < 4; ++x)
#pragma unroll
    for (int y = 0; y < 2; ++y) acc[x][y] = f32x4{0.f, 0.f, 0.f, 0.f};

  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  const uint32_t a_bytes = static_cast<uint32_t>(M * lda * sizeof(raw8));
  const uint32_t b_bytes = static_cast<uint32_t>(N * ldb * sizeof(raw8));
  const s32x4 ra = buffer_desc(a8, a_bytes);
  const s32x4 rb = buffer_desc(b8, b_bytes);

  uint32_t pa[2][8], pb[2][4];   // [buffer][lo/hi chunk of each operand row]
#pragma unroll
  for (int s = 0; s < 2; ++s) {
#pragma unroll
    for (int x = 0; x < 4; ++x) {
      pa[s][2 * x] = lds_addr(&a_t[s][ar[x]][klo ^ ax[x]]);
      pa[s][2 * x + 1] = lds_addr(&a_t[s][ar[x]][khi ^ ax[x]]);
    }
#pragma unroll
    for (int y = 0; y < 2; ++y) {
      pb[s][2 * y] = lds_addr(&b_t[s][br[y]][klo ^ bx[y]]);
      pb[s][2 * y + 1] = lds_addr(&b_t[s][br[y]][khi ^ bx[y]]);
    }
  }

  // wave w copies rows w*8 + lane/8 and that + 64 of both A and B, 8 lanes per 128-byte row
  auto fetch = [&](int s, int k0) {
    const int kb = (lane & 7) * 16;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = w * 8 + (lane >> 3) + h * 64;
      const int src = kb ^ chunk_xor(row);
      const lds_u32p da = as_lds(&a_t[s][row][kb]);
      const lds_u32p db = as_lds(&b_t[s][row][kb]);
      buffer_to_lds(ra, da, 16, (bm + row) * lda + (k0 + src), 0, 0, 0);
      buffer_to_lds(rb, db, 16, (bn + row) * ldb + (k0 + src), 0, 0, 0);
    }
  };

  fetch(0, 0);
  asm volatile("s_waitcnt vmcnt(0)");
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += KT) {
    const int kn = k0 + KT;
    const int sn = s ^ 1;
    if (kn < K) fetch(sn, kn);

    operand_pair a[4], b[2];
#define LADDER_READ12(S)                                                                        \
  asm volatile(                                                                                 \
      "ds_read_b128 %0, %12\n\tds_read_b128 %1, %13\n\tds_read_b128 %2, %14\n\t"                \
      "ds_read_b128 %3, %15\n\tds_read_b128 %4, %16\n\tds_read_b128 %5, %17\n\t"                \
      "ds_read_b128 %6, %18\n\tds_read_b128 %7, %19\n\tds_read_b128 %8, %20\n\t"                \
      "ds_read_b128 %9, %21\n\tds_read_b128 %10, %22\n\tds_read_b128 %11, %23\n\t"              \
      "s_waitcnt lgkmcnt(0)"                                                                    \
      : "=&v"(a[0].half.lo), "=&v"(a[0].half.hi), "=&v"(a[1].half.lo), "=&v"(a[1].half.hi),    \
        "=&v"(a[2].half.lo), "=&v"(a[2].half.hi), "=&v"(a[3].half.lo), "=&v"(a[3].half.hi),    \
        "=&v"(b[0].half.lo), "=&v"(b[0].half.hi), "=&v"(b[1].half.lo), "=&v"(b[1].half.hi)     \
      : "v"(pa[S][0]), "v"(pa[S][1]), "v"(pa[S][2]), "v"(pa[S][3]), "v"(pa[S][4]),             \
        "v"(pa[S][5]), "v"(pa[S][6]), "v"(pa[S][7]), "v"(pb[S][0]), "v"(pb[S][1]),             \
        "v"(pb[S][2]), "v"(pb[S][3])                                                           \
      : "memory")
    if (s == 0) {
      LADDER_READ12(0);
    } else {
      LADDER_READ12(1);
    }
#undef LADDER_READ12
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
      for (int y = 0; y < 2; ++y) acc[x][y] = mma_fp8(a[x].v, b[y].v, acc[x][y]);

    if (kn < K) {
      asm volatile("s_waitcnt vmcnt(0)");
      __syncthreads();
      s = sn;
    }
  }

  const int j0 = bn + wn + r, j1 = j0 + 16;
  if (beta == 0.0f) {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int i = bm + wm + q * 4 + e;
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        C[(i + 16 * x) * ldc + j0] = bf16_t(alpha * acc[x][0][e]);
        C[(i + 16 * x) * ldc + j1] = bf16_t(alpha * acc[x][1][e]);
      }
    }
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int i = bm + wm + q * 4 + e;
      float old[4][2];
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        old[x][0] = static_cast<float>(C[(i + 16 * x) * ldc + j0]);
        old[x][1] = static_cast<float>(C[(i + 16 * x) * ldc + j1]);
      }
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        C[(i + 16 * x) * ldc + j0] = bf16_t(alpha * acc[x][0][e] + beta * old[x][0]);
        C[(i + 16 * x) * ldc + j1] = bf16_t(alpha * acc[x][1][e] + beta * old[x][1]);
      }
    }
  }
}

// ---- 9: 256 x 256 block, 8 waves of 128 x 64, LDS in 128-row halves ---------------------------

extern "C" __global__ __launch_bounds__(512, 2) void fp8_mw256_t512(
    const e4m3_t* __restrict__ A, const e4m3_t* __restrict__ B, bf16_t* __restrict__ C, int M,
    int N, int K, int lda, int ldb, int ldc, float alpha, float beta) {
  (void)beta;  // the beta == 0 instance: C is only written
  constexpr int BT = 256, KT = 128;
  if ((M % BT) != 0 || (N % BT) != 0 || (K % KT) != 0) return;
  if (blockDim.x != 512 || blockIdx.z != 0) return;

  const int bm = blockIdx.y * BT;
  const int bn = blockIdx.x * BT;
  // [buffer][128-row half][row][k]
  __shared__ __align__(16) raw8 a_t[2][2][128][KT];
  __shared__ __align__(16) raw8 b_t[2][2][128][KT];

  const int t = threadIdx.x;
  const int w = t >> 6;
  const int lane = t & 63;
  const int r = lane & 15;
  const int q = lane >> 4;
  const int klo = q * 16, khi = klo + 64;
  const int ah = w >> 2;          // the A half (128 rows) this wave multiplies
  const int slot = w & 3;         // its 32 columns inside each B half

  // A rows r + 16 x (x = 0..7) of half ah; B rows slot*32 + r (+16) of both halves
  int ax[8];
#pragma unroll
  for (int x = 0; x < 8; ++x) ax[x] = chunk_xor(ah * 128 + r + 16 * x);
  const int b_r0 = slot * 32 + r;
  const int b_r1 = b_r0 + 16;
  const int bx00 = chunk_xor(b_r0), bx01 = chunk_xor(b_r1);
  const int bx10 = chunk_xor(128 + b_r0), bx11 = chunk_xor(128 + b_r1);

  f32x4 acc[2][4][4];   // [A part: rows 0-63 / 64-127 of the half][16-row tile][16-col tile]
#pragma unroll
  for (int p = 0; p < 2; ++p)
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
      for (int y = 0; y < 4; ++y) acc[p][x][y] = f32x4{0.f, 0.f, 0.f, 0.f};

  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  const uint32_t a_bytes = static_cast<uint32_t>(M * lda * sizeof(raw8));
  const uint32_t b_bytes = static_cast<uint32_t>(N * ldb * sizeof(raw8));
  const s32x4 ra = buffer_desc(a8, a_bytes);
  const s32x4 rb = buffer_desc(b8, b_bytes);

  // wave w copies rows w*8 + lane/8 (+64) of each half of A and of B
  auto fetch = [&](int s, int k0) {
    const int sub = lane >> 3;
    const int kb = (lane & 7) * 16;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
#pragma unroll
      for (int g = 0; g < 2; ++g) {
        const int row = w * 8 + sub + g * 64;
        const int grow = h * 128 + row;
        const int src = kb ^ chunk_xor(grow);
        const lds_u32p da = as_lds(&a_t[s][h][row][kb]);
        const lds_u32p db = as_lds(&b_t[s][h][row][kb]);
        buffer_to_lds(ra, da, 16, (bm + grow) * lda + (k0 + src), 0, 0, 0);
        buffer_to_lds(rb, db, 16, (bn + grow) * ldb + (k0 + src), 0, 0, 0);
      }
    }
  };

  auto multiply = [&](int s) {
    operand_pair b[4];
    lds_read4(b[0], b[1],
              lds_addr(&b_t[s][0][b_r0][klo ^ bx00]), lds_addr(&b_t[s][0][b_r0][khi ^ bx00]),
              lds_addr(&b_t[s][0][b_r1][klo ^ bx01]), lds_addr(&b_t[s][0][b_r1][khi ^ bx01]));
    lds_read4(b[2], b[3],
              lds_addr(&b_t[s][1][b_r0][klo ^ bx10]), lds_addr(&b_t[s][1][b_r0][khi ^ bx10]),
              lds_addr(&b_t[s][1][b_r1][klo ^ bx11]), lds_addr(&b_t[s][1][b_r1][khi ^ bx11]));
    wait_lds();

    operand_pair a[2][4];
#define LADDER_A_ROWS(P, X)                                                                    \
  lds_read4(a[P][X], a[P][X + 1],                                                              \
            lds_addr(&a_t[s][ah][r + 16 * (4 * P + X)][klo ^ ax[4 * P + X]]),                  \
            lds_addr(&a_t[s][ah][r + 16 * (4 * P + X)][khi ^ ax[4 * P + X]]),                  \
            lds_addr(&a_t[s][ah][r + 16 * (4 * P + X + 1)][klo ^ ax[4 * P + X + 1]]),          \
            lds_addr(&a_t[s][ah][r + 16 * (4 * P + X + 1)][khi ^ ax[4 * P + X + 1]]))
    LADDER_A_ROWS(0, 0);
    LADDER_A_ROWS(0, 2);
    wait_lds();
    LADDER_A_ROWS(1, 0);   // rows 64-95 of the half load while part 0 multiplies
#pragma unroll
    for (int y = 0; y < 4; ++y)
#pragma unroll
      for (int x = 0; x < 4; ++x) acc[0][x][y] = mma_fp8(a[0][x].v, b[y].v, acc[0][x][y]);
    LADDER_A_ROWS(1, 2);
#undef LADDER_A_ROWS
    wait_lds();
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
      for (int y = 0; y < 4; ++y) acc[1][x][y] = mma_fp8(a[1][x].v, b[y].v, acc[1][x][y]);
  };

  fetch(0, 0);
  wait_vmem();
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += KT) {
    const int kn = k0 + KT;
    const int sn = s ^ 1;
    if (kn < K) fetch(sn, kn);
    multiply(s);
    if (kn < K) {
      wait_vmem();
      __syncthreads();
      s = sn;
    }
  }

  // columns: slot*32 + r (+16) of B half 0, and the same of B half 1
  const int j00 = bn + slot * 32 + r, j01 = j00 + 16;
  const int j10 = bn + 128 + slot * 32 + r, j11 = j10 + 16;
#pragma unroll
  for (int p = 0; p < 2; ++p) {
#pragma unroll
    for (int x = 0; x < 4; ++x) {
      const int i0 = bm + ah * 128 + p * 64 + x * 16 + q * 4;
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int at = (i0 + e) * ldc;
        const bf16_t v0 = bf16_t(alpha * acc[p][x][0][e]);
        const bf16_t v1 = bf16_t(alpha * acc[p][x][1][e]);
        const bf16_t v2 = bf16_t(alpha * acc[p][x][2][e]);
        const bf16_t v3 = bf16_t(alpha * acc[p][x][3][e]);
        C[at + j00] = v0;
        C[at + j01] = v1;
        C[at + j10] = v2;
        C[at + j11] = v3;
      }
    }
  }
}

// ---- 10: 256 x 256 block, 16 waves, each two 64 x 32 wave tiles ------------------------------

extern "C" __global__ __launch_bounds__(1024, 2) void fp8_mw256_t1024(LADDER_ARGS) {
  (void)beta;  // the beta == 0 instance: C is only written
  constexpr int BT = 256, KT = 128, NT = 1024;
  constexpr int TILES_N = BT / 32;                        // 8 wave tiles across
  constexpr int TILES = (BT / 64) * TILES_N;              // 32 wave tiles of 64 x 32
  constexpr int PER_WAVE = (TILES + NT / 64 - 1) / (NT / 64);
  constexpr int CHUNKS = BT * (KT / 16) / NT;             // 16-byte chunks per thread and operand
  if ((M % BT) != 0 || (N % BT) != 0 || (K % KT) != 0) return;
  if (blockDim.x != NT || blockIdx.z != 0) return;

  const int bm = blockIdx.y * BT;
  const int bn = blockIdx.x * BT;
  __shared__ __align__(16) raw8 a_t[2][BT][KT];
  __shared__ __align__(16) raw8 b_t[2][BT][KT];

  const int t = threadIdx.x;
  const int w = t >> 6;
  const int lane = t & 63;
  const int r = lane & 15;
  const int q = lane >> 4;
  const int klo = q * 16, khi = klo + 64;

  // wave w owns wave tiles w and w + 16 (row-major over the 4 x 8 grid of 64 x 32 tiles)
  int tm[PER_WAVE], tn[PER_WAVE], live[PER_WAVE];
#pragma unroll
  for (int u = 0; u < PER_WAVE; ++u) {
    const int id = w + u * (NT / 64);
    const bool ok = id < TILES;
    live[u] = ok ? 1 : 0;
    tm[u] = ok ? ((id / TILES_N) * 64) : 0;
    tn[u] = ok ? ((id % TILES_N) * 32) : 0;
  }

  f32x4 acc[PER_WAVE][4][2];
#pragma unroll
  for (int u = 0; u < PER_WAVE; ++u)
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
      for (int y = 0; y < 2; ++y) acc[u][x][y] = f32x4{0.f, 0.f, 0.f, 0.f};

  const raw8* a8 = reinterpret_cast<const raw8*>(A);
  const raw8* b8 = reinterpret_cast<const raw8*>(B);
  const uint32_t a_bytes = static_cast<uint32_t>(M * lda * sizeof(raw8));
  const uint32_t b_bytes = static_cast<uint32_t>(N * ldb * sizeof(raw8));
  const s32x4 ra = buffer_desc(a8, a_bytes);
  const s32x4 rb = buffer_desc(b8, b_bytes);

  // the block's threads copy the 256 x 128 tiles in thread order, 8 threads per row
  auto fetch = [&](int s, int k0) {
#pragma unroll
    for (int c = 0; c < CHUNKS; ++c) {
      const int v = t + c * NT;
      const int row = v >> 3;
      const int kb = (v & 7) * 16;
      const int src = kb ^ chunk_xor(row);
      const lds_u32p d = as_lds(&a_t[s][row][kb]);
      buffer_to_lds(ra, d, 16, (bm + row) * lda + (k0 + src), 0, 0, 0);
    }
#pragma unroll
    for (int c = 0; c < CHUNKS; ++c) {
      const int v = t + c * NT;
      const int row = v >> 3;
      const int kb = (v & 7) * 16;
      const int src = kb ^ chunk_xor(row);
      const lds_u32p d = as_lds(&b_t[s][row][kb]);
      buffer_to_lds(rb, d, 16, (bn + row) * ldb + (k0 + src), 0, 0, 0);
    }
  };

  // the operand pair of rows `row` and `row` + 16 of one LDS tile
  auto read_rows = [&](operand_pair& lo, operand_pair& hi, raw8 (*tile)[KT], int row) {
    const int x0 = chunk_xor(row), x1 = chunk_xor(row + 16);
    lds_read4(lo, hi, lds_addr(&tile[row][klo ^ x0]), lds_addr(&tile[row][khi ^ x0]),
              lds_addr(&tile[row + 16][klo ^ x1]), lds_addr(&tile[row + 16][khi ^ x1]));
  };

  auto multiply = [&](int s) {
#pragma unroll
    for (int u = 0; u < PER_WAVE; ++u) {
      if (!live[u]) continue;
      operand_pair b0, b1, a0, a1, a2, a3;
      read_rows(b0, b1, b_t[s], tn[u] + r);
      read_rows(a0, a1, a_t[s], tm[u] + r);
      wait_lds();
      acc[u][0][0] = mma_fp8(a0.v, b0.v, acc[u][0][0]);
      acc[u][0][1] = mma_fp8(a0.v, b1.v, acc[u][0][1]);
      acc[u][1][0] = mma_fp8(a1.v, b0.v, acc[u][1][0]);
      acc[u][1][1] = mma_fp8(a1.v, b1.v, acc[u][1][1]);
      read_rows(a2, a3, a_t[s], tm[u] + r + 32);
      wait_lds();
      acc[u][2][0] = mma_fp8(a2.v, b0.v, acc[u][2][0]);
      acc[u][2][1] = mma_fp8(a2.v, b1.v, acc[u][2][1]);
      acc[u][3][0] = mma_fp8(a3.v, b0.v, acc[u][3][0]);
      acc[u][3][1] = mma_fp8(a3.v, b1.v, acc[u][3][1]);
    }
  };

  fetch(0, 0);
  wait_vmem();
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += KT) {
    const int kn = k0 + KT;
    const int sn = s ^ 1;
    if (kn < K) fetch(sn, kn);
    multiply(s);
    if (kn < K) {
      wait_vmem();
      __syncthreads();
      s = sn;
    }
  }

#pragma unroll
  for (int u = 0; u < PER_WAVE; ++u) {
    if (!live[u]) continue;
    const int i0 = bm + tm[u];
    const int j0 = bn + tn[u];
#pragma unroll
    for (int x = 0; x < 4; ++x) {
      const int i1 = i0 + x * 16 + q * 4;
#pragma unroll
      for (int e = 0; e < 4; ++e)
#pragma unroll
        for (int y = 0; y < 2; ++y)
          C[(i1 + e) * ldc + (j0 + y * 16 + r)] = bf16_t(alpha * acc[u][x][y][e]);
    }
  }
}

// ---- 11: 8-wave ping-pong, 256 x 256 x 128 ---------------------------------------------------
// The block's C tile is 2 x 2 quadrants of 128 x 128. LDS holds, per buffer, two 128-row halves
// of A and of B (128 x 128 bytes each). Waves 0-3 (wm = 0) and 4-7 (wm = 1) each take 64 rows of
// every A half and wave w % 4 takes 32 columns of every B half, so each wave accumulates four
// 64 x 32 blocks (A half x B half). The two wave groups are offset by one barrier: while one
// group runs its MFMAs (at raised priority) the other issues its LDS reads and global copies.
// LDS swizzle: inside each 16-row (2048-byte) band, 16-byte chunk c of row r sits at chunk
// c ^ (r / 2), i.e. byte address a holds logical address a ^ (((a % 2048) >> 8) << 4).

namespace pp {

// one lane's 32 operand bytes of a 16 x 128 MFMA tile, as two 16-byte LDS reads (k chunks
// lane/16 and lane/16 + 4)
typedef unsigned __int128 chunk16;
typedef chunk16 frag[2];

// where lane `lane` of wave `w` fetches from (byte offsets into a 128-row slice of A or B with
// row pitch LD): the two rows it copies are w*8 + lane/8 and that + 64, at the chunk that the
// swizzle stores at LDS chunk lane % 8
template <int LD>
__device__ inline void source_offsets(uint32_t (&off)[2], const int& w, const int& lane) {
  const int band = (w / 2) * 16 * LD;                  // the 16-row band of this wave pair
  const int row = ((w % 2) * 64 + lane) / 8;           // row inside the band (0-15)
  const int col = (lane % 8) * 16;
  const uint32_t lin = row * 128 + col;                // LDS byte offset inside the band
  const int logical = lin ^ (((lin % (16 * 128)) >> 8) << 4);
  const int lrow = logical / 128, lcol = logical % 128;
#pragma unroll
  for (int h = 0; h < 2; h++) off[h] = band + (h * 64 + lrow) * LD + lcol;
}

// one 128-row slice (128 x 128 bytes) of A or B, starting at `src`, into the LDS tile `dst`:
// each wave fills 1 KiB (8 rows) at dst + w * 1024 and again 8 KiB further
template <int LD>
__device__ inline void copy_slice(const e4m3_t* src, e4m3_t* dst, const int& w,
                                  uint32_t (&off)[2]) {
  struct { const void* p; int32_t range; int32_t word3; } d = {src, 128 * LD, 0x110000};
  const s32x4 rs = __builtin_bit_cast(s32x4, d);
  dst = dst + w * 1024;
#pragma unroll
  for (int h = 0; h < 2; h++) {
    dst = dst + (h * 8192);
    const lds_u32p to = (lds_u32p)(reinterpret_cast<uintptr_t>(dst));
    buffer_to_lds(rs, to, 16, off[h], 0, 0, 0);
  }
}

// ROWS16 row tiles (16 rows each, 2048 bytes apart) of MFMA operands from the tile at `tile`:
// lane reads row lane % 16, 16-byte chunks lane / 16 and lane / 16 + 4, unswizzled on the fly
template <int ROWS16>
__device__ inline void read_frags(e4m3_t* tile, frag (&f)[ROWS16], const int& lane) {
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int row = lane % 16;
    const int col = (lane / 16) * 16 + h * 64;
    const uint32_t base = reinterpret_cast<uintptr_t>(tile);
    const uint32_t lin = base + row * 128 + col;
    const uint32_t at = lin ^ (((lin % (16 * 128)) >> 8) << 4);
#pragma unroll
    for (int x = 0; x < ROWS16; x++) {
      asm volatile("ds_read_b128 %0, %1 offset:%2\n"
                   : "=v"(f[x][h])
                   : "v"(at), "i"(x * 2048)
                   : "memory");
    }
  }
}

// acc[x][y] += A rows tile x . B columns tile y (64 x 32 per wave)
__device__ inline void mma_block(const frag (&a)[4], const frag (&b)[2], f32x4 (&acc)[4][2]) {
#pragma unroll
  for (int x = 0; x < 4; x++)
#pragma unroll
    for (int y = 0; y < 2; y++)
      acc[x][y] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(
          *reinterpret_cast<const s32x8*>(a[x]), *reinterpret_cast<const s32x8*>(b[y]), acc[x][y],
          0, 0, 0, 0, 0, 0);
}

// bf16 by dropping the low 16 bits of the fp32 (truncation, as the notebook's store does)
__device__ inline bf16_t bf16_trunc(const float& v) {
  return __builtin_bit_cast(bf16_t, static_cast<uint16_t>(__builtin_bit_cast(uint32_t, v) >> 16));
}

// the wave's 64 x 32 block to C at `out` (row pitch LD): lane holds rows 4*(lane/16) + e of
// each 16-row tile, column lane % 16 of each 16-column tile
template <int LD>
__device__ inline void store_block(f32x4 (&acc)[4][2], bf16_t* out, const int& lane) {
  const int r0 = 4 * (lane / 16);
  const int c0 = lane % 16;
#pragma unroll
  for (int x = 0; x < 4; x++) {
    const int row = x * 16 + r0;
#pragma unroll
    for (int y = 0; y < 2; y++) {
      const int col = y * 16 + c0;
#pragma unroll
      for (int h = 0; h < 2; h++) {           // values 2h, 2h + 1: rows row + 2h, row + 2h + 1
        out[(row + h * 2) * LD + col] = bf16_trunc(acc[x][y][2 * h]);
        out[(row + h * 2 + 1) * LD + col] = bf16_trunc(acc[x][y][2 * h + 1]);
      }
    }
  }
}

__device__ inline void barrier() { __builtin_amdgcn_s_barrier(); }

// MFMAs of one (A half, B half) block at raised wave priority
#define PP_MMA(a, b, acc)               \
  __builtin_amdgcn_s_setprio(1);        \
  mma_block(a, b, acc);                 \
  __builtin_amdgcn_s_setprio(0)

template <int M, int N, int K>
__device__ inline void gemm(const e4m3_t* A, const e4m3_t* B, bf16_t* C) {
  // [buffer][half][128 rows x 128 bytes]
  __shared__ e4m3_t a_s[2][2][128 * 128];
  __shared__ e4m3_t b_s[2][2][128 * 128];

  frag fa[4];                           // A: the wave's 64 rows of one A half
  frag fb0[2], fb1[2];                  // B: the wave's 32 columns of B half 0 / B half 1
  f32x4 c00[4][2]{}, c01[4][2]{}, c10[4][2]{}, c11[4][2]{};   // [A half][B half]

  const int w = threadIdx.x / 64;
  const int lane = threadIdx.x % 64;
  uint32_t off[2];
  source_offsets<K>(off, w, lane);

  constexpr int k_slices = K / 128;
  constexpr int n_blocks = N / 256;
  const int bm = blockIdx.x / n_blocks;
  const int bn = blockIdx.x % n_blocks;
  const int wm = w / 4;                 // wave group: 0 = waves 0-3, 1 = waves 4-7
  const int wn = w % 4;
  int cur = 0, nxt = 1;

  const e4m3_t* b_half0 = B + (2 * bn * 128 * K);
  const e4m3_t* a_half0 = A + (2 * bm * 128 * K);
  const e4m3_t* b_half1 = B + ((2 * bn + 1) * 128 * K);
  const e4m3_t* a_half1 = A + ((2 * bm + 1) * 128 * K);

  // prologue: all of K slice 0, then three quarters of slice 1
  copy_slice<K>(b_half0, b_s[cur][0], w, off);
  copy_slice<K>(a_half0, a_s[cur][0], w, off);
  copy_slice<K>(b_half1, b_s[cur][1], w, off);
  copy_slice<K>(a_half1, a_s[cur][1], w, off);
  if (wm == 1) barrier();               // group 1 runs one barrier behind group 0
  asm volatile("s_waitcnt vmcnt(4)");
  barrier();
  copy_slice<K>(b_half0 + 128, b_s[nxt][0], w, off);
  copy_slice<K>(a_half0 + 128, a_s[nxt][0], w, off);
  copy_slice<K>(b_half1 + 128, b_s[nxt][1], w, off);
  asm volatile("s_waitcnt vmcnt(6)");
  barrier();

#pragma unroll 2
  for (int k = 0; k < (k_slices - 2); k++) {
    read_frags<2>(b_s[cur][0] + wn * 32 * 128, fb0, lane);
    read_frags<4>(a_s[cur][0] + wm * 64 * 128, fa, lane);
    copy_slice<K>(a_half1 + (k + 1) * 128, a_s[nxt][1], w, off);
    asm volatile("s_waitcnt lgkmcnt(8)");
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb0, c00);
    barrier();
    __builtin_amdgcn_sched_barrier(0);

    read_frags<2>(b_s[cur][1] + wn * 32 * 128, fb1, lane);
    copy_slice<K>(b_half0 + (k + 2) * 128, b_s[cur][0], w, off);
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb1, c01);
    barrier();

    read_frags<4>(a_s[cur][1] + wm * 64 * 128, fa, lane);
    copy_slice<K>(a_half0 + (k + 2) * 128, a_s[cur][0], w, off);
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb0, c10);
    barrier();
    __builtin_amdgcn_sched_barrier(0);

    copy_slice<K>(b_half1 + (k + 2) * 128, b_s[cur][1], w, off);
    asm volatile("s_waitcnt vmcnt(6)");
    barrier();
    PP_MMA(fa, fb1, c11);
    barrier();

    cur ^= 1;
    nxt ^= 1;
  }

  // K slice k_slices - 2: the last copy (A half 1 of the final slice) goes out
  {
    constexpr int k = k_slices - 2;
    read_frags<2>(b_s[cur][0] + wn * 32 * 128, fb0, lane);
    read_frags<4>(a_s[cur][0] + wm * 64 * 128, fa, lane);
    copy_slice<K>(a_half1 + (k + 1) * 128, a_s[nxt][1], w, off);
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb0, c00);
    barrier();
    __builtin_amdgcn_sched_barrier(0);

    read_frags<2>(b_s[cur][1] + wn * 32 * 128, fb1, lane);
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb1, c01);
    barrier();

    read_frags<4>(a_s[cur][1] + wm * 64 * 128, fa, lane);
    asm volatile("s_waitcnt vmcnt(4)");
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb0, c10);
    barrier();

    read_frags<2>(b_s[nxt][0] + wn * 32 * 128, fb0, lane);   // next slice's B half 0, early
    barrier();
    PP_MMA(fa, fb1, c11);                                      // (uses fb1: no wait for fb0)
    barrier();
    __builtin_amdgcn_sched_barrier(0);
    cur ^= 1, nxt ^= 1;
  }

  // the final K slice; the quadrants of A half 0 are stored as soon as they are complete
  {
    read_frags<4>(a_s[cur][0] + wm * 64 * 128, fa, lane);
    asm volatile("s_waitcnt vmcnt(0)");
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb0, c00);
    barrier();
    store_block<N>(c00, C + (2 * bm * 128 + wm * 64) * N + 2 * bn * 128 + wn * 32, lane);

    read_frags<2>(b_s[cur][1] + wn * 32 * 128, fb1, lane);
    barrier();
    __builtin_amdgcn_sched_barrier(0);
    asm volatile("s_waitcnt lgkmcnt(0)");
    PP_MMA(fa, fb1, c01);
    barrier();
    store_block<N>(c01, C + (2 * bm * 128 + wm * 64) * N + (2 * bn + 1) * 128 + wn * 32, lane);

    read_frags<4>(a_s[cur][1] + wm * 64 * 128, fa, lane);
    barrier();
    asm volatile("s_waitcnt lgkmcnt(0)");
    __builtin_amdgcn_s_setprio(1);
    mma_block(fa, fb0, c10);
    mma_block(fa, fb1, c11);
    __builtin_amdgcn_s_setprio(0);
    barrier();
  }

  if (wm == 0) barrier();               // re-align the two groups' barrier counts
  store_block<N>(c10, C + ((2 * bm + 1) * 128 + wm * 64) * N + 2 * bn * 128 + wn * 32, lane);
  store_block<N>(c11, C + ((2 * bm + 1) * 128 + wm * 64) * N + (2 * bn + 1) * 128 + wn * 32, lane);
}

#undef PP_MMA
}  // namespace pp

#define LADDER_PINGPONG(n)                                                                     \
  extern "C" __global__ __launch_bounds__(512, 2) void fp8_pingpong_##n(                        \
      const e4m3_t* A, const e4m3_t* B, bf16_t* C) {                                          \
    pp::gemm<n, n, n>(A, B, C);                                                                \
  }
LADDER_PINGPONG(256)
LADDER_PINGPONG(512)
LADDER_PINGPONG(1024)
LADDER_PINGPONG(4096)
LADDER_PINGPONG(8192)
