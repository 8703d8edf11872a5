// Per-generation lane and bit builtins: DPP8 and permlane16_var (RDNA), gfx950's bitop3,
// prng and ashr_pk, packed f16 atomics on global memory.
#include <hip/hip_runtime.h>

#if defined(__gfx1100__) || defined(__gfx1201__)
// DPP8: in every group of 8 lanes, lane j reads lane sel[j] (3 bits each); here [7,6,...,0]
__global__ void dpp8_reverse(const int* x, int* out) {
  constexpr unsigned sel = 7 | 6 << 3 | 5 << 6 | 4 << 9 | 3 << 12 | 2 << 15 | 1 << 18 | 0 << 21;
  out[threadIdx.x] = __builtin_amdgcn_mov_dpp8(x[threadIdx.x], sel);
}
#endif

#if defined(__gfx1201__)
// permlane16_var: lane l reads lane sel[l] (a VGPR per lane) of its row of 16
__global__ void permlane16_var(const int* x, const int* sel, int* out) {
  out[threadIdx.x] = __builtin_amdgcn_permlane16_var(0, x[threadIdx.x], sel[threadIdx.x],
                                                     false, false);
}
#endif

#if defined(__gfx950__)
// bitop3: any 3-input boolean function by its truth table (0xE8 = majority, 0x96 = xor3)
__global__ void bitop3(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* maj,
                       unsigned* x3) {
  int i = threadIdx.x;
  maj[i] = __builtin_amdgcn_bitop3_b32(a[i], b[i], c[i], 0xE8);
  x3[i] = __builtin_amdgcn_bitop3_b32(a[i], b[i], c[i], 0x96);
}
#endif

#if defined(__gfx942__) || defined(__gfx950__) || defined(__gfx1201__)  // not gfx11
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
// packed f16 atomic add on global memory (global_atomic_pk_add_f16)
__global__ void pk_add_f16(h2* acc, const h2* x) {
  __builtin_amdgcn_global_atomic_fadd_v2f16(acc + threadIdx.x % 4, x[threadIdx.x]);
}
#endif

#if defined(__gfx942__) || defined(__gfx950__) || defined(__gfx1201__)
typedef __bf16 bf2 __attribute__((ext_vector_type(2)));
// packed bf16 atomic add on global memory (global_atomic_pk_add_bf16)
__global__ void pk_add_bf16(bf2* acc, const bf2* x) {
  __builtin_amdgcn_global_atomic_fadd_v2bf16(acc + threadIdx.x % 4, x[threadIdx.x]);
}
#endif

#if defined(__gfx950__)
// shift two i32 right, saturate to i8 / u8, pack the two bytes (int8 requantisation)
__global__ void ashr_pk(const int* x, const int* y, const unsigned* sh, unsigned short* si,
                        unsigned short* su) {
  int i = threadIdx.x;
  si[i] = __builtin_amdgcn_ashr_pk_i8_i32(x[i], y[i], sh[i]);
  su[i] = __builtin_amdgcn_ashr_pk_u8_i32(x[i], y[i], sh[i]);
}
#endif
