// gfx950 stochastic-rounding conversions to the OCP formats: unscaled v_cvt_sr_{fp8,bf8}_f32
// and scaled v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16} / v_cvt_scalef32_sr_pk_fp4_{f32,f16,bf16}.
// Lane t converts x[t] (and -x[t] for the fp4 pairs) with seed[t] and scale[t] (an f32 power of
// two) into a byte of old[t]; lanes with skip[t] != 0 take no part (EXEC off): their outputs
// keep whatever the buffer held.
typedef float v2f __attribute__((ext_vector_type(2)));
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
typedef __bf16 v2bf __attribute__((ext_vector_type(2)));

extern "C" __global__ void cvt_sr(const float* x, const unsigned* seed, const float* scale,
                                  const unsigned* old, const int* skip, unsigned* out) {
  const int t = threadIdx.x;
  if (skip[t]) return;
  const float a = x[t], s = scale[t];
  const unsigned r = seed[t], w = old[t];
  const _Float16 h = (_Float16)a;
  const __bf16 b = (__bf16)a;
  unsigned* o = out + 16 * t;
  o[0] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 0);
  o[1] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 3);
  o[2] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 1);
  o[3] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 2);
  o[4] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(w, a, r, s, 3);
  o[5] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f32(w, a, r, s, 0);
  o[6] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f16(w, h, r, s, 1);
  o[7] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f16(w, h, r, s, 2);
  o[8] = __builtin_amdgcn_cvt_scalef32_sr_fp8_bf16(w, b, r, s, 2);
  o[9] = __builtin_amdgcn_cvt_scalef32_sr_bf8_bf16(w, b, r, s, 1);
  o[10] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(w, (v2f){a, -a}, r, s, 1);
  o[11] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f16(w, (v2h){h, -h}, r, s, 3);
  o[12] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_bf16(w, (v2bf){b, -b}, r, s, 0);
}

// 32 values per lane (x[32t .. 32t+31], also as f16 / bf16) with one seed to packed fp6 / bf6:
// v_cvt_scalef32_sr_pk32_{fp6,bf6}_{f32,f16,bf16}, six result dwords each.
typedef float v32f __attribute__((ext_vector_type(32)));
typedef _Float16 v32h __attribute__((ext_vector_type(32)));
typedef __bf16 v32bf __attribute__((ext_vector_type(32)));
typedef unsigned v6u __attribute__((ext_vector_type(6)));

extern "C" __global__ void cvt_sr_pk32(const float* x, const unsigned* seed, const float* scale,
                                       unsigned* out) {
  const int t = threadIdx.x;
  v32f v;
  v32h h;
  v32bf b;
  for (int i = 0; i < 32; ++i) {
    v[i] = x[32 * t + i];
    h[i] = (_Float16)v[i];
    b[i] = (__bf16)v[i];
  }
  const unsigned r = seed[t];
  const float s = scale[t];
  const v6u q[4] = {__builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f32(v, r, s),
                    __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_f32(v, r, s),
                    __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f16(h, r, s),
                    __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_bf16(b, r, s)};
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 6; ++i) out[24 * t + 6 * j + i] = q[j][i];
}
