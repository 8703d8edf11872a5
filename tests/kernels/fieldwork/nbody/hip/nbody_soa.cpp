// nbody_soa.cpp: the n-body force kernel on float4 positions and velocities, untiled.
// Its host code reports a variable it never declared -- a slip that mirrors a real one in
// public n-body samples -- so the program does not build: the compiler must name the
// identifier. Part of hipwb's fieldwork corpus.
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

__global__ void forces(float4* pos, float4* vel, float dt, int n)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    if(i >= n)
        return;
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for(int j = 0; j < n; j++)
    {
        const float dx = pos[j].x - pos[i].x;
        const float dy = pos[j].y - pos[i].y;
        const float dz = pos[j].z - pos[i].z;
        const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
        fx += dx * inv * inv * inv;
        fy += dy * inv * inv * inv;
        fz += dz * inv * inv * inv;
    }
    vel[i].x += dt * fx;
    vel[i].y += dt * fy;
    vel[i].z += dt * fz;
}

int main(const int argc, const char** argv)
{
    const int   nBodies = argc > 1 ? atoi(argv[1]) : 30000;
    const float dt      = 0.01f;
    const int   bytes   = 2 * nBodies * sizeof(float4);
    float*      buf     = (float*)malloc(bytes);
    float*      d_buf;
    hipMalloc(&d_buf, bytes);
    BodySystem d_p = {(float4*)d_buf, ((float4*)d_buf) + nBodies};

    StartTimer();
    hipMemcpy(d_buf, buf, bytes, hipMemcpyHostToDevice);
    hipLaunchKernelGGL(forces, dim3((nBodies + BLOCK_SIZE - 1) / BLOCK_SIZE), dim3(BLOCK_SIZE), 0, 0, d_p.pos, d_p.vel, dt, nBodies);
    hipMemcpy(buf, d_buf, bytes, hipMemcpyDeviceToHost);
    const double ms = GetTimer();
    printf("%d bodies: %.3f ms, %.3f billion interactions / s\n", nBodies, ms, interactions_per_second);
    free(buf);
    hipFree(d_buf);
    return 0;
}
