// reduce_unrolled.hip: rungs five and six of the block-reduction ladder. The block size and the
// wavefront size are template arguments, so every loop over strides is unrolled at compile
// time (ct::for_halving) and the host picks the instantiation that matches the device
// (ct::dispatch over std::array non-type template arguments).
//
// 5. reduce_unrolled_volatile -- barriers down to one wavefront, then the last wavefront
//    finishes in lock-step through a volatile view of shared memory;
// 6. reduce_unrolled_shuffle  -- the last wavefront finishes in registers with __shfl_down.
// Part of hipwb's fieldwork corpus; built with -std=c++20.
#include <compile_time.hpp>
#include <hip_error.hpp>

#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <vector>

template<uint32_t Block, uint32_t Wave, typename T, typename Op>
__global__ __launch_bounds__(Block) void reduce_unrolled_volatile(const T* in, T* out, Op op, T identity, uint32_t n)
{
    static_assert(Block >= 2 * Wave, "the shared tree must reach one wavefront");
    __shared__ T   partial[Block];
    const uint32_t t = threadIdx.x, g = blockIdx.x * (2 * Block) + t;
    partial[t]       = op(g < n ? in[g] : identity, g + Block < n ? in[g + Block] : identity);
    __syncthreads();

    ct::for_halving<Block / 2, Wave>([&]<int S>() {
        if(t < S)
            partial[t] = op(partial[t], partial[t + S]);
        __syncthreads();
    });

    if(t < Wave)
    {
        volatile T* lockstep = partial;
        ct::for_halving<Wave, 0>([&]<int S>() {
            if(t < S)
                lockstep[t] = op(lockstep[t], lockstep[t + S]);
        });
    }
    if(t == 0)
        out[blockIdx.x] = partial[0];
}

template<uint32_t Block, uint32_t Wave, typename T, typename Op>
__global__ __launch_bounds__(Block) void reduce_unrolled_shuffle(const T* in, T* out, Op op, T identity, uint32_t n)
{
    __shared__ T   partial[Block];
    const uint32_t t = threadIdx.x, g = blockIdx.x * (2 * Block) + t;
    partial[t]       = op(g < n ? in[g] : identity, g + Block < n ? in[g + Block] : identity);
    __syncthreads();

    ct::for_halving<Block / 2, Wave>([&]<int S>() {
        if(t < S)
            partial[t] = op(partial[t], partial[t + S]);
        __syncthreads();
    });

    if(t < Wave)
    {
        T mine = op(partial[t], partial[t + Wave]);
        ct::for_halving<Wave / 2, 0>([&]<int S>() { mine = op(mine, __shfl_down(mine, S)); });
        if(t == 0)
            out[blockIdx.x] = mine;
    }
}

namespace
{
constexpr std::array block_choices{128, 256, 512};
constexpr std::array wave_choices{32, 64};
} // namespace

int main()
{
    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    const int block = std::min(props.maxThreadsPerBlock, 256);

    constexpr uint32_t count = 1u << 22;
    std::vector<int>   values(count);
    std::iota(values.begin(), values.end(), -static_cast<int>(count / 2));
    const long long want = std::accumulate(values.begin(), values.end(), 0LL);

    int *front{}, *back{};
    HIP_CHECK(hipMalloc(&front, count * sizeof(int)));
    HIP_CHECK(hipMalloc(&back, count * sizeof(int)));
    auto plus = [] __device__(int a, int b) { return a + b; };

    int failures = 0;
    for(int variant = 0; variant < 2; ++variant)
    {
        HIP_CHECK(hipMemcpy(front, values.data(), count * sizeof(int), hipMemcpyHostToDevice));
        int* src = front;
        int* dst = back;
        for(uint32_t n = count; n > 1;)
        {
            const uint32_t per_block = 2u * block;
            const uint32_t blocks    = (n + per_block - 1) / per_block;
            const bool     found     = ct::dispatch<block_choices>(block, [&]<int B>() {
                ct::dispatch<wave_choices>(props.warpSize, [&]<int W>() {
                    if(variant == 0)
                        reduce_unrolled_volatile<B, W><<<blocks, B>>>(src, dst, plus, 0, n);
                    else
                        reduce_unrolled_shuffle<B, W><<<blocks, B>>>(src, dst, plus, 0, n);
                });
            });
            if(!found)
            {
                std::cerr << "no instantiation for blocks of " << block << std::endl;
                return 1;
            }
            HIP_CHECK(hipGetLastError());
            n = blocks;
            std::swap(src, dst);
        }
        int got = 0;
        HIP_CHECK(hipMemcpy(&got, src, sizeof(int), hipMemcpyDeviceToHost));
        failures += got != static_cast<int>(want);
    }
    HIP_CHECK(hipFree(front));
    HIP_CHECK(hipFree(back));
    std::cout << (failures ? "FAILED" : "both rungs agree") << std::endl;
    return failures;
}
