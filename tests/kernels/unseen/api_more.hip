// More of HIP's device API: __half2 / bf16x2 helpers, integer averages, and float arithmetic
// with an explicit rounding mode.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

__global__ void half2_api(const __half2* a, const __half2* b, __half2* out, int* flags, int n) {
  int i = threadIdx.x;
  if (i < n) {
    __half2 x = a[i], y = b[i];
    out[4 * i + 0] = h2sqrt(__habs2(x));
    out[4 * i + 1] = __lowhigh2highlow(x);
    out[4 * i + 2] = __highs2half2(x, y);
    out[4 * i + 3] = __hlt2(x, y);  // 1.0 / 0.0 per lane
    flags[3 * i + 0] = __hbeq2(x, x);
    flags[3 * i + 1] = __hblt2(x, y);
    flags[3 * i + 2] = __half2int_rn(__low2half(x) * (__half)10.0f);
  }
}

__global__ void bf16x2_api(const __hip_bfloat162* a, __hip_bfloat162* out, int* ints, int n) {
  int i = threadIdx.x;
  if (i < n) {
    __hip_bfloat162 x = a[i];
    out[2 * i + 0] = __low2bfloat162(x);
    out[2 * i + 1] = __hmul2(__lowhigh2highlow(x), x);
    ints[2 * i + 0] = __bfloat162int_rn(__low2bfloat16(x) * __int2bfloat16_rn(100));
    ints[2 * i + 1] = __hbge2(x, __lowhigh2highlow(x));
  }
}

__global__ void int_avg(const int* a, const int* b, int* out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[4 * i + 0] = __hadd(a[i], b[i]);
    out[4 * i + 1] = __rhadd(a[i], b[i]);
    out[4 * i + 2] = (int)__uhadd((unsigned)a[i], (unsigned)b[i]);
    out[4 * i + 3] = (int)__urhadd((unsigned)a[i], (unsigned)b[i]);
  }
}

// out[21 * i + 3 * op + m]: op = add sub mul div sqrt rcp fma, m = rz rd ru
__global__ void directed(const float* x, const float* y, const float* z, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float a = x[i], b = y[i], c = z[i];
    float* o = out + 21 * i;
    o[0] = __fadd_rz(a, b);  o[1] = __fadd_rd(a, b);  o[2] = __fadd_ru(a, b);
    o[3] = __fsub_rz(a, b);  o[4] = __fsub_rd(a, b);  o[5] = __fsub_ru(a, b);
    o[6] = __fmul_rz(a, b);  o[7] = __fmul_rd(a, b);  o[8] = __fmul_ru(a, b);
    o[9] = __fdiv_rz(a, b);  o[10] = __fdiv_rd(a, b); o[11] = __fdiv_ru(a, b);
    float p = fabsf(a);
    o[12] = __fsqrt_rz(p);   o[13] = __fsqrt_rd(p);   o[14] = __fsqrt_ru(p);
    o[15] = __frcp_rz(b);    o[16] = __frcp_rd(b);    o[17] = __frcp_ru(b);
    o[18] = __fmaf_rz(a, b, c); o[19] = __fmaf_rd(a, b, c); o[20] = __fmaf_ru(a, b, c);
  }
}
