// C[16x16] = A[16xK] * B[Kx16] with v_mfma_f32_16x16x16_bf16 (K = 64, one wave of 64 lanes).
// A is staged through LDS as a 16 x 64 bf16 tile (128-byte rows) and each lane reads its MFMA
// A fragment - row lane % 16, elements 4 * (lane / 16) .. +3 of the k-step - with one
// ds_read_b64. Bt = B transposed ([16 x K]) is read straight from global memory.
// SWIZZLE=0: plain row-major tile; the 16 lanes of a ds_read_b64 phase read the same column
//            of 16 rows 128 B apart, i.e. the same two banks.
// SWIZZLE=1: the 8-byte chunk index of row r is XORed with r % 16 (on the write and the read),
//            so those 16 lanes read 16 different chunks = 32 different banks.
typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef float floatx4 __attribute__((ext_vector_type(4)));
#define K 64
#ifndef SWIZZLE
#define SWIZZLE 0
#endif

__device__ inline int chunk_at(int row, int chunk) {
    return SWIZZLE ? (chunk ^ (row % 16)) : chunk;
}

extern "C" __global__ void mfma_a_lds(const unsigned short* A, const unsigned short* Bt,
                                      float* C) {
    __shared__ unsigned short sa[16 * K];
    int lane = threadIdx.x;
    for (int i = lane; i < 16 * K / 4; i += 64) {
        int row = i / (K / 4), chunk = i % (K / 4);
        *(bf16x4*)&sa[row * K + chunk_at(row, chunk) * 4] = *(const bf16x4*)&A[row * K + chunk * 4];
    }
    __syncthreads();
    floatx4 acc = {0.f, 0.f, 0.f, 0.f};
#pragma unroll 1
    for (int k0 = 0; k0 < K; k0 += 16) {
        int row = lane % 16, chunk = k0 / 4 + lane / 16;
        bf16x4 a = *(const bf16x4*)&sa[row * K + chunk_at(row, chunk) * 4];  // A fragment
        bf16x4 b = *(const bf16x4*)&Bt[row * K + chunk * 4];
        acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, acc, 0, 0, 0);
    }
    for (int j = 0; j < 4; ++j) C[(4 * (lane / 16) + j) * 16 + lane % 16] = acc[j];
}
