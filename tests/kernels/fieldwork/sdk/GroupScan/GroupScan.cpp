/* GroupScan.cpp: an inclusive prefix sum of up to GROUP^2 floats in three launches.
 *
 *  - groupScan:  a work-group scans GROUP elements spaced `stride` apart (stride 1: consecutive;
 *                stride GROUP: the last element of every group) with a double-buffered
 *                Hillis-Steele scan in statically sized shared memory, in place;
 *  - addCarries: every element adds the scanned total of the groups before its own.
 * Written for hipwb's fieldwork corpus in the style of the older SDK samples.
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/SampleKit.hpp"

#define GROUP 128

__global__ void groupScan(float* data, const int length, const int stride)
{
    __shared__ float buffer[2][GROUP];
    const int t     = hipThreadIdx_x;
    const int index = (hipBlockIdx_x * GROUP + t + 1) * stride - 1;

    buffer[0][t] = index < length ? data[index] : 0.0f;
    __syncthreads();

    int from = 0;
    for(int offset = 1; offset < GROUP; offset <<= 1)
    {
        const int to = 1 - from;
        buffer[to][t] = buffer[from][t] + (t >= offset ? buffer[from][t - offset] : 0.0f);
        __syncthreads();
        from = to;
    }
    if(index < length)
        data[index] = buffer[from][t];
}

__global__ void addCarries(float* data, const int length)
{
    const int group = hipBlockIdx_x;
    const int i     = group * GROUP + hipThreadIdx_x;
    /* the last element of each group already holds the running total */
    if(group > 0 && i < length && hipThreadIdx_x != GROUP - 1)
        data[i] += data[group * GROUP - 1];
}

class GroupScan : public samplekit::SampleBase
{
public:
    GroupScan() : SampleBase("GroupScan"), length(GROUP * GROUP), devData(NULL) {}

    int initialize()
    {
        SampleBase::initialize();
        cmd.add("x", "length", "number of elements (at most GROUP^2)", samplekit::OPT_UINT, &length);
        return SAMPLE_OK;
    }

    int setup()
    {
        if(length > GROUP * GROUP)
        {
            std::cerr << "at most " << GROUP * GROUP << " elements" << std::endl;
            return SAMPLE_FAIL;
        }
        input.resize(length);
        samplekit::fillRandom<float>(&input[0], length, 1, 0.0f, 4.0f, 5);
        hipMalloc((void**)&devData, length * sizeof(float));
        return SAMPLE_OK;
    }

    int run()
    {
        const int groups = (int)((length + GROUP - 1) / GROUP);
        hipMemcpy(devData, &input[0], length * sizeof(float), hipMemcpyHostToDevice);
        hipLaunchKernelGGL(groupScan, dim3(groups), dim3(GROUP), 0, 0, devData, (int)length, 1);
        if(groups > 1)
        {
            hipLaunchKernelGGL(groupScan, dim3(1), dim3(GROUP), 0, 0, devData, (int)length, GROUP);
            hipLaunchKernelGGL(addCarries, dim3(groups), dim3(GROUP), 0, 0, devData, (int)length);
        }
        hipDeviceSynchronize();
        return SAMPLE_OK;
    }

    int verifyResults()
    {
        std::vector<float> got(length), want(length);
        hipMemcpy(&got[0], devData, length * sizeof(float), hipMemcpyDeviceToHost);
        double running = 0;
        for(unsigned int i = 0; i < length; ++i)
            want[i] = (float)(running += input[i]);
        const bool ok = samplekit::compare(&want[0], &got[0], length, 1e-4);
        samplekit::printArray("scan", &got[0], length);
        std::cout << (ok ? "Passed!" : "Failed") << std::endl;
        return ok ? SAMPLE_OK : SAMPLE_FAIL;
    }

    int cleanup()
    {
        hipFree(devData);
        return SAMPLE_OK;
    }

private:
    unsigned int       length;
    std::vector<float> input;
    float*             devData;
};

int main(int argc, char* argv[])
{
    GroupScan sample;
    return sample.main(argc, argv);
}
