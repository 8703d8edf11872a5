// use_cube_lib.hip: a kernel calling a __device__ function of another translation unit.
// It links only with relocatable device code (-fgpu-rdc) and the library's object.
// Part of hipwb's fieldwork corpus.
#include "cube_lib.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iostream>
#include <numeric>
#include <vector>

__global__ void cube_all(int* out, const int* in, const unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        out[i] = lib_cube(in[i]);
}

int main()
{
    constexpr unsigned int n = 512;
    std::vector<int>       in(n), out(n);
    std::iota(in.begin(), in.end(), -256);
    int *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    cube_all<<<2, 256>>>(d_out, d_in, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    size_t bad = 0;
    for(unsigned int i = 0; i < n; ++i)
        bad += out[i] != in[i] * in[i] * in[i];
    return field::verdict(bad, "cube_all");
}
