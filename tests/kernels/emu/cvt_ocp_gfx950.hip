// gfx950 OCP fp8 / bf8 / fp4 conversions, scaled (v_cvt_scalef32_*) and not (v_cvt_pk_fp8_f32,
// v_cvt_f32_fp8, which convert OCP E4M3 on gfx950): lane t converts codes[t] with scale[t]
// (an f32 power of two) and the pair x[2t], x[2t+1]; every builtin's byte/word select is used
// with a non-zero value somewhere.
typedef float v2f __attribute__((ext_vector_type(2)));
typedef short v2s __attribute__((ext_vector_type(2)));

extern "C" __global__ void cvt_ocp(const float* x, const unsigned* codes, const float* scale,
                                   unsigned* out_i, float* out_f) {
  const int t = threadIdx.x;
  const float s = scale[t], x0 = x[2 * t], x1 = x[2 * t + 1];
  const unsigned c = codes[t];
  const v2f p = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(c, s, true);   // bytes 2, 3
  const v2f q = __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(c, s, false);  // bytes 0, 1
  const v2f r = __builtin_amdgcn_cvt_scalef32_pk_f32_fp4(c, s, 2);      // byte 2, two nibbles
  float* f = out_f + 8 * t;
  f[0] = p.x; f[1] = p.y; f[2] = q.x; f[3] = q.y; f[4] = r.x; f[5] = r.y;
  f[6] = __builtin_amdgcn_cvt_scalef32_f32_fp8(c, s, 3);  // byte 3
  f[7] = __builtin_amdgcn_cvt_f32_fp8(c, 1);               // byte 1, no scale
  const v2s old = __builtin_bit_cast(v2s, c);
  unsigned* o = out_i + 4 * t;
  o[0] = __builtin_bit_cast(unsigned, __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(old, x0, x1, s,
                                                                                true));
  o[1] = __builtin_bit_cast(unsigned, __builtin_amdgcn_cvt_scalef32_pk_bf8_f32(old, x0, x1, s,
                                                                                false));
  o[2] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(c, x0, x1, s, 1);  // byte 1
  o[3] = __builtin_amdgcn_cvt_pk_fp8_f32(x0, x1, c, true);           // word 1, no scale
}
