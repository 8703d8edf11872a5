// One-wave WMMA GEMM tile for RDNA3 (gfx11, wave32): C[16x16] = A[16xK] * B[Kx16], fp16 in,
// fp32 accumulate. RDNA3 ISA guide, section 7.9 (WMMA): A lane l holds row l%16, all 16 k
// (lanes 16-31 repeat lanes 0-15); B lane l holds column l%16; D lane l holds column l%16,
// rows 2*i + l/16.
#include <hip/hip_runtime.h>

typedef _Float16 half16_t __attribute__((ext_vector_type(16)));
typedef float float8_t __attribute__((ext_vector_type(8)));

__global__ void wmma_gemm(const _Float16* A, const _Float16* B, float* C, int K) {
  int lane = threadIdx.x;
  int r = lane % 16;
  float8_t acc = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    half16_t a, b;
    for (int i = 0; i < 16; ++i) {
      a[i] = A[r * K + k0 + i];
      b[i] = B[(k0 + i) * 16 + r];
    }
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, acc);
  }
  for (int i = 0; i < 8; ++i) C[(2 * i + lane / 16) * 16 + r] = acc[i];
}
