// stream_bench.hip: memory bandwidth of copy, scale, add (four inputs) and triad, for float or
// double, one element per thread or with grid-stride "looper" kernels that let each thread
// walk the array (the looper copy handles CLUMP consecutive elements per step).
// Part of hipwb's fieldwork corpus.
#include "hip/hip_runtime.h"

#include <chrono>
#include <cfloat>
#include <cmath>
#include <iostream>
#include <vector>

#include "common.h"

#define CHECK(call)                                                                      \
    do                                                                                   \
    {                                                                                    \
        hipError_t err_ = (call);                                                        \
        if(err_ != hipSuccess)                                                           \
        {                                                                                \
            std::cerr << #call << " failed: " << hipGetErrorString(err_) << std::endl;   \
            exit(err_);                                                                  \
        }                                                                                \
    } while(0)

template<typename T, int CLUMP>
__global__ void copy_looper(const T* a, T* c, int n)
{
    const int first = (hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x) * CLUMP;
    const int step  = hipGridDim_x * hipBlockDim_x * CLUMP;
    for(int i = first; i < n; i += step)
    {
#pragma unroll
        for(int j = 0; j < CLUMP; ++j)
            if(i + j < n)
                c[i + j] = a[i + j];
    }
}

template<typename T>
__global__ void scale_looper(T* b, const T* c, T scalar, int n)
{
    for(int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < n; i += hipGridDim_x * hipBlockDim_x)
        b[i] = scalar * c[i];
}

template<typename T>
__global__ void add4_looper(const T* a, const T* b, const T* d, const T* e, T* c, int n)
{
    for(int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < n; i += hipGridDim_x * hipBlockDim_x)
        c[i] = a[i] + b[i] + d[i] + e[i];
}

template<typename T>
__global__ void triad_looper(T* a, const T* b, const T* c, T scalar, int n)
{
    for(int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; i < n; i += hipGridDim_x * hipBlockDim_x)
        a[i] = b[i] + scalar * c[i];
}

template<typename T>
__global__ void copy_one(const T* a, T* c)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    c[i]        = a[i];
}

template<typename T>
__global__ void scale_one(T* b, const T* c, T scalar)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    b[i]        = scalar * c[i];
}

template<typename T>
__global__ void add4_one(const T* a, const T* b, const T* d, const T* e, T* c)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    c[i]        = a[i] + b[i] + d[i] + e[i];
}

template<typename T>
__global__ void triad_one(T* a, const T* b, const T* c, T scalar)
{
    const int i = hipBlockDim_x * hipBlockIdx_x + hipThreadIdx_x;
    a[i]        = b[i] + scalar * c[i];
}

template<typename T>
std::vector<Measurement> bench(const BenchOptions& o)
{
    const int    n     = static_cast<int>(o.elements);
    const size_t bytes = sizeof(T) * o.elements;
    T *          d_a, *d_b, *d_c, *d_d, *d_e;
    for(T** p : {&d_a, &d_b, &d_c, &d_d, &d_e})
        CHECK(hipMalloc(p, bytes));
    std::vector<T> init(o.elements, T(1));
    for(T* p : {d_a, d_b, d_c, d_d, d_e})
        CHECK(hipMemcpy(p, init.data(), bytes, hipMemcpyHostToDevice));

    hipDeviceProp_t props;
    CHECK(hipGetDeviceProperties(&props, o.device));
    const unsigned int groups = o.looper ? props.multiProcessorCount * 4 : o.elements / o.group_size;
    const T            scalar = T(3);

    std::vector<Measurement> rows = {{"copy", 2.0 * bytes, {}}, {"scale", 2.0 * bytes, {}},
                                     {"add4", 5.0 * bytes, {}}, {"triad", 3.0 * bytes, {}}};
    for(unsigned int r = 0; r < o.repeats; ++r)
    {
        for(size_t k = 0; k < rows.size(); ++k)
        {
            const auto t0 = std::chrono::high_resolution_clock::now();
            if(o.looper)
            {
                switch(k)
                {
                case 0: hipLaunchKernelGGL((copy_looper<T, 4>), dim3(groups), dim3(o.group_size), 0, 0, d_a, d_c, n); break;
                case 1: hipLaunchKernelGGL(scale_looper<T>, dim3(groups), dim3(o.group_size), 0, 0, d_b, d_c, scalar, n); break;
                case 2: hipLaunchKernelGGL(add4_looper<T>, dim3(groups), dim3(o.group_size), 0, 0, d_a, d_b, d_d, d_e, d_c, n); break;
                default: hipLaunchKernelGGL(triad_looper<T>, dim3(groups), dim3(o.group_size), 0, 0, d_a, d_b, d_c, scalar, n); break;
                }
            }
            else
            {
                switch(k)
                {
                case 0: hipLaunchKernelGGL(copy_one<T>, dim3(groups), dim3(o.group_size), 0, 0, d_a, d_c); break;
                case 1: hipLaunchKernelGGL(scale_one<T>, dim3(groups), dim3(o.group_size), 0, 0, d_b, d_c, scalar); break;
                case 2: hipLaunchKernelGGL(add4_one<T>, dim3(groups), dim3(o.group_size), 0, 0, d_a, d_b, d_d, d_e, d_c); break;
                default: hipLaunchKernelGGL(triad_one<T>, dim3(groups), dim3(o.group_size), 0, 0, d_a, d_b, d_c, scalar); break;
                }
            }
            CHECK(hipGetLastError());
            CHECK(hipDeviceSynchronize());
            const auto t1 = std::chrono::high_resolution_clock::now();
            if(r > 0) // the first round warms up
                rows[k].seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
        }
    }
    for(T* p : {d_a, d_b, d_c, d_d, d_e})
        CHECK(hipFree(p));
    return rows;
}

int main(int argc, char* argv[])
{
    const BenchOptions o = parse_options(argc, argv);
    CHECK(hipSetDevice(o.device));
    std::cout << "device " << o.device << ": " << device_name(o.device) << ", " << o.elements << " "
              << (o.use_double ? "doubles" : "floats") << (o.looper ? ", looper kernels" : "") << std::endl;
    if(o.elements % o.group_size)
    {
        std::cerr << "--elements must be a multiple of --groupsize" << std::endl;
        return EXIT_FAILURE;
    }
    print_table(o.use_double ? bench<double>(o) : bench<float>(o));
    return 0;
}
