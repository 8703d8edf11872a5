// nbody_tiles.cpp: the n-body force kernel with positions in float4 (w unused) and velocities
// in a second array, tiled: each block stages BLOCK_SIZE positions at a time in shared memory
// as float3. Part of hipwb's fieldwork corpus.
#include "hip/hip_runtime.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "timer.h"

#define BLOCK_SIZE 256
#define SOFTENING 1e-9f

typedef struct
{
    float4 *pos, *vel;
} BodySystem;

static void randomize(float* data, int n)
{
    for(int i = 0; i < n; i++)
        data[i] = 2.0f * (rand() / (float)RAND_MAX) - 1.0f;
}

__global__ void tiledForces(float4* pos, float4* vel, float dt, int n)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    const float4 me = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float3 f = make_float3(0.0f, 0.0f, 0.0f);

    for(int tile = 0; tile < hipGridDim_x; tile++)
    {
        __shared__ float3 staged[BLOCK_SIZE];
        const int j = tile * hipBlockDim_x + hipThreadIdx_x;
        const float4 other = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        staged[hipThreadIdx_x] = make_float3(other.x, other.y, other.z);
        __syncthreads();
        for(int k = 0; k < BLOCK_SIZE && tile * BLOCK_SIZE + k < n; k++)
        {
            const float dx = staged[k].x - me.x;
            const float dy = staged[k].y - me.y;
            const float dz = staged[k].z - me.z;
            const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
            const float inv3 = inv * inv * inv;
            f.x += dx * inv3;
            f.y += dy * inv3;
            f.z += dz * inv3;
        }
        __syncthreads();
    }
    if(i < n)
    {
        vel[i].x += dt * f.x;
        vel[i].y += dt * f.y;
        vel[i].z += dt * f.z;
    }
}

int main(const int argc, const char** argv)
{
    int nBodies = argc > 1 ? atoi(argv[1]) : 30000;
    const float dt = 0.01f;
    const int   steps = 10;

    const int bytes = 2 * nBodies * sizeof(float4);
    float*    buf   = (float*)malloc(bytes);
    BodySystem p    = {(float4*)buf, ((float4*)buf) + nBodies};
    randomize(buf, 8 * nBodies);

    float* d_buf;
    hipMalloc(&d_buf, bytes);
    BodySystem d_p = {(float4*)d_buf, ((float4*)d_buf) + nBodies};
    const int blocks = (nBodies + BLOCK_SIZE - 1) / BLOCK_SIZE;
    double total = 0.0;

    for(int iter = 1; iter <= steps; iter++)
    {
        StartTimer();
        hipMemcpy(d_buf, buf, bytes, hipMemcpyHostToDevice);
        hipLaunchKernelGGL(tiledForces, dim3(blocks), dim3(BLOCK_SIZE), 0, 0, d_p.pos, d_p.vel, dt, nBodies);
        hipMemcpy(buf, d_buf, bytes, hipMemcpyDeviceToHost);
        for(int i = 0; i < nBodies; i++)
        {
            p.pos[i].x += p.vel[i].x * dt;
            p.pos[i].y += p.vel[i].y * dt;
            p.pos[i].z += p.vel[i].z * dt;
        }
        const double ms = GetTimer();
        if(iter > 1)
            total += ms;
#ifndef SHMOO
        printf("step %2d: %.3f ms\n", iter, ms);
#endif
    }
    const double avg = total / (steps - 1) / 1000.0;
#ifdef SHMOO
    printf("%d, %0.3f\n", nBodies, 1e-9 * nBodies * nBodies / avg);
#else
    printf("%d bodies: %.3f billion interactions / s\n", nBodies, 1e-9 * nBodies * nBodies / avg);
#endif
    free(buf);
    hipFree(d_buf);
    return 0;
}
