// reduce_wave_tree.hip: the last rung of the block-reduction ladder. Every thread first folds
// `Items` consecutive inputs it loaded into a compile-time array (one pack expansion over an
// index_sequence); then wavefronts reduce in registers with __shfl_down and pass their totals
// through a shared array of Block / Wave slots, in as many rounds as it takes to reach one
// value (ct::for_shrinking). Part of hipwb's fieldwork corpus; built with -std=c++20.
#include <compile_time.hpp>
#include <hip_error.hpp>

#include <hip/hip_runtime.h>

#include <array>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <utility>
#include <vector>

template<uint32_t Block, uint32_t Wave, uint32_t Items, typename T, typename Op>
__global__ __launch_bounds__(Block) void reduce_wave_tree(const T* in, T* out, Op op, T identity, uint32_t n)
{
    constexpr uint32_t waves = Block / Wave;
    __shared__ T       wave_totals[waves];

    const uint32_t t = threadIdx.x, wave = t / Wave, lane = t % Wave;
    const uint32_t first = (blockIdx.x * Block + t) * Items;

    auto load_all = [&]<std::size_t... I>(std::index_sequence<I...>) {
        if(first + Items <= n)
            return ladder::lanes<T, Items>{in[first + I]...};
        return ladder::lanes<T, Items>{(first + I < n ? in[first + I] : identity)...};
    };
    ladder::lanes<T, Items> mine = load_all(std::make_index_sequence<Items>{});
    ct::for_n<Items>([&]<int I>() {
        if constexpr(I > 0)
            mine.first() = op(mine.first(), ladder::get<I>(mine));
    });
    T acc = mine.first();

    ct::for_shrinking<waves, Wave>([&]<int Active>() {
        if(wave < Active)
        {
            ct::for_halving<Wave / 2, 0>([&]<int S>() { acc = op(acc, __shfl_down(acc, S)); });
            if(lane == 0)
                wave_totals[wave] = acc;
        }
        __syncthreads();
        acc = t < Active ? wave_totals[t] : identity;
        __syncthreads();
    });
    if(t == 0)
        out[blockIdx.x] = acc;
}

int main()
{
    constexpr uint32_t items = 4;
    hipDeviceProp_t    props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));

    constexpr uint32_t          count = 5'000'000;
    std::vector<float>          values(count, 0.5f);
    const double                want  = 0.5 * count;
    auto                        plus  = [] __device__(float a, float b) { return a + b; };
    using Op                          = decltype(plus);
    float *                     front{}, *back{};
    HIP_CHECK(hipMalloc(&front, count * sizeof(float)));
    HIP_CHECK(hipMalloc(&back, count * sizeof(float)));
    HIP_CHECK(hipMemcpy(front, values.data(), count * sizeof(float), hipMemcpyHostToDevice));

    for(uint32_t n = count; n > 1;)
    {
        const int blocks = static_cast<int>((n + 256 * items - 1) / (256 * items));
        ct::dispatch<std::array{32, 64}>(props.warpSize, [&]<int W>() {
            hipLaunchKernelGGL(HIP_KERNEL_NAME(reduce_wave_tree<256, W, items, float, Op>), dim3(blocks), dim3(256), 0,
                               hipStreamDefault, front, back, plus, 0.f, n);
        });
        HIP_CHECK(hipGetLastError());
        n = static_cast<uint32_t>(blocks);
        std::swap(front, back);
    }
    float got = 0;
    HIP_CHECK(hipMemcpy(&got, front, sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(front));
    HIP_CHECK(hipFree(back));
    if(const double err = got - want; err > 1 || err < -1)
    {
        std::cerr << "got " << got << ", want " << want << std::endl;
        return 1;
    }
    std::cout << "sum " << got << std::endl;
    return 0;
}
