// SGPR-pressure sweep: K uniform kernel arguments stay live across a loop of scalar ALU work,
// so the SGPR count grows with K (gfx9 loses waves above 100 SGPRs; GFX10+ never does).
template <int K>
struct Params { int a[K]; };

template <int K>
__device__ __attribute__((always_inline)) void uniform_work(const Params<K>& p, int* x, int n) {
  int acc = n;
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < K; ++j) acc = (acc ^ p.a[j]) * p.a[(j + 1) % K] + i;
  }
  x[threadIdx.x] = acc;
}

#define SGPR(K) \
  extern "C" __global__ void sgpr_##K(Params<K> p, int* x, int n) { uniform_work<K>(p, x, n); }

SGPR(16) SGPR(48) SGPR(72) SGPR(84) SGPR(96) SGPR(120)
