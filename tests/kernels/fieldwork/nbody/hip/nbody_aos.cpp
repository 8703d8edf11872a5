// nbody_aos.cpp: all-pairs gravity for n bodies stored as an array of structs; the kernel
// reads the struct array as plain floats. Softened forces, explicit Euler steps.
// Part of hipwb's fieldwork corpus.
#include "hip/hip_runtime.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "timer.h"

#define BLOCK_SIZE 256
#define SOFTENING 1e-9f

typedef struct
{
    float x, y, z, vx, vy, vz;
} Body;

static void randomize(float* data, int n)
{
    for(int i = 0; i < n; i++)
        data[i] = 2.0f * (rand() / (float)RAND_MAX) - 1.0f;
}

__global__ void accelerate(Body* bodies, float dt, int n)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    if(i >= n)
        return;
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for(int j = 0; j < n; j++)
    {
        const float dx = bodies[j].x - bodies[i].x;
        const float dy = bodies[j].y - bodies[i].y;
        const float dz = bodies[j].z - bodies[i].z;
        const float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
        const float inv = rsqrtf(r2);
        const float inv3 = inv * inv * inv;
        fx += dx * inv3;
        fy += dy * inv3;
        fz += dz * inv3;
    }
    bodies[i].vx += dt * fx;
    bodies[i].vy += dt * fy;
    bodies[i].vz += dt * fz;
}

int main(const int argc, const char** argv)
{
    int nBodies = argc > 1 ? atoi(argv[1]) : 30000;
    const float dt = 0.01f;
    const int   steps = 10;

    const int bytes = nBodies * sizeof(Body);
    float*    buf   = (float*)malloc(bytes);
    Body*     p     = (Body*)buf;
    randomize(buf, 6 * nBodies);

    float* d_buf;
    hipMalloc(&d_buf, bytes);
    Body* d_p = (Body*)d_buf;
    const int blocks = (nBodies + BLOCK_SIZE - 1) / BLOCK_SIZE;
    double total = 0.0;

    for(int iter = 1; iter <= steps; iter++)
    {
        StartTimer();
        hipMemcpy(d_buf, buf, bytes, hipMemcpyHostToDevice);
        hipLaunchKernelGGL(accelerate, dim3(blocks), dim3(BLOCK_SIZE), 0, 0, d_p, dt, nBodies);
        hipMemcpy(buf, d_buf, bytes, hipMemcpyDeviceToHost);
        for(int i = 0; i < nBodies; i++)
        {
            p[i].x += p[i].vx * dt;
            p[i].y += p[i].vy * dt;
            p[i].z += p[i].vz * dt;
        }
        const double ms = GetTimer();
        if(iter > 1)
            total += ms;
        printf("step %2d: %.3f ms\n", iter, ms);
    }
    const double avg = total / (steps - 1) / 1000.0;
    printf("%d bodies: %.3f billion interactions / s\n", nBodies, 1e-9 * nBodies * nBodies / avg);
    free(buf);
    hipFree(d_buf);
    return 0;
}
