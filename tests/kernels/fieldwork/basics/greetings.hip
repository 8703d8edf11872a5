// greetings.hip: printf from the device, and the three function qualifiers.
//
// A __device__ helper, a __host__ function, a __host__ __device__ function that prints from
// either side, and two kernels: one launched with a stream argument, one with the short
// <<<grid, block>>> form. Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <cstdio>
#include <iostream>

__device__ unsigned int lane_in_block()
{
    return threadIdx.x;
}

__host__ void greet_from_host()
{
    std::cout << "greetings from the host" << std::endl;
}

__host__ __device__ void greet_anywhere()
{
    printf("greetings from either side\n");
}

__global__ void greet_kernel()
{
    greet_anywhere();
    printf("greetings from block %u, thread %u\n", blockIdx.x, lane_in_block());
}

__global__ void greet_once(int tag)
{
    if(blockIdx.x == 0 && threadIdx.x == 0)
        printf("tag %d: %d blocks of %d threads\n", tag, gridDim.x, blockDim.x);
}

int main()
{
    greet_from_host();
    greet_anywhere();
    greet_kernel<<<dim3(2), dim3(2), 0, hipStreamDefault>>>();
    HIP_CHECK(hipGetLastError());
    greet_once<<<3, 64>>>(7);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    return 0;
}
