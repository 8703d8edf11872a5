// reduce_too_small.hip: the wavefront-tree reduction dispatched over block sizes that include
// one smaller than a wavefront. That instantiation declares `__shared__ T totals[Block / Wave]`
// with zero elements, which HIP device code does not allow: the program does not build.
// (Kept as a negative case: the compiler must say why.) Part of hipwb's fieldwork corpus;
// built with -std=c++20.
#include <compile_time.hpp>
#include <hip_error.hpp>

#include <hip/hip_runtime.h>

#include <array>
#include <cstdint>
#include <iostream>
#include <vector>

template<uint32_t Block, uint32_t Wave>
__global__ __launch_bounds__(Block) void max_per_block(const uint32_t* in, uint32_t* out, uint32_t n)
{
    __shared__ uint32_t totals[Block / Wave];
    const uint32_t      t = threadIdx.x, g = blockIdx.x * Block + t;
    uint32_t            v = g < n ? in[g] : 0u;
    ct::for_halving<Wave / 2, 0>([&]<int S>() { v = max(v, __shfl_down(v, S)); });
    if(t % Wave == 0)
        totals[t / Wave] = v;
    __syncthreads();
    if(t == 0)
    {
        uint32_t best = 0;
        for(uint32_t w = 0; w < Block / Wave; ++w)
            best = max(best, totals[w]);
        out[blockIdx.x] = best;
    }
}

int main()
{
    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    std::vector<uint32_t> values(1 << 20, 3u);
    uint32_t *            d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, values.size() * sizeof(uint32_t)));
    HIP_CHECK(hipMalloc(&d_out, values.size() * sizeof(uint32_t)));
    HIP_CHECK(hipMemcpy(d_in, values.data(), values.size() * sizeof(uint32_t), hipMemcpyHostToDevice));
    const int block = props.maxThreadsPerBlock >= 256 ? 256 : 32;
    ct::dispatch<std::array{32, 256}>(block, [&]<int B>() {
        ct::dispatch<std::array{32, 64}>(props.warpSize, [&]<int W>() {
            max_per_block<B, W><<<values.size() / B, B>>>(d_in, d_out, uint32_t(values.size()));
        });
    });
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
