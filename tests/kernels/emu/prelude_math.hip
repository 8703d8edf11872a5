// The offline prelude's float math (workbench/include/hipwb/math.h) as one kernel per function,
// so tests/prelude/test_prelude_math_emu.py can run each on the gfx942 emulator and compare with numpy.
#define UNARY(NAME, EXPR)                                                                      \
  extern "C" __global__ void NAME(const float* a, float* o, int n) {                          \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) { float x = a[i]; o[i] = (EXPR); }                                             \
  }
#define BINARY(NAME, EXPR)                                                                     \
  extern "C" __global__ void NAME(const float* a, const float* b, float* o, int n) {          \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) { float x = a[i], y = b[i]; o[i] = (EXPR); }                                   \
  }

UNARY(m_expf, expf(x))
UNARY(m_fast_expf, __expf(x))
UNARY(m_exp2f, exp2f(x))
UNARY(m_logf, logf(x))
UNARY(m_fast_logf, __logf(x))
UNARY(m_log2f, log2f(x))
UNARY(m_sqrtf, sqrtf(x))
UNARY(m_rsqrtf, rsqrtf(x))
UNARY(m_tanhf, tanhf(x))
UNARY(m_sinf, sinf(x))
UNARY(m_cosf, cosf(x))
UNARY(m_tanf, tanf(x))
UNARY(m_fabsf, fabsf(x))
UNARY(m_floorf, floorf(x))
UNARY(m_ceilf, ceilf(x))
BINARY(m_powf, powf(x, y))
BINARY(m_fmaxf, fmaxf(x, y))
BINARY(m_fminf, fminf(x, y))

extern "C" __global__ void m_fmaf(const float* a, const float* b, const float* c, float* o,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = fmaf(a[i], b[i], c[i]);
}

// float -> half (RNE and RZ) / bfloat16 (RNE) bit patterns, and back to float.
extern "C" __global__ void m_to_half(const float* a, unsigned short* rn, unsigned short* rz,
                                     unsigned short* bf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  rn[i] = __half_as_ushort(__float2half(x));
  rz[i] = __half_as_ushort(__float2half_rz(x));
  bf[i] = __bfloat16_as_ushort(__float2bfloat16(x));
}

extern "C" __global__ void m_from_half(const unsigned short* h, const unsigned short* b,
                                       float* hf, float* bff, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  hf[i] = __half2float(__ushort_as_half(h[i]));
  bff[i] = __bfloat162float(__ushort_as_bfloat16(b[i]));
}
