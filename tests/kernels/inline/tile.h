// A user's own header, as a tile library keeps its code: an LDS store/load pair that the
// kernel in inline_sites.hip inlines (tests/test_inline_sites.py).
#pragma once
__device__ inline float stage(float* tile, int i, float v) {
    tile[i * 32] = v;  // 32-way bank conflict on the store (row stride 128 bytes)
    __syncthreads();
    return tile[((i + 1) % 64) * 32];
}
