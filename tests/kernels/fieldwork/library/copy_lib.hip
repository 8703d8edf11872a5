// copy_lib.hip: a static host library whose one entry point hides a kernel launch.
// Part of hipwb's fieldwork corpus.
#include "copy_lib.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <cstdint>
#include <vector>

__global__ void copy_words(uint32_t* dst, const uint32_t* src, const unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        dst[i] = src[i];
}

namespace copylib
{
int round_trip(const std::vector<uint32_t>& words, std::vector<uint32_t>& back)
{
    const unsigned int n     = static_cast<unsigned int>(words.size());
    const size_t       bytes = n * sizeof(uint32_t);
    uint32_t *         d_src{}, *d_dst{};
    HIP_CHECK(hipMalloc(&d_src, bytes));
    HIP_CHECK(hipMalloc(&d_dst, bytes));
    HIP_CHECK(hipMemcpy(d_src, words.data(), bytes, hipMemcpyHostToDevice));
    copy_words<<<dim3(field::ceil_div(n, 256u)), dim3(256), 0, hipStreamDefault>>>(d_dst, d_src, n);
    HIP_CHECK(hipGetLastError());
    back.resize(n);
    HIP_CHECK(hipMemcpy(back.data(), d_dst, bytes, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_src));
    HIP_CHECK(hipFree(d_dst));
    return back == words ? 0 : 1;
}
} // namespace copylib
