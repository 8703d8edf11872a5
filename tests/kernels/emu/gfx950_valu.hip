// gfx950-only VALU instructions, pinned with inline asm: v_bitop3_b32/b16 with several truth
// tables (0xf0 = S0, 0xcc = S1, 0xaa = S2; 0x96 = S0^S1^S2, 0xe8 = majority, 0x48 from the
// corpus's divergent kernel) and v_cvt_pk_bf16_f32 (two f32 -> packed bf16, RNE).
extern "C" __global__ void bitops(const unsigned* a, const unsigned* b, const unsigned* c,
                                  unsigned* out) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i], z = c[i], r0, r1, r2, r3, r4, r5;
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0xf0" : "=v"(r0) : "v"(x), "v"(y), "v"(z));
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0x96" : "=v"(r1) : "v"(x), "v"(y), "v"(z));
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0xe8" : "=v"(r2) : "v"(x), "v"(y), "v"(z));
  asm volatile("v_bitop3_b32 %0, %1, %2, %3 bitop3:0x48" : "=v"(r3) : "v"(x), "v"(y), "v"(z));
  asm volatile("v_bitop3_b32 %0, %1, 7, %2 bitop3:0x1b" : "=v"(r4) : "v"(x), "v"(z));
  asm volatile("v_bitop3_b16 %0, %1, %2, %3 bitop3:0x6a" : "=v"(r5) : "v"(x), "v"(y), "v"(z));
  unsigned* o = out + 6 * i;
  o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5;
}

extern "C" __global__ void pk_bf16(const float* a, const float* b, unsigned* out) {
  int i = threadIdx.x;
  unsigned r;
  asm volatile("v_cvt_pk_bf16_f32 %0, %1, %2" : "=v"(r) : "v"(a[i]), "v"(b[i]));
  out[i] = r;
}

// 160 KiB of LDS per workgroup on gfx950: write at the dynamic-LDS offset `off`, read back
// from a different lane's slot
extern "C" __global__ void big_lds(int* out, int off) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  dyn[off / 4 + t] = t * 3 + 1;
  __syncthreads();
  out[t] = dyn[off / 4 + (t ^ 1)];
}

// more gfx950 VALU: v_permlane16/32_swap_b32 (builtins), v_prng_b32, v_cvt_pk_f16_f32 (clang
// selects it for a float2 -> half2 conversion), v_maximum3_f32 / v_minimum3_f32 (pinned by asm)
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef float f2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void lanes950(const unsigned* a, unsigned* out) {
  int i = threadIdx.x;
  unsigned x = a[i], y = a[64 + i];
  auto r16 = __builtin_amdgcn_permlane16_swap(x, y, false, false);
  auto r32 = __builtin_amdgcn_permlane32_swap(x, y, false, false);
  out[i] = r16[0];
  out[64 + i] = r16[1];
  out[128 + i] = r32[0];
  out[192 + i] = r32[1];
  out[256 + i] = __builtin_amdgcn_prng_b32(x);
  unsigned z = x;  // one register as both operands: its odd and even rows trade places
  asm volatile("v_permlane16_swap_b32 %0, %0" : "+v"(z));
  out[320 + i] = z;
}

extern "C" __global__ void floats950(const float* a, const float* b, const float* c, h2* ph,
                                     float* mx, float* mn) {
  int i = threadIdx.x;
  f2 v = {a[i], b[i]};
  ph[i] = __builtin_convertvector(v, h2);
  float r, s;
  asm volatile("v_maximum3_f32 %0, %1, %2, %3" : "=v"(r) : "v"(a[i]), "v"(b[i]), "v"(c[i]));
  asm volatile("v_minimum3_f32 %0, %1, %2, %3" : "=v"(s) : "v"(a[i]), "v"(b[i]), "v"(c[i]));
  mx[i] = r;
  mn[i] = s;
}

// bf16 dot (dot12-insts): clang emits the VOP2 accumulate form v_dot2c_f32_bf16; the VOP3P
// form with neg modifiers pinned by asm
typedef __bf16 bf2 __attribute__((ext_vector_type(2)));
extern "C" __global__ void dot_bf16(const unsigned* a, const unsigned* b, float* acc,
                                    float* o) {
  int i = threadIdx.x;
  acc[i] = __builtin_amdgcn_fdot2_f32_bf16(__builtin_bit_cast(bf2, a[i]),
                                           __builtin_bit_cast(bf2, b[i]), acc[i], false);
  float r;
  asm volatile("v_dot2_f32_bf16 %0, %1, %2, %3 neg_lo:[1,0,0] neg_hi:[0,1,0]"
               : "=v"(r) : "v"(a[i]), "v"(b[i]), "v"(o[i]));
  o[i] = r;
}
