// vector_ops.hip: three element-wise kernels and the host code that sizes their launches.
//
// - axpy:        y <- a * x + y, one element per thread, bounds-checked
// - square_all:  out[i] <- in[i]^2, a grid-stride loop over a 64-bit element count (template)
// - hadamard:    c[i] <- a[i] * b[i], launched with the block size the occupancy API suggests
//
// Part of hipwb's fieldwork corpus (written for hipwb; see the folder's README).
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstddef>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <vector>

__global__ void axpy(const float a, const float* x, float* y, const unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
    {
        y[i] = a * x[i] + y[i];
    }
}

template<typename T>
__global__ void square_all(T* out, const T* in, const unsigned long long n)
{
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for(unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    {
        out[i] = in[i] * in[i];
    }
}

__global__ void hadamard(float* c, const float* a, const float* b, const int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if(i < n)
        c[i] = a[i] * b[i];
}

namespace
{

float time_launch(const int grid, const int block, float* c, const float* a, const float* b, int n)
{
    hipEvent_t begin, end;
    HIP_CHECK(hipEventCreate(&begin));
    HIP_CHECK(hipEventCreate(&end));
    HIP_CHECK(hipEventRecord(begin, nullptr));
    hadamard<<<dim3(grid), dim3(block), 0, hipStreamDefault>>>(c, a, b, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipEventRecord(end, nullptr));
    HIP_CHECK(hipEventSynchronize(end));
    float ms = 0.f;
    HIP_CHECK(hipEventElapsedTime(&ms, begin, end));
    HIP_CHECK(hipEventDestroy(begin));
    HIP_CHECK(hipEventDestroy(end));
    return ms;
}

int run_axpy()
{
    constexpr unsigned int n     = 1u << 20;
    constexpr float        alpha = 2.5f;
    std::vector<float>     x(n), y(n);
    std::iota(x.begin(), x.end(), 0.f);
    std::fill(y.begin(), y.end(), 1.f);
    std::vector<float> want(n);
    std::transform(x.begin(), x.end(), y.begin(), want.begin(),
                   [](float xi, float yi) { return alpha * xi + yi; });

    float *d_x{}, *d_y{};
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_x, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, y.data(), n * sizeof(float), hipMemcpyHostToDevice));

    constexpr unsigned int block = 256;
    axpy<<<dim3(field::ceil_div(n, block)), dim3(block), 0, hipStreamDefault>>>(alpha, d_x, d_y, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(y.data(), d_y, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    std::cout << "axpy: " << field::show(y, 6) << std::endl;
    return field::verdict(field::mismatches(y, want), "axpy");
}

int run_square()
{
    hipDeviceProp_t prop{};
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned long long n     = 3'000'000ull;
    const int                block = 128;
    const int                grid  = 4 * prop.multiProcessorCount;

    std::vector<double> in(n), out(n);
    std::mt19937_64     gen{42};
    std::uniform_real_distribution<double> dist(-4.0, 4.0);
    std::generate(in.begin(), in.end(), [&] { return dist(gen); });

    double *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(double)));
    HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(double), hipMemcpyHostToDevice));
    square_all<<<grid, block, 0, hipStreamDefault>>>(d_out, d_in, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));

    // the float instantiation is what the quick check uses
    float* d_f{};
    HIP_CHECK(hipMalloc(&d_f, 1024 * sizeof(float)));
    square_all<float><<<4, 256>>>(d_f, d_f, 1024ull);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_f));

    std::size_t bad = 0;
    for(std::size_t i = 0; i < n; ++i)
        bad += out[i] != in[i] * in[i];
    return field::verdict(bad, "square_all");
}

int run_hadamard()
{
    constexpr int      n = 1 << 22;
    std::vector<float> a(n, 1.5f), b(n, -2.f), c(n);
    float *d_a{}, *d_b{}, *d_c{};
    for(float** p : {&d_a, &d_b, &d_c})
        HIP_CHECK(hipMalloc(p, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_a, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, b.data(), n * sizeof(float), hipMemcpyHostToDevice));

    hipDeviceProp_t prop{};
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));

    // a deliberately small block first, then what the runtime suggests
    const int small_block = 32;
    int       resident    = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&resident, hadamard, small_block, 0));
    const double small_occupancy
        = double(resident * small_block) / prop.maxThreadsPerMultiProcessor;
    const float small_ms = time_launch(field::ceil_div(n, small_block), small_block, d_c, d_a, d_b, n);

    int min_grid = 0, best_block = 0;
    HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&min_grid, &best_block, hadamard, 0, 0));
    const float best_ms = time_launch(field::ceil_div(n, best_block), best_block, d_c, d_a, d_b, n);

    std::cout << std::fixed << std::setprecision(3) << "block " << std::setw(4) << small_block
              << ": occupancy " << small_occupancy << ", " << small_ms << " ms\n"
              << "block " << std::setw(4) << best_block << " (suggested, min grid " << min_grid
              << "): " << best_ms << " ms" << std::endl;

    HIP_CHECK(hipMemcpy(c.data(), d_c, n * sizeof(float), hipMemcpyDeviceToHost));
    for(float* p : {d_a, d_b, d_c})
        HIP_CHECK(hipFree(p));
    return field::verdict(std::count_if(c.begin(), c.end(), [](float v) { return v != -3.f; }),
                          "hadamard");
}

} // namespace

int main()
{
    int status = run_axpy();
    status |= run_square();
    status |= run_hadamard();
    return status;
}
