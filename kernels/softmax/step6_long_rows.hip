// Step 6 — long rows (32k elements and more) split across the waves of a workgroup, with a final
// combine. One wave per row (step 5) leaves a 32k-element row to 64 lanes: 64 sequential 16-byte
// loads per lane and one row per wave in flight. Here a 1024-thread workgroup (16 waves on
// wave64) takes one row: every thread does the online update over its share of 16-byte vectors,
// each wave merges its lanes (DPP / __shfl_xor, step 4), wave leader writes its (m, s) to LDS, and
// after one barrier every thread merges the 16 pairs (the same online_merge; the split/merge of
// online softmax is what FlashAttention's split-KV "combine" does across workgroups). Then a
// normalising pass. bf16 in/out, fp32 math, head/body/tail and ExpFast as in step 5.
//
// Sweepable (notebook 04, wb.sweep): -DSOFTMAX_BLOCK = threads per workgroup, i.e. per row (a
// multiple of 64, 64..1024; 64 is one wave per row) and -DSOFTMAX_VEC = bf16 per lane per access
// (2, 4 or 8: 4-, 8- or 16-byte loads and stores). Any cols works with any SOFTMAX_VEC: the head
// and tail around the aligned vector body are scalar. The defaults are the step as published.
#include "softmax_common.h"

#ifndef SOFTMAX_BLOCK
#define SOFTMAX_BLOCK 1024
#endif
#ifndef SOFTMAX_VEC
#define SOFTMAX_VEC 8
#endif
static_assert(SOFTMAX_BLOCK % 64 == 0 && SOFTMAX_BLOCK >= 64 && SOFTMAX_BLOCK <= 1024,
              "SOFTMAX_BLOCK: a multiple of 64 from 64 to 1024");
static_assert(SOFTMAX_VEC == 2 || SOFTMAX_VEC == 4 || SOFTMAX_VEC == 8,
              "SOFTMAX_VEC: 2, 4 or 8 bf16 per access");
constexpr int BLOCK = SOFTMAX_BLOCK, VEC = SOFTMAX_VEC;

// VEC bf16 = VEC / 2 words, moved as one access of 2 * VEC bytes (VEC = 8: u32x4, dwordx4).
struct alignas(2 * VEC) bf16xv {
  unsigned int w[VEC / 2];
};

__device__ __forceinline__ void unpack(bf16xv q, float* f) {
  for (int i = 0; i < VEC / 2; ++i) {
    f[2 * i] = SM_AS_FLOAT(q.w[i] << 16);
    f[2 * i + 1] = SM_AS_FLOAT(q.w[i] & 0xffff0000u);
  }
}

__device__ __forceinline__ Online online_addv(Online a, const float* f) {
  float mb = f[0];
  for (int i = 1; i < VEC; ++i) mb = fmaxf(mb, f[i]);
  float m = fmaxf(a.m, mb), e = 0.0f;
  for (int i = 0; i < VEC; ++i) e += (f[i] == SM_NEG_INF) ? 0.0f : ExpFast()(f[i] - m);
  return {m, a.s * sm_scale(a.m, m, ExpFast()) + e};
}

// Launch: softmax_long[rows, SOFTMAX_BLOCK](x, y, rows, cols)  (x, y: uint16 bits)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_long(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, int rows,
             int cols) {
  __shared__ float part_m[BLOCK / 32], part_s[BLOCK / 32];  // one pair per wave (32 >= warpSize/2)
  int t = threadIdx.x, lane = t % warpSize, wave = t / warpSize, nwaves = BLOCK / warpSize;
  int r = blockIdx.x;
  if (r >= rows) return;  // uniform over the workgroup
  const unsigned short* xr = x + (long)r * cols;
  unsigned short* yr = y + (long)r * cols;
  int head = (int)((VEC - ((long)r * cols) % VEC) % VEC);
  head = head < cols ? head : cols;
  int nvec = (cols - head) / VEC;
  int body_end = head + VEC * nvec;
  const bf16xv* xv = (const bf16xv*)(xr + head);
  bf16xv* yv = (bf16xv*)(yr + head);
  Online st = {SM_NEG_INF, 0.0f};
  float f[VEC];
  for (int v = t; v < nvec; v += BLOCK) {
    unpack(xv[v], f);
    st = online_addv(st, f);
  }
  for (int c = t; c < head; c += BLOCK)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  for (int c = body_end + t; c < cols; c += BLOCK)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  st = wave_online(st, ExpFast());  // every lane of the wave holds the wave's (m, s)
  if (lane == 0) {
    part_m[wave] = st.m;
    part_s[wave] = st.s;
  }
  __syncthreads();
  Online all = {SM_NEG_INF, 0.0f};
  for (int w = 0; w < nwaves; ++w)
    all = online_merge(all, Online{part_m[w], part_s[w]}, ExpFast());
  float inv = 1.0f / all.s;
  for (int v = t; v < nvec; v += BLOCK) {
    unpack(xv[v], f);
    bf16xv q;
    for (int i = 0; i < VEC / 2; ++i)
      q.w[i] = (unsigned int)f32_to_bf16(ExpFast()(f[2 * i] - all.m) * inv) |
             ((unsigned int)f32_to_bf16(ExpFast()(f[2 * i + 1] - all.m) * inv) << 16);
    yv[v] = q;
  }
  for (int c = t; c < head; c += BLOCK)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - all.m) * inv);
  for (int c = body_end + t; c < cols; c += BLOCK)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - all.m) * inv);
}
