// Kernels that take one struct by value holding device pointers, the shape of HipKittens'
// `globals` and Composable Kernel's `kargs`. Portable HIP: builds for AMD targets (hipwb's
// prelude or ROCm) and for NVIDIA GPUs (CudaDevice, NVRTC).
// From Python, mirror each struct with a dataclass whose fields are annotated with their C
// types (docs/api.md, "Structs by value"):
//   saxpy_struct[(n + 255) // 256, 256](SaxpyArgs(x=x, y=y, n=n, alpha=2.0))
//   scale_add_2d[((cols + 15) // 16, (rows + 15) // 16), (16, 16)](Globals(...))
struct SaxpyArgs {
  const float* x;
  float* y;
  int n;
  float alpha;
};

// y[i] += alpha * x[i]
extern "C" __global__ void saxpy_struct(SaxpyArgs a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) a.y[i] += a.alpha * a.x[i];
}

struct Dims {
  int rows;
  int cols;
};

struct Globals {
  const float* a;  // rows x lda
  const float* b;  // rows x cols
  float* c;        // rows x cols
  int lda;
  int scale;
  int bias;
  Dims dims;
};

// c[r][k] = scale * a[r][k] + b[r][k] + bias, for r < dims.rows, k < dims.cols
extern "C" __global__ void scale_add_2d(Globals g) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < g.dims.rows && k < g.dims.cols)
    g.c[r * g.dims.cols + k] = g.scale * g.a[r * g.lda + k] + g.b[r * g.dims.cols + k] + g.bias;
}
