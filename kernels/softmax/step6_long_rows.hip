// Step 6 — long rows (32k elements and more) split across the waves of a workgroup, with a final
// combine. One wave per row (step 5) leaves a 32k-element row to 64 lanes: 64 sequential 16-byte
// loads per lane and one row per wave in flight. Here a 1024-thread workgroup (16 waves on
// wave64) takes one row: every thread does the online update over its share of 16-byte vectors,
// each wave merges its lanes (DPP / __shfl_xor, step 4), wave leader writes its (m, s) to LDS, and
// after one barrier every thread merges the 16 pairs (the same online_merge; the split/merge of
// online softmax is what FlashAttention's split-KV "combine" does across workgroups). Then a
// normalising pass. bf16 in/out, fp32 math, head/body/tail and ExpFast as in step 5.
#include "softmax_common.h"

#define BLOCK 1024

__device__ __forceinline__ void unpack8(u32x4 q, float* f) {
  for (int i = 0; i < 4; ++i) {
    f[2 * i] = SM_AS_FLOAT(q.w[i] << 16);
    f[2 * i + 1] = SM_AS_FLOAT(q.w[i] & 0xffff0000u);
  }
}

__device__ __forceinline__ Online online_add8(Online a, const float* f) {
  float mb = f[0];
  for (int i = 1; i < 8; ++i) mb = fmaxf(mb, f[i]);
  float m = fmaxf(a.m, mb), e = 0.0f;
  for (int i = 0; i < 8; ++i) e += (f[i] == SM_NEG_INF) ? 0.0f : ExpFast()(f[i] - m);
  return {m, a.s * sm_scale(a.m, m, ExpFast()) + e};
}

// Launch: softmax_long[rows, 1024](x, y, rows, cols)  (x, y: uint16 bits)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_long(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, int rows,
             int cols) {
  __shared__ float part_m[BLOCK / 32], part_s[BLOCK / 32];  // one pair per wave (32 >= warpSize/2)
  int t = threadIdx.x, lane = t % warpSize, wave = t / warpSize, nwaves = BLOCK / warpSize;
  int r = blockIdx.x;
  if (r >= rows) return;  // uniform over the workgroup
  const unsigned short* xr = x + (long)r * cols;
  unsigned short* yr = y + (long)r * cols;
  int head = (int)((8 - ((long)r * cols) % 8) % 8);
  head = head < cols ? head : cols;
  int nvec = (cols - head) / 8;
  int body_end = head + 8 * nvec;
  const u32x4* xv = (const u32x4*)(xr + head);
  u32x4* yv = (u32x4*)(yr + head);
  Online st = {SM_NEG_INF, 0.0f};
  float f[8];
  for (int v = t; v < nvec; v += BLOCK) {
    unpack8(xv[v], f);
    st = online_add8(st, f);
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
    unpack8(xv[v], f);
    u32x4 q;
    for (int i = 0; i < 4; ++i)
      q.w[i] = (unsigned int)f32_to_bf16(ExpFast()(f[2 * i] - all.m) * inv) |
             ((unsigned int)f32_to_bf16(ExpFast()(f[2 * i + 1] - all.m) * inv) << 16);
    yv[v] = q;
  }
  for (int c = t; c < head; c += BLOCK)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - all.m) * inv);
  for (int c = body_end + t; c < cols; c += BLOCK)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - all.m) * inv);
}
