// reduce_shared.hip: the first four rungs of a block-reduction ladder, all in shared memory
// sized at launch (extern __shared__), all generic in the element type and the operation.
//
// 1. reduce_interleaved   -- thread t works when t % (2s) == 0 (divergent wavefronts);
// 2. reduce_strided_index -- thread t works on 2st (no divergence, bank conflicts);
// 3. reduce_sequential    -- strides halve from blockDim / 2 (conflict-free);
// 4. reduce_first_add     -- each thread combines two inputs while loading (half the blocks).
// The host reduces 2^24 values to one with repeated passes, swapping its two buffers.
// Part of hipwb's fieldwork corpus; built with -std=c++20.
#include <compile_time.hpp>
#include <hip_error.hpp>

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <execution>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

template<typename T, typename Op>
__global__ void reduce_interleaved(const T* in, T* out, Op op, T identity, uint32_t n)
{
    extern __shared__ T partial[];
    const uint32_t t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    partial[t] = g < n ? in[g] : identity;
    __syncthreads();
    for(uint32_t s = 1; s < blockDim.x; s <<= 1)
    {
        if(t % (2 * s) == 0)
            partial[t] = op(partial[t], partial[t + s]);
        __syncthreads();
    }
    if(t == 0)
        out[blockIdx.x] = partial[0];
}

template<typename T, typename Op>
__global__ void reduce_strided_index(const T* in, T* out, Op op, T identity, uint32_t n)
{
    extern __shared__ T partial[];
    const uint32_t t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    partial[t] = g < n ? in[g] : identity;
    __syncthreads();
    for(uint32_t s = 1; s < blockDim.x; s <<= 1)
    {
        if(const uint32_t k = 2 * s * t; k < blockDim.x)
            partial[k] = op(partial[k], partial[k + s]);
        __syncthreads();
    }
    if(t == 0)
        out[blockIdx.x] = partial[0];
}

template<typename T, typename Op>
__global__ void reduce_sequential(const T* in, T* out, Op op, T identity, uint32_t n)
{
    extern __shared__ T partial[];
    const uint32_t t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    partial[t] = g < n ? in[g] : identity;
    __syncthreads();
    for(uint32_t s = blockDim.x >> 1; s > 0; s >>= 1)
    {
        if(t < s)
            partial[t] = op(partial[t], partial[t + s]);
        __syncthreads();
    }
    if(t == 0)
        out[blockIdx.x] = partial[0];
}

template<typename T, typename Op>
__global__ void reduce_first_add(const T* in, T* out, Op op, T identity, uint32_t n)
{
    extern __shared__ T partial[];
    const uint32_t t = threadIdx.x, g = blockIdx.x * (2 * blockDim.x) + t;
    auto           load = [&](uint32_t i) { return i < n ? in[i] : identity; };
    partial[t]          = op(load(g), load(g + blockDim.x));
    __syncthreads();
    for(uint32_t s = blockDim.x >> 1; s > 0; s >>= 1)
    {
        if(t < s)
            partial[t] = op(partial[t], partial[t + s]);
        __syncthreads();
    }
    if(t == 0)
        out[blockIdx.x] = partial[0];
}

namespace
{

template<typename Kernel, typename Op>
unsigned int reduce_on_device(Kernel kernel, uint32_t per_block_factor, uint32_t block, Op op,
                              std::vector<unsigned int> values)
{
    const std::size_t per_block = std::size_t{block} * per_block_factor;
    auto              blocks    = [per_block](std::size_t n) { return (n + per_block - 1) / per_block; };

    unsigned int *front{}, *back{};
    HIP_CHECK(hipMalloc(&front, values.size() * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&back, blocks(values.size()) * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(front, values.data(), values.size() * sizeof(unsigned int), hipMemcpyHostToDevice));

    for(uint32_t n = static_cast<uint32_t>(values.size()); n > 1;)
    {
        hipLaunchKernelGGL(kernel, dim3(blocks(n)), dim3(block), block * sizeof(unsigned int),
                           hipStreamDefault, front, back, op, std::numeric_limits<unsigned int>::lowest(), n);
        HIP_CHECK(hipGetLastError());
        n = static_cast<uint32_t>(blocks(n));
        std::swap(front, back);
    }
    unsigned int result{};
    HIP_CHECK(hipMemcpy(&result, front, sizeof(result), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(front));
    HIP_CHECK(hipFree(back));
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    const int device = argc > 1 ? std::atoi(argv[1]) : 0;
    HIP_CHECK(hipSetDevice(device));
    const auto [name, max_block] = [device] {
        hipDeviceProp_t p;
        HIP_CHECK(hipGetDeviceProperties(&p, device));
        return std::make_tuple(std::string(p.name), static_cast<uint32_t>(p.maxThreadsPerBlock));
    }();
    const uint32_t block = std::min<uint32_t>(max_block, 256);
    std::cout << name << ": blocks of " << block << std::endl;

    constexpr std::size_t     count = 16'777'216;
    std::vector<unsigned int> values(count);
    std::mt19937              gen(11);
    std::generate(values.begin(), values.end(), [&] { return gen() >> 4; });
    const unsigned int want = std::reduce(std::execution::seq, values.begin(), values.end(), 0u,
                                          [](unsigned int a, unsigned int b) { return std::max(a, b); });

    auto largest = [] __device__(unsigned int a, unsigned int b) { return max(a, b); };
    using Op     = decltype(largest);
    const unsigned int got[] = {
        reduce_on_device(reduce_interleaved<unsigned int, Op>, 1, block, largest, values),
        reduce_on_device(reduce_strided_index<unsigned int, Op>, 1, block, largest, values),
        reduce_on_device(reduce_sequential<unsigned int, Op>, 1, block, largest, values),
        reduce_on_device(reduce_first_add<unsigned int, Op>, 2, block, largest, values),
    };
    int failures = 0;
    for(unsigned int g : got)
        if(g != want)
        {
            std::cerr << "got " << g << ", want " << want << std::endl;
            ++failures;
        }
    std::cout << (failures ? "FAILED" : "all four rungs agree") << std::endl;
    return failures;
}
