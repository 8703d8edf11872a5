// vadd2d.hip: a = b + c over a width x height grid with 2D blocks, launched with
// hipLaunchKernelGGL; the host checks every element. Part of hipwb's fieldwork corpus.
#include <assert.h>
#include <stdio.h>
#include <algorithm>
#include <stdlib.h>
#include <iostream>
#include "hip/hip_runtime.h"

#define WIDTH 1024
#define HEIGHT 1024
#define NUM (WIDTH * HEIGHT)

#define THREADS_PER_BLOCK_X 16
#define THREADS_PER_BLOCK_Y 16
#define THREADS_PER_BLOCK_Z 1

__global__ void vadd2d(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c, int width, int height)
{
    const int x = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    const int y = hipBlockDim_y * hipBlockIdx_y + hipThreadIdx_y;
    if(x < width && y < height)
    {
        const int i = y * width + x;
        a[i]        = b[i] + c[i];
    }
}

int main()
{
    hipDeviceProp_t props;
    hipGetDeviceProperties(&props, 0);
    std::cout << "System minor " << props.minor << ", major " << props.major << ", device " << props.name << std::endl;

    float* hostA = (float*)malloc(NUM * sizeof(float));
    float* hostB = (float*)malloc(NUM * sizeof(float));
    float* hostC = (float*)malloc(NUM * sizeof(float));
    for(int i = 0; i < NUM; i++)
    {
        hostB[i] = (float)i;
        hostC[i] = (float)i * 100.0f;
    }

    float *deviceA, *deviceB, *deviceC;
    hipMalloc((void**)&deviceA, NUM * sizeof(float));
    hipMalloc((void**)&deviceB, NUM * sizeof(float));
    hipMalloc((void**)&deviceC, NUM * sizeof(float));
    hipMemcpy(deviceB, hostB, NUM * sizeof(float), hipMemcpyHostToDevice);
    hipMemcpy(deviceC, hostC, NUM * sizeof(float), hipMemcpyHostToDevice);

    hipLaunchKernelGGL(vadd2d, dim3(WIDTH / THREADS_PER_BLOCK_X, HEIGHT / THREADS_PER_BLOCK_Y),
                       dim3(THREADS_PER_BLOCK_X, THREADS_PER_BLOCK_Y, THREADS_PER_BLOCK_Z), 0, 0,
                       deviceA, deviceB, deviceC, WIDTH, HEIGHT);
    hipMemcpy(hostA, deviceA, NUM * sizeof(float), hipMemcpyDeviceToHost);

    int errors = 0;
    for(int i = 0; i < NUM; i++)
        if(hostA[i] != hostB[i] + hostC[i])
            errors++;
    printf(errors ? "FAILED: %d errors\n" : "PASSED!\n", errors);

    hipFree(deviceA);
    hipFree(deviceB);
    hipFree(deviceC);
    free(hostA);
    free(hostB);
    free(hostC);
    return errors != 0;
}
