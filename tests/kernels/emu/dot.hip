// gfx942 dot-product builtins (LLVM IntrinsicsAMDGPU.td): the VOP2 accumulate forms
// (v_dot2c_f32_f16, v_dot2c_i32_i16, v_dot4c_i32_i8, v_dot8c_i32_i4) for clamp = false and
// the VOP3P forms otherwise / for unsigned.
typedef _Float16 half2_t __attribute__((ext_vector_type(2)));
typedef short short2_t __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2_t __attribute__((ext_vector_type(2)));

extern "C" __global__ void dots(const unsigned* a, const unsigned* b, const unsigned* c,
                                unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], z = c[i];
  half2_t hx = __builtin_bit_cast(half2_t, x), hy = __builtin_bit_cast(half2_t, y);
  short2_t sx = __builtin_bit_cast(short2_t, x), sy = __builtin_bit_cast(short2_t, y);
  ushort2_t ux = __builtin_bit_cast(ushort2_t, x), uy = __builtin_bit_cast(ushort2_t, y);
  float fz = __builtin_bit_cast(float, z);
  unsigned* o = out + 14 * i;
  o[0] = __builtin_bit_cast(unsigned, __builtin_amdgcn_fdot2(hx, hy, fz, false));
  o[1] = __builtin_bit_cast(unsigned, __builtin_amdgcn_fdot2(hx, hy, fz, true));
  o[2] = __builtin_amdgcn_sdot2(sx, sy, (int)z, false);
  o[3] = __builtin_amdgcn_sdot2(sx, sy, (int)z, true);
  o[4] = __builtin_amdgcn_udot2(ux, uy, z, false);
  o[5] = __builtin_amdgcn_udot2(ux, uy, z, true);
  o[6] = __builtin_amdgcn_sdot4((int)x, (int)y, (int)z, false);
  o[7] = __builtin_amdgcn_sdot4((int)x, (int)y, (int)z, true);
  o[8] = __builtin_amdgcn_udot4(x, y, z, false);
  o[9] = __builtin_amdgcn_udot4(x, y, z, true);
  o[10] = __builtin_amdgcn_sdot8((int)x, (int)y, (int)z, false);
  o[11] = __builtin_amdgcn_sdot8((int)x, (int)y, (int)z, true);
  o[12] = __builtin_amdgcn_udot8(x, y, z, false);
  o[13] = __builtin_amdgcn_udot8(x, y, z, true);
}

// A dot chain the way a kernel uses it: int8 GEMV row (dot4c accumulation in a loop) and an
// f16 one (dot2c), with swapped halves (op_sel) from a shuffled operand.
extern "C" __global__ void gemv_i8(const int* A, const int* x, int* y, int kw) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  for (int k = 0; k < kw; ++k) acc = __builtin_amdgcn_sdot4(A[r * kw + k], x[k], acc, false);
  y[r] = acc;
}

extern "C" __global__ void fdot_swapped(const unsigned* a, const unsigned* b, float* out) {
  int i = threadIdx.x;
  half2_t ha = __builtin_bit_cast(half2_t, a[i]), hb = __builtin_bit_cast(half2_t, b[i]);
  half2_t sw = {hb.y, hb.x};
  half2_t ng = {-ha.x, ha.y};
  out[i] = __builtin_amdgcn_fdot2(ng, sw, 0.5f, false);
}

// VOP3P negation written out: neg_lo/neg_hi per element and on the f32 accumulator (LLVM
// folds source negations into the dot only in some patterns, so inline asm pins them down).
extern "C" __global__ void fdot_mods(const unsigned* a, const unsigned* b, const float* c,
                                     float* out) {
  int i = threadIdx.x;
  float r0, r1;
  asm volatile("v_dot2_f32_f16 %0, %1, %2, %3 neg_lo:[1,0,1]"
               : "=v"(r0) : "v"(a[i]), "v"(b[i]), "v"(c[i]));
  asm volatile("v_dot2_f32_f16 %0, %1, %2, %3 neg_hi:[1,1,0]"
               : "=v"(r1) : "v"(a[i]), "v"(b[i]), "v"(c[i]));
  out[2 * i] = r0;
  out[2 * i + 1] = r1;
}

// Plain C: LLVM forms v_dot4c_i32_i8 from the byte multiply-add chain by itself
// (SIISelLowering's dot4 combine). The bytes are taken from the packed words by shifts: LLVM 19
// and 22 both match that form; the char4 element form (x.x * y.x + ...) matches in LLVM 19 only.
extern "C" __global__ void char4_dot(const char4* a, const char4* b, int* o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = __builtin_bit_cast(int, a[i]), y = __builtin_bit_cast(int, b[i]);
  int acc = o[i];
  acc += (signed char)x * (signed char)y;
  acc += (signed char)(x >> 8) * (signed char)(y >> 8);
  acc += (signed char)(x >> 16) * (signed char)(y >> 16);
  acc += (signed char)(x >> 24) * (signed char)(y >> 24);
  o[i] = acc;
}

// The VOP2 accumulate form with DPP: lane i takes S0 from lane i^1 (quad_perm:[1,0,3,2]).
extern "C" __global__ void dot2c_dpp(const unsigned* a, const unsigned* b, float* acc) {
  int i = threadIdx.x;
  float d = acc[i];
  asm volatile("v_dot2c_f32_f16_dpp %0, %1, %2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
               : "+v"(d) : "v"(a[i]), "v"(b[i]));
  acc[i] = d;
}
