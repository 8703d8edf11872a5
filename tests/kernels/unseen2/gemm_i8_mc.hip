// One-wave int8 GEMM tiles on the matrix cores: C[16x16] (i32) = A[16xK] * B[Kx16] (i8), with
// gfx942/gfx950's v_mfma_i32_16x16x32_i8 and gfx1100's v_wmma_i32_16x16x16_iu8 (signed).
// A is row-major (16 x K), B is given transposed (16 x K, row c = column c of B).
#include <hip/hip_runtime.h>

#if defined(__gfx942__) || defined(__gfx950__)
typedef int v4i __attribute__((ext_vector_type(4)));
// lane l: row/col l % 16, k block 8 * (l / 16) .. + 7 of each 32-wide step; output rows
// 4 * (l / 16) + i of column l % 16
__global__ void mfma_i8(const signed char* A, const signed char* Bt, int* C, int K) {
  int l = threadIdx.x;
  v4i acc = {0, 0, 0, 0};
  for (int k0 = 0; k0 < K; k0 += 32) {
    long a, b;
    __builtin_memcpy(&a, A + (l % 16) * K + k0 + 8 * (l / 16), 8);
    __builtin_memcpy(&b, Bt + (l % 16) * K + k0 + 8 * (l / 16), 8);
    acc = __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, acc, 0, 0, 0);
  }
  for (int i = 0; i < 4; ++i) C[(4 * (l / 16) + i) * 16 + l % 16] = acc[i];
}
#endif

#if defined(__gfx1100__)
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));
// wave32: lane l holds row (A) / column (B) l % 16, all 16 k of a step; output rows
// 2 * i + l / 16 of column l % 16
__global__ void wmma_i8(const signed char* A, const signed char* Bt, int* C, int K) {
  int l = threadIdx.x;
  v8i acc = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    v4i a, b;
    __builtin_memcpy(&a, A + (l % 16) * K + k0, 16);
    __builtin_memcpy(&b, Bt + (l % 16) * K + k0, 16);
    acc = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a, true, b, acc, false);
  }
  for (int i = 0; i < 8; ++i) C[(2 * i + l / 16) * 16 + l % 16] = acc[i];
}
#endif
