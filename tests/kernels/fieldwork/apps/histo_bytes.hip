// histo_bytes.hip: 256-bin histograms of byte data, one histogram per block.
//
// Every thread keeps its own 8-bit counter per bin in shared memory sized at launch
// (256 x blockDim bytes), so no atomics are needed; a thread counts at most 255 bytes. The
// counters of four neighbouring threads would share one 32-bit word, so the slot of thread t
// is rotated: slot = (t % 4) * (blockDim / 4) + t / 4 (blockDim a power of two; its log2
// comes from __ffs). Each thread then sums whole bins over all slots.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iostream>
#include <random>
#include <vector>

constexpr int bins = 256;

__global__ void block_histogram(const unsigned char* data, unsigned int* block_bins, const int per_thread)
{
    extern __shared__ unsigned char counters[]; // [bin][slot]
    const int t           = threadIdx.x;
    const int threads     = blockDim.x;
    const int log_quarter = (__ffs(threads) - 1) - 2;
    const int slot        = ((t & 3) << log_quarter) | (t >> 2);

    for(int b = 0; b < bins; ++b)
        counters[b * threads + slot] = 0;
    __syncthreads();

    const unsigned char* mine = data + (blockIdx.x * threads + t) * per_thread;
    for(int i = 0; i < per_thread; ++i)
        ++counters[mine[i] * threads + slot];
    __syncthreads();

    for(int b = t; b < bins; b += threads)
    {
        unsigned int total = 0;
        for(int s = 0; s < threads; ++s)
            total += counters[b * threads + s];
        block_bins[blockIdx.x * bins + b] = total;
    }
}

int main()
{
    constexpr int              threads = 128, per_thread = 64, blocks = 512;
    constexpr size_t           n = size_t{threads} * per_thread * blocks;
    std::vector<unsigned char> data(n);
    std::mt19937               gen(9);
    std::binomial_distribution<int> dist(255, 0.4);
    for(auto& d : data)
        d = static_cast<unsigned char>(dist(gen));

    unsigned char* d_data{};
    unsigned int*  d_bins{};
    HIP_CHECK(hipMalloc(&d_data, n));
    HIP_CHECK(hipMalloc(&d_bins, blocks * bins * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_data, data.data(), n, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_bins, 0, blocks * bins * sizeof(unsigned int)));
    block_histogram<<<dim3(blocks), dim3(threads), bins * threads, hipStreamDefault>>>(d_data, d_bins, per_thread);
    HIP_CHECK(hipGetLastError());
    std::vector<unsigned int> per_block(blocks * bins);
    HIP_CHECK(hipMemcpy(per_block.data(), d_bins, per_block.size() * sizeof(unsigned int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_data));
    HIP_CHECK(hipFree(d_bins));

    std::vector<unsigned int> total(bins, 0), want(bins, 0);
    for(int b = 0; b < blocks; ++b)
        for(int k = 0; k < bins; ++k)
            total[k] += per_block[b * bins + k];
    for(unsigned char d : data)
        ++want[d];
    return field::verdict(field::mismatches(total, want), "histogram");
}
