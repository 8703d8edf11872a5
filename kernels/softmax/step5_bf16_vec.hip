// Step 5 — bf16 in, bf16 out, fp32 math, 128-bit loads and stores. Each lane moves 8 bf16 (16
// bytes, one global_load_dwordx4) per access, so a wave moves 1 KiB per instruction instead of
// 256 bytes: 4x fewer memory instructions and address computations. Half the bytes of fp32, too.
// A row starts at a 16-byte boundary only when cols is a multiple of 8; the kernel therefore
// splits each row into a scalar head (up to the first 16-byte boundary), a vector body and a
// scalar tail. Per vector the online update is done once for 8 values (one rescale per 8).
// One wave per row, online (step 4). The exponentials become ExpFast (v_exp_f32 on x - max
// times log2 e, softmax_common.h): the library expf made this kernel VALU-bound.
//
// Sweepable (wb.sweep): -DSOFTMAX_BLOCK = threads per workgroup (a multiple of 64, 64..1024:
// BLOCK / warpSize rows per workgroup) and -DSOFTMAX_VEC = bf16 per lane per access (2, 4 or 8:
// 4-, 8- or 16-byte loads and stores). Any cols works with any SOFTMAX_VEC (scalar head and
// tail). The defaults are the step as published.
#include "softmax_common.h"

#ifndef SOFTMAX_BLOCK
#define SOFTMAX_BLOCK 256
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

// Launch: softmax_bf16[ceil(rows / (SOFTMAX_BLOCK / warpSize)), SOFTMAX_BLOCK](x, y, rows, cols)
// (x, y: uint16 bits)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_bf16(const unsigned short* __restrict__ x, unsigned short* __restrict__ y, int rows,
             int cols) {
  int lane = threadIdx.x % warpSize;
  int r = blockIdx.x * (BLOCK / warpSize) + threadIdx.x / warpSize;
  if (r >= rows) return;
  const unsigned short* xr = x + (long)r * cols;
  unsigned short* yr = y + (long)r * cols;
  // Elements before the first (2 * VEC)-byte boundary (x itself is 16-byte aligned).
  int head = (int)((VEC - ((long)r * cols) % VEC) % VEC);
  head = head < cols ? head : cols;
  int nvec = (cols - head) / VEC;
  int body_end = head + VEC * nvec;
  const bf16xv* xv = (const bf16xv*)(xr + head);
  bf16xv* yv = (bf16xv*)(yr + head);
  Online st = {SM_NEG_INF, 0.0f};
  float f[VEC];
  for (int v = lane; v < nvec; v += warpSize) {
    unpack(xv[v], f);
    st = online_addv(st, f);
  }
  for (int c = lane; c < head; c += warpSize)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  for (int c = body_end + lane; c < cols; c += warpSize)
    st = online_add(st, bf16_to_f32(xr[c]), ExpFast());
  st = wave_online(st, ExpFast());
  float inv = 1.0f / st.s;
  for (int v = lane; v < nvec; v += warpSize) {
    unpack(xv[v], f);
    bf16xv q;
    for (int i = 0; i < VEC / 2; ++i)
      q.w[i] = (unsigned int)f32_to_bf16(ExpFast()(f[2 * i] - st.m) * inv) |
             ((unsigned int)f32_to_bf16(ExpFast()(f[2 * i + 1] - st.m) * inv) << 16);
    yv[v] = q;
  }
  for (int c = lane; c < head; c += warpSize)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - st.m) * inv);
  for (int c = body_end + lane; c < cols; c += warpSize)
    yr[c] = f32_to_bf16(ExpFast()(bf16_to_f32(xr[c]) - st.m) * inv);
}
