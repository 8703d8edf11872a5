/* ImageFilters.cpp: a recursive Gaussian blur of a colour image and a 5x5 blur of its grey
 * levels, computed directly and as two separable passes.
 *
 *  - transposeTile: 16x16 uchar4 tiles through shared memory (the IIR filter runs down columns,
 *    so the image is transposed between the vertical and horizontal passes);
 *  - iirColumn:     one thread per column, a causal then an anti-causal second-order recursion
 *    on float4 pixels;
 *  - blurRows / blurColumns / blurDirect: the 5x5 binomial blur (FilterTaps.h) on an
 *    unsigned int grey image, the output cropped by TAPS - 1.
 * Written for hipwb's fieldwork corpus in the style of the older SDK samples.
 */
#include "ImageFilters.hpp"

#include <cmath>

__global__ void transposeTile(uchar4* out, const uchar4* in, const unsigned int width, const unsigned int height)
{
    __shared__ uchar4 tile[TILE * TILE];
    const unsigned int x = hipBlockIdx_x * TILE + hipThreadIdx_x;
    const unsigned int y = hipBlockIdx_y * TILE + hipThreadIdx_y;
    if(x < width && y < height)
        tile[hipThreadIdx_y * TILE + hipThreadIdx_x] = in[y * width + x];
    __syncthreads();
    const unsigned int tx = hipBlockIdx_y * TILE + hipThreadIdx_x;
    const unsigned int ty = hipBlockIdx_x * TILE + hipThreadIdx_y;
    if(tx < height && ty < width)
        out[ty * height + tx] = tile[hipThreadIdx_x * TILE + hipThreadIdx_y];
}

static __device__ float4 toFloat4(uchar4 p)
{
    return make_float4(p.x, p.y, p.z, p.w);
}

static __device__ uchar4 toUchar4(float4 p)
{
    return make_uchar4((unsigned char)fminf(fmaxf(p.x, 0.0f), 255.0f), (unsigned char)fminf(fmaxf(p.y, 0.0f), 255.0f),
                       (unsigned char)fminf(fmaxf(p.z, 0.0f), 255.0f), (unsigned char)fminf(fmaxf(p.w, 0.0f), 255.0f));
}

__global__ void iirColumn(const uchar4* in, uchar4* out, const unsigned int width, const unsigned int height, const IirCoeffs c)
{
    const unsigned int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(x >= width)
        return;

    /* causal pass, top to bottom; the edge pixel repeats before the image */
    float4 xPrev = toFloat4(in[x]);
    float4 yPrev = xPrev * c.coefp;
    float4 yPrev2 = yPrev;
    for(unsigned int y = 0; y < height; ++y)
    {
        const float4 xc = toFloat4(in[y * width + x]);
        const float4 yc = c.a0 * xc + c.a1 * xPrev - c.b1 * yPrev - c.b2 * yPrev2;
        xPrev  = xc;
        yPrev2 = yPrev;
        yPrev  = yc;
        out[y * width + x] = toUchar4(yc);
    }

    /* anti-causal pass, bottom to top, added to the causal result */
    float4 xNext = toFloat4(in[(height - 1) * width + x]);
    float4 xNext2 = xNext;
    float4 yNext = xNext * c.coefn;
    float4 yNext2 = yNext;
    for(int y = (int)height - 1; y >= 0; --y)
    {
        const float4 xc = toFloat4(in[y * width + x]);
        const float4 yc = c.a2 * xNext + c.a3 * xNext2 - c.b1 * yNext - c.b2 * yNext2;
        xNext2 = xNext;
        xNext  = xc;
        yNext2 = yNext;
        yNext  = yc;
        out[y * width + x] = toUchar4(toFloat4(out[y * width + x]) + yc);
    }
}

