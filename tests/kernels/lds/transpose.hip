// fp32 32x32 tile transpose through LDS, one element per thread (block 32x32).
// PAD=0: __shared__ float tile[32][32]  -> the column-wise read hits one bank per half-wave.
// PAD=1: __shared__ float tile[32][33]  -> row pitch 33 dwords spreads a column over 32 banks.
#ifndef PAD
#define PAD 0
#endif
#define TILE 32

extern "C" __global__ void transpose_lds(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // row-wise write
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];  // column-wise read
}
