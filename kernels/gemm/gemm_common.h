// gemm_common.h — what every step of the GEMM tutorial (notebooks/03_gemm.ipynb) shares.
//
// The problem: C[M][N] (fp32) = A[M][K] · B[N][K]^T, A and B row-major with K contiguous (the
// "NT" layout HipKittens' mma_ABt and the CDNA4 FP8 GEMM blog use), inputs bf16 or fp8 E4M3
// stored as raw bits (unsigned short / unsigned char), fp32 accumulation, fp32 output.
//
// One source, three targets, chosen by the compiler's arch macro and -DGEMM_FP8:
//   gfx942 bf16 : v_mfma_f32_16x16x16_bf16             (16x16x16, 4 k per lane  =  8 bytes)
//   gfx950 bf16 : v_mfma_f32_16x16x32_bf16             (16x16x32, 8 k per lane  = 16 bytes)
//   gfx950 fp8  : v_mfma_scale_f32_16x16x128_f8f6f4    (16x16x128, 32 k per lane = 32 bytes)
// Operand layout of all three (AMD Matrix Instruction Calculator for gfx942, CDNA3 ISA guide and
// CK's WarpGemmAttributeMfma* constants): lane l holds row (l % 16) of A (column (l % 16) of B)
// and KL = K_mfma / 4 consecutive k values starting at KL * (l / 16). The result: lane l holds
// C[4 * (l / 16) + r][l % 16] in register r. (A and B share one k mapping, so the product does
// not depend on which k slot is which; only the rows/columns matter.)
//
// Every LDS tile row is 128 bytes: 64 bf16 or 128 fp8 values of k (BK_BYTES). That stride is what
// makes the operand reads conflict (rows 2 apart share banks on gfx950's 64 x 4-byte banks, rows 1
// apart on gfx942's 32 banks) and what the XOR swizzle below fixes.
#pragma once
#include <hip/hip_runtime.h>

typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef unsigned int u32x4 __attribute__((ext_vector_type(4)));
typedef unsigned int u32x2 __attribute__((ext_vector_type(2)));

#define BK_BYTES 128                       // one K tile = 128 bytes of every row
#define GLOBAL_AS(p) ((__attribute__((address_space(1))) void*)(p))
#define LDS_AS(p) ((__attribute__((address_space(3))) void*)(p))

#if defined(GEMM_FP8)
#if !defined(__gfx950__)
#error "GEMM_FP8 needs gfx950 (v_mfma_scale_f32_16x16x128_f8f6f4 is a CDNA4 instruction)"
#endif
typedef unsigned char elem_t;              // fp8 E4M3 (OCP) bits
typedef int opnd_t __attribute__((ext_vector_type(8)));   // 32 fp8 values = 8 VGPRs
#define MFMA_K 128
#define ESIZE 1
#define OPND_BYTES 32                      // KL * ESIZE bytes per lane per operand
// Format code 0 = fp8 E4M3 for A and B (LLVM rocdl.mlir test of mfma.scale); scale bytes 127 =
// 2^0 in E8M0, i.e. unscaled.
__device__ __forceinline__ floatx4 mfma(opnd_t a, opnd_t b, floatx4 c) {
  return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, 0, 0, 0, 127, 0, 127);
}
#elif defined(__gfx950__)
typedef unsigned short elem_t;             // bf16 bits
typedef __bf16 opnd_t __attribute__((ext_vector_type(8)));  // 8 bf16 = 4 VGPRs
#define MFMA_K 32
#define ESIZE 2
#define OPND_BYTES 16
__device__ __forceinline__ floatx4 mfma(opnd_t a, opnd_t b, floatx4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
}
#elif defined(__gfx942__)
typedef unsigned short elem_t;             // bf16 bits
typedef short opnd_t __attribute__((ext_vector_type(4)));   // 4 bf16 = 2 VGPRs
#define MFMA_K 16
#define ESIZE 2
#define OPND_BYTES 8
__device__ __forceinline__ floatx4 mfma(opnd_t a, opnd_t b, floatx4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
}
#else
#error "the GEMM tutorial kernels target gfx942 (bf16) and gfx950 (bf16, -DGEMM_FP8)"
#endif

#define KL (MFMA_K / 4)                    // k values per lane in one MFMA
#define BK (BK_BYTES / ESIZE)              // k values per K tile: 64 bf16 or 128 fp8
#define KSTEPS (BK / MFMA_K)               // MFMAs along k per K tile: 4, 2 or 1

