// strided_add.hip: how the stride between the elements a kernel touches changes effective
// bandwidth: z[i * s] = x[i * s] + y[i * s] for s = 1 .. 16, with a grid-stride loop.
// Part of hipwb's fieldwork corpus.
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hip/hip_runtime.h"

#include "bench_utils.hpp"

template<typename NumericT>
__global__ void add_strided(const NumericT* x, const NumericT* y, NumericT* z, unsigned int stride, unsigned int count)
{
    for(unsigned int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < count; i += hipGridDim_x * hipBlockDim_x)
        z[i * stride] = x[i * stride] + y[i * stride];
}

int main(int argc, char** argv)
{
    typedef float NumericT;
    unsigned int  count = 1u << 22;
    if(argc > 1)
    {
        std::istringstream in(argv[1]);
        if(!(in >> count))
            throw std::runtime_error(std::string("not a count: ") + argv[1]);
    }
    const unsigned int max_stride = 16;

    NumericT *x, *y, *z;
    hipMalloc(&x, sizeof(NumericT) * count * max_stride);
    hipMalloc(&y, sizeof(NumericT) * count * max_stride);
    hipMalloc(&z, sizeof(NumericT) * count * max_stride);
    std::vector<NumericT> ones(count * max_stride, NumericT(1));
    hipMemcpy(x, ones.data(), sizeof(NumericT) * ones.size(), hipMemcpyHostToDevice);
    hipMemcpy(y, ones.data(), sizeof(NumericT) * ones.size(), hipMemcpyHostToDevice);

    // warm-up
    hipLaunchKernelGGL(add_strided<NumericT>, dim3(256), dim3(256), 0, 0, x, y, z, 1u, count);
    hipDeviceSynchronize();

    for(unsigned int stride = 1; stride <= max_stride; ++stride)
    {
        std::vector<double> times;
        for(int rep = 0; rep < 10; ++rep)
        {
            WallTimer timer;
            hipLaunchKernelGGL(add_strided<NumericT>, dim3(256), dim3(256), 0, 0, x, y, z, stride, count);
            hipDeviceSynchronize();
            times.push_back(timer.elapsed());
        }
        std::cout << describe(stride, median(times), 3.0 * sizeof(NumericT) * count) << std::endl;
    }
    hipFree(x);
    hipFree(y);
    hipFree(z);
    return EXIT_SUCCESS;
}
