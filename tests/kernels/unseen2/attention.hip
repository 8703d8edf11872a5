// A flash-attention-style kernel at tiny sizes: one block per query row, keys and values
// streamed through LDS in tiles of 16 (ragged last tile), an online softmax (running max and
// sum, earlier partial outputs rescaled), and P·V accumulated per head dimension.
#include <hip/hip_runtime.h>

constexpr int D = 16, TK = 16;

__global__ void flash_row(const float* Q, const float* K, const float* V, float* O, int Lk,
                          float scale) {
  __shared__ float q[D], k[TK][D + 1], v[TK][D], p[TK];
  __shared__ float m_run, l_run, alpha;
  int t = threadIdx.x;  // blockDim.x == TK == D
  int row = blockIdx.x;
  q[t] = Q[row * D + t];
  if (t == 0) { m_run = -INFINITY; l_run = 0.f; }
  float acc = 0.f;  // output column t
  for (int k0 = 0; k0 < Lk; k0 += TK) {
    int n = min(TK, Lk - k0);
    for (int j = 0; j < TK; ++j) {
      k[j][t] = j < n ? K[(k0 + j) * D + t] : 0.f;
      v[j][t] = j < n ? V[(k0 + j) * D + t] : 0.f;
    }
    __syncthreads();
    // thread t scores key t of the tile
    float s = -INFINITY;
    if (t < n) {
      s = 0.f;
      for (int d = 0; d < D; ++d) s += q[d] * k[t][d];
      s *= scale;
    }
    // tile max over the 16 threads (all in one wave)
    float mx = s;
    for (int off = 8; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor(mx, off, TK));
    float m_new = fmaxf(m_run, mx);
    float e = t < n ? __expf(s - m_new) : 0.f;
    p[t] = e;
    float sum = e;
    for (int off = 8; off > 0; off >>= 1) sum += __shfl_xor(sum, off, TK);
    __syncthreads();
    if (t == 0) {
      alpha = __expf(m_run - m_new);
      l_run = l_run * alpha + sum;
      m_run = m_new;
    }
    __syncthreads();
    float pv = 0.f;
    for (int j = 0; j < n; ++j) pv += p[j] * v[j][t];
    acc = acc * alpha + pv;
    __syncthreads();
  }
  O[row * D + t] = acc / l_run;
}
