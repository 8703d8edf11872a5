// transpose_lanes.hip: three ways to write a small transpose, timed with events.
//
// - transpose_shuffle: a whole width x width matrix lives in one wavefront; every lane fetches
//   its transposed element from the lane holding it with __shfl (no shared memory);
// - transpose_asm: the element is moved with an inline-assembly register move on AMD targets;
// - transpose_by_target: the index order is chosen per GPU architecture at compile time.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iostream>
#include <vector>

__global__ void transpose_shuffle(float* out, const float* in, const unsigned int width)
{
    const unsigned int col = threadIdx.x, row = threadIdx.y;
    if(col < width && row < width)
    {
        const float mine = in[row * width + col];
        // the lane that loaded element (col, row) is lane col * width + row
        out[row * width + col] = __shfl(mine, col * width + row);
    }
}

__global__ void transpose_asm(float* out, const float* in, const unsigned int width)
{
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    float              moved;
#if defined(__HIP_PLATFORM_AMD__)
    asm volatile("v_mov_b32 %0, %1" : "=v"(moved) : "v"(in[row * width + col]));
#else
    moved = in[row * width + col];
#endif
    out[col * width + row] = moved;
}

__global__ void transpose_by_target(float* out, const float* in, const unsigned int width)
{
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
#if defined(__gfx1030__) || defined(__gfx1100__) || defined(__gfx1101__) || defined(__gfx1102__) \
    || defined(__gfx1200__) || defined(__gfx1201__)
    // RDNA: gather (read transposed, write in order)
    out[row * width + col] = in[col * width + row];
#else
    // everything else: scatter (read in order, write transposed)
    out[col * width + row] = in[row * width + col];
#endif
}

namespace
{
template<typename Launch>
float timed(Launch&& launch)
{
    hipEvent_t t0, t1;
    HIP_CHECK(hipEventCreate(&t0));
    HIP_CHECK(hipEventCreate(&t1));
    HIP_CHECK(hipEventRecord(t0, hipStreamDefault));
    launch();
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipEventRecord(t1, hipStreamDefault));
    HIP_CHECK(hipEventSynchronize(t1));
    float ms{};
    HIP_CHECK(hipEventElapsedTime(&ms, t0, t1));
    HIP_CHECK(hipEventDestroy(t0));
    HIP_CHECK(hipEventDestroy(t1));
    return ms;
}
} // namespace

int main()
{
    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    // the shuffle version needs the whole matrix in one wavefront
    const unsigned int small = props.warpSize == 32 ? 4 : 8;
    const unsigned int big   = 1024;

    std::vector<float> m(big * big), t(big * big);
    for(std::size_t i = 0; i < m.size(); ++i)
        m[i] = 0.5f * static_cast<float>(i);

    float *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, m.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, m.size() * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, m.data(), m.size() * sizeof(float), hipMemcpyHostToDevice));

    const float ms_shfl = timed([&] {
        transpose_shuffle<<<dim3(1), dim3(small, small), 0, hipStreamDefault>>>(d_out, d_in, small);
    });
    const dim3  grid(big / 16, big / 16), block(16, 16);
    const float ms_asm = timed([&] { transpose_asm<<<grid, block>>>(d_out, d_in, big); });
    const float ms_arch = timed([&] { transpose_by_target<<<grid, block>>>(d_out, d_in, big); });
    std::cout << "shuffle " << ms_shfl << " ms, asm " << ms_asm << " ms, per-target " << ms_arch
              << " ms" << std::endl;

    HIP_CHECK(hipMemcpy(t.data(), d_out, t.size() * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    std::size_t bad = 0;
    for(unsigned int r = 0; r < big; ++r)
        for(unsigned int c = 0; c < big; ++c)
            bad += t[c * big + r] != m[r * big + c];
    return field::verdict(bad, "transpose");
}
