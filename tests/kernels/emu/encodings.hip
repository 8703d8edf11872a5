// Hand-encoded instructions whose literal dword holds a value LLVM prints like an inline
// constant (the listing then shows "-1" / "1" for a two-dword encoding), plus selects with
// float source modifiers on v_cndmask_b32_e64.
extern "C" __global__ void literal_forms(const int* in, int* out, int k) {
  int i = threadIdx.x;
  int r;
  // s_add_u32 s6, s6, 0 clears SCC; then s_addc_u32 s7, s7, -1 with the -1 as a literal
  // dword (8207ff07 ffffffff, the form LLVM emitted in the prelude's sinf): r = k - 1.
  asm volatile("s_mov_b32 s7, %1\n\ts_mov_b32 s6, 0\n\ts_add_u32 s6, s6, 0\n\t"
               ".long 0x8207ff07, 0xffffffff\n\ts_mov_b32 %0, s7"
               : "=s"(r) : "s"(k) : "s6", "s7", "scc");
  int v;
  // v_mov_b32_e32 v1, 1 encoded with src0 = 255 and a literal 1 (7e0202ff 00000001)
  asm volatile(".long 0x7e0202ff, 0x00000001\n\tv_add_u32_e32 %0, %1, v1"
               : "=v"(v) : "v"(in[i]) : "v1");
  out[2 * i] = r;
  out[2 * i + 1] = v;
}

extern "C" __global__ void abs_select(const float* a, const float* b, float* o) {
  int i = threadIdx.x;
  float x = a[i], y = b[i];
  o[i] = (x < y) ? fabsf(x) : y;                  // v_cndmask_b32_e64 v, v, |v|, vcc
  o[64 + i] = fabsf(x) < 1.0f ? -x : x;           // v_cndmask_b32_e64 v, v, -v, s[n:n+1]
}
