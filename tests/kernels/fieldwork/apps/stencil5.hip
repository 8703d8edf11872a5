// stencil5.hip: a 2D convolution with a MaskWidth x MaskWidth mask held in __constant__
// memory (set with hipMemcpyToSymbol); the input is padded by MaskWidth / 2 on every side.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <array>
#include <iostream>
#include <iterator>
#include <vector>

constexpr unsigned int mask_width = 5;
__constant__ float     mask[mask_width * mask_width];

template<unsigned int MaskWidth = mask_width>
__global__ void convolve(const float* padded, float* out, const uint2 size)
{
    const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if(x >= size.x || y >= size.y)
        return;
    const unsigned int stride = size.x + 2 * (MaskWidth / 2);
    float              acc    = 0.f;
    for(unsigned int my = 0; my < MaskWidth; ++my)
        for(unsigned int mx = 0; mx < MaskWidth; ++mx)
            acc += padded[(y + my) * stride + x + mx] * mask[my * MaskWidth + mx];
    out[y * size.x + x] = acc;
}

template<typename T>
void print_rows(const std::vector<T>& grid, unsigned int width, unsigned int rows)
{
    for(unsigned int r = 0; r < rows; ++r)
    {
        std::copy(grid.begin() + r * width, grid.begin() + (r + 1) * width,
                  std::ostream_iterator<T>(std::cout, " "));
        std::cout << '\n';
    }
}

int main()
{
    constexpr unsigned int width = 96, height = 64, pad = mask_width / 2;
    constexpr unsigned int stride = width + 2 * pad;
    std::vector<float>     padded(stride * (height + 2 * pad), 0.f), out(width * height);
    for(unsigned int y = 0; y < height; ++y)
        for(unsigned int x = 0; x < width; ++x)
            padded[(y + pad) * stride + x + pad] = float((x * 3 + y * 5) % 11);

    std::array<float, mask_width * mask_width> h_mask{};
    for(unsigned int i = 0; i < h_mask.size(); ++i)
        h_mask[i] = 1.f / float(1 + i % 7);
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(mask), h_mask.data(), sizeof(h_mask)));

    float *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, padded.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, out.size() * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, padded.data(), padded.size() * sizeof(float), hipMemcpyHostToDevice));
    const dim3 block(16, 16);
    convolve<><<<dim3(field::ceil_div(width, 16u), field::ceil_div(height, 16u)), block>>>(
        d_in, d_out, make_uint2(width, height));
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));

    std::vector<float> want(width * height);
    for(unsigned int y = 0; y < height; ++y)
        for(unsigned int x = 0; x < width; ++x)
        {
            float acc = 0.f;
            for(unsigned int my = 0; my < mask_width; ++my)
                for(unsigned int mx = 0; mx < mask_width; ++mx)
                    acc += padded[(y + my) * stride + x + mx] * h_mask[my * mask_width + mx];
            want[y * width + x] = acc;
        }
    print_rows(out, width, 2);
    return field::verdict(field::mismatches(out, want, 1e-4), "convolve");
}