__global__ void blurRows(const unsigned int* in, float* rows, const float* taps, const uint2 size)
{
    const unsigned int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    const unsigned int y = hipBlockIdx_y;
    const unsigned int outWidth = size.x - (TAPS - 1);
    if(x >= outWidth)
        return;
    float acc = 0.0f;
    for(unsigned int k = 0; k < TAPS; ++k)
        acc = mad((float)in[y * size.x + x + k], taps[k], acc);
    rows[y * outWidth + x] = acc;
}

__global__ void blurColumns(const float* rows, unsigned int* out, const float* taps, const uint2 size)
{
    const unsigned int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    const unsigned int y = hipBlockIdx_y;
    const unsigned int outWidth = size.x - (TAPS - 1);
    if(x >= outWidth || y >= size.y - (TAPS - 1))
        return;
    float acc = 0.0f;
    for(unsigned int k = 0; k < TAPS; ++k)
        acc = mad(rows[(y + k) * outWidth + x], taps[TAPS + k], acc);
    out[y * outWidth + x] = (unsigned int)(acc + 0.5f);
}

__global__ void blurDirect(const unsigned int* in, unsigned int* out, const float* mask, const uint2 size, const uint2 maskSize)
{
    const unsigned int x = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    const unsigned int y = hipBlockIdx_y;
    const unsigned int outWidth = size.x - (maskSize.x - 1);
    if(x >= outWidth || y >= size.y - (maskSize.y - 1))
        return;
    float acc = 0.0f;
    for(unsigned int j = 0; j < maskSize.y; ++j)
        for(unsigned int i = 0; i < maskSize.x; ++i)
            acc = mad((float)in[(y + j) * size.x + x + i], mask[j * maskSize.x + i], acc);
    out[y * outWidth + x] = (unsigned int)(acc + 0.5f);
}

ImageFilters::ImageFilters()
    : SampleBase("ImageFilters"), inputPath("ImageFilters_Input.bmp"), sigma(4.0f), devImage(NULL), devTemp(NULL),
      devGrey(NULL), devRows(NULL), devSeparable(NULL), devDirect(NULL), devMask(NULL)
{
}

int ImageFilters::initialize()
{
    SampleBase::initialize();
    cmd.add("f", "file", "input BMP image", samplekit::OPT_STRING, &inputPath);
    cmd.add("g", "sigma", "Gaussian sigma in pixels", samplekit::OPT_FLOAT, &sigma);
    return SAMPLE_OK;
}

IirCoeffs ImageFilters::gaussian(float s)
{
    const float alpha = 1.695f / s, ema = expf(-alpha), ema2 = expf(-2.0f * alpha);
    const float k = (1.0f - ema) * (1.0f - ema) / (1.0f + 2.0f * alpha * ema - ema2);
    IirCoeffs   c;
    c.a0    = k;
    c.a1    = k * (alpha - 1.0f) * ema;
    c.a2    = k * (alpha + 1.0f) * ema;
    c.a3    = -k * ema2;
    c.b1    = -2.0f * ema;
    c.b2    = ema2;
    c.coefp = (c.a0 + c.a1) / (1.0f + c.b1 + c.b2);
    c.coefn = (c.a2 + c.a3) / (1.0f + c.b1 + c.b2);
    return c;
}

