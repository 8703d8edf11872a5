// Row (16-lane) and wave reductions with DPP builtins (update_dpp / mov_dpp): row_shr, row_bcast,
// quad_perm and row_mirror controls (gfx9 DPP_CTRL encodings: CDNA3 ISA "DPP").
extern "C" __global__ void dpp_ops(const int* x, int* scan16, int* mirror, int* quad, int* total) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int v = x[t];
  // inclusive scan within each row of 16 lanes: row_shr:1,2,4,8 (0x111..0x118), bound_ctrl
  int s = v;
  s += __builtin_amdgcn_update_dpp(0, s, 0x111, 0xf, 0xf, true);
  s += __builtin_amdgcn_update_dpp(0, s, 0x112, 0xf, 0xf, true);
  s += __builtin_amdgcn_update_dpp(0, s, 0x114, 0xf, 0xf, true);
  s += __builtin_amdgcn_update_dpp(0, s, 0x118, 0xf, 0xf, true);
  scan16[t] = s;
  mirror[t] = __builtin_amdgcn_mov_dpp(v, 0x140, 0xf, 0xf, false);  // row_mirror
  quad[t] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, false);     // quad_perm [3,2,1,0]
  // wave total: row sums broadcast with row_bcast:15 / row_bcast:31 (old value kept elsewhere)
  int r = s;  // lane 15 of each row holds the row sum
  r += __builtin_amdgcn_update_dpp(0, r, 0x142, 0xa, 0xf, false);  // row_bcast:15, rows 1,3
  r += __builtin_amdgcn_update_dpp(0, r, 0x143, 0xc, 0xf, false);  // row_bcast:31, rows 2,3
  total[t] = __builtin_amdgcn_readlane(r, 63);
}
