// One-wave MFMA GEMM tiles (CDNA3/CDNA4): C[MxN] = A[MxK] * B[KxN], fp16 in, fp32 accumulate.
// Lane layouts of v_mfma_f32_16x16x16_f16 and v_mfma_f32_32x32x8_f16 as in AMD's matrix
// instruction calculator (CDNA3 ISA guide, section 7): A lane l holds row l%M, k = 4*(l/M)+i;
// B lane l holds column l%N, same k; D lane l holds column l%N.
#include <hip/hip_runtime.h>

typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));
typedef float float16_t __attribute__((ext_vector_type(16)));

// A row-major M x K, B row-major K x N, C row-major M x N; M = N = 16, K multiple of 16
__global__ void mfma16_gemm(const _Float16* A, const _Float16* B, float* C, int K) {
  int lane = threadIdx.x;
  int m = lane % 16, kq = lane / 16;
  float4_t acc = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    half4_t a, b;
    for (int i = 0; i < 4; ++i) {
      a[i] = A[m * K + k0 + 4 * kq + i];
      b[i] = B[(k0 + 4 * kq + i) * 16 + m];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int i = 0; i < 4; ++i) C[(4 * kq + i) * 16 + m] = acc[i];
}

// M = N = 32, K multiple of 8; D lane l: column l%32, row 8*(i/4) + 4*(l/32) + i%4
__global__ void mfma32_gemm(const _Float16* A, const _Float16* B, float* C, int K) {
  int lane = threadIdx.x;
  int m = lane % 32, kq = lane / 32;
  float16_t acc = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
    half4_t a, b;
    for (int i = 0; i < 4; ++i) {
      a[i] = A[m * K + k0 + 4 * kq + i];
      b[i] = B[(k0 + 4 * kq + i) * 32 + m];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
  for (int i = 0; i < 16; ++i) C[(8 * (i / 4) + 4 * kq + i % 4) * 32 + m] = acc[i];
}
