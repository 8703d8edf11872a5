/* OptionLattice.cpp: European call options priced on a binomial lattice, four options per
 * block (the four lanes of a float4), one thread per lattice node.
 *
 * Leaves hold the payoff at expiry; stepping back in time, node j of step i becomes the
 * discounted, probability-weighted mix of nodes j and j+1 of step i+1. Two float4 arrays in
 * shared memory take turns as the current step. Written for hipwb's fieldwork corpus in the
 * style of the older SDK samples (one class per sample, legacy hipThreadIdx_x names).
 */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <malloc.h>

#include "../include/SampleKit.hpp"

#define LATTICE_STEPS 254
#define RISK_FREE 0.02f
#define VOLATILITY 0.30f

__global__ void latticePrice(const int steps, const float4* uniforms, float4* prices)
{
    __shared__ float4 levelA[LATTICE_STEPS + 1];
    __shared__ float4 levelB[LATTICE_STEPS + 1];

    const unsigned int node   = hipThreadIdx_x;
    const unsigned int option = hipBlockIdx_x;
    const float4       u01    = uniforms[option];

    /* map uniforms to spot, strike and years */
    const float4 spot   = make_float4(5.0f, 5.0f, 5.0f, 5.0f) + 25.0f * u01;
    const float4 strike = make_float4(1.0f, 1.0f, 1.0f, 1.0f) + 99.0f * u01;
    const float4 years  = make_float4(0.25f, 0.25f, 0.25f, 0.25f) + 9.75f * u01;

    const float4 dt = years * (1.0f / steps);
    float4       up, down, pUp, pDown, discount, drift;
    up.x = expf(VOLATILITY * sqrtf(dt.x)); up.y = expf(VOLATILITY * sqrtf(dt.y));
    up.z = expf(VOLATILITY * sqrtf(dt.z)); up.w = expf(VOLATILITY * sqrtf(dt.w));
    down     = make_float4(1.0f / up.x, 1.0f / up.y, 1.0f / up.z, 1.0f / up.w);
    drift    = make_float4(expf(RISK_FREE * dt.x), expf(RISK_FREE * dt.y), expf(RISK_FREE * dt.z), expf(RISK_FREE * dt.w));
    discount = make_float4(1.0f / drift.x, 1.0f / drift.y, 1.0f / drift.z, 1.0f / drift.w);
    pUp      = (drift - down) / (up - down);
    pDown    = make_float4(1.0f, 1.0f, 1.0f, 1.0f) - pUp;
    pUp      = pUp * discount;
    pDown    = pDown * discount;

    /* payoff at expiry: node j went up j times and down steps - j times */
    const float  moves = 2.0f * node - steps;
    float4       leaf;
    leaf.x = fmaxf(spot.x * powf(up.x, moves) - strike.x, 0.0f);
    leaf.y = fmaxf(spot.y * powf(up.y, moves) - strike.y, 0.0f);
    leaf.z = fmaxf(spot.z * powf(up.z, moves) - strike.z, 0.0f);
    leaf.w = fmaxf(spot.w * powf(up.w, moves) - strike.w, 0.0f);
    levelA[node] = leaf;
    __syncthreads();

    for(int i = steps; i > 0; i -= 2)
    {
        if(node < (unsigned int)i)
            levelB[node] = pUp * levelA[node + 1] + pDown * levelA[node];
        __syncthreads();
        if(node < (unsigned int)i - 1)
            levelA[node] = pUp * levelB[node + 1] + pDown * levelB[node];
        __syncthreads();
    }
    if(node == 0)
        prices[option] = levelA[0];
}

class OptionLattice : public samplekit::SampleBase
{
public:
    OptionLattice() : SampleBase("OptionLattice"), samples(256), hostIn(NULL), hostOut(NULL), devIn(NULL), devOut(NULL) {}

    int initialize()
    {
        SampleBase::initialize();
        cmd.add("x", "samples", "number of options (a multiple of 4)", samplekit::OPT_UINT, &samples);
        return SAMPLE_OK;
    }

    int setup()
    {
        if(samples % 4)
            samples += 4 - samples % 4;
        const size_t bytes = samples * sizeof(float);
        hostIn  = (float*)ALIGNED_ALLOC(bytes, 16);
        CHECK_ALLOC(hostIn, "hostIn");
        hostOut = (float*)malloc(bytes);
        CHECK_ALLOC(hostOut, "hostOut");
        memset(hostOut, 0, bytes);
        samplekit::fillRandom<float>(hostIn, samples, 1, 0.0f, 1.0f, 42);

        hipHostMalloc((void**)&devIn, bytes, hipHostMallocDefault);
        hipHostMalloc((void**)&devOut, bytes, hipHostMallocDefault);
        hipMemcpy(devIn, hostIn, bytes, hipMemcpyHostToDevice);
        return SAMPLE_OK;
    }

    int run()
    {
        hipLaunchKernelGGL(latticePrice, dim3(samples / 4), dim3(LATTICE_STEPS + 1), 0, 0,
                           LATTICE_STEPS, devIn, devOut);
        hipDeviceSynchronize();
        hipMemcpy(hostOut, devOut, samples * sizeof(float), hipMemcpyDeviceToHost);
        return SAMPLE_OK;
    }

    int verifyResults()
    {
        std::vector<float> ref(samples);
        for(unsigned int i = 0; i < samples; ++i)
            ref[i] = priceOnHost(hostIn[i]);
        const bool ok = samplekit::compare(&ref[0], hostOut, samples, 1e-3);
        std::cout << (ok ? "Passed!" : "Failed") << std::endl;
        return ok ? SAMPLE_OK : SAMPLE_FAIL;
    }

    int cleanup()
    {
        hipHostFree(devIn);
        hipHostFree(devOut);
        ALIGNED_FREE(hostIn);
        SAFE_FREE(hostOut);
        return SAMPLE_OK;
    }

private:
    static float priceOnHost(float u)
    {
        const float spot = 5.0f + 25.0f * u, strike = 1.0f + 99.0f * u, years = 0.25f + 9.75f * u;
        const float dt = years / LATTICE_STEPS, up = expf(VOLATILITY * sqrtf(dt)), down = 1.0f / up;
        const float drift = expf(RISK_FREE * dt), pUp = (drift - down) / (up - down) / drift;
        const float pDown = (1.0f - (drift - down) / (up - down)) / drift;
        std::vector<float> v(LATTICE_STEPS + 1);
        for(int j = 0; j <= LATTICE_STEPS; ++j)
            v[j] = fmaxf(spot * powf(up, 2.0f * j - LATTICE_STEPS) - strike, 0.0f);
        for(int i = LATTICE_STEPS; i > 0; --i)
            for(int j = 0; j < i; ++j)
                v[j] = pUp * v[j + 1] + pDown * v[j];
        return v[0];
    }

    unsigned int samples;
    float*       hostIn;
    float*       hostOut;
    float4*      devIn;
    float4*      devOut;
};

int main(int argc, char* argv[])
{
    OptionLattice sample;
    return sample.main(argc, argv);
}
