// compile_time.hpp: loops whose trip counts are template arguments, and run-time to
// compile-time dispatch, for the reduction ladder (C++20: templated lambdas, `if constexpr`,
// class-type and array non-type template parameters). Part of hipwb's fieldwork corpus.
#pragma once

#if defined(__HIP__) || defined(__CUDACC__)
    #define CT_BOTH __host__ __device__
#else
    #define CT_BOTH
#endif

#include <cstddef>
#include <ranges>
#include <type_traits>
#include <utility>

namespace ct
{

/// f.template operator()<S>() for S = Start, Start / 2, Start / 4, ... while S > Floor.
template<int Start, int Floor, typename F>
CT_BOTH constexpr void for_halving(F&& f)
{
    if constexpr(Start > Floor)
    {
        f.template operator()<Start>();
        for_halving<Start / 2, Floor>(std::forward<F>(f));
    }
}

/// f.template operator()<S>() for S = Start, ceil(S / Div), ... down to and including 1.
template<int Start, int Div, typename F>
CT_BOTH constexpr void for_shrinking(F&& f)
{
    static_assert(Div > 1, "the count must shrink");
    if constexpr(Start >= 1)
    {
        f.template operator()<Start>();
        if constexpr(Start > 1)
            for_shrinking<(Start + Div - 1) / Div, Div>(std::forward<F>(f));
    }
}

/// f.template operator()<I>() for I = 0 .. N-1, as one fold expression.
template<typename F, std::size_t... I>
CT_BOTH constexpr void for_each_index(F&& f, std::index_sequence<I...>)
{
    (f.template operator()<static_cast<int>(I)>(), ...);
}

template<std::size_t N, typename F>
CT_BOTH constexpr void for_n(F&& f)
{
    for_each_index(std::forward<F>(f), std::make_index_sequence<N>{});
}

/// Calls f.template operator()<Choices[k]>() for the k whose entry equals `value`;
/// returns false when none does.
template<auto Choices, std::size_t K = 0, typename V, typename F>
constexpr bool dispatch(const V& value, F&& f)
{
    if constexpr(K == std::ranges::size(Choices))
    {
        return false;
    }
    else
    {
        if(value == Choices[K])
        {
            f.template operator()<Choices[K]>();
            return true;
        }
        return dispatch<Choices, K + 1>(value, std::forward<F>(f));
    }
}

} // namespace ct
