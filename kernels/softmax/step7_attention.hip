// Step 7 — the fused attention forward tile: O = softmax(Q K^T * scale) V for one head and one
// tile of 64 queries, K and V of any length, without ever writing S = Q K^T or P to memory.
// This is the loop FlashAttention and HipKittens' attention are built on (HipKittens kernels/attn/
// gqa/kernel.cpp: 8 waves of 32 query rows, col_max / exp2 / running max and norm); here 4
// waves of 16 queries, one KV block of 16 keys per iteration, loads straight from global memory.
//
// The layout trick. For the 16x16 bf16 MFMAs (v_mfma_f32_16x16x16_bf16 on gfx942 and gfx950,
// v_mfma_f32_16x16x32_bf16 on gfx950) lane l holds row l%16 of A, column l%16 of B (with k =
// KL*(l/16) + 0..KL-1, KL = K/4) and the result D[4*(l/16) + r][l%16] in register r (CDNA3/CDNA4
// ISA guides, matrix-core layouts; the layouts catalog in workbench.layouts). So:
//   * S^T = K Q^T (A = K rows, B = Q^T): lane l holds S[q = l%16][key = 4*(l/16) + r], r = 0..3 —
//     every lane works for one query, its 4 keys in 4 registers; the 4 lanes l%16 + 16j hold
//     the rest of the query's 16 keys. The row max / row sum are 3 register ops + 2 shuffles
//     (xor 16, xor 32).
//   * those 4 registers, rounded to bf16, are exactly operand B of O^T = V^T P^T (B[k = key][n =
//     q], lane l: n = l%16, k = 4*(l/16) + r): P goes from the first MFMA's result to the second
//     MFMA's input without moving between lanes, and O^T again has query l%16 in lane l, so the
//     online-softmax rescale is one multiply per register.
// Online softmax (arXiv 1805.02867) in the log2 domain: log2(e) is folded into the scale and
// exponentials are exp2 (v_exp_f32 computes 2^x), as HipKittens does. Each lane keeps a partial
// row sum of its own keys; the lanes are summed once at the end.
#include "softmax_common.h"

#ifndef HEAD_D
#define HEAD_D 64
#endif
#define TILE_Q 64  // 4 waves x 16 queries
typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef short s16x4 __attribute__((ext_vector_type(4)));

#if defined(__gfx950__)
// gfx950: Q K^T contracts over d with the 16x16x32 MFMA (8 d per lane, one 16-byte load).
#define QK_K 32
typedef __bf16 qk_t __attribute__((ext_vector_type(8)));
typedef unsigned int qk_bits __attribute__((ext_vector_type(4)));
__device__ __forceinline__ floatx4 mfma_qk(qk_t a, qk_t b, floatx4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, 0, 0, 0);
}
#else
#define QK_K 16
typedef s16x4 qk_t;
typedef unsigned int qk_bits __attribute__((ext_vector_type(2)));
__device__ __forceinline__ floatx4 mfma_qk(qk_t a, qk_t b, floatx4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
}
#endif
// P V contracts over 16 keys: the 16x16x16 MFMA on both targets (its B operand is what S^T's
// result registers hold; 16x16x32 would need 8 keys per lane).
__device__ __forceinline__ floatx4 mfma_pv(s16x4 a, s16x4 b, floatx4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
}

// QK_K/4 consecutive bf16 at p (8 or 16 bytes, one load).
__device__ __forceinline__ qk_t load_frag(const unsigned short* p) {
  return __builtin_bit_cast(qk_t, *(const qk_bits*)p);
}

// Launch: attention_tile[nq / 64, 256](Q, K, V, O, nkeys, scale)
//   Q: nq x HEAD_D, K and V: nkeys x HEAD_D (bf16 bits, row-major), O: nq x HEAD_D fp32; each
//   workgroup is one tile of 64 queries of the same head (all tiles read the same K and V).
extern "C" __global__ void __launch_bounds__(256)
attention_tile(const unsigned short* __restrict__ Q, const unsigned short* __restrict__ K,
               const unsigned short* __restrict__ V, float* __restrict__ O, int nkeys,
               float scale) {
  const int lane = threadIdx.x % 64, wave = threadIdx.x / 64;
  const int col = lane % 16, grp = lane / 16;
  Q += blockIdx.x * TILE_Q * HEAD_D;
  O += blockIdx.x * TILE_Q * HEAD_D;
  const int q = wave * 16 + col;  // the query (of this tile) this lane works for
  constexpr int NQ = HEAD_D / QK_K, ND = HEAD_D / 16;
  qk_t qf[NQ];  // Q^T as MFMA B operands, loaded once
  for (int c = 0; c < NQ; ++c) qf[c] = load_frag(Q + q * HEAD_D + c * QK_K + (QK_K / 4) * grp);
  floatx4 o[ND];  // O^T tiles: o[dt][r] = O[q][16 dt + 4 grp + r]
  for (int dt = 0; dt < ND; ++dt) o[dt] = floatx4{0.0f, 0.0f, 0.0f, 0.0f};
  const float s2 = scale * 1.4426950408889634f;  // scale * log2(e)
  float m = SM_NEG_INF, l = 0.0f;
  for (int kb = 0; kb < nkeys; kb += 16) {
    // S^T block: 16 keys x 16 queries; A row = key kb + col.
    floatx4 s = {0.0f, 0.0f, 0.0f, 0.0f};
    const int arow = kb + col;
    for (int c = 0; c < NQ; ++c) {
      qk_t kf = arow < nkeys ? load_frag(K + arow * HEAD_D + c * QK_K + (QK_K / 4) * grp)
                             : qk_t{};
      s = mfma_qk(kf, qf[c], s);
    }
    float sv[4], bm = SM_NEG_INF;
    for (int r = 0; r < 4; ++r) {
      sv[r] = (kb + 4 * grp + r < nkeys) ? s[r] * s2 : SM_NEG_INF;  // keys past the end: -inf
      bm = fmaxf(bm, sv[r]);
    }
    bm = fmaxf(bm, __shfl_xor(bm, 16));  // the query's 16 keys live in lanes col + 16 j
    bm = fmaxf(bm, __shfl_xor(bm, 32));
    const float mn = fmaxf(m, bm);
    const float alpha = (m == SM_NEG_INF) ? 0.0f : exp2f(m - mn);
    s16x4 p;
    float ps = 0.0f;
    for (int r = 0; r < 4; ++r) {
      float e = (sv[r] == SM_NEG_INF) ? 0.0f : exp2f(sv[r] - mn);
      ps += e;
      p[r] = (short)f32_to_bf16(e);
    }
    l = l * alpha + ps;
    m = mn;
    for (int dt = 0; dt < ND; ++dt) {
      s16x4 vf;  // V^T as operand A: row d = 16 dt + col, keys kb + 4 grp + r
      for (int r = 0; r < 4; ++r) {
        int key = kb + 4 * grp + r;
        vf[r] = key < nkeys ? (short)V[key * HEAD_D + dt * 16 + col] : (short)0;
      }
      o[dt] = mfma_pv(vf, p, o[dt] * alpha);
    }
  }
  l += __shfl_xor(l, 16);
  l += __shfl_xor(l, 32);
  const float inv = 1.0f / l;
  for (int dt = 0; dt < ND; ++dt)
    for (int r = 0; r < 4; ++r) O[q * HEAD_D + dt * 16 + 4 * grp + r] = o[dt][r] * inv;
}
