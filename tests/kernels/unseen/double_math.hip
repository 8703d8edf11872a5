// Double precision math: sqrt, exp, log, fma, pow, sin, division.
#include <hip/hip_runtime.h>
#include <cmath>

__global__ void dmath(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double a = x[i], b = y[i];
    out[8 * i + 0] = sqrt(a);
    out[8 * i + 1] = exp(b);
    out[8 * i + 2] = log(a);
    out[8 * i + 3] = fma(a, b, 1.0);
    out[8 * i + 4] = pow(a, b);
    out[8 * i + 5] = sin(b);
    out[8 * i + 6] = a / b;
    out[8 * i + 7] = rsqrt(a);
  }
}

__global__ void dsum_kahan(const double* x, double* out, int n) {
  // one thread per row: compensated summation of a row of n doubles
  const double* row = x + (size_t)threadIdx.x * n;
  double s = 0.0, c = 0.0;
  for (int k = 0; k < n; ++k) {
    double y = row[k] - c;
    double t = s + y;
    c = (t - s) - y;
    s = t;
  }
  out[threadIdx.x] = s;
}

// double sin/cos of large arguments: ocml reduces them with v_trig_preop_f64 (Payne-Hanek)
__global__ void dsincos_large(const double* x, double* s, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = sin(x[i]);
    c[i] = cos(x[i]);
  }
}

__global__ void trig_preop_rt(const double* x, const int* seg, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __builtin_amdgcn_trig_preop(x[i], seg[i]);
}
