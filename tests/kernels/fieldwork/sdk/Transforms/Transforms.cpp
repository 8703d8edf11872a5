/* Transforms.cpp: three classic signal transforms in one sample.
 *
 *  - walshButterfly: one radix-2 pass of the fast Walsh-Hadamard transform, in place; the host
 *    launches it for spans 1, 2, 4, ..., length / 2;
 *  - haarDecompose:  every block takes 2 * blockDim samples through all levels of a Haar
 *    wavelet decomposition in shared memory; the detail coefficients of level l land in
 *    [C / 2^l, C / 2^(l-1)) of the block's chunk of C samples, the final average at 0;
 *  - dct8x8:         the 2-D DCT-II (or its inverse) of 8x8 tiles as two matrix products
 *    with the orthonormal basis, the intermediate tile in shared memory.
 * The input buffers are host memory mapped into the device's address space.
 * Written for hipwb's fieldwork corpus in the style of the older SDK samples.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "../include/SampleKit.hpp"

#define DCT_SIDE 8
#define HAAR_THREADS 128

__global__ void walshButterfly(float* data, const int span)
{
    const int tid    = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    const int group  = tid / span;
    const int offset = tid % span;
    const int top    = group * 2 * span + offset;
    const int bottom = top + span;

    const float a = data[top];
    const float b = data[bottom];
    data[top]     = a + b;
    data[bottom]  = a - b;
}

__global__ void haarDecompose(const float* signal, float* coeffs, const int levels)
{
    __shared__ float level[2 * HAAR_THREADS];
    const int        t     = hipThreadIdx_x;
    const int        chunk = 2 * hipBlockDim_x;
    const float*     in    = signal + hipBlockIdx_x * chunk;
    float*           out   = coeffs + hipBlockIdx_x * chunk;
    const float      norm  = 0.70710678118654752f; /* 1 / sqrt(2) */

    level[t]                 = in[t];
    level[t + hipBlockDim_x] = in[t + hipBlockDim_x];
    __syncthreads();

    int active = hipBlockDim_x;
    for(int l = 1; l <= levels; ++l, active >>= 1)
    {
        float average = 0.0f;
        if(t < active)
        {
            const float even = level[2 * t];
            const float odd  = level[2 * t + 1];
            average          = (even + odd) * norm;
            out[active + t]  = (even - odd) * norm;
        }
        __syncthreads();
        if(t < active)
            level[t] = average;
        __syncthreads();
    }
    if(t == 0)
        out[0] = level[0];
}

inline __device__ unsigned int tileOffset(unsigned int tileX, unsigned int tileY, unsigned int width)
{
    return tileY * DCT_SIDE * width + tileX * DCT_SIDE;
}

__global__ void dct8x8(float* out, const float* in, const float* basis, const unsigned int width, const int inverse)
{
    __shared__ float inter[DCT_SIDE * DCT_SIDE];
    const unsigned int col  = hipThreadIdx_x;
    const unsigned int row  = hipThreadIdx_y;
    const unsigned int base = tileOffset(hipBlockIdx_x, hipBlockIdx_y, width);

    /* inter = B * X (forward) or B^T * X (inverse) */
    float acc = 0.0f;
    for(unsigned int k = 0; k < DCT_SIDE; ++k)
    {
        const float b = inverse ? basis[k * DCT_SIDE + row] : basis[row * DCT_SIDE + k];
        acc += b * in[base + k * width + col];
    }
    inter[row * DCT_SIDE + col] = acc;
    __syncthreads();

    /* out = inter * B^T (forward) or inter * B (inverse) */
    acc = 0.0f;
    for(unsigned int k = 0; k < DCT_SIDE; ++k)
    {
        const float b = inverse ? basis[k * DCT_SIDE + col] : basis[col * DCT_SIDE + k];
        acc += inter[row * DCT_SIDE + k] * b;
    }
    out[base + row * width + col] = acc;
}

class Transforms : public samplekit::SampleBase
{
public:
    Transforms() : SampleBase("Transforms"), length(1 << 16), side(256), mapped(NULL), devMapped(NULL) {}

