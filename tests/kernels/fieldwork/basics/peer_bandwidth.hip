// peer_bandwidth.hip: copy bandwidth between host, device and a peer device.
//
// Measures pageable and pinned host<->device copies (hipMemcpy / hipMemcpyAsync, the direction
// chosen at run time as a hipMemcpyKind), device<->device copies, and -- with two GPUs that can
// reach each other -- a kernel on the second device reading the first device's memory after
// hipDeviceEnablePeerAccess. Part of hipwb's fieldwork corpus.
#include "argparse.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

/// dst[i] = Factor * src[i]; a fixed Block-element window staged through shared memory.
template<unsigned int Block = 256, int Factor = 2>
__global__ void scaled_copy(float* dst, const float* src, const size_t n)
{
    __shared__ float window[Block];
    const size_t     i = blockIdx.x * size_t{Block} + threadIdx.x;
    window[threadIdx.x] = i < n ? src[i] : 0.f;
    __syncthreads();
    if(i < n)
        dst[i] = Factor * window[threadIdx.x];
}

/// Reverses each block-sized chunk (shared memory sized at launch).
__global__ void reverse_chunks(float* dst, const float* src, const size_t n)
{
    extern __shared__ float chunk[];
    const size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x;
    chunk[threadIdx.x] = i < n ? src[i] : 0.f;
    __syncthreads();
    const size_t j = blockIdx.x * size_t{blockDim.x} + (blockDim.x - 1 - threadIdx.x);
    if(j < n)
        dst[j] = chunk[threadIdx.x];
}

namespace
{

double gigabytes_per_second(size_t bytes, double seconds)
{
    return seconds > 0 ? double(bytes) / seconds / 1e9 : 0.0;
}

double copy_seconds(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, int trials, bool async)
{
    field::StopWatch watch;
    for(int t = 0; t < trials; ++t)
    {
        watch.start();
        if(async)
        {
            HIP_CHECK(hipMemcpyAsync(dst, src, bytes, kind));
            HIP_CHECK(hipDeviceSynchronize());
        }
        else
        {
            HIP_CHECK(hipMemcpy(dst, src, bytes, kind));
        }
        watch.stop();
    }
    return watch.seconds() / trials;
}

std::pair<int, int> find_peers()
{
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    for(int a = 0; a < count; ++a)
        for(int b = 0; b < count; ++b)
        {
            int reachable = 0;
            if(a != b)
                HIP_CHECK(hipDeviceCanAccessPeer(&reachable, a, b));
            if(reachable)
                return {a, b};
        }
    return {-1, -1};
}

} // namespace

int main(int argc, char** argv)
{
    field::Args args("peer_bandwidth");
    args.option<size_t>("bytes", size_t{64} << 20, "bytes per copy");
    args.option<int>("trials", 10, "copies per measurement");
    args.option<int>("device", 0, "the device to measure");
    args.parse(argc, argv);
    const size_t bytes  = args.get<size_t>("bytes");
    const int    trials = args.get<int>("trials");
    HIP_CHECK(hipSetDevice(args.get<int>("device")));

    std::map<std::string, double> rates;
    std::vector<char>             pageable(bytes, 1);
    void *                        d_a{}, *d_b{}, *pinned{};
    HIP_CHECK(hipMalloc(&d_a, bytes));
    HIP_CHECK(hipMalloc(&d_b, bytes));
    HIP_CHECK(hipHostMalloc(&pinned, bytes));

    const std::pair<hipMemcpyKind, const char*> kinds[]
        = {{hipMemcpyHostToDevice, "host->device"}, {hipMemcpyDeviceToHost, "device->host"}};
    for(const auto& [kind, name] : kinds)
    {
        const bool up = kind == hipMemcpyHostToDevice;
        rates[std::string("pageable ") + name] = gigabytes_per_second(
            bytes, copy_seconds(up ? d_a : pageable.data(), up ? pageable.data() : d_a, bytes, kind, trials, false));
        rates[std::string("pinned ") + name] = gigabytes_per_second(
            bytes, copy_seconds(up ? d_a : pinned, up ? pinned : d_a, bytes, kind, trials, true));
    }
    rates["device->device"]
        = gigabytes_per_second(bytes, copy_seconds(d_b, d_a, bytes, hipMemcpyDeviceToDevice, trials, false));

    const size_t n = bytes / sizeof(float);
    scaled_copy<><<<dim3(field::ceil_div(n, size_t{256})), dim3(256), 0, hipStreamDefault>>>(
        static_cast<float*>(d_b), static_cast<const float*>(d_a), n);
    HIP_CHECK(hipGetLastError());

    const auto [first, second] = find_peers();
    if(first >= 0)
    {
        float* remote{};
        HIP_CHECK(hipSetDevice(first));
        HIP_CHECK(hipMalloc(&remote, bytes));
        HIP_CHECK(hipMemcpy(remote, d_a, bytes, hipMemcpyDefault));
        HIP_CHECK(hipSetDevice(second));
        HIP_CHECK(hipDeviceEnablePeerAccess(first, 0));
        float* local{};
        HIP_CHECK(hipMalloc(&local, bytes));
        reverse_chunks<<<dim3(field::ceil_div(n, size_t{128})), dim3(128), 128 * sizeof(float), hipStreamDefault>>>(
            local, remote, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
        HIP_CHECK(hipDeviceDisablePeerAccess(first));
        HIP_CHECK(hipFree(local));
        HIP_CHECK(hipSetDevice(first));
        HIP_CHECK(hipFree(remote));
    }
    else
    {
        std::cout << "no pair of devices with peer access; skipping the peer test" << std::endl;
    }

    for(const auto& [name, rate] : rates)
        std::cout << std::setw(24) << name << ": " << std::fixed << std::setprecision(2) << rate
                  << " GB/s" << std::endl;

    HIP_CHECK(hipHostFree(pinned));
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    return 0;
}
