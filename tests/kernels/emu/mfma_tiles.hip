// Single-wave MFMA tiles: 32x32x8 f16, 16x16x16 bf16 (A row-major [M][K], B [K][N]) and
// 16x16x4 f32, each loaded in the catalog's lane layout and stored as D[M][N].
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef short s4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));
typedef float f4 __attribute__((ext_vector_type(4)));

extern "C" __global__ void mfma32x32x8_f16(const _Float16* A, const _Float16* B, float* D) {
  int l = threadIdx.x;
  h4 a, b;
  for (int e = 0; e < 4; e++) {
    a[e] = A[(l % 32) * 8 + (l / 32) * 4 + e];   // A[i][k]: i = lane%32, k = 4*(lane/32)+e
    b[e] = B[((l / 32) * 4 + e) * 32 + l % 32];  // B[k][j]: j = lane%32
  }
  f16v c = {};
  c = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
  for (int r = 0; r < 16; r++) {
    int i = (r / 4) * 8 + (l / 32) * 4 + r % 4;    // D row for register r of this lane
    D[i * 32 + l % 32] = c[r];
  }
}

extern "C" __global__ void mfma16x16x16_bf16(const short* A, const short* B, const float* C,
                                             float* D) {
  int l = threadIdx.x;
  s4 a, b;
  for (int e = 0; e < 4; e++) {
    a[e] = A[(l % 16) * 16 + (l / 16) * 4 + e];
    b[e] = B[((l / 16) * 4 + e) * 16 + l % 16];
  }
  f4 c;
  for (int r = 0; r < 4; r++) c[r] = C[((l / 16) * 4 + r) * 16 + l % 16];
  c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[((l / 16) * 4 + r) * 16 + l % 16] = c[r];
}

extern "C" __global__ void mfma16x16x4_f32(const float* A, const float* B, float* D) {
  int l = threadIdx.x;
  float a = A[(l % 16) * 4 + l / 16], b = B[(l / 16) * 16 + l % 16];
  f4 c = {};
  c = __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[((l / 16) * 4 + r) * 16 + l % 16] = c[r];
}
