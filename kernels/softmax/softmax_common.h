// softmax_common.h — what the steps of the softmax tutorial (notebooks/04_softmax.ipynb) share.
//
// y[r, :] = softmax(x[r, :]) over rows of a row-major matrix (rows x cols). Steps 1-4 use fp32,
// steps 5-6 bf16 stored as raw bits (unsigned short) with fp32 math.
//
// Wave reductions on AMD (wave64) go through DPP, the data-parallel-primitives modifier that lets
// a VALU instruction read its source from another lane of the same row of 16 lanes (quad_perm,
// row_shr, row_mirror, row_half_mirror) or broadcast lane 15 / 31 into the next row(s) (row_bcast,
// GFX9 only). Control values: LLVM llvm/lib/Target/AMDGPU/SIDefines.h (enum DppCtrl); semantics:
// AMD "AMD GCN Assembly: Cross-Lane Operations" (GPUOpen) and the CDNA3 ISA guide, section 12.
// Elsewhere (NVIDIA through the CUDA prelude, or RDNA wave32) the same reductions use __shfl_xor
// over warpSize lanes, the butterfly of the CUDA programming guide's warp-shuffle section.
#pragma once
#include <hip/hip_runtime.h>

// Bit casts: clang's builtin on AMD; CUDA's intrinsics where the CUDA prelude compiles this.
#if defined(__AMDGCN__)
#define SM_AS_FLOAT(u) __builtin_bit_cast(float, (unsigned int)(u))
#define SM_AS_UINT(f) __builtin_bit_cast(unsigned int, (float)(f))
#else
#define SM_AS_FLOAT(u) __uint_as_float((unsigned int)(u))
#define SM_AS_UINT(f) __float_as_uint((float)(f))
#endif
#define SM_NEG_INF SM_AS_FLOAT(0xff800000u)

// 16 bytes = 8 bf16, moved as one 128-bit access (global_load_dwordx4 / global_store_dwordx4 on
// AMD, ld.global.v4 on NVIDIA): a 16-byte-aligned struct, portable to both compilers.
struct alignas(16) u32x4 {
  unsigned int w[4];
};

struct OpMax { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
struct OpSum { __device__ float operator()(float a, float b) const { return a + b; } };

// DPP row_bcast exists on GFX9 (CDNA: gfx90a, gfx942, gfx950) only; clang defines __GFX9__ there.
#if defined(__AMDGCN__) && defined(__GFX9__)
#define SM_HAVE_DPP_BCAST 1
// DPP control words (SIDefines.h DppCtrl).
#define DPP_QUAD_PERM(a, b, c, d) ((a) | ((b) << 2) | ((c) << 4) | ((d) << 6))
#define DPP_ROW_MIRROR 0x140
#define DPP_ROW_HALF_MIRROR 0x141
#define DPP_ROW_BCAST15 0x142
#define DPP_ROW_BCAST31 0x143

// One DPP move: lane i gets lane src(i) of v; lanes of rows outside row_mask keep `old`.
template <int CTRL, int ROW_MASK = 0xf>
__device__ __forceinline__ float dpp(float old, float v) {
  return __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(
      __builtin_bit_cast(int, old), __builtin_bit_cast(int, v), CTRL, ROW_MASK, 0xf, false));
}

// All-reduce over the wave. Stages 0-3: a butterfly inside each row of 16 lanes with DPP
// (quad_perm, row_half_mirror, row_mirror) leaves the row's total in all 16 lanes. Across rows:
//   gfx942 (and gfx90a): row_bcast:15 folds row 0 into row 1 and row 2 into row 3, row_bcast:31
//     folds lane 31 into rows 2 and 3, so lane 63 holds the wave's total, which v_readlane_b32
//     broadcasts (through an SGPR) — the reduction of GPUOpen's "AMD GCN Assembly: Cross-Lane
//     Operations";
//   gfx950: v_permlane16_swap_b32 trades odd rows of one register with even rows of another
//     and v_permlane32_swap_b32 the upper half with the lower (CDNA4 ISA guide, VOP1; the
//     cross-half exchange HipKittens' register ops use, include/ops/warp): two swaps of two copies
//     of v and two ops, and every lane holds the total, no SGPR round trip.
#if defined(__gfx950__)
#define SM_PERMLANE_SWAP 1
template <bool HALVES>
__device__ __forceinline__ void permlane_swap(float v, float& a, float& b) {
  unsigned int u = __builtin_bit_cast(unsigned int, v);
  auto r = HALVES ? __builtin_amdgcn_permlane32_swap(u, u, false, false)
                  : __builtin_amdgcn_permlane16_swap(u, u, false, false);
  a = __builtin_bit_cast(float, (unsigned int)r[0]);
  b = __builtin_bit_cast(float, (unsigned int)r[1]);
}
#endif

