// amdgcn builtins round 1 did not cover: msad/lerp, alignbyte, perm, sbfe, frexp, cvt_pkrtz,
// cvt_pknorm, ballot-style compares, runtime-lane readlane/writelane.
#include <hip/hip_runtime.h>

__global__ void byte_ops(const unsigned* a, const unsigned* b, const unsigned* c,
                         unsigned* msad, unsigned* lerp, unsigned* align, unsigned* perm) {
  int i = threadIdx.x;
  msad[i] = __builtin_amdgcn_msad_u8(a[i], b[i], c[i] & 0xffff);
  lerp[i] = __builtin_amdgcn_lerp(a[i], b[i], c[i] & 0x01010101u);
  align[i] = __builtin_amdgcn_alignbyte(a[i], b[i], c[i] & 3);
  perm[i] = __builtin_amdgcn_perm(a[i], b[i], c[i]);
}

__global__ void bitfields(const unsigned* x, const int* off, const int* w, int* s, unsigned* u) {
  int i = threadIdx.x;
  s[i] = __builtin_amdgcn_sbfe((int)x[i], off[i], w[i]);
  u[i] = __builtin_amdgcn_ubfe(x[i], off[i], w[i]);
}

__global__ void frexp_parts(const float* x, float* mant, int* ex, const double* d,
                            double* dmant, int* dex) {
  int i = threadIdx.x;
  mant[i] = __builtin_amdgcn_frexp_mantf(x[i]);
  ex[i] = __builtin_amdgcn_frexp_expf(x[i]);
  dmant[i] = __builtin_amdgcn_frexp_mant(d[i]);
  dex[i] = __builtin_amdgcn_frexp_exp(d[i]);
}

__global__ void packs(const float* a, const float* b, unsigned* rtz, unsigned* ni, unsigned* nu) {
  int i = threadIdx.x;
  auto h = __builtin_amdgcn_cvt_pkrtz(a[i], b[i]);
  rtz[i] = __builtin_bit_cast(unsigned, h);
  auto si = __builtin_amdgcn_cvt_pknorm_i16(a[i], b[i]);
  ni[i] = __builtin_bit_cast(unsigned, si);
  auto su = __builtin_amdgcn_cvt_pknorm_u16(a[i], b[i]);
  nu[i] = __builtin_bit_cast(unsigned, su);
}

__global__ void fmed3_clamp(const float* x, const float* lo, const float* hi, float* out) {
  int i = threadIdx.x;
  out[i] = __builtin_amdgcn_fmed3f(x[i], lo[i], hi[i]);
}

// ballot-style compares: bit l of the result is lane l's compare (wave-wide mask)
__global__ void cmp_masks(const int* a, const float* f, unsigned long long* out, int k) {
  int i = threadIdx.x;
  int wave = i / warpSize;
  unsigned long long s = __builtin_amdgcn_sicmpl(a[i], k, 38);   // ICMP_SGT
  unsigned long long u = __builtin_amdgcn_uicmp((unsigned)a[i], (unsigned)k, 36); // ICMP_ULT
  unsigned long long fl = __builtin_amdgcn_fcmpf(f[i], 0.5f, 4);  // FCMP_OLT
  if (i % warpSize == 0) {
    out[3 * wave + 0] = s;
    out[3 * wave + 1] = u;
    out[3 * wave + 2] = fl;
  }
}

// readlane with a lane number computed at run time (clang has no writelane builtin)
__global__ void lanes_runtime(const int* x, const int* which, int* got) {
  int i = threadIdx.x;
  int v = x[i];
  int lane = which[i / warpSize];
  int r = __builtin_amdgcn_readlane(v, lane);
  got[i] = r;
}
