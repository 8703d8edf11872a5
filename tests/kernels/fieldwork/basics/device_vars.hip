// device_vars.hip: module-scope __device__ variables set from the host.
//
// `offset` is written through the address hipGetSymbolAddress returns, `weights` through
// hipMemcpyToSymbol; the kernel reads both. Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <cassert>
#include <iostream>
#include <numeric>
#include <vector>

constexpr unsigned int weight_count = 8;

__device__ float offset;
__device__ float weights[weight_count];

__global__ void weigh(float* out, const float* in, const size_t n)
{
    const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        out[i] = in[i] * weights[i % weight_count] + offset;
}

int main()
{
    constexpr size_t   n = 4096;
    std::vector<float> in(n), out(n);
    std::iota(in.begin(), in.end(), 0.f);

    float *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(float), hipMemcpyHostToDevice));

    float* d_offset{};
    size_t offset_bytes{};
    HIP_CHECK(hipGetSymbolAddress(reinterpret_cast<void**>(&d_offset), HIP_SYMBOL(offset)));
    HIP_CHECK(hipGetSymbolSize(&offset_bytes, HIP_SYMBOL(offset)));
    assert(offset_bytes == sizeof(float));
    const float h_offset = 0.25f;
    HIP_CHECK(hipMemcpy(d_offset, &h_offset, offset_bytes, hipMemcpyHostToDevice));

    std::vector<float> h_weights(weight_count);
    std::iota(h_weights.begin(), h_weights.end(), 1.f);
    HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(weights), h_weights.data(),
                                weight_count * sizeof(float), 0, hipMemcpyHostToDevice));

    weigh<<<dim3(n / 256), dim3(256), 0, hipStreamDefault>>>(d_out, d_in, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));

    std::vector<float> want(n);
    for(size_t i = 0; i < n; ++i)
        want[i] = in[i] * h_weights[i % weight_count] + h_offset;
    return field::verdict(field::mismatches(out, want), "weigh");
}
