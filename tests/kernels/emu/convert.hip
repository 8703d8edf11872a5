// f32 <-> f16 / bf16 conversions (round to nearest even), half arithmetic.
extern "C" __global__ void convert(const float* x, __half* h, __hip_bfloat16* bf, float* back_h,
                                   float* back_bf, __half* hsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = __float2half(x[i]);
  __hip_bfloat16 b = __float2bfloat16(x[i]);
  h[i] = a;
  bf[i] = b;
  back_h[i] = __half2float(a);
  back_bf[i] = __bfloat162float(b);
  hsum[i] = __hadd(a, __hmul(a, a));
}
