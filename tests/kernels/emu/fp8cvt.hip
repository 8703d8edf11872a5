// gfx942 fp8/bf8 (FNUZ) conversion builtins (LLVM IntrinsicsAMDGPU.td int_amdgcn_cvt_*).
typedef float float2_t __attribute__((ext_vector_type(2)));

// fp8/bf8 -> f32: every byte of a word (v_cvt_f32_*_sdwa src0_sel:BYTE_n), both words (pk).
extern "C" __global__ void fp8_to_f32(const unsigned* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = in[i];
  float* o = out + 16 * i;
  o[0] = __builtin_amdgcn_cvt_f32_fp8(w, 0);
  o[1] = __builtin_amdgcn_cvt_f32_fp8(w, 1);
  o[2] = __builtin_amdgcn_cvt_f32_fp8(w, 2);
  o[3] = __builtin_amdgcn_cvt_f32_fp8(w, 3);
  o[4] = __builtin_amdgcn_cvt_f32_bf8(w, 0);
  o[5] = __builtin_amdgcn_cvt_f32_bf8(w, 1);
  o[6] = __builtin_amdgcn_cvt_f32_bf8(w, 2);
  o[7] = __builtin_amdgcn_cvt_f32_bf8(w, 3);
  float2_t a = __builtin_amdgcn_cvt_pk_f32_fp8(w, false), b = __builtin_amdgcn_cvt_pk_f32_fp8(w, true);
  float2_t c = __builtin_amdgcn_cvt_pk_f32_bf8(w, false), d = __builtin_amdgcn_cvt_pk_f32_bf8(w, true);
  o[8] = a.x; o[9] = a.y; o[10] = b.x; o[11] = b.y;
  o[12] = c.x; o[13] = c.y; o[14] = d.x; o[15] = d.y;
}

// f32 -> fp8/bf8 with round to nearest even, into either word of an old value.
extern "C" __global__ void f32_to_fp8(const float* x, const unsigned* old, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = x[2 * i], b = x[2 * i + 1];
  unsigned w = old[i];
  out[4 * i + 0] = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, w, false);
  out[4 * i + 1] = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, w, true);
  out[4 * i + 2] = __builtin_amdgcn_cvt_pk_bf8_f32(a, b, w, false);
  out[4 * i + 3] = __builtin_amdgcn_cvt_pk_bf8_f32(-a, b, w, true);
}

// Stochastic rounding into byte `sel` of an old value, seed from a buffer.
extern "C" __global__ void f32_to_fp8_sr(const float* x, const unsigned* seed, const unsigned* old,
                                         unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = x[i];
  unsigned r = seed[i], w = old[i];
  out[8 * i + 0] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 0);
  out[8 * i + 1] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 1);
  out[8 * i + 2] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 2);
  out[8 * i + 3] = __builtin_amdgcn_cvt_sr_fp8_f32(a, r, w, 3);
  out[8 * i + 4] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 0);
  out[8 * i + 5] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 1);
  out[8 * i + 6] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 2);
  out[8 * i + 7] = __builtin_amdgcn_cvt_sr_bf8_f32(a, r, w, 3);
}

// A per-tensor fp8 quantize/dequantize round trip the way libraries write it: scale, saturate
// with v_med3_f32 to +-240, pack four values per word, then unpack and rescale.
extern "C" __global__ void quantize_roundtrip(const float* x, float scale, unsigned* q, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v[4];
  for (int k = 0; k < 4; ++k)
    v[k] = __builtin_amdgcn_fmed3f(x[4 * i + k] * scale, -240.0f, 240.0f);
  unsigned w = __builtin_amdgcn_cvt_pk_fp8_f32(v[0], v[1], 0u, false);
  w = __builtin_amdgcn_cvt_pk_fp8_f32(v[2], v[3], w, true);
  q[i] = w;
  float2_t lo = __builtin_amdgcn_cvt_pk_f32_fp8(w, false), hi = __builtin_amdgcn_cvt_pk_f32_fp8(w, true);
  y[4 * i + 0] = lo.x / scale;
  y[4 * i + 1] = lo.y / scale;
  y[4 * i + 2] = hi.x / scale;
  y[4 * i + 3] = hi.y / scale;
}
