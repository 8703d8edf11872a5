// Block-wide inclusive prefix sum (Hillis-Steele in LDS, 256 threads), then a grid of blocks.
extern "C" __global__ void block_scan(const int* x, int* y, int n) {
  __shared__ int buf[2][256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  int p = 0;
  buf[0][t] = i < n ? x[i] : 0;
  __syncthreads();
  for (int off = 1; off < 256; off <<= 1) {
    int v = buf[p][t];
    if (t >= off) v += buf[p][t - off];
    buf[p ^ 1][t] = v;
    p ^= 1;
    __syncthreads();
  }
  if (i < n) y[i] = buf[p][t];
}
