// Small dot builtins, s_memrealtime, __smid, and an int8 GEMM tile through v_dot4.
#include <hip/hip_runtime.h>

typedef short short2v __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2v __attribute__((ext_vector_type(2)));
typedef _Float16 half2v __attribute__((ext_vector_type(2)));

#if defined(__gfx942__) || defined(__gfx950__)
// v_dot2_i32_i16 / v_dot2_u32_u16 (gfx9 dot2-insts)
__global__ void dot2_int(const short2v* a, const short2v* b, const ushort2v* ua,
                         const ushort2v* ub, const int* c, int* s2, unsigned* u2) {
  int i = threadIdx.x;
  s2[i] = __builtin_amdgcn_sdot2(a[i], b[i], c[i], false);
  u2[i] = __builtin_amdgcn_udot2(ua[i], ub[i], (unsigned)c[i], false);
}
#endif

// v_dot2_f32_f16 (fdot2): f32 accumulate of a 2-element f16 dot
__global__ void dot2_f16(const half2v* a, const half2v* b, const float* c, float* out) {
  int i = threadIdx.x;
  out[i] = __builtin_amdgcn_fdot2(a[i], b[i], c[i], false);
}

// int8 GEMM C[M x N] = A[M x K] * B[K x N] (A rows, B columns packed 4 per dword): one thread
// per output, the K loop in v_dot4_i32_i8 steps
__global__ void gemm_i8_dot4(const int* A4, const int* B4t, int* C, int N, int K4) {
  int r = blockIdx.y, c = threadIdx.x;
  int acc = 0;
  for (int k = 0; k < K4; ++k)
#if defined(__gfx942__) || defined(__gfx950__)
    acc = __builtin_amdgcn_sdot4(A4[r * K4 + k], B4t[c * K4 + k], acc, false);
#else  // RDNA3/4: the mixed-sign dot with both sides signed
    acc = __builtin_amdgcn_sudot4(true, A4[r * K4 + k], true, B4t[c * K4 + k], acc, false);
#endif
  C[r * N + c] = acc;
}

// s_memrealtime (gfx9): a 64-bit clock that does not go backwards within a wave
__global__ void realtime(unsigned long long* t, int* ok) {
#if defined(__gfx942__) || defined(__gfx950__)
  unsigned long long a = __builtin_amdgcn_s_memrealtime();
  unsigned long long b = __builtin_amdgcn_s_memrealtime();
#else  // RDNA has no s_memrealtime (clang: needs s-memrealtime); wall_clock64 reads the same clock
  unsigned long long a = wall_clock64();
  unsigned long long b = wall_clock64();
#endif
  if (threadIdx.x == 0) { t[blockIdx.x] = a; ok[blockIdx.x] = b >= a; }
}

// __smid(): the compute unit the block runs on, uniform over the block
__global__ void smid(unsigned* id, int* uniform) {
  __shared__ unsigned first;
  unsigned s = __smid();
  if (threadIdx.x == 0) first = s;
  __syncthreads();
  int same = __syncthreads_and(s == first);
  if (threadIdx.x == 0) { id[blockIdx.x] = s; uniform[blockIdx.x] = same; }
}
