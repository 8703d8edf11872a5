// module_kernels.hip: kernels built into a code object on their own (hipcc --genco) and loaded
// at run time by loaders.hip; extern "C" keeps their names unmangled for hipModuleGetFunction.
// Device code only. Part of hipwb's fieldwork corpus.
#include <hip/hip_runtime.h>

extern "C" __global__ void module_copy(float* out, const float* in)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

extern "C" __global__ void module_scale(float* data, const float factor, const unsigned int n)
{
    for(unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        data[i] *= factor;
}
