// gfx9 DPP whole-wave moves: wave_shr:1 and wave_rol:1 (clang has no s_quadmask / s_wqm
// builtins: those intrinsics are reachable from LLVM IR only).
#include <hip/hip_runtime.h>

#if defined(__gfx942__) || defined(__gfx950__)
// wave_shr:1 (0x138) and wave_rol:1 (0x134): whole-wave shift / rotate by one lane
__global__ void wave_shift(const int* x, int* shr, int* rol) {
  int v = x[threadIdx.x];
  shr[threadIdx.x] = __builtin_amdgcn_update_dpp(-7, v, 0x138, 0xf, 0xf, false);
  rol[threadIdx.x] = __builtin_amdgcn_update_dpp(-7, v, 0x134, 0xf, 0xf, false);
}
#endif
