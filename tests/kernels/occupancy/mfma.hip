// MFMA sweep for CDNA (gfx90a/gfx942): ACC 32x32 accumulators (16 AGPRs each, pinned to AGPRs
// by an "+a" asm operand) plus LIVE floats kept in ArchVGPRs, so the unified VGPR count is
// alignTo(ArchVGPRs, 4) + AGPRs.
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef short bf16x4 __attribute__((ext_vector_type(4)));

template <int ACC, int LIVE>
__device__ __attribute__((always_inline)) void mfma_body(const bf16x4* a, const bf16x4* b,
                                                         f32x16* c, float* d, int n) {
  const int t = threadIdx.x;
  f32x16 acc[ACC];
#pragma unroll
  for (int k = 0; k < ACC; ++k) acc[k] = f32x16{};
  float v[LIVE];
#pragma unroll
  for (int j = 0; j < LIVE; ++j) v[j] = d[t + j * 64];
  for (int i = 0; i < n; ++i) {
    const bf16x4 x = a[t + i * 64], y = b[t + i * 64];
#pragma unroll
    for (int k = 0; k < ACC; ++k) {
      acc[k] = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(k & 1 ? x : y, k & 2 ? y : x, acc[k],
                                                       0, 0, 0);
      asm volatile("; keep %0 in AGPRs" : "+a"(acc[k]));
    }
#pragma unroll
    for (int j = 0; j < LIVE; ++j) v[j] = v[j] * v[(j + 1) % LIVE] + 1.0f;
  }
#pragma unroll
  for (int k = 0; k < ACC; ++k) c[t + k * 64] = acc[k];
#pragma unroll
  for (int j = 0; j < LIVE; ++j) d[t + j * 64] = v[j];
}

#define MFMA(ACC, LIVE) \
  extern "C" __global__ void __launch_bounds__(256) mfma_a##ACC##_v##LIVE( \
      const bf16x4* a, const bf16x4* b, f32x16* c, float* d, int n) { \
    mfma_body<ACC, LIVE>(a, b, c, d, n); \
  }

MFMA(1, 1) MFMA(1, 13) MFMA(2, 7) MFMA(2, 30) MFMA(4, 5) MFMA(4, 22) MFMA(6, 9) MFMA(8, 3)
MFMA(8, 17) MFMA(12, 11) MFMA(16, 2)
