// 64-bit index arithmetic: strided gather with long offsets, 64-bit multiply and shifts.
extern "C" __global__ void index64(const long long* a, long long* out, long long stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long j = ((long long)i * stride) % n;
  long long v = a[j];
  out[i] = (v * 0x100000001LL) ^ (v >> 7) ^ ((unsigned long long)v << 13) ^ ((long long)i << 40);
}
