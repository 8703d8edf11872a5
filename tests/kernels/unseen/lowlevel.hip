// Lower-level builtins seen in tuned HIP code: buffer resources, nontemporal loads, scheduling
// hints, scoped atomics (__hip_atomic_*, __atomic_*), fences, and an LDS-tiled SGEMM.
#include <hip/hip_runtime.h>

__device__ __amdgpu_buffer_rsrc_t make_rsrc(const void* p, int bytes) {
#if defined(__GFX11__) || defined(__GFX12__)
  const int flags = 0x31014000;  // RDNA3/4 dword 3 used by CK-style code (format, oob select)
#else
  const int flags = 0x00020000;  // CDNA: DATA_FORMAT = 32
#endif
  return __builtin_amdgcn_make_buffer_rsrc(const_cast<void*>(p), (short)0, bytes, flags);
}

__global__ void buffer_copy(const float* src, float* dst, int n) {
  __amdgpu_buffer_rsrc_t rs = make_rsrc(src, n * 4);
  __amdgpu_buffer_rsrc_t rd = make_rsrc(dst, n * 4);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // out-of-range lanes read 0 and their writes are dropped (buffer range checking)
  // the _b32 forms move raw 32-bit words (unsigned int): bit-cast, do not convert
  float v = __builtin_bit_cast(float, __builtin_amdgcn_raw_buffer_load_b32(rs, i * 4, 0, 0));
  __builtin_amdgcn_raw_buffer_store_b32(__builtin_bit_cast(unsigned, v * 2.0f), rd, i * 4, 0, 0);
}

__global__ void nontemporal(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __builtin_nontemporal_load(x + i);
    __builtin_amdgcn_sched_barrier(0);
    __builtin_amdgcn_s_setprio(1);
    __builtin_nontemporal_store(v + 1.0f, y + i);
    __builtin_amdgcn_s_setprio(0);
  }
}

__global__ void scoped_atomics(int* counter, int* flags, unsigned long long* wide, float* fsum,
                               const float* x) {
  int t = threadIdx.x;
  __hip_atomic_fetch_add(counter, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __atomic_fetch_add(counter + 1, 2, __ATOMIC_SEQ_CST);
  __hip_atomic_fetch_max(counter + 2, t, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __atomic_fetch_or(wide, 1ull << (t % 64), __ATOMIC_RELAXED);
  __hip_atomic_fetch_add(fsum, x[t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  if (t == 0) __hip_atomic_store(flags, 7, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
  int seen = __hip_atomic_load(flags + 1, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
  int expected = 0;
  __atomic_compare_exchange_n(flags + 2, &expected, seen + 5, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
}

// classic shared-memory tiled SGEMM: C[MxN] = A[MxK] B[KxN], 16x16 tiles, row-major
#define TS 16
__global__ void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS + 1];
  int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