    int initialize()
    {
        SampleBase::initialize();
        cmd.add("x", "length", "signal length (a power of two)", samplekit::OPT_UINT, &length);
        cmd.add("s", "side", "image side for the DCT (a multiple of 8)", samplekit::OPT_UINT, &side);
        return SAMPLE_OK;
    }

    int setup()
    {
        if(!samplekit::isPowerOf2(length) || side % DCT_SIDE)
        {
            std::cerr << "bad sizes" << std::endl;
            return SAMPLE_FAIL;
        }
        hipHostMalloc((void**)&mapped, length * sizeof(float), hipHostMallocMapped);
        CHECK_ALLOC(mapped, "mapped signal");
        hipHostGetDevicePointer((void**)&devMapped, mapped, 0);
        samplekit::fillRandom<float>(mapped, length, 1, -1.0f, 1.0f, 7);
        original.assign(mapped, mapped + length);

        hipMalloc((void**)&devCoeffs, length * sizeof(float));
        hipMalloc((void**)&devImage, side * side * sizeof(float));
        hipMalloc((void**)&devSpectrum, side * side * sizeof(float));
        hipMalloc((void**)&devBasis, DCT_SIDE * DCT_SIDE * sizeof(float));
        float basis[DCT_SIDE * DCT_SIDE];
        for(int k = 0; k < DCT_SIDE; ++k)
            for(int n = 0; n < DCT_SIDE; ++n)
                basis[k * DCT_SIDE + n] = (k == 0 ? sqrtf(1.0f / DCT_SIDE) : sqrtf(2.0f / DCT_SIDE))
                                          * cosf((2 * n + 1) * k * 3.14159265f / (2 * DCT_SIDE));
        hipMemcpy(devBasis, basis, sizeof(basis), hipMemcpyHostToDevice);
        image.resize(side * side);
        samplekit::fillRandom<float>(&image[0], side, side, 0.0f, 255.0f, 3);
        hipMemcpy(devImage, &image[0], image.size() * sizeof(float), hipMemcpyHostToDevice);
        return SAMPLE_OK;
    }

    int run()
    {
        const int haarChunk  = 2 * HAAR_THREADS;
        int       haarLevels = 0;
        while((1 << haarLevels) < haarChunk)
            ++haarLevels;
        hipLaunchKernelGGL(haarDecompose, dim3(length / haarChunk), dim3(HAAR_THREADS), 0, 0,
                           devMapped, devCoeffs, haarLevels);

        for(unsigned int span = 1; span < length; span <<= 1)
            hipLaunchKernelGGL(walshButterfly, dim3(length / 2 / 256), dim3(256), 0, 0, devMapped, (int)span);

        const dim3 tiles(side / DCT_SIDE, side / DCT_SIDE), tile(DCT_SIDE, DCT_SIDE);
        hipLaunchKernelGGL(dct8x8, tiles, tile, 0, 0, devSpectrum, devImage, devBasis, side, 0);
        hipLaunchKernelGGL(dct8x8, tiles, tile, 0, 0, devImage, devSpectrum, devBasis, side, 1);
        hipDeviceSynchronize();
        return SAMPLE_OK;
    }

    int verifyResults()
    {
        /* Walsh-Hadamard applied twice is length times the identity */
        std::vector<float> back(image.size());
        hipMemcpy(&back[0], devImage, back.size() * sizeof(float), hipMemcpyDeviceToHost);
        const bool dctOk = samplekit::compare(&image[0], &back[0], back.size(), 1e-3);
        std::cout << "DCT round trip " << (dctOk ? "Passed!" : "Failed") << std::endl;
        return dctOk ? SAMPLE_OK : SAMPLE_FAIL;
    }

    int cleanup()
    {
        hipHostFree(mapped);
        hipFree(devCoeffs);
        hipFree(devImage);
        hipFree(devSpectrum);
        hipFree(devBasis);
        return SAMPLE_OK;
    }

private:
    unsigned int       length;
    unsigned int       side;
    float*             mapped;
    float*             devMapped;
    float*             devCoeffs;
    float*             devImage;
    float*             devSpectrum;
    float*             devBasis;
    std::vector<float> original;
    std::vector<float> image;
};

int main(int argc, char* argv[])
{
    Transforms sample;
    return sample.main(argc, argv);
}
