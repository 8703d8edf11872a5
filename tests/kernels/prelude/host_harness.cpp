// Host build of the prelude's builtin-free parts for tests/test_prelude.py: the inline float
// algorithms of hipwb/math_inline.h (sinf, cosf, tanf, tanhf, powf) and the shuffle source-lane
// arithmetic of hipwb/shuffle_lanes.h, evaluated over arrays and loaded with ctypes.
#define __HIPWB_MATH_FN static inline
#define __HIPWB_LANES_FN static inline
#include "hipwb/math_inline.h"
#include "hipwb/shuffle_lanes.h"

#define HIPWB_UNARY(NAME, FN)                                 \
  extern "C" void NAME(const float *x, float *y, long n) {    \
    for (long i = 0; i < n; ++i) y[i] = FN(x[i]);             \
  }
HIPWB_UNARY(hipwb_sinf, __hipwb_sinf)
HIPWB_UNARY(hipwb_cosf, __hipwb_cosf)
HIPWB_UNARY(hipwb_tanf, __hipwb_tanf)
HIPWB_UNARY(hipwb_tanhf, __hipwb_tanhf)

extern "C" void hipwb_sincosf(const float *x, float *s, float *c, long n) {
  for (long i = 0; i < n; ++i) __hipwb_sincosf(x[i], &s[i], &c[i]);
}
extern "C" void hipwb_powf(const float *x, const float *y, float *z, long n) {
  for (long i = 0; i < n; ++i) z[i] = __hipwb_powf(x[i], y[i]);
}

// kind: 0 = __shfl, 1 = __shfl_up, 2 = __shfl_down, 3 = __shfl_xor
extern "C" void hipwb_shfl_src(int kind, const int *self, const int *arg, const int *width,
                               int *src, long n) {
  for (long i = 0; i < n; ++i) {
    switch (kind) {
      case 0: src[i] = __hipwb_shfl_src_idx(self[i], arg[i], width[i]); break;
      case 1: src[i] = __hipwb_shfl_src_up(self[i], (unsigned)arg[i], width[i]); break;
      case 2: src[i] = __hipwb_shfl_src_down(self[i], (unsigned)arg[i], width[i]); break;
      default: src[i] = __hipwb_shfl_src_xor(self[i], arg[i], width[i]); break;
    }
  }
}
