// Single-wave MFMA tiles whose lanes load row-major matrices with the closed-form lane formulas of
// the AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_calculator,
// --detail-instruction), written out here by hand -- independent of workbench.layouts, which the
// emulator uses. A is [M][K], B is [K][N], C and D are [M][N] (multi-block: [blocks][...]).
typedef float v2f __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef double v4d __attribute__((ext_vector_type(4)));

// i8 16x16x32: A[i][k] in lane 16*(k/8)+i, register (k/4)%2, byte k%4 -> a lane holds the 8
// consecutive k of one row (one 64-bit value); C/D: register i%4, lane 16*(i/4)+j.
extern "C" __global__ void i8_16x16x32(const signed char* A, const signed char* B, const int* C,
                                       int* D) {
  int l = threadIdx.x, r16 = l % 16, k0 = 8 * (l / 16);
  long a = 0, b = 0;
  for (int e = 0; e < 8; e++) {
    a |= (long)(unsigned char)A[r16 * 32 + k0 + e] << (8 * e);
    b |= (long)(unsigned char)B[(k0 + e) * 16 + r16] << (8 * e);
  }
  typedef int v4i __attribute__((ext_vector_type(4)));
  v4i c;
  for (int r = 0; r < 4; r++) c[r] = C[(4 * (l / 16) + r) * 16 + r16];
  c = __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (l / 16) + r) * 16 + r16] = c[r];
}

// fp8 x bf8 16x16x32: the same byte layout as i8 (the calculator's CDNA3 fp8/bf8 and i8 forms).
extern "C" __global__ void fp8_bf8_16x16x32(const unsigned char* A, const unsigned char* B,
                                            float* D) {
  int l = threadIdx.x, r16 = l % 16, k0 = 8 * (l / 16);
  long a = 0, b = 0;
  for (int e = 0; e < 8; e++) {
    a |= (long)A[r16 * 32 + k0 + e] << (8 * e);
    b |= (long)B[(k0 + e) * 16 + r16] << (8 * e);
  }
  v4f c = {0, 0, 0, 0};
  c = __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (l / 16) + r) * 16 + r16] = c[r];
}

// bf8 x fp8 32x32x16: A[i][k] in lane 32*(k/8)+i (8 consecutive k per lane); C/D: register r
// holds row 8*(r/4) + 4*(lane/32) + r%4, column lane%32.
extern "C" __global__ void bf8_fp8_32x32x16(const unsigned char* A, const unsigned char* B,
                                            const float* C, float* D) {
  int l = threadIdx.x, r32 = l % 32, k0 = 8 * (l / 32);
  long a = 0, b = 0;
  for (int e = 0; e < 8; e++) {
    a |= (long)A[r32 * 16 + k0 + e] << (8 * e);
    b |= (long)B[(k0 + e) * 32 + r32] << (8 * e);
  }
  v16f c;
  for (int r = 0; r < 16; r++) c[r] = C[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + r32];
  c = __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, 0, 0, 0);
  for (int r = 0; r < 16; r++) D[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + r32] = c[r];
}

// xf32 16x16x8: A[i][k] in register k%2 of lane 16*(k/2)+i; C/D as 16x16.
extern "C" __global__ void xf32_16x16x8(const float* A, const float* B, float* D) {
  int l = threadIdx.x, r16 = l % 16, k0 = 2 * (l / 16);
  v2f a = {A[r16 * 8 + k0], A[r16 * 8 + k0 + 1]};
  v2f b = {B[k0 * 16 + r16], B[(k0 + 1) * 16 + r16]};
  v4f c = {0, 0, 0, 0};
  c = __builtin_amdgcn_mfma_f32_16x16x8_xf32(a, b, c, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (l / 16) + r) * 16 + r16] = c[r];
}

// f64 16x16x4: A[i][k] in lane 16*k+i (one double); C/D register pair p holds row 4*p + lane/16
// of column lane%16 (facts: "different row split from the f32 16x16 layout").
extern "C" __global__ void f64_16x16x4(const double* A, const double* B, const double* C,
                                       double* D) {
  int l = threadIdx.x, r16 = l % 16, k = l / 16;
  double a = A[r16 * 4 + k], b = B[k * 16 + r16];
  v4d c;
  for (int p = 0; p < 4; p++) c[p] = C[(4 * p + l / 16) * 16 + r16];
  c = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 0);
  for (int p = 0; p < 4; p++) D[(4 * p + l / 16) * 16 + r16] = c[p];
}

// 16 blocks of 4x4x1 f32: A[b][i][0] in lane 4*b+i, B[b][0][j] in lane 4*b+j; D[b][i][j] in
// register i of lane 4*b+j.
extern "C" __global__ void f32_4x4x1_16b(const float* A, const float* B, float* D) {
  int l = threadIdx.x;
  v4f c = {0, 0, 0, 0};
  c = __builtin_amdgcn_mfma_f32_4x4x1f32(A[l], B[l], c, 0, 0, 0);
  for (int i = 0; i < 4; i++) D[(l / 4) * 16 + i * 4 + l % 4] = c[i];
}
