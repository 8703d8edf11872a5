// RDNA lane exchange: DPP8, the GFX10+ DPP row_xmask/row_share controls, v_permlane16/x16.
extern "C" __global__ void dpp_rdna(const int* x, int* o) {
  const int t = threadIdx.x;
  const int v = x[t];
  o[0 * 64 + t] = __builtin_amdgcn_mov_dpp8(v, 0b000001010011100101110111);  // reverse 8
  o[1 * 64 + t] = __builtin_amdgcn_update_dpp(0, v, 0x163, 0xf, 0xf, false);  // row_xmask:3
  o[2 * 64 + t] = __builtin_amdgcn_update_dpp(0, v, 0x155, 0xf, 0xf, false);  // row_share:5
  o[3 * 64 + t] = __builtin_amdgcn_permlane16(v, v, 0x76543210u, 0xfedcba98u, false, false);
  o[4 * 64 + t] = __builtin_amdgcn_permlanex16(v, v, 0x01234567u, 0x89abcdefu, false, false);
  o[5 * 64 + t] = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false) + 1;  // row_shr:1
}
