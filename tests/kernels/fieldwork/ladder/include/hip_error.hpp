// hip_error.hpp: error checking and a device-usable fixed-size array for the reduction ladder.
// Part of hipwb's fieldwork corpus.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <source_location>

namespace ladder
{

inline void check(hipError_t status, const char* call,
                  const std::source_location where = std::source_location::current())
{
    if(status == hipSuccess)
        return;
    std::cerr << where.file_name() << ':' << where.line() << ": " << call << " -> "
              << hipGetErrorString(status) << std::endl;
    std::exit(static_cast<int>(status));
}

/// A plain array that device code can build, index and unpack at compile time.
template<typename T, std::size_t N>
struct lanes
{
    static_assert(N > 0, "an empty lanes<> has no first element");
    T item[N];

    [[nodiscard]] __host__ __device__ static constexpr std::size_t size() noexcept { return N; }
    [[nodiscard]] __host__ __device__ constexpr T&       operator[](std::size_t i) noexcept { return item[i]; }
    [[nodiscard]] __host__ __device__ constexpr const T& operator[](std::size_t i) const noexcept { return item[i]; }
    [[nodiscard]] __host__ __device__ constexpr T&       first() noexcept { return item[0]; }
};

template<std::size_t I, typename T, std::size_t N>
[[nodiscard]] __host__ __device__ constexpr T& get(lanes<T, N>& a) noexcept
{
    static_assert(I < N, "lanes<> index out of range");
    return a.item[I];
}

template<std::size_t I, typename T, std::size_t N>
[[nodiscard]] __host__ __device__ constexpr const T& get(const lanes<T, N>& a) noexcept
{
    static_assert(I < N, "lanes<> index out of range");
    return a.item[I];
}

} // namespace ladder

#define HIP_CHECK(call) ::ladder::check((call), #call)
