// common.h: host helpers of the stream benchmark (hipwb fieldwork corpus): option parsing,
// result tables and the device name, shared by stream_bench.hip and common.cpp.
#ifndef STREAM_COMMON_H
#define STREAM_COMMON_H

#include <string>
#include <vector>

struct BenchOptions
{
    unsigned int elements   = 1u << 25;
    unsigned int repeats    = 20;
    unsigned int group_size = 256;
    int          device     = 0;
    bool         use_double = false;
    bool         looper     = false;
};

struct Measurement
{
    std::string name;
    double      bytes_moved;
    std::vector<double> seconds;
};

BenchOptions parse_options(int argc, char** argv);
void         print_table(const std::vector<Measurement>& rows);
std::string  device_name(int device);

#endif
