// texture_counts.hip: a histogram of an 8-bit image read through a texture object.
//
// The image lives in a hipArray, sampled with point filtering and wrap addressing at
// normalised coordinates. Targets without image instructions compile the kernel without the
// fetch (__HIP_NO_IMAGE_SUPPORT), and the host checks the device attribute before launching.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <array>
#include <iostream>
#include <vector>

__global__ void count_levels(unsigned int*      bins,
                             const unsigned int bin_count,
                             const unsigned int width,
                             const unsigned int height,
                             hipTextureObject_t image)
{
    const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if(x >= width || y >= height)
        return;
    const float u = (x + 0.5f) / width;
    const float v = (y + 0.5f) / height;
#if !defined(__HIP_NO_IMAGE_SUPPORT) || !__HIP_NO_IMAGE_SUPPORT
    const unsigned char level = tex2D<unsigned char>(image, u, v);
#else
    (void)u;
    (void)v;
    (void)image;
    const unsigned char level = 0;
#endif
    const unsigned int per_bin = field::ceil_div(256u, bin_count);
    atomicAdd(&bins[level / per_bin], 1u);
}

int main()
{
    int device = 0, images = 0;
    HIP_CHECK(hipGetDevice(&device));
#ifdef __HIP_PLATFORM_AMD__
    HIP_CHECK(hipDeviceGetAttribute(&images, hipDeviceAttributeImageSupport, device));
#else
    images = 1;
#endif
    if(!images)
    {
        std::cout << "no image support on this device; skipping" << std::endl;
        return 0;
    }

    constexpr unsigned int     width = 320, height = 200, bin_count = 16;
    std::vector<unsigned char> pixels(width * height);
    for(unsigned int i = 0; i < pixels.size(); ++i)
        pixels[i] = static_cast<unsigned char>((i * 7u) ^ (i >> 5));

    hipChannelFormatDesc channel = hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindUnsigned);
    hipArray_t           array{};
    HIP_CHECK(hipMallocArray(&array, &channel, width, height));
    HIP_CHECK(hipMemcpy2DToArray(array, 0, 0, pixels.data(), width, width, height, hipMemcpyHostToDevice));

    hipResourceDesc resource{};
    resource.resType         = hipResourceTypeArray;
    resource.res.array.array = array;
    hipTextureDesc sampling{};
    sampling.addressMode[0]   = hipAddressModeWrap;
    sampling.addressMode[1]   = hipAddressModeWrap;
    sampling.filterMode       = hipFilterModePoint;
    sampling.readMode         = hipReadModeElementType;
    sampling.normalizedCoords = 1;
    hipTextureObject_t texture{};
    HIP_CHECK(hipCreateTextureObject(&texture, &resource, &sampling, nullptr));

    unsigned int* d_bins{};
    HIP_CHECK(hipMalloc(&d_bins, bin_count * sizeof(unsigned int)));
    HIP_CHECK(hipMemset(d_bins, 0, bin_count * sizeof(unsigned int)));
    const dim3 block(16, 16);
    count_levels<<<dim3(field::ceil_div(width, block.x), field::ceil_div(height, block.y)), block>>>(
        d_bins, bin_count, width, height, texture);
    HIP_CHECK(hipGetLastError());

    std::array<unsigned int, bin_count> bins{};
    HIP_CHECK(hipMemcpy(bins.data(), d_bins, sizeof(bins), hipMemcpyDeviceToHost));
    HIP_CHECK(hipDestroyTextureObject(texture));
    HIP_CHECK(hipFreeArray(array));
    HIP_CHECK(hipFree(d_bins));

    std::array<unsigned int, bin_count> want{};
    for(unsigned char p : pixels)
        ++want[p / (256 / bin_count)];
    std::cout << "levels " << field::show(bins) << std::endl;
    return field::verdict(bins != want, "histogram");
}
