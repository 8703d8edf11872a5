// Step 3 — one wave per row, reductions in registers: no LDS, no barrier. A 256-thread workgroup
// handles 4 rows (warpSize = 64 on CDNA). Two versions of the same kernel:
//   softmax_wave_dpp  : the all-reduce of softmax_common.h: DPP inside rows of 16 lanes
//                       (quad_perm, row_half_mirror, row_mirror), then across rows row_bcast:15,
//                       row_bcast:31 and v_readlane on gfx942, v_permlane16_swap and
//                       v_permlane32_swap on gfx950; AMD CDNA (wave64) only;
//   softmax_wave_shfl : the __shfl_xor butterfly (clang lowers it to ds_swizzle / ds_bpermute,
//                       which use the LDS crossbar but no LDS memory); portable (NVIDIA: 32 lanes).
// wave_probe_<k> runs DPP stage k on the lane ids, so the notebook can draw which lane each lane
// reads at every stage from the emulator's execution of the real instructions.
#include "softmax_common.h"

#define BLOCK 256

template <bool DPP>
__device__ void softmax_wave_row(const float* __restrict__ x, float* __restrict__ y, int rows,
                                 int cols) {
  int lane = threadIdx.x % warpSize;
  int r = blockIdx.x * (BLOCK / warpSize) + threadIdx.x / warpSize;
  if (r >= rows) return;  // the whole wave leaves together (r is uniform in a wave)
  const float* xr = x + (long)r * cols;
  float* yr = y + (long)r * cols;
  float m = SM_NEG_INF, s = 0.0f;
  for (int c = lane; c < cols; c += warpSize) m = fmaxf(m, xr[c]);
#if SM_HAVE_DPP_BCAST
  if constexpr (DPP) m = wave_max(m);
  else
#endif
    for (int off = warpSize / 2; off > 0; off /= 2) m = fmaxf(m, __shfl_xor(m, off));
  for (int c = lane; c < cols; c += warpSize) s += expf(xr[c] - m);
#if SM_HAVE_DPP_BCAST
  if constexpr (DPP) s = wave_sum(s);
  else
#endif
    for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_xor(s, off);
  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += warpSize) yr[c] = expf(xr[c] - m) * inv;
}

// Launch: softmax_wave_shfl[ceil(rows / (256 / warpSize)), 256](x, y, rows, cols)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_wave_shfl(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  softmax_wave_row<false>(x, y, rows, cols);
}

#if SM_HAVE_DPP_BCAST
// Launch: softmax_wave_dpp[ceil(rows / 4), 256](x, y, rows, cols)
extern "C" __global__ void __launch_bounds__(BLOCK)
softmax_wave_dpp(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
  softmax_wave_row<true>(x, y, rows, cols);
}

// The "take the partner's value" operator: a stage then shows where each lane reads from.
struct OpTakeOther {
  __device__ float operator()(float, float other) const { return other; }
};

// Launch: wave_probe_<k>[1, 64](src), k = 0..5 — src[lane] = the lane whose value lane `lane`
// received at stage k (-1: the lane kept `old`, its row was masked off). One kernel per stage, so
// each one's ISA holds exactly that stage's DPP instruction.
template <int K>
__device__ float probe_stage(float id) {
#if SM_PERMLANE_SWAP
  if constexpr (K >= 4) {  // the swaps: the partner's value is in a (upper row) or b (lower)
    float a, b;
    permlane_swap<K == 5>(id, a, b);
    bool upper = K == 5 ? threadIdx.x >= 32 : (threadIdx.x / 16) % 2 == 1;
    return upper ? a : b;
  }
#endif
  return dpp_stage<K>(id, -1.0f, OpTakeOther());
}
#define WAVE_PROBE(K)                                                          \
  extern "C" __global__ void __launch_bounds__(64) wave_probe_##K(float* src) { \
    src[threadIdx.x] = probe_stage<K>((float)threadIdx.x);                      \
  }
WAVE_PROBE(0)
WAVE_PROBE(1)
WAVE_PROBE(2)
WAVE_PROBE(3)
WAVE_PROBE(4)
WAVE_PROBE(5)
#endif