// Scalar value of one element (steps 1-2, which multiply on the VALU).
__device__ __forceinline__ float to_float(elem_t x) {
#if defined(GEMM_FP8)
  // OCP E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; exponent 0 is subnormal (m * 2^-9).
  int e = (x >> 3) & 15, m = x & 7;
  float v = e ? __builtin_ldexpf((float)(8 + m), e - 10) : __builtin_ldexpf((float)m, -9);
  return (x & 0x80) ? -v : v;
#else
  return __builtin_bit_cast(float, (unsigned)x << 16);   // bf16 = the top half of an fp32
#endif
}

// XOR swizzle of a 16-byte chunk inside a 128-byte LDS row (steps 7+). Source of the technique:
// HipKittens st_16x128_s (XOR of byte-offset bits 4-6 with bits 8-10) and the CDNA4 FP8 GEMM
// blog's swizzle for the 4-phase ds_read_b128. gfx950 has 64 banks (256 B), so rows r and r+1 are
// already in different halves and the pattern must change every 2 rows; gfx942 has 32 banks
// (128 B), every row starts at bank 0 and the pattern changes every row.
__device__ __forceinline__ int swz(int row) {
#if defined(__gfx950__)
  return (row >> 1) & 7;
#else
  return row & 7;
#endif
}

// One lane's MFMA operand (OPND_BYTES at logical byte `kb` of LDS row `row`), from a tile of
// 128-byte rows stored with (SWZ) or without the XOR swizzle. 8- and 16-byte operands stay inside
// one 16-byte chunk. The 32-byte fp8 operand (kb = 32 * lane group g) is taken as two chunks, g
// and g + 4, i.e. lane group g holds k = 16g..16g+15 and 64+16g..64+16g+15 instead of 32g..32g+31:
// the same k permutation for A and B leaves A.B unchanged (the sum over k does not care), and it
// makes neighbouring lane groups read neighbouring chunks, which the swizzle spreads over all 64
// banks (HipKittens reads its fp8 16x128 tiles the same way: 16 bytes per ds_read_b128).
template <bool SWZ>
__device__ __forceinline__ opnd_t read_operand(const unsigned char* tile, int row, int kb) {
  const unsigned char* base = tile + row * BK_BYTES;
  int x = SWZ ? swz(row) : 0;
#if OPND_BYTES == 8
  u32x2 v = *(const u32x2*)(base + (((kb >> 4) ^ x) << 4) + (kb & 15));
  return __builtin_bit_cast(opnd_t, v);
#elif OPND_BYTES == 16
  u32x4 v = *(const u32x4*)(base + (((kb >> 4) ^ x) << 4));
  return __builtin_bit_cast(opnd_t, v);
#else
  int g = kb >> 5;
  u32x4 lo = *(const u32x4*)(base + ((g ^ x) << 4));
  u32x4 hi = *(const u32x4*)(base + (((g + 4) ^ x) << 4));
  typedef unsigned int u32x8 __attribute__((ext_vector_type(8)));
  u32x8 v = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7);
  return __builtin_bit_cast(opnd_t, v);
#endif
}

// Store a wave's TM x TN MFMA accumulators (16 x 16 each) at C[m0.., n0..], rows/cols past M/N
// skipped. Lane l holds C[4 * (l / 16) + r][l % 16] of each tile in register r.
template <int TM, int TN>
__device__ __forceinline__ void store_acc(float* C, floatx4 (&acc)[TM][TN], int m0, int n0,
                                          int M, int N) {
  int lane = threadIdx.x & 63;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = n0 + j * 16 + (lane & 15);
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        int row = m0 + i * 16 + 4 * (lane >> 4) + r;
        if (row < M && col < N) C[(long)row * N + col] = acc[i][j][r];
      }
    }
}

// s_waitcnt vmcnt(0) / lgkmcnt(0) (gfx9 SOPP simm16: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt
// [11:8]; CDNA3 ISA guide "S_WAITCNT"). Direct-to-LDS loads count in vmcnt. Before __syncthreads
// (a workgroup-scope release fence + s_barrier) LLVM 22 inserts that wait itself (seen in its
// gfx950 output); the bare barriers of the ping-pong and the interleave have no fence, so those
// kernels must wait for their own loads explicitly before the barrier that publishes them.
__device__ __forceinline__ void wait_vmcnt0() { __builtin_amdgcn_s_waitcnt(0x0F70); }
__device__ __forceinline__ void wait_lgkmcnt0() { __builtin_amdgcn_s_waitcnt(0xC07F); }

