// transpose_lds.hip: transposing square matrices through shared memory, on two streams.
//
// - transpose_fixed<Width>: a statically sized __shared__ copy of the whole matrix (the size is
//   a default template argument); each block moves its part;
// - transpose_sized: the same with `extern __shared__` memory sized at launch.
// The host overlaps the two on separate streams with pinned (hipHostMalloc) buffers.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <array>
#include <iostream>
#include <vector>

template<unsigned int Width = 64>
__global__ void transpose_fixed(float* out, const float* in)
{
    __shared__ float staged[Width * Width];
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    staged[row * Width + col] = in[row * Width + col];
    __syncthreads();
    out[col * Width + row] = staged[row * Width + col];
}

__global__ void transpose_sized(float* out, const float* in, const unsigned int width)
{
    extern __shared__ float staged[];
    const unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    // the block's own tile, transposed on the way into shared memory
    const unsigned int lc = threadIdx.x, lr = threadIdx.y;
    staged[lc * blockDim.y + lr] = in[row * width + col];
    __syncthreads();
    out[col * width + row] = staged[lc * blockDim.y + lr];
}

int main()
{
    constexpr unsigned int width = 64, tx = 4, ty = 4;
    constexpr std::size_t  bytes = width * width * sizeof(float);

    float*               h_in{};
    std::array<float*, 2> h_out{};
    HIP_CHECK(hipHostMalloc(&h_in, bytes, hipHostMallocDefault));
    for(auto& p : h_out)
        HIP_CHECK(hipHostMalloc(&p, bytes, hipHostMallocDefault));
    for(unsigned int i = 0; i < width * width; ++i)
        h_in[i] = static_cast<float>(i);

    std::array<hipStream_t, 2> streams{};
    std::array<float*, 2>      d_in{}, d_out{};
    for(int s = 0; s < 2; ++s)
    {
        HIP_CHECK(hipStreamCreate(&streams[s]));
        HIP_CHECK(hipMalloc(&d_in[s], bytes));
        HIP_CHECK(hipMalloc(&d_out[s], bytes));
        HIP_CHECK(hipMemcpyAsync(d_in[s], h_in, bytes, hipMemcpyHostToDevice, streams[s]));
    }

    const dim3 grid(width / tx, width / ty), block(tx, ty);
    transpose_fixed<width><<<grid, block, 0, streams[0]>>>(d_out[0], d_in[0]);
    transpose_sized<<<grid, block, tx * ty * sizeof(float), streams[1]>>>(d_out[1], d_in[1], width);
    HIP_CHECK(hipGetLastError());

    for(int s = 0; s < 2; ++s)
        HIP_CHECK(hipMemcpyAsync(h_out[s], d_out[s], bytes, hipMemcpyDeviceToHost, streams[s]));
    HIP_CHECK(hipDeviceSynchronize());

    std::size_t bad = 0;
    for(int s = 0; s < 2; ++s)
        for(unsigned int r = 0; r < width; ++r)
            for(unsigned int c = 0; c < width; ++c)
                bad += h_out[s][c * width + r] != h_in[r * width + c];

    for(int s = 0; s < 2; ++s)
    {
        HIP_CHECK(hipStreamDestroy(streams[s]));
        HIP_CHECK(hipFree(d_in[s]));
        HIP_CHECK(hipFree(d_out[s]));
        HIP_CHECK(hipHostFree(h_out[s]));
    }
    HIP_CHECK(hipHostFree(h_in));
    return field::verdict(bad, "transposes");
}
