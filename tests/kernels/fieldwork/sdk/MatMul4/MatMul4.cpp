/* MatMul4.cpp: C = A * B with every thread computing a 4x4 block of C held in four float4
 * registers; A and B are read as float4 rows (widths must be multiples of 4).
 * Written for hipwb's fieldwork corpus in the style of the older SDK samples.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/SampleKit.hpp"

#define BLOCK_ROWS_SHIFT 2 /* each thread owns 1 << 2 = 4 rows of C */
#define GROUP_SIDE 8

/* widthA = columns of A = rows of B; widthB = columns of B (both in floats) */
__global__ void matmul4x4(const float4* a, const float4* b, float4* c, const int widthA, const int widthB)
{
    const int col4 = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; /* float4 column of C */
    const int row0 = (hipBlockIdx_y * hipBlockDim_y + hipThreadIdx_y) << BLOCK_ROWS_SHIFT;
    const int a4   = widthA / 4;
    const int b4   = widthB / 4;

    float4 acc0 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float4 acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for(int k = 0; k < widthA; k += 4)
    {
        const float4 r0 = a[(row0 + 0) * a4 + k / 4];
        const float4 r1 = a[(row0 + 1) * a4 + k / 4];
        const float4 r2 = a[(row0 + 2) * a4 + k / 4];
        const float4 r3 = a[(row0 + 3) * a4 + k / 4];
        const float4 q0 = b[(k + 0) * b4 + col4];
        const float4 q1 = b[(k + 1) * b4 + col4];
        const float4 q2 = b[(k + 2) * b4 + col4];
        const float4 q3 = b[(k + 3) * b4 + col4];
        acc0 += r0.x * q0 + r0.y * q1 + r0.z * q2 + r0.w * q3;
        acc1 += r1.x * q0 + r1.y * q1 + r1.z * q2 + r1.w * q3;
        acc2 += r2.x * q0 + r2.y * q1 + r2.z * q2 + r2.w * q3;
        acc3 += r3.x * q0 + r3.y * q1 + r3.z * q2 + r3.w * q3;
    }
    c[(row0 + 0) * b4 + col4] = acc0;
    c[(row0 + 1) * b4 + col4] = acc1;
    c[(row0 + 2) * b4 + col4] = acc2;
    c[(row0 + 3) * b4 + col4] = acc3;
}

class MatMul4 : public samplekit::SampleBase
{
public:
    MatMul4() : SampleBase("MatMul4"), rowsA(256), colsA(128), colsB(192), devA(NULL), devB(NULL), devC(NULL) {}

    int initialize()
    {
        SampleBase::initialize();
        cmd.add("m", "rowsA", "rows of A (a multiple of 32)", samplekit::OPT_UINT, &rowsA);
        cmd.add("k", "colsA", "columns of A (a multiple of 4)", samplekit::OPT_UINT, &colsA);
        cmd.add("n", "colsB", "columns of B (a multiple of 32)", samplekit::OPT_UINT, &colsB);
        return SAMPLE_OK;
    }

    int setup()
    {
        a.resize(rowsA * colsA);
        b.resize(colsA * colsB);
        c.resize(rowsA * colsB);
        samplekit::fillRandom<float>(&a[0], colsA, rowsA, -1.0f, 1.0f, 1);
        samplekit::fillRandom<float>(&b[0], colsB, colsA, -1.0f, 1.0f, 2);
        hipMalloc((void**)&devA, a.size() * sizeof(float));
        hipMalloc((void**)&devB, b.size() * sizeof(float));
        hipMalloc((void**)&devC, c.size() * sizeof(float));
        hipMemcpy(devA, &a[0], a.size() * sizeof(float), hipMemcpyHostToDevice);
        hipMemcpy(devB, &b[0], b.size() * sizeof(float), hipMemcpyHostToDevice);
        return SAMPLE_OK;
    }

    int run()
    {
        const dim3 group(GROUP_SIDE, GROUP_SIDE);
        const dim3 groups(colsB / 4 / GROUP_SIDE, rowsA / 4 / GROUP_SIDE);
        hipLaunchKernelGGL(matmul4x4, groups, group, 0, 0, (const float4*)devA, (const float4*)devB, (float4*)devC,
                           (int)colsA, (int)colsB);
        hipMemcpy(&c[0], devC, c.size() * sizeof(float), hipMemcpyDeviceToHost);
        return SAMPLE_OK;
    }

    int verifyResults()
    {
        std::vector<float> want(c.size(), 0.0f);
        for(unsigned int i = 0; i < rowsA; ++i)
            for(unsigned int p = 0; p < colsA; ++p)
                for(unsigned int j = 0; j < colsB; ++j)
                    want[i * colsB + j] += a[i * colsA + p] * b[p * colsB + j];
        const bool ok = samplekit::compare(&want[0], &c[0], c.size(), 1e-4);
        std::cout << (ok ? "Passed!" : "Failed") << std::endl;
        return ok ? SAMPLE_OK : SAMPLE_FAIL;
    }

    int cleanup()
    {
        hipFree(devA);
        hipFree(devB);
        hipFree(devC);
        return SAMPLE_OK;
    }

private:
    unsigned int       rowsA, colsA, colsB;
    std::vector<float> a, b, c;
    float *            devA, *devB, *devC;
};

int main(int argc, char* argv[])
{
    MatMul4 sample;
    return sample.main(argc, argv);
}
