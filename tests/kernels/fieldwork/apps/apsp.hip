// apsp.hip: all-pairs shortest paths (Floyd-Warshall) on a dense graph, one launch per
// intermediate node k over a 2D grid of (from, to) pairs; the successor matrix records the
// route. Part of hipwb's fieldwork corpus.
#include "argparse.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <iostream>
#include <random>
#include <vector>

__global__ void relax_through(unsigned int* dist, unsigned int* via, const unsigned int nodes, const unsigned int k)
{
    const unsigned int to   = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int from = blockIdx.y * blockDim.y + threadIdx.y;
    if(to >= nodes || from >= nodes)
        return;
    const unsigned int direct = dist[from * nodes + to];
    const unsigned int detour = dist[from * nodes + k] + dist[k * nodes + to];
    if(detour < direct)
    {
        dist[from * nodes + to] = detour;
        via[from * nodes + to]  = k;
    }
}

template<unsigned int Tile>
void add_options(field::Args& args)
{
    constexpr unsigned int nodes = 8 * Tile;
    static_assert(nodes % Tile == 0, "the default graph fills whole tiles");
    args.option<unsigned int>("nodes", nodes, "vertices of the random graph");
    args.option<unsigned int>("seed", 1u, "random seed");
}

int main(int argc, char** argv)
{
    constexpr unsigned int tile = 16;
    field::Args            args("apsp");
    add_options<tile>(args);
    args.parse(argc, argv);
    const unsigned int nodes = args.get<unsigned int>("nodes");

    std::mt19937                                gen(args.get<unsigned int>("seed"));
    std::uniform_int_distribution<unsigned int> weight(1, 100);
    std::vector<unsigned int>                   dist(nodes * nodes), via(nodes * nodes);
    for(unsigned int i = 0; i < nodes; ++i)
        for(unsigned int j = 0; j < nodes; ++j)
        {
            dist[i * nodes + j] = i == j ? 0 : weight(gen);
            via[i * nodes + j]  = j;
        }
    std::vector<unsigned int> want = dist;
    for(unsigned int k = 0; k < nodes; ++k)
        for(unsigned int i = 0; i < nodes; ++i)
            for(unsigned int j = 0; j < nodes; ++j)
                want[i * nodes + j] = std::min(want[i * nodes + j], want[i * nodes + k] + want[k * nodes + j]);

    unsigned int *d_dist{}, *d_via{};
    const size_t  bytes = dist.size() * sizeof(unsigned int);
    HIP_CHECK(hipMalloc(&d_dist, bytes));
    HIP_CHECK(hipMalloc(&d_via, bytes));
    HIP_CHECK(hipMemcpy(d_dist, dist.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_via, via.data(), bytes, hipMemcpyHostToDevice));
    const dim3 block(tile, tile), grid(field::ceil_div(nodes, tile), field::ceil_div(nodes, tile));
    for(unsigned int k = 0; k < nodes; ++k)
    {
        relax_through<<<grid, block, 0, hipStreamDefault>>>(d_dist, d_via, nodes, k);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipMemcpy(dist.data(), d_dist, bytes, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_dist));
    HIP_CHECK(hipFree(d_via));
    return field::verdict(field::mismatches(dist, want), "shortest paths");
}
