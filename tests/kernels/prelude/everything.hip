// Exercises every piece of the offline prelude; tests/prelude/test_prelude.py compiles it for each arch.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

__constant__ float scale_table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__device__ __forceinline__ float twice(float v) { return 2.0f * v; }

extern "C" __global__ void __launch_bounds__(128, 2)
coordinates(unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  dim3 t = threadIdx;
  out[i] = t.x + threadIdx.y + threadIdx.z + blockIdx.y + blockIdx.z + blockDim.y + blockDim.z
           + gridDim.x + gridDim.y + gridDim.z + warpSize + hipThreadIdx_x + __lane_id();
}

extern "C" __global__ void sync_and_fences(int *flag, int *data) {
  __shared__ int tile[64];
  tile[threadIdx.x % 64] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  __syncwarp();
  int n = __syncthreads_count(data[threadIdx.x] > 0);
  if (__syncthreads_and(n > 1) || __syncthreads_or(n > 2)) flag[0] = n;
}

extern "C" __global__ void warp_ops(float *f, int *i, double *d, unsigned long long *m) {
  int lane = threadIdx.x;
  f[lane] = __shfl(f[lane], 3) + __shfl_up(f[lane], 1) + __shfl_down(f[lane], 2, 16)
            + __shfl_xor(f[lane], 1, 8);
  i[lane] = __shfl(i[lane], 0) + __shfl_xor((unsigned)i[lane], 4)
            + __shfl_down_sync(~0ull, i[lane], 1);
  d[lane] = __shfl_xor(d[lane], 1) + __shfl((long long)d[lane], 2);
  m[0] = __ballot(f[lane] > 0.0f) + __activemask() + __any(lane > 3) + __all(lane < 100)
         + __ballot_sync(~0ull, lane & 1);
}

extern "C" __global__ void atomics(int *gi, unsigned *gu, unsigned long long *gull, long long *gll,
                                   float *gf, double *gd) {
  __shared__ int si[32];
  __shared__ float sf[32];
  si[threadIdx.x % 32] = 0;
  sf[threadIdx.x % 32] = 0.0f;
  __syncthreads();
  atomicAdd(&si[threadIdx.x % 32], 1);
  atomicAdd(&sf[threadIdx.x % 32], 1.0f);
  __syncthreads();
  atomicAdd(gi, si[0]);
  atomicSub(gi + 1, 1);
  atomicMax(gi + 2, (int)threadIdx.x);
  atomicMin(gu, threadIdx.x);
  atomicExch(gu + 1, 5u);
  atomicCAS(gi + 3, 0, 7);
  atomicAnd(gu + 2, 0xF0u);
  atomicOr(gu + 3, 1u);
  atomicXor(gu + 4, 3u);
  atomicInc(gu + 5, 10u);
  atomicDec(gu + 6, 10u);
  atomicAdd(gull, 1ull);
  atomicCAS(gull + 1, 0ull, 1ull);
  atomicMax(gll, (long long)threadIdx.x);
  atomicAdd(gf, sf[1]);
  atomicAdd(gd, 1.0);
  atomicAdd_system(gi + 4, 1);
  atomicAdd_block(gi + 5, 1);
}

extern "C" __global__ void dynamic_shared(const float *in, float *out) {
  HIP_DYNAMIC_SHARED(float, dyn)
  extern __shared__ float dyn2[];
  uint3 t = threadIdx;
  dyn[t.x] = __ldg(&in[t.x]);
  __syncthreads();
  out[t.x] = dyn2[blockDim.x - 1 - t.x];
  if (out[t.x] < 0.0f) __trap();
}

extern "C" __global__ void vectors(const float4 *in, float4 *out, int2 *ip, double2 *dp,
                                   uchar4 *cp, float3 *f3) {
  __shared__ float4 lds[64];
  float4 v = in[blockIdx.x * blockDim.x + threadIdx.x];
  lds[threadIdx.x] = v * 2.0f + make_float4(1, 2, 3, 4);
  __syncthreads();
  float4 w = lds[63 - threadIdx.x];
  w += v;
  out[threadIdx.x] = -w / 3.0f;
  int2 a = ip[threadIdx.x];
  ip[threadIdx.x] = (a << 1) ^ make_int2(1, 2) % 7;
  dp[threadIdx.x] = dp[threadIdx.x] * 0.5 + make_double2(1.0, 2.0);
  uchar4 c = cp[threadIdx.x];
  c.x = c.w;
  cp[threadIdx.x] = c;
  float3 p = f3[threadIdx.x];
  float *px = &p.x;
  f3[threadIdx.x] = make_float3(px[0], p.y * scale_table[1], p.z) + float3(1.0f);
}

