// One MFMA per kernel on register contents packed by the host: lane t of wave w loads its A, B
// and C registers from a[w*64+t], b[...], c[...], runs the builtin once and stores D the same
// way. The host packs/unpacks matrices with workbench.layouts, so these kernels test the
// arithmetic, element types, modifiers and lock-step batching of the emulator's MFMA family
// (the lane layouts themselves are checked by mfma_layout.hip and mfma_gemm.hip).
// Kernel name = the gfx942 mnemonic without "v_", plus "__cbszC_abidA_blgpB" for modifiers.
typedef float v2f __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef _Float16 v4h __attribute__((ext_vector_type(4)));
typedef short v4s __attribute__((ext_vector_type(4)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef int v32i __attribute__((ext_vector_type(32)));
typedef double v4d __attribute__((ext_vector_type(4)));

#define MFMA(NAME, BUILTIN, TD, TA, CBSZ, ABID, BLGP)                                  \
  extern "C" __global__ void NAME(const TA* a, const TA* b, const TD* c, TD* d) {      \
    int t = blockIdx.x * 64 + threadIdx.x;                                             \
    d[t] = __builtin_amdgcn_##BUILTIN(a[t], b[t], c[t], CBSZ, ABID, BLGP);             \
  }

// f32 (single- and multi-block)
MFMA(mfma_f32_32x32x1_2b_f32, mfma_f32_32x32x1f32, v32f, float, 0, 0, 0)
MFMA(mfma_f32_16x16x1_4b_f32, mfma_f32_16x16x1f32, v16f, float, 0, 0, 0)
MFMA(mfma_f32_4x4x1_16b_f32, mfma_f32_4x4x1f32, v4f, float, 0, 0, 0)
MFMA(mfma_f32_32x32x2_f32, mfma_f32_32x32x2f32, v16f, float, 0, 0, 0)
MFMA(mfma_f32_16x16x4_f32, mfma_f32_16x16x4f32, v4f, float, 0, 0, 0)
// f16
MFMA(mfma_f32_32x32x4_2b_f16, mfma_f32_32x32x4f16, v32f, v4h, 0, 0, 0)
MFMA(mfma_f32_16x16x4_4b_f16, mfma_f32_16x16x4f16, v16f, v4h, 0, 0, 0)
MFMA(mfma_f32_4x4x4_16b_f16, mfma_f32_4x4x4f16, v4f, v4h, 0, 0, 0)
MFMA(mfma_f32_32x32x8_f16, mfma_f32_32x32x8f16, v16f, v4h, 0, 0, 0)
MFMA(mfma_f32_16x16x16_f16, mfma_f32_16x16x16f16, v4f, v4h, 0, 0, 0)
// i8
MFMA(mfma_i32_32x32x4_2b_i8, mfma_i32_32x32x4i8, v32i, int, 0, 0, 0)
MFMA(mfma_i32_16x16x4_4b_i8, mfma_i32_16x16x4i8, v16i, int, 0, 0, 0)
MFMA(mfma_i32_4x4x4_16b_i8, mfma_i32_4x4x4i8, v4i, int, 0, 0, 0)
MFMA(mfma_i32_32x32x16_i8, mfma_i32_32x32x16_i8, v16i, long, 0, 0, 0)
MFMA(mfma_i32_16x16x32_i8, mfma_i32_16x16x32_i8, v4i, long, 0, 0, 0)
// bf16
MFMA(mfma_f32_32x32x4_2b_bf16, mfma_f32_32x32x4bf16_1k, v32f, v4s, 0, 0, 0)
MFMA(mfma_f32_16x16x4_4b_bf16, mfma_f32_16x16x4bf16_1k, v16f, v4s, 0, 0, 0)
MFMA(mfma_f32_4x4x4_16b_bf16, mfma_f32_4x4x4bf16_1k, v4f, v4s, 0, 0, 0)
MFMA(mfma_f32_32x32x8_bf16, mfma_f32_32x32x8bf16_1k, v16f, v4s, 0, 0, 0)
MFMA(mfma_f32_16x16x16_bf16, mfma_f32_16x16x16bf16_1k, v4f, v4s, 0, 0, 0)
// f64
MFMA(mfma_f64_16x16x4_f64, mfma_f64_16x16x4f64, v4d, double, 0, 0, 0)
MFMA(mfma_f64_4x4x4_4b_f64, mfma_f64_4x4x4f64, double, double, 0, 0, 0)
// xf32
MFMA(mfma_f32_16x16x8_xf32, mfma_f32_16x16x8_xf32, v4f, v2f, 0, 0, 0)
MFMA(mfma_f32_32x32x4_xf32, mfma_f32_32x32x4_xf32, v16f, v2f, 0, 0, 0)
// fp8 / bf8 mixes
MFMA(mfma_f32_16x16x32_fp8_fp8, mfma_f32_16x16x32_fp8_fp8, v4f, long, 0, 0, 0)
MFMA(mfma_f32_16x16x32_fp8_bf8, mfma_f32_16x16x32_fp8_bf8, v4f, long, 0, 0, 0)
MFMA(mfma_f32_16x16x32_bf8_fp8, mfma_f32_16x16x32_bf8_fp8, v4f, long, 0, 0, 0)
MFMA(mfma_f32_16x16x32_bf8_bf8, mfma_f32_16x16x32_bf8_bf8, v4f, long, 0, 0, 0)
MFMA(mfma_f32_32x32x16_fp8_fp8, mfma_f32_32x32x16_fp8_fp8, v16f, long, 0, 0, 0)
MFMA(mfma_f32_32x32x16_fp8_bf8, mfma_f32_32x32x16_fp8_bf8, v16f, long, 0, 0, 0)
MFMA(mfma_f32_32x32x16_bf8_fp8, mfma_f32_32x32x16_bf8_fp8, v16f, long, 0, 0, 0)
MFMA(mfma_f32_32x32x16_bf8_bf8, mfma_f32_32x32x16_bf8_bf8, v16f, long, 0, 0, 0)

// modifiers: CBSZ/ABID (multi-block A broadcast), BLGP (B lane groups), f64 negate
MFMA(mfma_f32_4x4x4_16b_f16__cbsz2_abid1_blgp0, mfma_f32_4x4x4f16, v4f, v4h, 2, 1, 0)
MFMA(mfma_f32_32x32x1_2b_f32__cbsz1_abid1_blgp0, mfma_f32_32x32x1f32, v32f, float, 1, 1, 0)
MFMA(mfma_i32_16x16x4_4b_i8__cbsz2_abid3_blgp0, mfma_i32_16x16x4i8, v16i, int, 2, 3, 0)
MFMA(mfma_f32_16x16x4_4b_bf16__cbsz1_abid0_blgp3, mfma_f32_16x16x4bf16_1k, v16f, v4s, 1, 0, 3)
MFMA(mfma_f32_4x4x1_16b_f32__cbsz4_abid13_blgp6, mfma_f32_4x4x1f32, v4f, float, 4, 13, 6)
MFMA(mfma_f32_16x16x4_f32__cbsz0_abid0_blgp1, mfma_f32_16x16x4f32, v4f, float, 0, 0, 1)
MFMA(mfma_f32_16x16x4_f32__cbsz0_abid0_blgp2, mfma_f32_16x16x4f32, v4f, float, 0, 0, 2)
MFMA(mfma_f32_16x16x4_f32__cbsz0_abid0_blgp3, mfma_f32_16x16x4f32, v4f, float, 0, 0, 3)
MFMA(mfma_f32_16x16x4_f32__cbsz0_abid0_blgp4, mfma_f32_16x16x4f32, v4f, float, 0, 0, 4)
MFMA(mfma_f32_16x16x4_f32__cbsz0_abid0_blgp7, mfma_f32_16x16x4f32, v4f, float, 0, 0, 7)
MFMA(mfma_i32_4x4x4_16b_i8__cbsz0_abid0_blgp5, mfma_i32_4x4x4i8, v4i, int, 0, 0, 5)
MFMA(mfma_f64_16x16x4_f64__cbsz0_abid0_blgp5, mfma_f64_16x16x4f64, v4d, double, 0, 0, 5)
MFMA(mfma_f64_4x4x4_4b_f64__cbsz0_abid0_blgp6, mfma_f64_4x4x4f64, double, double, 0, 0, 6)

// C as an inline constant: LLVM folds a zero accumulator into the instruction ("..., 0").
extern "C" __global__ void mfma_zero_c(const v4s* a, const v4s* b, v4f* d) {
  int t = blockIdx.x * 64 + threadIdx.x;
  d[t] = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a[t], b[t], v4f{0, 0, 0, 0}, 0, 0, 0);
}

// Every operand in AGPRs (a[...]) and the v_accvgpr_* moves around them: the inline asm forces
// the accumulator file, so A, B, C and D of the MFMA are all AGPR tuples.
extern "C" __global__ void mfma_agpr(const v4s* a, const v4s* b, const v4f* c, v4f* d) {
  int t = blockIdx.x * 64 + threadIdx.x;
  v4s av = a[t], bv = b[t];
  v4f cv = c[t], dv;
  asm volatile("v_mfma_f32_16x16x16_bf16 %0, %1, %2, %3"
               : "=a"(dv) : "a"(av), "a"(bv), "a"(cv));
  d[t] = dv;
}

// The accumulator chained through four MFMAs (D of one is C of the next), K = 64 in total.
extern "C" __global__ void mfma_chain(const v4s* a, const v4s* b, v4f* d) {
  int t = blockIdx.x * 256 + threadIdx.x;
  v4f acc = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i)
    acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a[t + 64 * i], b[t + 64 * i], acc, 0, 0, 0);
  d[blockIdx.x * 64 + threadIdx.x] = acc;
}

