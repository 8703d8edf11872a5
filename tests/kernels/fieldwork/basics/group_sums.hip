// group_sums.hip: one sum per block and one per fixed-size tile, with cooperative groups.
//
// The same tree reduction serves any thread_group: the whole block (this_thread_block) and the
// thread_block_tile<Tile> pieces tiled_partition cuts it into; each group synchronises only its
// own threads. Launched as a cooperative kernel where the device supports it.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

#include <cstddef>
#include <iostream>
#include <numeric>
#include <vector>

namespace cg = cooperative_groups;

/// Sum `value` over the group through `scratch` (one slot per thread of the group); the
/// group's first thread gets the total, the others 0.
__device__ unsigned int group_total(cg::thread_group group, unsigned int* scratch, unsigned int value)
{
    const unsigned int rank = group.thread_rank();
    for(unsigned int half = group.size() / 2; half > 0; half /= 2)
    {
        scratch[rank] = value;
        group.sync();
        if(rank < half)
            value += scratch[rank + half];
        group.sync();
    }
    return rank == 0 ? value : 0u;
}

template<unsigned int Tile>
__global__ void block_and_tile_sums(const unsigned int* values,
                                    unsigned int*       block_total,
                                    unsigned int*       tile_totals)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ unsigned int scratch[1024];

    const unsigned int mine  = values[block.thread_rank()];
    const unsigned int total = group_total(block, scratch, mine);
    if(block.thread_rank() == 0)
        block_total[0] = total;

    cg::thread_block_tile<Tile> tile  = cg::tiled_partition<Tile>(block);
    const unsigned int          first = block.thread_rank() - tile.thread_rank();
    const unsigned int          part  = group_total(tile, scratch + first, mine);
    if(tile.thread_rank() == 0)
        tile_totals[block.thread_rank() / Tile] = part;
}

int main()
{
    constexpr unsigned int tile = 16, threads = 256;
    int                    device = 0, cooperative = 0;
    HIP_CHECK(hipGetDevice(&device));
    HIP_CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, device));

    std::vector<unsigned int> values(threads);
    std::iota(values.begin(), values.end(), 1u);
    std::vector<unsigned int> tiles(threads / tile);
    unsigned int              total = 0;

    unsigned int *d_values{}, *d_total{}, *d_tiles{};
    HIP_CHECK(hipMalloc(&d_values, threads * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_total, sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_tiles, tiles.size() * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_values, values.data(), threads * sizeof(unsigned int), hipMemcpyHostToDevice));

    if(cooperative)
    {
        void* params[] = {&d_values, &d_total, &d_tiles};
        HIP_CHECK(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(block_and_tile_sums<tile>),
                                             dim3(1), dim3(threads), params, 0, hipStreamDefault));
    }
    else
    {
        block_and_tile_sums<tile><<<1, threads>>>(d_values, d_total, d_tiles);
    }
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(&total, d_total, sizeof(unsigned int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(tiles.data(), d_tiles, tiles.size() * sizeof(unsigned int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_values));
    HIP_CHECK(hipFree(d_total));
    HIP_CHECK(hipFree(d_tiles));

    std::size_t bad = total != std::accumulate(values.begin(), values.end(), 0u);
    for(std::size_t t = 0; t < tiles.size(); ++t)
        bad += tiles[t] != std::accumulate(values.begin() + t * tile, values.begin() + (t + 1) * tile, 0u);
    std::cout << "block " << total << ", tiles " << field::show(tiles) << std::endl;
    return field::verdict(bad, "group sums");
}
