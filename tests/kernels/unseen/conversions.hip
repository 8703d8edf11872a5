// Bit casts and rounding-mode conversions from HIP's device function list.
#include <hip/hip_runtime.h>

__global__ void bitcasts(const float* f, const double* d, int* fi, float* back, int* hi, int* lo,
                         double* dback, long long* dl) {
  int i = threadIdx.x;
  fi[i] = __float_as_int(f[i]);
  back[i] = __uint_as_float(__float_as_uint(f[i]) ^ 0x80000000u);  // negate through the bits
  hi[i] = __double2hiint(d[i]);
  lo[i] = __double2loint(d[i]);
  dback[i] = __hiloint2double(hi[i], lo[i]);
  dl[i] = __double_as_longlong(__longlong_as_double(__double_as_longlong(d[i])));
}

// out[4 * i + m]: the four rounding modes rn, rz, rd, ru of one conversion
__global__ void round_modes(const float* f, const double* d, const long long* ll, const int* iv,
                            int* f2i, long long* d2ll, float* ll2f, float* i2f, float* d2f,
                            double* ll2d) {
  int i = threadIdx.x;
  f2i[4 * i + 0] = __float2int_rn(f[i]);
  f2i[4 * i + 1] = __float2int_rz(f[i]);
  f2i[4 * i + 2] = __float2int_rd(f[i]);
  f2i[4 * i + 3] = __float2int_ru(f[i]);
  d2ll[4 * i + 0] = __double2ll_rn(d[i]);
  d2ll[4 * i + 1] = __double2ll_rz(d[i]);
  d2ll[4 * i + 2] = __double2ll_rd(d[i]);
  d2ll[4 * i + 3] = __double2ll_ru(d[i]);
  ll2f[4 * i + 0] = __ll2float_rn(ll[i]);
  ll2f[4 * i + 1] = __ll2float_rz(ll[i]);
  ll2f[4 * i + 2] = __ll2float_rd(ll[i]);
  ll2f[4 * i + 3] = __ll2float_ru(ll[i]);
  i2f[4 * i + 0] = __int2float_rn(iv[i]);
  i2f[4 * i + 1] = __int2float_rz(iv[i]);
  i2f[4 * i + 2] = __int2float_rd(iv[i]);
  i2f[4 * i + 3] = __int2float_ru(iv[i]);
  d2f[4 * i + 0] = __double2float_rn(d[i]);
  d2f[4 * i + 1] = __double2float_rz(d[i]);
  d2f[4 * i + 2] = __double2float_rd(d[i]);
  d2f[4 * i + 3] = __double2float_ru(d[i]);
  ll2d[4 * i + 0] = __ll2double_rn(ll[i]);
  ll2d[4 * i + 1] = __ll2double_rz(ll[i]);
  ll2d[4 * i + 2] = __ll2double_rd(ll[i]);
  ll2d[4 * i + 3] = __ll2double_ru(ll[i]);
}
