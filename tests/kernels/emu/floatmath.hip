// Row softmax (one wave per row of 64): max/exp/sum/divide with IEEE division, sqrt, rcp.
extern "C" __global__ void softmax64(const float* x, float* y, float* norms) {
  int row = blockIdx.x, l = threadIdx.x;
  float v = x[row * 64 + l];
  float m = v;
  for (int d = 32; d > 0; d >>= 1) m = fmaxf(m, __shfl_xor(m, d));
  float e = expf(v - m);
  float s = e;
  for (int d = 32; d > 0; d >>= 1) s += __shfl_xor(s, d);
  y[row * 64 + l] = e / s;
  float q = v * v;
  for (int d = 32; d > 0; d >>= 1) q += __shfl_xor(q, d);
  if (l == 0) norms[row] = sqrtf(q);
}

// Exact IEEE f32 operations: division, sqrt, fma, float<->int conversions, min/max, floor.
extern "C" __global__ void fops(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + 8 * i;
  o[0] = x / y;
  o[1] = sqrtf(fabsf(x));
  o[2] = fmaf(x, y, 1.0f);
  o[3] = (float)(int)(x * 100.0f);
  o[4] = fminf(x, y);
  o[5] = floorf(x * 3.0f);
  // stored as its bits: (float)(unsigned)f folds to truncf(f) in LLVM >= 22 (out-of-range
  // conversions are undefined in C), which would hide V_CVT_U32_F32's saturation
  reinterpret_cast<unsigned*>(o)[6] = (unsigned)(fabsf(y) * 1000.0f);
  o[7] = x * y - y;
}
