// window_mean.hip: the integer mean of every window of `Window` consecutive samples.
//
// Each block stages the `Block + Window - 1` inputs its outputs need in shared memory (the size
// is a compile-time constant of the template), then every thread sums its window from there.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <iostream>
#include <numeric>
#include <vector>

template<unsigned int Block, unsigned int Window>
__global__ void window_mean(const unsigned int* samples, unsigned int* means, const unsigned int n)
{
    constexpr unsigned int staged = Block + Window - 1;
    __shared__ unsigned int tile[staged];

    const unsigned int base = blockIdx.x * Block;
    for(unsigned int j = threadIdx.x; j < staged; j += Block)
    {
        if(base + j < n)
            tile[j] = samples[base + j];
    }
    __syncthreads();

    const unsigned int out = base + threadIdx.x;
    if(out + Window <= n)
    {
        unsigned int total = 0;
        for(unsigned int w = 0; w < Window; ++w)
            total += tile[threadIdx.x + w];
        means[out] = total / Window;
    }
}

int main()
{
    constexpr unsigned int block = 256, window = 61, n = 100'000;
    static_assert(window <= block, "a block's outputs need at most two blocks of input");

    std::vector<unsigned int> samples(n);
    std::iota(samples.begin(), samples.end(), 0u);
    std::transform(samples.begin(), samples.end(), samples.begin(),
                   [](unsigned int v) { return (v * 2654435761u) % 1000u; });
    const unsigned int        outputs = n - window + 1;
    std::vector<unsigned int> means(outputs);

    unsigned int *d_samples{}, *d_means{};
    HIP_CHECK(hipMalloc(&d_samples, n * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_means, outputs * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_samples, samples.data(), n * sizeof(unsigned int), hipMemcpyHostToDevice));

    window_mean<block, window><<<dim3(field::ceil_div(outputs, block)), dim3(block), 0, hipStreamDefault>>>(
        d_samples, d_means, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(means.data(), d_means, outputs * sizeof(unsigned int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_samples));
    HIP_CHECK(hipFree(d_means));

    std::vector<unsigned int> want(outputs);
    for(unsigned int i = 0; i < outputs; ++i)
        want[i] = std::accumulate(samples.begin() + i, samples.begin() + i + window, 0u) / window;
    return field::verdict(field::mismatches(means, want), "window_mean");
}
