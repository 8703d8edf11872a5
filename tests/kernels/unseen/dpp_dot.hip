// DPP moves (rocPRIM-style wave scans), ds_swizzle, and the packed dot-product builtins.
#include <hip/hip_runtime.h>

// inclusive scan within rows of 16 lanes with row_shr:1,2,4,8 (DPP ctrl 0x111.. 0x118)
__global__ void dpp_row_scan(const int* x, int* out) {
  int v = x[threadIdx.x];
  int t;
  t = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false); v += t;
  t = __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false); v += t;
  t = __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false); v += t;
  t = __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, false); v += t;
  out[threadIdx.x] = v;
}

// quad_perm [3,2,1,0] (reverse each group of four) and row_ror:4
__global__ void dpp_perms(const int* x, int* rev4, int* ror4) {
  int v = x[threadIdx.x];
  rev4[threadIdx.x] = __builtin_amdgcn_mov_dpp(v, 0x1B, 0xf, 0xf, false);
  ror4[threadIdx.x] = __builtin_amdgcn_update_dpp(0, v, 0x124, 0xf, 0xf, false);
}

// ds_swizzle in bitmask mode: and_mask 0x1f, or_mask 0, xor_mask 1 (swap neighbours)
__global__ void swizzle_swap(const int* x, int* out) {
  out[threadIdx.x] = __builtin_amdgcn_ds_swizzle(x[threadIdx.x], (1 << 10) | 0x1f);
}

// signed and unsigned 8-bit dots; on RDNA3/4 also the mixed-sign one (signed a, unsigned b)
// with a saturating accumulate, which gfx9 lacks (written out in C there)
__global__ void dots(const int* a, const int* b, int* s4, unsigned* u4, int* mix, int n) {
  int i = threadIdx.x;
  if (i < n) {
#if defined(__gfx942__) || defined(__gfx950__)
    s4[i] = __builtin_amdgcn_sdot4(a[i], b[i], 7, false);
    long long m = (long long)a[i] * 0 - 2147483000;
    for (int k = 0; k < 4; ++k)
      m += (long long)(signed char)(a[i] >> (8 * k)) * (unsigned char)(b[i] >> (8 * k));
    mix[i] = m < -2147483647 - 1 ? -2147483647 - 1 : (int)m;
#else
    s4[i] = __builtin_amdgcn_sudot4(true, a[i], true, b[i], 7, false);
    mix[i] = __builtin_amdgcn_sudot4(true, a[i], false, b[i], -2147483000, true);
#endif
    u4[i] = __builtin_amdgcn_udot4((unsigned)a[i], (unsigned)b[i], 7u, false);
  }
}
