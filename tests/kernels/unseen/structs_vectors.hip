// Structs passed by value, float4/int2 vector types, dynamic shared memory, __launch_bounds__.
#include <hip/hip_runtime.h>

struct Params {
  float scale;
  int offset;
  float bias[3];
  int n;
};

__global__ void by_value(const float* x, float* y, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) y[i] = p.scale * x[i] + p.bias[(i + p.offset) % 3];
}

struct Particle { float3 pos; float mass; };

__global__ void center_of_mass(const Particle* ps, float4* out, int n) {
  __shared__ float4 acc[64];
  float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    Particle p = ps[i];
    a.x += p.pos.x * p.mass; a.y += p.pos.y * p.mass; a.z += p.pos.z * p.mass; a.w += p.mass;
  }
  acc[threadIdx.x] = a;
  __syncthreads();
  if (threadIdx.x == 0) {
    float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int t = 0; t < blockDim.x; ++t) { s.x += acc[t].x; s.y += acc[t].y; s.z += acc[t].z; s.w += acc[t].w; }
    out[0] = s;
  }
}

__global__ __launch_bounds__(128, 2) void vec4_ops(const float4* a, const int2* b, float4* c, int2* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = a[i];
    c[i] = make_float4(v.w, v.z * 2.f, v.y + v.x, v.x * v.y);
    int2 w = b[i];
    d[i] = make_int2(w.x + w.y, w.x - w.y);
  }
}

__global__ void dyn_shared_reverse(const float* in, float* out, int n) {
  extern __shared__ float sh[];
  int t = threadIdx.x;
  for (int i = t; i < n; i += blockDim.x) sh[i] = in[blockIdx.x * n + i];
  __syncthreads();
  for (int i = t; i < n; i += blockDim.x) out[blockIdx.x * n + i] = sh[n - 1 - i];
}

__global__ void uint4_xor(const uint4* a, uint4* b, uint4 key) {
  uint4 v = a[threadIdx.x];
  b[threadIdx.x] = make_uint4(v.x ^ key.x, v.y ^ key.y, v.z ^ key.z, v.w ^ key.w);
}

// uniform sub-dword loads (GFX12 reads them with s_load_i8/u8/i16/u16) and sub-dword arguments
__global__ void uniform_small_loads(const signed char* __restrict__ c,
                                    const short* __restrict__ s,
                                    const unsigned short* __restrict__ us,
                                    const unsigned char* __restrict__ uc, int* out) {
  int b = blockIdx.x;  // uniform index: scalar loads
  out[4 * b + 0] = c[b];
  out[4 * b + 1] = s[b];
  out[4 * b + 2] = us[b];
  out[4 * b + 3] = uc[b];
}

__global__ void small_args(signed char c, short s, unsigned short us, bool flag, unsigned char uc,
                           int* out) {
  int t = threadIdx.x;
  out[5 * t + 0] = c * t;
  out[5 * t + 1] = s + t;
  out[5 * t + 2] = us + t;
  out[5 * t + 3] = flag ? t : -t;
  out[5 * t + 4] = uc * 3 + t;
}
