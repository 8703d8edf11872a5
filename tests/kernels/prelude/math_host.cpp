// Host build of hipwb/math_inline.h for tests/test_prelude.py: the inline float algorithms
// (sinf, cosf, tanf, tanhf, powf) evaluated over arrays, loaded with ctypes and compared with
// numpy in float64.
#define __HIPWB_MATH_FN static inline
#include "hipwb/math_inline.h"

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
