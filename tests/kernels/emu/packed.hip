// Packed math: float2 FMAs (v_pk_fma_f32 with op_sel_hi on a scalar and on constants) and
// half2 multiply with swapped halves (v_pk_mul_f16 op_sel).
extern "C" __global__ void packed(const float2* a, const float2* b, float2* c, float s,
                                  const __half2* ha, const __half2* hb, __half2* hc) {
  int i = threadIdx.x;
  float2 x = a[i], y = b[i];
  c[i] = make_float2(x.x * y.x + s, x.y * y.y + s);
  c[i + 64] = make_float2(x.x * 2.0f + 1.0f, x.y * 2.0f + 1.0f);
  hc[i] = __hmul2(ha[i], __half2{hb[i].y, hb[i].x});
}
