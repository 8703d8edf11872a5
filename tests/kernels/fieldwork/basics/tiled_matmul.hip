// tiled_matmul.hip: C = A * B for row-major float matrices, one Tile x Tile output tile a block.
//
// Both operands walk along K in Tile-wide steps through two statically sized __shared__ tiles.
// The matrix sizes come from the command line (field::Args); they must be multiples of the tile.
// Part of hipwb's fieldwork corpus.
#include "argparse.hpp"
#include "field_utils.hpp"

#include <hip/hip_runtime.h>

#include <cassert>
#include <cstddef>
#include <iostream>
#include <random>
#include <vector>

template<unsigned int Tile>
__global__ void tile_gemm(const float* a, const float* b, float* c, const unsigned int k)
{
    __shared__ float a_tile[Tile][Tile];
    __shared__ float b_tile[Tile][Tile];

    const unsigned int n   = gridDim.x * Tile; // columns of B and C
    const unsigned int row = blockIdx.y * Tile + threadIdx.y;
    const unsigned int col = blockIdx.x * Tile + threadIdx.x;

    float acc = 0.f;
    for(unsigned int step = 0; step < k; step += Tile)
    {
        a_tile[threadIdx.y][threadIdx.x] = a[row * k + step + threadIdx.x];
        b_tile[threadIdx.y][threadIdx.x] = b[(step + threadIdx.y) * n + col];
        __syncthreads();
        for(unsigned int p = 0; p < Tile; ++p)
            acc += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

template<unsigned int Tile>
void declare_options(field::Args& args)
{
    constexpr unsigned int m = 8 * Tile, n = 4 * Tile, k = 16 * Tile;
    static_assert(m % Tile == 0 && n % Tile == 0 && k % Tile == 0, "sizes are whole tiles");
    args.option<unsigned int>("m", m, "rows of A and C");
    args.option<unsigned int>("n", n, "columns of B and C");
    args.option<unsigned int>("k", k, "columns of A, rows of B");
}

int main(int argc, char** argv)
{
    constexpr unsigned int tile = 16;
    field::Args            args("tiled_matmul");
    declare_options<tile>(args);
    args.parse(argc, argv);
    const auto m = args.get<unsigned int>("m");
    const auto n = args.get<unsigned int>("n");
    const auto k = args.get<unsigned int>("k");
    if(m % tile || n % tile || k % tile)
    {
        std::cerr << "every size must be a multiple of " << tile << std::endl;
        return field::exit_failure;
    }

    std::vector<float> a(std::size_t{m} * k), b(std::size_t{k} * n), c(std::size_t{m} * n),
        want(c.size());
    std::mt19937                          gen(3);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    for(auto* v : {&a, &b})
        for(auto& x : *v)
            x = dist(gen);

    float *d_a{}, *d_b{}, *d_c{};
    HIP_CHECK(hipMalloc(&d_a, a.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_b, b.size() * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_c, c.size() * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_a, a.data(), a.size() * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, b.data(), b.size() * sizeof(float), hipMemcpyHostToDevice));

    const dim3 block(tile, tile);
    const dim3 grid(n / tile, m / tile);
    tile_gemm<tile><<<grid, block, 0, hipStreamDefault>>>(d_a, d_b, d_c, k);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(c.data(), d_c, c.size() * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_c));

    field::host_gemm(a.data(), b.data(), want.data(), int(m), int(n), int(k));
    return field::verdict(field::mismatches(c, want, 1e-3), "tile_gemm");
}
