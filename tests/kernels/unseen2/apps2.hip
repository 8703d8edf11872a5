// Everyday kernels of kinds round 1 did not have: image stencils with clamp-to-edge, a
// separable blur in LDS, a bf16 transpose with 16-byte loads, a radix histogram with
// warp-aggregated atomics, 64-bit atomics, a wrapping grid counter, _sync warp intrinsics,
// nontemporal loads/stores, epilogues with erff/tanhf, numeric_limits, lambdas and functors.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <limits>

// 3x3 box filter over a W x H image, reads clamped to the edge
__global__ void box3_clamp(const float* __restrict__ in, float* __restrict__ out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), W - 1);
      int yy = min(max(y + dy, 0), H - 1);
      s += __ldg(&in[yy * W + xx]);
    }
  out[y * W + x] = s * (1.0f / 9.0f);
}

// separable 5-tap blur of one 16x16 tile per block: rows into LDS (with a 2-pixel clamped
// apron), then columns out of LDS
constexpr int R = 2, T = 16;
__constant__ float taps[2 * R + 1] = {1.f / 16, 4.f / 16, 6.f / 16, 4.f / 16, 1.f / 16};
__global__ void blur_sep(const float* in, float* out, int W, int H) {
  __shared__ float rows[T + 2 * R][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx;
  for (int r = ty; r < T + 2 * R; r += T) {
    int y = min(max((int)(blockIdx.y * T) + r - R, 0), H - 1);
    float s = 0.f;
#pragma unroll
    for (int k = -R; k <= R; ++k) s += taps[k + R] * in[y * W + min(max(x + k, 0), W - 1)];
    rows[r][tx] = s;
  }
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int k = 0; k <= 2 * R; ++k) s += taps[k] * rows[ty + k][tx];
  out[(blockIdx.y * T + ty) * W + x] = s;
}

// bf16 transpose of an (R x C) matrix, C and R multiples of 8: each thread loads 8 bf16
// (16 bytes, uint4) of a row and writes them down a column
__global__ void transpose_bf16_v16(const __hip_bfloat16* in, __hip_bfloat16* out, int rows,
                                   int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c8 = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c8 * 8 >= cols) return;
  uint4 v = *reinterpret_cast<const uint4*>(in + (size_t)r * cols + c8 * 8);
  __hip_bfloat16 e[8];
  __builtin_memcpy(e, &v, 16);
  for (int k = 0; k < 8; ++k) out[(size_t)(c8 * 8 + k) * rows + r] = e[k];
}

// one radix-sort histogram pass (4-bit digit at `shift`): LDS counters, where every wave adds
// its lanes of one digit with a single atomic (ballot + popc + ffs picks the leader)
__global__ void radix_hist(const unsigned* keys, unsigned* hist, int n, int shift) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool live = i < n;
  unsigned d = live ? (keys[i] >> shift) & 15u : 16u;
  unsigned lane = __lane_id();
  for (unsigned digit = 0; digit < 16; ++digit) {
    unsigned long long same = __ballot(live && d == digit);
    if (same == 0) continue;
    int leader = __ffsll((long long)same) - 1;
    if ((int)lane == leader) atomicAdd(&local[digit], (unsigned)__popcll(same));
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// global double atomicAdd, unsigned long long atomicMin / atomicMax, and a counter that
// wraps at `wrap` (atomicInc): each thread records the ticket it drew
__global__ void atomics64b(const double* x, double* sum, const unsigned long long* k,
                           unsigned long long* mn, unsigned long long* mx, unsigned* ctr,
                           unsigned* tickets, unsigned wrap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, x[i]);
  atomicMin(mn, k[i]);
  atomicMax(mx, k[i]);
  tickets[i] = atomicInc(ctr, wrap);
}

// warp code with HIP's _sync intrinsics (64-bit masks): a segmented sum where segment heads
// are flagged, done with __shfl_up_sync and __ballot_sync
__global__ void seg_sum_sync(const float* x, const int* head, float* out) {
  const unsigned long long all = ~0ull;
  int lane = __lane_id();
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned long long heads = __ballot_sync(all, head[blockIdx.x * blockDim.x + threadIdx.x]);
  // start of my segment: highest head at or below my lane (lane 0 always starts one)
  unsigned long long below = heads & (lane == 63 ? all : ((2ull << lane) - 1));
  int start = below ? 63 - __clzll((long long)below) : 0;
  for (int off = 1; off < warpSize; off <<= 1) {
    float t = __shfl_up_sync(all, v, off);
    if (lane - off >= start) v += t;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// nontemporal streaming copy with a scale, a likely-taken branch, and a loop unrolled by 4
// over a run-time trip count
__global__ void stream_scale(const float* __restrict__ in, float* __restrict__ out, int per,
                             float s) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * per;
#pragma unroll 4
  for (int k = 0; k < per; ++k) {
    float v = __builtin_nontemporal_load(in + base + k);
    if (__builtin_expect(v == v, 1)) v *= s;
    else v = 0.f;
    __builtin_nontemporal_store(v, out + base + k);
  }
}

// hipBLASLt-style epilogues on a GEMM output: bias, then GELU (erf form or tanh form)
__global__ void bias_gelu(const float* acc, const float* bias, float* erf_out, float* tanh_out,
                          int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = acc[i] + bias[i % cols];
  erf_out[i] = 0.5f * v * (1.f + erff(v * 0.70710678f));
  float u = 0.7978845608f * (v + 0.044715f * v * v * v);
  tanh_out[i] = 0.5f * v * (1.f + tanhf(u));
}

// std::numeric_limits in device code: a masked min / max over a row with the proper identities
__global__ void masked_minmax(const float* x, const int* keep, float* mn, float* mx, int n,
                              int* imin) {
  float lo = std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::lowest();
  int il = std::numeric_limits<int>::max();
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    if (keep[k]) { lo = fminf(lo, x[k]); hi = fmaxf(hi, x[k]); il = min(il, k); }
  for (int off = warpSize / 2; off > 0; off >>= 1) {
    lo = fminf(lo, __shfl_xor(lo, off));
    hi = fmaxf(hi, __shfl_xor(hi, off));
    il = min(il, __shfl_xor(il, off));
  }
  if (threadIdx.x == 0) { *mn = lo; *mx = hi; *imin = il; }
}

// a constexpr lambda inside a kernel, and a kernel templated on a functor type
struct Saxpy { float a; __device__ float operator()(float x, float y) const { return a * x + y; } };
struct Hypot { __device__ float operator()(float x, float y) const { return sqrtf(x * x + y * y); } };
template <typename F>
__global__ void zip_apply(F f, const float* x, const float* y, float* out) {
  constexpr auto sq = [](int v) constexpr { return v * v; };
  static_assert(sq(3) == 9);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = f(x[i], y[i]) + (float)sq(i % 4);
}
template __global__ void zip_apply<Saxpy>(Saxpy, const float*, const float*, float*);
template __global__ void zip_apply<Hypot>(Hypot, const float*, const float*, float*);

// the same readable name once with C linkage and once C++-mangled (an overload)
extern "C" __global__ void scale_c(float* x, float s) { x[threadIdx.x] *= s; }
__global__ void scale_cpp(float* x, float s) { x[threadIdx.x] *= s; }
__global__ void scale_cpp(double* x, double s) { x[threadIdx.x] *= s; }