extern "C" __global__ void halves(__half *h, __half2 *h2, __hip_bfloat16 *b, __hip_bfloat162 *b2,
                                  float *f) {
  int t = threadIdx.x;
  __half x = __float2half(f[t]);
  __half y = h[t] * x + __half(1.0f);
  h[t] = __hfma(y, x, __hneg(y)) > x ? __hmax(x, y) : __float2half_rz(f[t]);
  h2[t] = __hfma2(h2[t], __half2half2(x), __floats2half2_rn(1.0f, 2.0f)) * h2[t];
  __hip_bfloat16 p = __float2bfloat16(f[t]);
  __hip_bfloat16 q = f[t + 1];  // implicit float -> bfloat16 conversion, as HIP allows
  p = p > q ? p : q;
  b[t] = b[t] * p + __float2bfloat16(0.5f);
  b2[t] = __hadd2(b2[t], __halves2bfloat162(p, p));
  f[t] = __half2float(y) + __bfloat162float(p) + __low2float(h2[t]) + (float)__hisnan(x)
         + (__hlt(p, b[t]) ? 1.0f : 0.0f) + __bfloat16_as_ushort(p) + __half_as_ushort(x);
}

extern "C" __global__ void math_float(float *x) {
  int t = threadIdx.x;
  float v = x[t];
  float s, c;
  sincosf(v, &s, &c);
  x[t] = expf(v) + __expf(v) + exp2f(v) + logf(v) + __logf(v) + log2f(v) + sqrtf(v) + rsqrtf(v)
         + fmaxf(v, 1.0f) + fminf(v, 2.0f) + fabsf(v) + floorf(v) + ceilf(v) + tanhf(v)
         + powf(v, 1.5f) + sinf(v) + cosf(v) + fmaf(v, v, 1.0f) + tanf(v) + s + c + __sinf(v)
         + __cosf(v) + __fdividef(v, 3.0f) + exp(v) + std::sqrt(v) + pow(v, 2) + log10f(v)
         + exp10f(v) + truncf(v) + roundf(v) + rintf(v) + ldexpf(v, 3) + copysignf(v, -1.0f)
         + __powf(v, 0.5f) + __saturatef(v) + (isnan(v) ? 1.0f : 0.0f) + max(v, 0.0f);
}

extern "C" __global__ void math_double(double *x, int *k) {
  int t = threadIdx.x;
  double v = x[t];
  x[t] = sqrt(v) + fabs(v) + floor(v) + ceil(v) + fmax(v, 1.0) + fmin(v, 2.0) + fma(v, v, 1.0)
         + trunc(v) + round(v) + ldexp(v, 2) + copysign(v, -1.0);
  k[t] = min(k[t], 4) + max(k[t], 1) + abs(k[t]) + __popc(k[t]) + __clz(k[t]) + __ffs(k[t])
         + (int)__brev(k[t]) + __mulhi(k[t], 3) + (int)__umulhi(k[t], 5u) + __mul24(k[t], 7)
         + (int)__byte_perm(k[t], 1u, 0x3210) + (int)__funnelshift_l(k[t], 1u, 4)
         + (int)__umul64hi((unsigned long long)k[t], 3ull) + (int)(clock64() - wall_clock64());
}

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) scale_kernel(T *p, T factor) {
  p[blockIdx.x * BLOCK + threadIdx.x] *= factor;
}
template __global__ void scale_kernel<float, 256>(float *, float);
template __global__ void scale_kernel<__half, 64>(__half *, __half);

__global__ void mangled_kernel(float *p) {
  p[threadIdx.x] = twice(p[threadIdx.x]) + __builtin_amdgcn_readfirstlane(1);
}
