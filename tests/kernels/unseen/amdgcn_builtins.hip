// __builtin_amdgcn_* intrinsics people use: readfirstlane, ds_bpermute, mbcnt, ubfe, s_memtime.
#include <hip/hip_runtime.h>

__global__ void readfirstlane(const int* x, int* out) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __builtin_amdgcn_readfirstlane(v);
}

__global__ void bpermute_rotate(const int* x, int* out, int shift) {
  int lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  if (warpSize == 64) lane = __builtin_amdgcn_mbcnt_hi(~0u, lane);
  int src = (lane + shift) % warpSize;
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __builtin_amdgcn_ds_bpermute(src << 2, v);
}

__global__ void mbcnt_compact(const int* x, int* out, int* count) {
  // stream compaction within a wave: positives packed to the front, order kept
  int v = x[threadIdx.x];
  bool keep = v > 0;
  unsigned long long m = __ballot(keep);
  int pos = __builtin_amdgcn_mbcnt_lo((unsigned)m, 0u);
  if (warpSize == 64) pos = __builtin_amdgcn_mbcnt_hi((unsigned)(m >> 32), pos);
  if (keep) out[pos] = v;
  if (threadIdx.x == 0) *count = __popcll(m);
}

__global__ void readlane_bcast(const float* x, float* out, int lane) {
  float v = x[threadIdx.x];
  out[threadIdx.x] = __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), lane));
}

__global__ void fmed3_ubfe(const float* x, float* med, const unsigned* u, unsigned* bf) {
  int i = threadIdx.x;
  med[i] = __builtin_amdgcn_fmed3f(x[i], -1.0f, 1.0f);  // clamp to [-1, 1]
  bf[i] = __builtin_amdgcn_ubfe(u[i], 4, 12);
}
