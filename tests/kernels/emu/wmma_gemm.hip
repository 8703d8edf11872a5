// f16 WMMA GEMM, C[M,N] (f32) = A[M,K] · B[K,N] with A row-major and B given transposed
// (BT[N,K], row-major: "NT"), one wave32 per 16x16 tile of C. One source for RDNA3 and RDNA4:
// the operand layouts differ (workbench.layouts). RDNA3: lane l holds row (A) / column (B)
// l%16 with all 16 k, replicated in lanes l and l+16; D element i is row 2i + l/16. RDNA4: lane
// l holds k = e%4 + 4*(l/16) + 8*(e/4) for elements e = 0..7; D element i is row i + 8*(l/16).
typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float8 __attribute__((ext_vector_type(8)));

extern "C" __global__ void wmma_gemm(const _Float16* A, const _Float16* BT, float* C, int N,
                                     int K) {
  const int lane = threadIdx.x, r16 = lane % 16, half = lane / 16;
  const int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  const _Float16* arow = A + (size_t)(tm + r16) * K;
  const _Float16* bcol = BT + (size_t)(tn + r16) * K;
  float8 acc = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
#if defined(__GFX11__)
    const half16 a = *(const half16*)(arow + k0);
    const half16 b = *(const half16*)(bcol + k0);
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, acc);
#elif defined(__GFX12__)
    const half4 a0 = *(const half4*)(arow + k0 + 4 * half);
    const half4 a1 = *(const half4*)(arow + k0 + 8 + 4 * half);
    const half4 b0 = *(const half4*)(bcol + k0 + 4 * half);
    const half4 b1 = *(const half4*)(bcol + k0 + 8 + 4 * half);
    const half8 a = __builtin_shufflevector(a0, a1, 0, 1, 2, 3, 4, 5, 6, 7);
    const half8 b = __builtin_shufflevector(b0, b1, 0, 1, 2, 3, 4, 5, 6, 7);
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32_gfx12(a, b, acc);
#else
#error "wmma_gemm is RDNA3/RDNA4 code"
#endif
  }
  for (int i = 0; i < 8; ++i) {
#if defined(__GFX11__)
    const int row = 2 * i + half;
#else
    const int row = i + 8 * half;
#endif
    C[(size_t)(tm + row) * N + tn + r16] = acc[i];
  }
}
