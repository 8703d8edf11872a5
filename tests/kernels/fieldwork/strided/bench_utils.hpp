// bench_utils.hpp: a timer and result formatting for the strided-access benchmark (hipwb
// fieldwork corpus).
#ifndef STRIDED_BENCH_UTILS_HPP
#define STRIDED_BENCH_UTILS_HPP

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <sys/time.h>

class WallTimer
{
public:
    WallTimer() { start(); }
    void start() { gettimeofday(&begin_, nullptr); }
    double elapsed() const
    {
        timeval now;
        gettimeofday(&now, nullptr);
        return double(now.tv_sec - begin_.tv_sec) + 1e-6 * double(now.tv_usec - begin_.tv_usec);
    }

private:
    timeval begin_;
};

template<typename T>
T median(std::vector<T> values)
{
    if(values.empty())
        throw std::invalid_argument("median of nothing");
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

inline std::string describe(unsigned int stride, double seconds, double bytes)
{
    std::ostringstream out;
    out << "stride " << stride << ": " << seconds * 1e3 << " ms, " << bytes / seconds * 1e-9 << " GB/s";
    return out.str();
}

#endif