#if defined(__gfx950__)
// Buffer resource over `rows` rows of `K` elements: reads past the end return 0 (CDNA3/4 ISA
// "Range checking"), which is how the direct-to-LDS steps handle M and N that are not multiples
// of the tile. Flags 0x00020000 = gfx9 untyped 32-bit data format, as CK sets on gfx9.
__device__ __forceinline__ __amdgpu_buffer_rsrc_t make_rsrc(const elem_t* p, int rows, int K) {
  return __builtin_amdgcn_make_buffer_rsrc((void*)p, 0, rows * K * ESIZE, 0x00020000);
}

// Direct global->LDS copy of a ROWS x 128-byte tile by NT threads (gfx950: 16 bytes per lane,
// CDNA4 FP8 GEMM blog table: GLOBAL_LOAD_LDS 32 -> 128 bits per lane). The instruction writes lane
// l's 16 bytes at LDS address M0 + 16 * l, so the LDS slot is fixed; the swizzle is applied on the
// global side: the lane fetches the chunk that belongs in its slot (HipKittens' global_to_shared).
// Load number `it` (of ROWS * 8 / NT) of that copy: one buffer_load_dwordx4 ... lds per wave.
template <int NT, bool SWZ>
__device__ __forceinline__ void load_chunk_direct(unsigned char* lds, __amdgpu_buffer_rsrc_t rsrc,
                                                  int row0, int K, int kbyte0, int it, int tid) {
  int slot = it * NT + tid;                         // 16-byte slot of the LDS tile
  int row = slot >> 3, c = (slot & 7) ^ (SWZ ? swz(row) : 0);
  int voff = (row0 + row) * K * ESIZE + kbyte0 + c * 16;
  unsigned char* dst = lds + (it * NT + (tid & ~63)) * 16;   // wave-uniform base (goes to M0)
  __builtin_amdgcn_raw_ptr_buffer_load_lds(rsrc, LDS_AS(dst), 16, voff, 0, 0, 0);
}

template <int ROWS, int NT, bool SWZ>
__device__ __forceinline__ void load_tile_direct(unsigned char* lds, __amdgpu_buffer_rsrc_t rsrc,
                                                 int row0, int K, int kbyte0,
                                                 int tid = threadIdx.x) {
#pragma unroll
  for (int it = 0; it < ROWS * 8 / NT; ++it)
    load_chunk_direct<NT, SWZ>(lds, rsrc, row0, K, kbyte0, it, tid);
}

// Chiplet-aware workgroup order (step 12). The dispatcher hands consecutive workgroup ids to the
// 8 XCDs in turn (MI300X and MI355X both have 8 XCDs with their own L2: CDNA3/CDNA4 white papers;
// HipKittens util.cuh NUM_XCDS=8), so tiles that share rows of A land on different L2s. Remap so
// that XCD x gets a contiguous run of ids (HipKittens chiplet_transform_chunked), then walk C in
// groups of GROUP_M tile rows (Triton's grouped ordering, WGM in HipKittens) so the workgroups
// running at once share A rows and B columns in L2. Returns the C tile (tm, tn).
__device__ __forceinline__ void remap_tile(int wg, int tiles_m, int tiles_n, int& tm, int& tn) {
  constexpr int XCDS = 8, GROUP_M = 8;
  int nwg = tiles_m * tiles_n, per = nwg / XCDS;
  int id = wg < per * XCDS ? (wg % XCDS) * per + wg / XCDS : wg;   // the tail keeps its id
  int group = id / (GROUP_M * tiles_n), first_m = group * GROUP_M;
  int gsize = tiles_m - first_m < GROUP_M ? tiles_m - first_m : GROUP_M;
  tm = first_m + (id % gsize);
  tn = (id % (GROUP_M * tiles_n)) / gsize;
}

// A barrier the compiler may not move memory operations across, with no waits of its own (the
// kernels put the s_waitcnt they need in front of it). __syncthreads would add fences that wait
// for every outstanding load; the ping-pong wants the partner's loads to keep flying.
__device__ __forceinline__ void raw_barrier() {
  asm volatile("" ::: "memory");
  __builtin_amdgcn_sched_barrier(0);
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_sched_barrier(0);
  asm volatile("" ::: "memory");
}
#endif