// An MFMA reached with only half of the wave's lanes active.
extern "C" __global__ void mfma_half_exec(const float* a, const float* b, v4f* d) {
  int t = threadIdx.x;
  if (t < 32) d[t] = __builtin_amdgcn_mfma_f32_16x16x4f32(a[t], b[t], v4f{0, 0, 0, 0}, 0, 0, 0);
}

// v_accvgpr_write_b32 / v_accvgpr_mov_b32 / v_accvgpr_read_b32 around the accumulator file:
// d[t] = {x, x + 1, x, 7} moved VGPR -> AGPR -> AGPR -> VGPR (inline constant 7 written too).
extern "C" __global__ void accvgpr_moves(const int* x, v4i* d) {
  int t = blockIdx.x * 64 + threadIdx.x;
  int v = x[t], w = v + 1, a0, a1, a2, a3, r0, r1, r2, r3;
  asm volatile("v_accvgpr_write_b32 %0, %1" : "=a"(a0) : "v"(v));
  asm volatile("v_accvgpr_write_b32 %0, %1" : "=a"(a1) : "v"(w));
  asm volatile("v_accvgpr_mov_b32 %0, %1" : "=a"(a2) : "a"(a0));
  asm volatile("v_accvgpr_write_b32 %0, 7" : "=a"(a3));
  asm volatile("v_accvgpr_read_b32 %0, %1" : "=v"(r0) : "a"(a0));
  asm volatile("v_accvgpr_read_b32 %0, %1" : "=v"(r1) : "a"(a1));
  asm volatile("v_accvgpr_read_b32 %0, %1" : "=v"(r2) : "a"(a2));
  asm volatile("v_accvgpr_read_b32 %0, %1" : "=v"(r3) : "a"(a3));
  d[t] = v4i{r0, r1, r2, r3};
}
