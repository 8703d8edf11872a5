// Step 5 — bf16 in, bf16 out, fp32 math, 128-bit loads and stores. Each lane moves 8 bf16 (16
// bytes, one global_load_dwordx4) per access, so a wave moves 1 KiB per instruction instead of
// 256 bytes: 4x fewer memory instructions and address computations. Half the bytes of fp32, too.
// A row starts at a 16-byte boundary only when cols is a multiple of 8; the kernel therefore
// splits each row into a scalar head (up to the first 16-byte boundary), a vector body and a
// scalar tail. Per vector the online update is done once for 8 values (one rescale per 8).
// One wave per row, online (step 4). The exponentials become ExpFast (v_exp_f32 on x - max
// times log2 e, softmax_common.h): the library expf made this kernel VALU-bound.
#include "softmax_common.h"

#define BLOCK 256

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

// Launch: softmax_bf16[ceil(rows / (256 / warpSize)), 256](x, y, rows, cols)  (x, y: uint16 bits)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_bf16(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, int rows,
             int cols) {
  int lane = threadIdx.x % warpSize;
  int r = blockIdx.x * (BLOCK / warpSize) + threadIdx.x / warpSize;
  if (r >= rows) return;
  const unsigned short* xr = x + (long)r * cols;
  unsigned short* yr = y + (long)r * cols;
  // Elements before the first 16-byte boundary (x itself is 16-byte aligned).
  int head = (int)((8 - ((long)r * cols) % 8) % 8);
  head = head < cols ? head : cols;
  int nvec = (cols - head) / 8;
  int body_end = head + 8 * nvec;
  const u32x4* xv = (const u32x4*)(xr + head);
  u32x4* yv = (u32x4*)(yr + head);
  Online st = {SM_NEG_INF, 0.0f};
  float f[8];
  for (int v = lane; v < nvec; v += warpSize) {
    unpack8(xv[v], f);
    st = online_add8(st, f);
  }
  for (int c = lane; c < head; c += warpSize)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  for (int c = body_end + lane; c < cols; c += warpSize)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  st = wave_online(st, ExpFast());
  float inv = 1.0f / st.s;
  for (int v = lane; v < nvec; v += warpSize) {
    unpack8(xv[v], f);
    u32x4 q;
    for (int i = 0; i < 4; ++i)
      q.w[i] = (unsigned int)f32_to_bf16(ExpFast()(f[2 * i] - st.m) * inv) |
             ((unsigned int)f32_to_bf16(ExpFast()(f[2 * i + 1] - st.m) * inv) << 16);
    yv[v] = q;
  }
  for (int c = lane; c < head; c += warpSize)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - st.m) * inv);
  for (int c = body_end + lane; c < cols; c += warpSize)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - st.m) * inv);
}
