// Integer division/modulo by runtime values, 64-bit index math, unsigned/signed mixes.
#include <hip/hip_runtime.h>
#include <cstdint>

__global__ void divmod(const int* a, const int* b, int* q, int* r, unsigned* uq, unsigned* ur, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
    uq[i] = (unsigned)a[i] / (unsigned)b[i];
    ur[i] = (unsigned)a[i] % (unsigned)b[i];
  }
}

__global__ void divmod64(const int64_t* a, const int64_t* b, int64_t* q, int64_t* r, uint64_t* uq, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
    uq[i] = (uint64_t)a[i] / (uint64_t)b[i];
  }
}

// 3D index decomposition by runtime extents (the usual "unflatten" idiom)
__global__ void unflatten(int* coords, int d0, int d1, int d2) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < d0 * d1 * d2) {
    int z = idx % d2;
    int y = (idx / d2) % d1;
    int x = idx / (d1 * d2);
    coords[3 * idx] = x;
    coords[3 * idx + 1] = y;
    coords[3 * idx + 2] = z;
  }
}

// 64-bit index math: a large logical offset folded back into a small buffer
__global__ void index64(const float* src, float* dst, long long base, long long stride, int n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    long long logical = base + i * stride;      // beyond 2^32
    size_t off = (size_t)(logical % (long long)n);
    dst[i] = src[off];
  }
}

__global__ void bit_tricks(const unsigned* x, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = x[i];
    out[6 * i + 0] = __popc(v);
    out[6 * i + 1] = __clz(v);
    out[6 * i + 2] = __ffs(v);
    out[6 * i + 3] = __brev(v);
    out[6 * i + 4] = __umulhi(v, 2654435761u);
    out[6 * i + 5] = (v >> 7) | (v << 25);
  }
}
