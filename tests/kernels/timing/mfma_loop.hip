// An MFMA-only loop: four independent accumulator chains of v_mfma_f32_16x16x16_bf16 per wave
// (no memory inside the loop), the timing model's "matrix pipes at full occupancy" check.
typedef float f4 __attribute__((ext_vector_type(4)));
typedef short s4 __attribute__((ext_vector_type(4)));

extern "C" __global__ __launch_bounds__(256) void mfma_loop(float* out, int iters) {
  s4 x = (s4)(short)threadIdx.x, y = (s4)(short)(threadIdx.x + 1);
  f4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
  for (int i = 0; i < iters; ++i) {
    a0 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, a0, 0, 0, 0);
    a1 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, a1, 0, 0, 0);
    a2 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, a2, 0, 0, 0);
    a3 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, a3, 0, 0, 0);
  }
  f4 s = a0 + a1 + a2 + a3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s.x + s.y + s.z + s.w;
}
