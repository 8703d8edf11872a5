// scan_blocks.hip: an inclusive prefix sum of a long float array in two kernels.
//
// scan_pairs: each block of B threads scans 2B consecutive elements in shared memory sized at
// launch (a work-efficient up-sweep / down-sweep), writes them back and records its total;
// add_carries: the host scans the block totals and every block adds the totals before it.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iostream>
#include <numeric>
#include <vector>

__global__ void scan_pairs(float* data, float* block_totals, const int n)
{
    extern __shared__ float span[];
    const int t     = threadIdx.x;
    const int width = 2 * blockDim.x;
    const int base  = blockIdx.x * width;

    span[2 * t]     = base + 2 * t < n ? data[base + 2 * t] : 0.f;
    span[2 * t + 1] = base + 2 * t + 1 < n ? data[base + 2 * t + 1] : 0.f;

    // up-sweep: partial sums at the right end of ever wider pairs
    int step = 1;
    for(int active = width / 2; active > 0; active /= 2, step *= 2)
    {
        __syncthreads();
        if(t < active)
        {
            const int right = step * (2 * t + 2) - 1;
            span[right] += span[right - step];
        }
    }
    // down-sweep for an inclusive scan: push each partial sum to the middle of its right half
    for(step /= 4; step > 0; step /= 2)
    {
        __syncthreads();
        const int target = step * (2 * t + 3) - 1;
        if(target < width)
            span[target] += span[target - step];
    }
    __syncthreads();

    if(base + 2 * t < n)
        data[base + 2 * t] = span[2 * t];
    if(base + 2 * t + 1 < n)
        data[base + 2 * t + 1] = span[2 * t + 1];
    if(t == 0)
        block_totals[blockIdx.x] = span[width - 1];
}

__global__ void add_carries(float* data, const float* carries, const int n, const int per_block)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        data[i] += carries[i / per_block];
}

int main()
{
    constexpr int      n = 1 << 18, threads = 256, per_block = 2 * threads;
    const int          blocks = field::ceil_div(n, per_block);
    std::vector<float> data(n), carries(blocks);
    for(int i = 0; i < n; ++i)
        data[i] = float(i % 5);
    std::vector<float> want(n);
    std::inclusive_scan(data.begin(), data.end(), want.begin());

    float *d_data{}, *d_totals{};
    HIP_CHECK(hipMalloc(&d_data, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_totals, blocks * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_data, data.data(), n * sizeof(float), hipMemcpyHostToDevice));
    scan_pairs<<<blocks, threads, per_block * sizeof(float), hipStreamDefault>>>(d_data, d_totals, n);
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipMemcpy(carries.data(), d_totals, blocks * sizeof(float), hipMemcpyDeviceToHost));
    std::exclusive_scan(carries.begin(), carries.end(), carries.begin(), 0.f);
    HIP_CHECK(hipMemcpy(d_totals, carries.data(), blocks * sizeof(float), hipMemcpyHostToDevice));
    add_carries<<<field::ceil_div(n, 256), 256>>>(d_data, d_totals, n, per_block);
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipMemcpy(data.data(), d_data, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_totals));
    return field::verdict(field::mismatches(data, want, 0.5), "prefix sum");
}
