// bitonic.hip: sorting 2^k unsigned keys with a bitonic network, one launch per
// (phase, pass); each thread orders one pair. Part of hipwb's fieldwork corpus.
#include "argparse.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <vector>

/// Pass `pass` (0 = the widest pairs) of phase `phase` (0-based): the pairs are
/// 2^(phase - pass) apart; runs of 2^(phase + 1) keys alternate direction.
__global__ void bitonic_pass(unsigned int* keys, const unsigned int phase, const unsigned int pass,
                             const bool ascending)
{
    const unsigned int pair   = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int gap    = 1u << (phase - pass);
    const unsigned int lo     = (pair / gap) * (2 * gap) + (pair % gap);
    const unsigned int hi     = lo + gap;
    const bool         upward = (((pair >> phase) & 1u) == 0) == ascending;

    const unsigned int a = keys[lo];
    const unsigned int b = keys[hi];
    if((a > b) == upward)
    {
        keys[lo] = b;
        keys[hi] = a;
    }
}

int main(int argc, char** argv)
{
    field::Args args("bitonic");
    args.option<unsigned int>("log2n", 20, "sort 2^log2n keys");
    args.option<bool>("ascending", true, "sort order");
    args.parse(argc, argv);
    const unsigned int log2n     = args.get<unsigned int>("log2n");
    const bool         ascending = args.get<bool>("ascending");
    const unsigned int n         = 1u << log2n;

    std::vector<unsigned int> keys(n);
    std::mt19937              gen(5);
    std::generate(keys.begin(), keys.end(), gen);
    std::vector<unsigned int> want = keys;
    if(ascending)
        std::sort(want.begin(), want.end());
    else
        std::sort(want.begin(), want.end(), std::greater<>());

    unsigned int* d_keys{};
    HIP_CHECK(hipMalloc(&d_keys, n * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_keys, keys.data(), n * sizeof(unsigned int), hipMemcpyHostToDevice));
    const unsigned int block = std::min(256u, n / 2);
    for(unsigned int phase = 0; phase < log2n; ++phase)
        for(unsigned int pass = 0; pass <= phase; ++pass)
        {
            bitonic_pass<<<dim3(n / 2 / block), dim3(block), 0, hipStreamDefault>>>(d_keys, phase, pass, ascending);
            HIP_CHECK(hipGetLastError());
        }
    HIP_CHECK(hipMemcpy(keys.data(), d_keys, n * sizeof(unsigned int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_keys));
    return field::verdict(field::mismatches(keys, want), "bitonic sort");
}
