// HIP library math that the prelude takes from AMD's ocml (hipwb/math_ocml.h): one kernel per
// function, y[i] = f(x[i]) (two-argument functions read a second array).
#define F1(NAME, T, EXPR)                                                             \
  extern "C" __global__ void NAME(const T* x, T* y, int n) {                          \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                    \
    if (i < n) { T v = x[i]; y[i] = EXPR; }                                           \
  }
#define F2(NAME, T, EXPR)                                                             \
  extern "C" __global__ void NAME(const T* x, const T* z, T* y, int n) {              \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                    \
    if (i < n) { T v = x[i], w = z[i]; y[i] = EXPR; }                                 \
  }
F1(m_log1pf, float, log1pf(v))
F1(m_expm1f, float, expm1f(v))
F1(m_erfinvf, float, erfinvf(v))
F1(m_erff, float, erff(v))
F1(m_erfcf, float, erfcf(v))
F1(m_tgammaf, float, tgammaf(v))
F1(m_lgammaf, float, lgammaf(v))
F1(m_acosf, float, acosf(v))
F1(m_asinf, float, asinf(v))
F1(m_atanf, float, atanf(v))
F1(m_sinhf, float, sinhf(v))
F1(m_coshf, float, coshf(v))
F1(m_cbrtf, float, cbrtf(v))
F1(m_atanhf, float, atanhf(v))
F2(m_atan2f, float, atan2f(v, w))
F2(m_hypotf, float, hypotf(v, w))
F2(m_fmodf, float, fmodf(v, w))
F1(m_exp, double, exp(v))
F1(m_log, double, log(v))
F1(m_sin, double, sin(v))
F1(m_cos, double, cos(v))
F1(m_tanh, double, tanh(v))
F1(m_log1p, double, log1p(v))
F2(m_pow, double, pow(v, w))
