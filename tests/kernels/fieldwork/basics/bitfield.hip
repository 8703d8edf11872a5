// bitfield.hip: pulling a bit field out of packed 32-bit words, and counting set bits.
//
// On AMD the field extraction is one instruction (v_bfe_u32) through __bitextract_u32;
// elsewhere it is a shift and a mask. Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

constexpr unsigned int field_offset = 8;
constexpr unsigned int field_width  = 4;

__global__ void extract_field(uint32_t* fields, const uint32_t* words, size_t count)
{
    const size_t first  = blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = gridDim.x * blockDim.x;
    for(size_t i = first; i < count; i += stride)
    {
#ifdef __HIP_PLATFORM_AMD__
        fields[i] = __bitextract_u32(words[i], field_offset, field_width);
#else
        fields[i] = (words[i] >> field_offset) & ((1u << field_width) - 1u);
#endif
    }
}

__global__ void count_ones(uint32_t* counts, const uint32_t* words, size_t count)
{
    const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count)
        counts[i] = __popc(words[i]) + (__clz(words[i]) << 8);
}

int main()
{
    constexpr size_t      count = 1 << 16;
    std::vector<uint32_t> words(count), fields(count), counts(count);
    std::mt19937          gen(7);
    for(auto& w : words)
        w = gen();

    uint32_t *d_words{}, *d_fields{}, *d_counts{};
    HIP_CHECK(hipMalloc(&d_words, count * sizeof(uint32_t)));
    HIP_CHECK(hipMalloc(&d_fields, count * sizeof(uint32_t)));
    HIP_CHECK(hipMalloc(&d_counts, count * sizeof(uint32_t)));
    HIP_CHECK(hipMemcpy(d_words, words.data(), count * sizeof(uint32_t), hipMemcpyHostToDevice));

    extract_field<<<dim3(64), dim3(256), 0, hipStreamDefault>>>(d_fields, d_words, count);
    HIP_CHECK(hipGetLastError());
    count_ones<<<dim3(field::ceil_div(count, size_t{256})), dim3(256)>>>(d_counts, d_words, count);
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipMemcpy(fields.data(), d_fields, count * sizeof(uint32_t), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(counts.data(), d_counts, count * sizeof(uint32_t), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_words));
    HIP_CHECK(hipFree(d_fields));
    HIP_CHECK(hipFree(d_counts));

    size_t bad = 0;
    for(size_t i = 0; i < count; ++i)
        bad += fields[i] != ((words[i] >> field_offset) & 0xFu);
    std::cout << "fields " << field::show(fields, 8) << std::endl;
    return field::verdict(bad, "extract_field");
}
