// Wave sum with __shfl_xor (ds_bpermute) then one atomic-free store per wave.
extern "C" __global__ void wave_sum_shfl(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int m = 32; m > 0; m >>= 1) v += __shfl_xor(v, m);
  if ((threadIdx.x & 63) == 0) out[i / 64] = v;
}

// Integer max-reduction with __shfl_down and a ballot count.
extern "C" __global__ void wave_max_ballot(const int* x, int* out_max, int* out_cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : -2147483647 - 1;
  for (int d = 32; d > 0; d >>= 1) v = max(v, __shfl_down(v, d));
  unsigned long long b = __ballot(i < n && x[i] > 0);
  if ((threadIdx.x & 63) == 0) {
    out_max[i / 64] = v;
    out_cnt[i / 64] = __popcll(b);
  }
}
