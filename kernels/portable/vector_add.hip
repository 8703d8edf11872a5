// vector_add: out[i] = x[i] + y[i]. Portable HIP: the same source builds for AMD targets
// (hipwb's offline prelude or ROCm) and for NVIDIA GPUs (CudaDevice, NVRTC).
// Launch: vector_add[(n + 255) // 256, 256](x, y, out, n)
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}
