// Portable kernels (NVRTC and clang): __device__ variables set from Python before a launch
// (kernel.globals, as hipMemcpyToSymbol), a typedef'd and a vector-typed scalar argument, and
// dynamic shared memory (extern __shared__) that a launch must size.
typedef unsigned int uint;

__device__ float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int counter;

extern "C" __global__ void use_globals(float* out, size_t n, uint scale, uint2 v) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = coef[i & 3] * scale + v.y;
    if (i == 0) atomicAdd(&counter, 1);
}

extern "C" __global__ void reverse_block(const float* x, float* y) {
    extern __shared__ float buf[];
    buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    y[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
