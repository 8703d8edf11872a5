// atomic_total.hip: the sum of an int array with one atomicAdd per thread after a grid-stride
// partial sum, in three variants: one element per step, four, and sixteen (manually unrolled).
// Timed with std::chrono over repeated launches. Part of hipwb's fieldwork corpus.
#include <cassert>
#include <cstdio>
#include <iostream>
#include <fstream>
#include <vector>
#include <chrono>
#include <cfloat>
#include <iomanip>
#include <cmath>
#include "hip/hip_runtime.h"

#define HIP_ASSERT(x) (assert((x) == hipSuccess))

__global__ void atomic_total_1(const int* in, int* total, int n)
{
    int acc = 0;
    for(int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < n; i += hipBlockDim_x * hipGridDim_x)
        acc += in[i];
    atomicAdd(total, acc);
}

__global__ void atomic_total_4(const int* in, int* total, int n)
{
    int acc = 0;
    for(int i = 4 * (hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x); i < n; i += 4 * hipBlockDim_x * hipGridDim_x)
        acc += in[i] + in[i + 1] + in[i + 2] + in[i + 3];
    atomicAdd(total, acc);
}

__global__ void atomic_total_16(const int* in, int* total, int n)
{
    int acc = 0;
    for(int i = 16 * (hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x); i < n; i += 16 * hipBlockDim_x * hipGridDim_x)
    {
        acc += in[i] + in[i + 1] + in[i + 2] + in[i + 3] + in[i + 4] + in[i + 5] + in[i + 6] + in[i + 7];
        acc += in[i + 8] + in[i + 9] + in[i + 10] + in[i + 11] + in[i + 12] + in[i + 13] + in[i + 14] + in[i + 15];
    }
    atomicAdd(total, acc);
}

int main(int argc, char** argv)
{
    const int n       = argc > 1 ? atoi(argv[1]) : 1 << 26; // a multiple of 16
    const int threads = 256;
    int       blocks  = 0;
    hipDeviceProp_t props;
    HIP_ASSERT(hipGetDeviceProperties(&props, 0));
    blocks = props.multiProcessorCount * 8;

    std::vector<int> data(n, 1);
    int *            d_in, *d_total;
    HIP_ASSERT(hipMalloc(&d_in, sizeof(int) * n));
    HIP_ASSERT(hipMalloc(&d_total, sizeof(int)));
    HIP_ASSERT(hipMemcpy(d_in, data.data(), sizeof(int) * n, hipMemcpyHostToDevice));

    void (*variants[])(const int*, int*, int) = {atomic_total_1, atomic_total_4, atomic_total_16};
    const char* names[] = {"x1", "x4", "x16"};
    for(int v = 0; v < 3; ++v)
    {
        auto start = std::chrono::high_resolution_clock::now();
        for(int rep = 0; rep < 10; ++rep)
        {
            HIP_ASSERT(hipMemsetAsync(d_total, 0, sizeof(int), 0));
            hipLaunchKernelGGL(variants[v], dim3(blocks), dim3(threads), 0, 0, d_in, d_total, n);
        }
        HIP_ASSERT(hipDeviceSynchronize());
        auto stop = std::chrono::high_resolution_clock::now();
        int  total = 0;
        HIP_ASSERT(hipMemcpy(&total, d_total, sizeof(int), hipMemcpyDeviceToHost));
        const double seconds = std::chrono::duration<double>(stop - start).count() / 10;
        std::cout << names[v] << ": " << std::setprecision(4) << n * sizeof(int) / seconds * 1e-9 << " GB/s"
                  << (total == n ? "" : "  WRONG") << std::endl;
    }
    HIP_ASSERT(hipFree(d_in));
    HIP_ASSERT(hipFree(d_total));
    return 0;
}
