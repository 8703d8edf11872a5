// device_report.cpp: what the HIP runtime says about every visible device (host code only).
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iomanip>
#include <iostream>
#include <string>

namespace
{
template<typename T>
void row(const std::string& name, const T& value, const char* unit = "")
{
    std::cout << "  " << std::left << std::setw(30) << name << value << unit << '\n';
}

void describe(int id)
{
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, id));
    std::cout << "device " << id << ": " << p.name << '\n';
    row("compute units", p.multiProcessorCount);
    row("wavefront size", p.warpSize);
    row("max threads per block", p.maxThreadsPerBlock);
    row("max block dims", std::to_string(p.maxThreadsDim[0]) + " x " + std::to_string(p.maxThreadsDim[1])
                              + " x " + std::to_string(p.maxThreadsDim[2]));
    row("shared memory per block", p.sharedMemPerBlock / 1024, " KiB");
    row("registers per block", p.regsPerBlock);
    row("clock rate", p.clockRate / 1000, " MHz");
    row("global memory", p.totalGlobalMem >> 20, " MiB");
    row("L2 cache", p.l2CacheSize / 1024, " KiB");
    row("compute capability", std::to_string(p.major) + "." + std::to_string(p.minor));
#ifdef __HIP_PLATFORM_AMD__
    row("architecture", p.gcnArchName);
#endif
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    for(int other = 0; other < count; ++other)
    {
        int peer = 0;
        if(other != id)
            HIP_CHECK(hipDeviceCanAccessPeer(&peer, id, other));
        if(peer)
            row("peer access to device", other);
    }
    size_t free_bytes = 0, total_bytes = 0;
    HIP_CHECK(hipSetDevice(id));
    HIP_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    row("free / total", std::to_string(free_bytes >> 20) + " / " + std::to_string(total_bytes >> 20), " MiB");
}
} // namespace

int main()
{
    int driver = 0, runtime = 0, count = 0;
    HIP_CHECK(hipDriverGetVersion(&driver));
    HIP_CHECK(hipRuntimeGetVersion(&runtime));
    HIP_CHECK(hipGetDeviceCount(&count));
    std::cout << "driver " << driver << ", runtime " << runtime << ", " << count << " device(s)\n";
#if defined(__HIP_PLATFORM_NVIDIA__)
    std::cout << "(NVIDIA platform)\n";
#endif
    for(int id = 0; id < count; ++id)
        describe(id);
    return 0;
}