int ImageFilters::setup()
{
    if(!image.load(inputPath.c_str()))
    {
        std::cout << "no " << inputPath << "; using a generated 256x256 image" << std::endl;
        image = samplekit::Image(256, 256);
        for(unsigned int i = 0; i < 256 * 256; ++i)
            image.data()[i] = make_uchar4(i % 256, (i / 256) % 256, (i * 7) % 256, 255);
    }
    output = samplekit::Image(image.width(), image.height());
    const size_t pixels = size_t(image.width()) * image.height();
    hipMalloc((void**)&devImage, pixels * sizeof(uchar4));
    hipMalloc((void**)&devTemp, pixels * sizeof(uchar4));
    hipMalloc((void**)&devGrey, pixels * sizeof(unsigned int));
    hipMalloc((void**)&devRows, pixels * sizeof(float));
    hipMalloc((void**)&devSeparable, pixels * sizeof(unsigned int));
    hipMalloc((void**)&devDirect, pixels * sizeof(unsigned int));
    hipMalloc((void**)&devMask, (2 * TAPS + TAPS * TAPS) * sizeof(float));
    hipMemcpy(devImage, image.data(), pixels * sizeof(uchar4), hipMemcpyHostToDevice);
    hipMemcpy(devMask, blurRow, sizeof(blurRow), hipMemcpyHostToDevice);
    hipMemcpy(devMask + TAPS, blurCol, sizeof(blurCol), hipMemcpyHostToDevice);
    hipMemcpy(devMask + 2 * TAPS, blur2D, sizeof(blur2D), hipMemcpyHostToDevice);

    std::vector<unsigned int> grey(pixels);
    for(size_t i = 0; i < pixels; ++i)
        grey[i] = (image.data()[i].x * 77u + image.data()[i].y * 151u + image.data()[i].z * 28u) >> 8;
    hipMemcpy(devGrey, &grey[0], pixels * sizeof(unsigned int), hipMemcpyHostToDevice);
    return SAMPLE_OK;
}

int ImageFilters::run()
{
    const unsigned int w = image.width(), h = image.height();
    const IirCoeffs    c = gaussian(sigma);
    const dim3         tile(TILE, TILE);

    hipLaunchKernelGGL(iirColumn, dim3((w + COLUMN_GROUP - 1) / COLUMN_GROUP), dim3(COLUMN_GROUP), 0, 0, devImage, devTemp, w, h, c);
    hipLaunchKernelGGL(transposeTile, dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), tile, 0, 0, devImage, devTemp, w, h);
    hipLaunchKernelGGL(iirColumn, dim3((h + COLUMN_GROUP - 1) / COLUMN_GROUP), dim3(COLUMN_GROUP), 0, 0, devImage, devTemp, h, w, c);
    hipLaunchKernelGGL(transposeTile, dim3((h + TILE - 1) / TILE, (w + TILE - 1) / TILE), tile, 0, 0, devImage, devTemp, h, w);

    const uint2 size = make_uint2(w, h);
    hipLaunchKernelGGL(blurRows, dim3((w + 63) / 64, h), dim3(64), 0, 0, devGrey, devRows, devMask, size);
    hipLaunchKernelGGL(blurColumns, dim3((w + 63) / 64, h), dim3(64), 0, 0, devRows, devSeparable, devMask, size);
    hipLaunchKernelGGL(blurDirect, dim3((w + 63) / 64, h), dim3(64), 0, 0, devGrey, devDirect, devMask + 2 * TAPS, size,
                       make_uint2(TAPS, TAPS));
    hipDeviceSynchronize();
    hipMemcpy(output.data(), devImage, size_t(w) * h * sizeof(uchar4), hipMemcpyDeviceToHost);
    return SAMPLE_OK;
}

int ImageFilters::verifyResults()
{
    const size_t              count = size_t(image.width() - TAPS + 1) * (image.height() - TAPS + 1);
    std::vector<unsigned int> a(count), b(count);
    hipMemcpy(&a[0], devSeparable, count * sizeof(unsigned int), hipMemcpyDeviceToHost);
    hipMemcpy(&b[0], devDirect, count * sizeof(unsigned int), hipMemcpyDeviceToHost);
    const bool ok = samplekit::compare(&a[0], &b[0], count, 1.0);
    std::cout << "separable vs direct: " << (ok ? "Passed!" : "Failed") << std::endl;
    output.save("ImageFilters_Output.bmp");
    return ok ? SAMPLE_OK : SAMPLE_FAIL;
}

int ImageFilters::cleanup()
{
    hipFree(devImage);
    hipFree(devTemp);
    hipFree(devGrey);
    hipFree(devRows);
    hipFree(devSeparable);
    hipFree(devDirect);
    hipFree(devMask);
    return SAMPLE_OK;
}

int main(int argc, char* argv[])
{
    ImageFilters sample;
    return sample.main(argc, argv);
}
