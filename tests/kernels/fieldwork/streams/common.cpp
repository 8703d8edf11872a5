// common.cpp: option parsing and reporting for the stream benchmark (host code only).
// Part of hipwb's fieldwork corpus.
#include "common.h"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <numeric>

BenchOptions parse_options(int argc, char** argv)
{
    BenchOptions o;
    for(int i = 1; i < argc; ++i)
    {
        auto next = [&](const char* flag) -> const char* {
            if(i + 1 >= argc)
            {
                std::cerr << flag << " needs a value\n";
                std::exit(EXIT_FAILURE);
            }
            return argv[++i];
        };
        if(!std::strcmp(argv[i], "--elements"))
            o.elements = static_cast<unsigned int>(std::strtoul(next("--elements"), nullptr, 0));
        else if(!std::strcmp(argv[i], "--repeats"))
            o.repeats = static_cast<unsigned int>(std::atoi(next("--repeats")));
        else if(!std::strcmp(argv[i], "--groupsize"))
            o.group_size = static_cast<unsigned int>(std::atoi(next("--groupsize")));
        else if(!std::strcmp(argv[i], "--device"))
            o.device = std::atoi(next("--device"));
        else if(!std::strcmp(argv[i], "--double"))
            o.use_double = true;
        else if(!std::strcmp(argv[i], "--looper"))
            o.looper = true;
        else
        {
            std::cerr << "usage: " << argv[0]
                      << " [--elements N] [--repeats N] [--groupsize N] [--device N] [--double] [--looper]\n";
            std::exit(EXIT_FAILURE);
        }
    }
    return o;
}

void print_table(const std::vector<Measurement>& rows)
{
    std::cout << std::left << std::setw(10) << "kernel" << std::right << std::setw(14) << "best GB/s"
              << std::setw(14) << "mean s" << '\n';
    for(const auto& r : rows)
    {
        if(r.seconds.empty())
            continue;
        const double best = *std::min_element(r.seconds.begin(), r.seconds.end());
        const double mean = std::accumulate(r.seconds.begin(), r.seconds.end(), 0.0) / r.seconds.size();
        std::cout << std::left << std::setw(10) << r.name << std::right << std::fixed << std::setprecision(1)
                  << std::setw(14) << r.bytes_moved / best * 1e-9 << std::setprecision(6) << std::setw(14)
                  << mean << '\n';
    }
}

std::string device_name(int device)
{
    hipDeviceProp_t props;
    if(hipGetDeviceProperties(&props, device) != hipSuccess)
        return "unknown device";
    return props.name;
}
