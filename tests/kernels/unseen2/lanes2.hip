// Cross-lane moves round 1 did not cover: DPP row broadcasts (gfx9) and row_share/row_xmask
// (gfx10+), permlane16/permlanex16 (gfx10+), permlane64 (gfx11+ wave64), ds_swizzle's
// quad-permute mode, packed half2/short2 math, the small dot builtins.
#include <hip/hip_runtime.h>

#if defined(__gfx942__) || defined(__gfx950__)
// row_bcast:15 (0x142) into rows 1 and 3, row_bcast:31 (0x143) into rows 2 and 3: the
// classic gfx9 wave64 scan steps
__global__ void dpp_bcast(const int* x, int* b15, int* b31) {
  int v = x[threadIdx.x];
  b15[threadIdx.x] = __builtin_amdgcn_update_dpp(-1, v, 0x142, 0xa, 0xf, false);
  b31[threadIdx.x] = __builtin_amdgcn_update_dpp(-1, v, 0x143, 0xc, 0xf, false);
}
#else
// row_share:5 (0x155): every lane reads lane 5 of its row; row_xmask:6 (0x166): lane ^ 6
__global__ void dpp_share(const int* x, int* share, int* xmask) {
  int v = x[threadIdx.x];
  share[threadIdx.x] = __builtin_amdgcn_update_dpp(-1, v, 0x155, 0xf, 0xf, false);
  xmask[threadIdx.x] = __builtin_amdgcn_mov_dpp(v, 0x166, 0xf, 0xf, false);
}

// permlane16: lane l of each row of 16 reads lane sel[l] of its row; permlanex16 reads the
// other row of the pair. sel: nibble l of {hi:lo}
__global__ void permlanes(const int* x, int* p16, int* px16, unsigned lo, unsigned hi) {
  int v = x[threadIdx.x];
  p16[threadIdx.x] = __builtin_amdgcn_permlane16(0, v, lo, hi, false, false);
  px16[threadIdx.x] = __builtin_amdgcn_permlanex16(0, v, lo, hi, false, false);
}
#endif

#if defined(__gfx1100__) || defined(__gfx1201__)
// permlane64: lane l reads lane l ^ 32 (wave64 only; a plain copy in wave32)
__global__ void permlane64(const int* x, int* out) {
  out[threadIdx.x] = __builtin_amdgcn_permlane64(x[threadIdx.x]);
}
#endif

// ds_swizzle quad-permute mode (offset bit 15 set): in every group of four lanes, lane q
// reads lane perm[q], perm packed 2 bits per lane (here [2,3,0,1] -> 0b01001110)
__global__ void swizzle_quad(const int* x, int* out) {
  out[threadIdx.x] = __builtin_amdgcn_ds_swizzle(x[threadIdx.x], 0x8000 | 0x4E);
}

// packed 16-bit math: __half2 fma / min, short2 add / multiply through vector extensions
typedef short short2v __attribute__((ext_vector_type(2)));
__global__ void packed16(const __half2* a, const __half2* b, __half2* fma, __half2* mn,
                         const short2v* p, const short2v* q, short2v* sum, short2v* prod) {
  int i = threadIdx.x;
  fma[i] = __hfma2(a[i], b[i], a[i]);
  mn[i] = __hmin2(a[i], b[i]);
  sum[i] = p[i] + q[i];
  prod[i] = p[i] * q[i] - (q[i] >> (short)1);
}
