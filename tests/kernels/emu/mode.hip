// The MODE hardware register: s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32.
// (not named fdiv: <cmath>, which HIP's headers include, declares glibc's fdiv narrowing function)
extern "C" __global__ void fdiv_kernel(const float* a, const float* b, float* o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = a[i] / b[i];  // with -fgpu-flush-denormals-to-zero: denormals switched on inside
}

extern "C" __global__ void read_mode(unsigned* o) {
  // hwreg(HW_REG_MODE, 0, 32): id 1, offset 0, size 32 (simm16 = id | offset << 6 | (size-1) << 11)
  o[threadIdx.x] = __builtin_amdgcn_s_getreg(1 | (0 << 6) | (31 << 11));
}

// Switch f32 denormals to "flush in and out" around one multiply, then back; read MODE inside.
extern "C" __global__ void flush_window(const float* x, float* o, unsigned* m) {
  int i = threadIdx.x;
  float v = x[i], r;
  unsigned inside;
  asm volatile("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0\n\t"
               "v_mul_f32_e32 %0, 1.0, %2\n\t"
               "s_getreg_b32 %1, hwreg(HW_REG_MODE, 4, 4)\n\t"
               "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3"
               : "=v"(r), "=s"(inside) : "v"(v));
  o[2 * i] = r;
  o[2 * i + 1] = v * 1.0f;  // outside the window: denormals kept
  m[i] = inside;
}

// s_setreg_b32 from an SGPR: writing the value already in force is fine, another one is not.
extern "C" __global__ void set_from_sgpr(unsigned value, unsigned* o) {
  asm volatile("s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), %0" : : "s"(value));
  o[threadIdx.x] = __builtin_amdgcn_s_getreg(1 | (4 << 6) | (1 << 11));
}

// A rounding-mode change (what __builtin_set_flt_rounds lowers to) is refused.
extern "C" __global__ void round_toward_zero(const float* a, float* o) {
  __builtin_set_flt_rounds(0);
  o[threadIdx.x] = a[threadIdx.x] + 1.0f;
}

// A branch that skips the restoring s_setreg when `skip` is set.
extern "C" __global__ void skip_restore(int skip, float* o) {
  asm volatile("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0\n\t"
               "s_cmp_lg_u32 %0, 0\n\t"
               "s_cbranch_scc1 1f\n\t"
               "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3\n"
               "1:" : : "s"(skip) : "scc");
  o[threadIdx.x] = 1.0f;
}

// HW_REG_HW_ID (4: wave/SIMD/CU placement) reads the emulator's modelled placement
// (fam_mode); other hardware registers are not modelled (HW_REG_GPR_ALLOC = 5).
extern "C" __global__ void read_hw_id(unsigned* o) {
  o[blockIdx.x * blockDim.x + threadIdx.x] = __builtin_amdgcn_s_getreg(4 | (0 << 6) | (31 << 11));
}
extern "C" __global__ void read_gpr_alloc(unsigned* o) {
  o[threadIdx.x] = __builtin_amdgcn_s_getreg(5 | (0 << 6) | (31 << 11));
}
