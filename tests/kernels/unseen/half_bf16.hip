// fp16 / bf16 arithmetic through hip_fp16.h and hip_bf16.h.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

__global__ void half_axpy(const __half* x, __half* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(__float2half(a), x[i], y[i]);
}

__global__ void half2_mul_add(const __half2* a, const __half2* b, __half2* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __hadd2(__hmul2(a[i], b[i]), a[i]);
}

__global__ void half_dot_f32acc(const __half* a, const __half* b, float* out, int n) {
  float acc = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += __half2float(a[i]) * __half2float(b[i]);
  for (int o = warpSize / 2; o > 0; o /= 2) acc += __shfl_down(acc, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, acc);
}

__global__ void half_compare(const __half* a, const __half* b, __half* mx, int* lt) {
  int i = threadIdx.x;
  mx[i] = __hgt(a[i], b[i]) ? a[i] : b[i];
  lt[i] = __hlt(a[i], b[i]);
}

__global__ void bf16_ops(const __hip_bfloat16* a, const __hip_bfloat16* b, __hip_bfloat16* sum,
                         float* prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    sum[i] = __hadd(a[i], b[i]);
    prod[i] = __bfloat162float(a[i]) * __bfloat162float(b[i]);
  }
}

__global__ void f32_to_bf16_rn(const float* x, __hip_bfloat16* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(x[i]);
}
