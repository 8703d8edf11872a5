// One-wave WMMA GEMM tile for RDNA4 (gfx12, wave32): A/B are 8 halves a lane. RDNA4 ISA guide
// (WMMA operand layouts): A lane l holds row l%16, k = 8*(l/16) + i; B lane l holds column l%16,
// same k; D lane l holds column l%16, rows 8*(l/16) + i.
#include <hip/hip_runtime.h>

typedef _Float16 half8_t __attribute__((ext_vector_type(8)));
typedef float float8_t __attribute__((ext_vector_type(8)));

__global__ void wmma_gemm12(const _Float16* A, const _Float16* B, float* C, int K) {
  int lane = threadIdx.x;
  int r = lane % 16, h = lane / 16;
  float8_t acc = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    half8_t a, b;
    for (int i = 0; i < 8; ++i) {
      a[i] = A[r * K + k0 + 8 * h + i];
      b[i] = B[(k0 + 8 * h + i) * 16 + r];
    }
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a, b, acc);
  }
  for (int i = 0; i < 8; ++i) C[(8 * h + i) * 16 + r] = acc[i];
}
