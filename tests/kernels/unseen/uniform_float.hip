// Uniform float math on kernel arguments: on RDNA4 (and gfx1150) LLVM computes it on the
// scalar unit (SALU float ops), elsewhere on the VALU. Every lane stores the same results.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

__global__ void uniform_f32(float a, float b, float c, float* out) {
  float r[12];
  r[0] = a * b + c;
  r[1] = fmaxf(a, b);
  r[2] = fminf(a, c);
  r[3] = rintf(a * 3.0f);
  r[4] = floorf(b) + ceilf(c) + truncf(a);
  r[5] = (a < b) ? 1.0f : -1.0f;
  r[6] = (a >= c) ? 2.0f : -2.0f;
  r[7] = (b != c) ? 3.0f : -3.0f;
  r[8] = (float)(int)(a * 100.0f);
  r[9] = (float)(unsigned)(c * 7.0f);
  r[10] = __fmaf_rn(a, c, -b);
  r[11] = (a == a) ? a - b : 0.0f;  // ordered
  for (int k = 0; k < 12; ++k) out[12 * threadIdx.x + k] = r[k];
}

__global__ void uniform_f16(float a, __half h, __half g, __half* hout, float* fout) {
  __half r[6];
  r[0] = __float2half(a);
  r[1] = h + g;
  r[2] = h * g;
  r[3] = h - g;
  r[4] = __hmax(h, g);
  r[5] = __hfma(h, g, __float2half(0.25f));
  for (int k = 0; k < 6; ++k) hout[6 * threadIdx.x + k] = r[k];
  fout[2 * threadIdx.x] = __half2float(h) * a;
  fout[2 * threadIdx.x + 1] = __hlt(h, g) ? 1.0f : 0.0f;
}