template <int STAGE, class Op>
__device__ __forceinline__ float dpp_stage(float v, float identity, Op op) {
  if constexpr (STAGE == 0) return op(v, dpp<DPP_QUAD_PERM(1, 0, 3, 2)>(identity, v));  // i ^ 1
  if constexpr (STAGE == 1) return op(v, dpp<DPP_QUAD_PERM(2, 3, 0, 1)>(identity, v));  // i ^ 2
  if constexpr (STAGE == 2) return op(v, dpp<DPP_ROW_HALF_MIRROR>(identity, v));   // 7 - i in 8
  if constexpr (STAGE == 3) return op(v, dpp<DPP_ROW_MIRROR>(identity, v));        // 15 - i in 16
#if SM_PERMLANE_SWAP
  float a, b;
  if constexpr (STAGE == 4) permlane_swap<false>(v, a, b);  // rows 0 <-> 1, 2 <-> 3
  if constexpr (STAGE == 5) permlane_swap<true>(v, a, b);   // lanes 0-31 <-> 32-63
  // a and b are this lane's value and its partner's (a is the partner's in the upper row of
  // the pair, b in the lower one); max and sum do not care about the order.
  if constexpr (STAGE == 4 || STAGE == 5) return op(a, b);
#else
  if constexpr (STAGE == 4) return op(v, dpp<DPP_ROW_BCAST15, 0xa>(identity, v));  // rows 1, 3
  if constexpr (STAGE == 5) return op(v, dpp<DPP_ROW_BCAST31, 0xc>(identity, v));  // rows 2, 3
#endif
  return v;
}

template <class Op>
__device__ __forceinline__ float wave_reduce(float v, float identity, Op op) {
  v = dpp_stage<0>(v, identity, op);
  v = dpp_stage<1>(v, identity, op);
  v = dpp_stage<2>(v, identity, op);
  v = dpp_stage<3>(v, identity, op);
  v = dpp_stage<4>(v, identity, op);
  v = dpp_stage<5>(v, identity, op);
#if SM_PERMLANE_SWAP
  return v;  // every lane already holds the total
#else
  return __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 63));
#endif
}
#else
// Portable butterfly: after log2(warpSize) __shfl_xor stages every lane holds the total.
template <class Op>
__device__ __forceinline__ float wave_reduce(float v, float, Op op) {
  for (int off = warpSize / 2; off > 0; off /= 2) v = op(v, __shfl_xor(v, off));
  return v;
}
#endif

__device__ __forceinline__ float wave_max(float v) { return wave_reduce(v, SM_NEG_INF, OpMax()); }
__device__ __forceinline__ float wave_sum(float v) { return wave_reduce(v, 0.0f, OpSum()); }

// exp(d) two ways. ExpLib: the math library's expf (on AMD about 15 VALU instructions: range
// reduction, v_exp_f32, v_ldexp_f32 and overflow/underflow selects). ExpFast: 2^(d * log2 e)
// with v_exp_f32 alone (CDNA3 ISA V_EXP_F32: 2^x, 1 ULP; results in the denormal range flush to
// 0), the form HipKittens' attention uses (kernels/attn/gqa/kernel.cpp). d <= 0 here (x - max).
struct ExpLib {
  __device__ float operator()(float d) const { return expf(d); }
};
struct ExpFast {
  __device__ float operator()(float d) const {
#if defined(__AMDGCN__)
    return __builtin_amdgcn_exp2f(d * 1.4426950408889634f);
#else
    return exp2f(d * 1.4426950408889634f);
#endif
  }
};

// Online softmax (Milakov & Gimelshein, arXiv 1805.02867): a running max m and a running sum s
// of exp(x - m). Folding in x: when the max grows, the old sum is rescaled by exp(m_old - m_new).
// A state that has seen nothing (m = -inf, s = 0) contributes nothing (its scale is 0, not
// exp(-inf - -inf) = NaN).
struct Online {
  float m, s;
};

template <class Exp = ExpLib>
__device__ __forceinline__ float sm_scale(float m_old, float m_new, Exp ex = Exp()) {
  return m_old == SM_NEG_INF ? 0.0f : ex(m_old - m_new);
}

template <class Exp = ExpLib>
__device__ __forceinline__ Online online_add(Online a, float x, Exp ex = Exp()) {
  float m = fmaxf(a.m, x);
  float e = (x == SM_NEG_INF) ? 0.0f : ex(x - m);
  return {m, a.s * sm_scale(a.m, m, ex) + e};
}

template <class Exp = ExpLib>
__device__ __forceinline__ Online online_merge(Online a, Online b, Exp ex = Exp()) {
  float m = fmaxf(a.m, b.m);
  return {m, a.s * sm_scale(a.m, m, ex) + b.s * sm_scale(b.m, m, ex)};
}

// Wave-wide merge of per-lane states: the wave's max, then every lane's sum rescaled to it.
template <class Exp = ExpLib>
__device__ __forceinline__ Online wave_online(Online a, Exp ex = Exp()) {
  float m = wave_max(a.m);
  return {m, wave_sum(a.s * sm_scale(a.m, m, ex))};
}

// bf16 <-> fp32 on raw bits: bf16 is the top half of an fp32; rounding to nearest even.
__device__ __forceinline__ float bf16_to_f32(unsigned short b) {
  return SM_AS_FLOAT((unsigned int)b << 16);
}
// On AMD clang's __bf16 conversion (gfx950: v_cvt_pk_bf16_f32; gfx942: an integer sequence).
__device__ __forceinline__ unsigned short f32_to_bf16(float f) {
#if defined(__AMDGCN__)
  return __builtin_bit_cast(unsigned short, (__bf16)f);
#endif
  unsigned int u = SM_AS_UINT(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
