// field_utils.hpp: what every hipwb fieldwork sample shares on the host side.
//
// Written for hipwb's test corpus: error checking of every HIP call, integer ceiling division
// usable on host and device, a wall-clock timer, printing of ranges and a verdict line.
#ifndef HIPWB_FIELDWORK_FIELD_UTILS_HPP
#define HIPWB_FIELDWORK_FIELD_UTILS_HPP

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__clang__)
    #pragma clang diagnostic ignored "-W#warnings"
#endif

namespace field
{
constexpr int exit_failure = 2;
} // namespace field

// Evaluate a HIP runtime call once; on failure print what failed, where, and leave.
#define HIP_CHECK(expr)                                                                  \
    do                                                                                   \
    {                                                                                    \
        const hipError_t field_status_ = (expr);                                         \
        if(field_status_ != hipSuccess)                                                  \
        {                                                                                \
            std::cerr << __FILE__ << ":" << __LINE__ << ": " #expr " returned "          \
                      << hipGetErrorName(field_status_) << " ("                          \
                      << hipGetErrorString(field_status_) << ")" << std::endl;           \
            std::exit(field::exit_failure);                                              \
        }                                                                                \
    }                                                                                    \
    while(false)

namespace field
{

/// Number of blocks of `per` items that cover `total` items; integers only.
template<typename A,
         typename B,
         typename = std::enable_if_t<std::is_integral_v<A> && std::is_integral_v<B>>>
__host__ __device__ constexpr A ceil_div(A total, B per)
{
    return static_cast<A>((total + static_cast<A>(per) - 1) / static_cast<A>(per));
}

static_assert(ceil_div(10u, 4u) == 3u, "ceil_div rounds up");

/// Wall-clock time of a host region, accumulated over start/stop pairs.
class StopWatch
{
public:
    void start() { began_ = clock::now(); }
    void stop() { total_ += clock::now() - began_; }
    void clear() { total_ = clock::duration::zero(); }
    [[nodiscard]] double seconds() const
    {
        return std::chrono::duration<double>(total_).count();
    }

private:
    using clock = std::chrono::steady_clock;
    clock::time_point began_{};
    clock::duration   total_{clock::duration::zero()};
};

/// "{a, b, c}" for any forward range; long ranges are cut after `limit` items.
template<typename It>
std::string show(It first, It last, std::size_t limit = 16)
{
    std::ostringstream out;
    out << '{';
    std::size_t n = 0;
    for(It it = first; it != last; ++it, ++n)
    {
        if(n == limit)
        {
            out << ", ... (" << std::distance(first, last) << " items)";
            break;
        }
        out << (n ? ", " : "") << *it;
    }
    out << '}';
    return out.str();
}

template<typename Container>
std::string show(const Container& c, std::size_t limit = 16)
{
    return show(std::begin(c), std::end(c), limit);
}

/// Count the positions where two ranges differ by more than `tolerance`.
template<typename T>
std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& want, double tolerance = 0)
{
    std::size_t bad = 0;
    for(std::size_t i = 0; i < std::min(got.size(), want.size()); ++i)
    {
        const double d = static_cast<double>(got[i]) - static_cast<double>(want[i]);
        if(d > tolerance || d < -tolerance)
            ++bad;
    }
    return bad + (got.size() > want.size() ? got.size() - want.size()
                                           : want.size() - got.size());
}

/// Print the verdict and return main()'s exit status.
inline int verdict(std::size_t errors, const char* what = "results")
{
    if(errors != 0)
    {
        std::cerr << what << ": " << errors << " mismatches" << std::endl;
        return exit_failure;
    }
    std::cout << what << ": all correct" << std::endl;
    return EXIT_SUCCESS;
}

/// Row-major host reference: C (m x n) = A (m x k) * B (k x n).
template<typename T>
void host_gemm(const T* a, const T* b, T* c, int m, int n, int k)
{
    for(int i = 0; i < m; ++i)
        for(int j = 0; j < n; ++j)
        {
            T acc{};
            for(int p = 0; p < k; ++p)
                acc += a[i * k + p] * b[p * n + j];
            c[i * n + j] = acc;
        }
}

} // namespace field

#endif // HIPWB_FIELDWORK_FIELD_UTILS_HPP
