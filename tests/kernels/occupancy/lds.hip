// LDS x workgroup-size sweep: a static __shared__ array of BYTES bytes under
// __launch_bounds__(B). Odd block sizes (448, 576, 704, 768) leave wave slots unusable.
template <int BYTES>
__device__ __attribute__((always_inline)) void lds_body(float* x) {
  __shared__ float s[BYTES / 4];
  const int t = threadIdx.x;
  s[t % (BYTES / 4)] = x[t];
  __syncthreads();
  x[t] = s[(t * 7 + 3) % (BYTES / 4)];
}

#define LDS(S, B) \
  extern "C" __global__ void __launch_bounds__(B) lds_##S##_b##B(float* x) { lds_body<S>(x); }
#define NOLDS(B) \
  extern "C" __global__ void __launch_bounds__(B) nolds_b##B(float* x) { x[threadIdx.x] += 1.0f; }
#define LDS_ALL(B) \
  NOLDS(B) LDS(1024, B) LDS(4096, B) LDS(8192, B) LDS(12288, B) LDS(16384, B) \
  LDS(20480, B) LDS(24576, B) LDS(32768, B) LDS(40960, B) LDS(49152, B) LDS(65536, B)

LDS_ALL(32) LDS_ALL(64) LDS_ALL(128) LDS_ALL(256) LDS_ALL(512) LDS_ALL(1024)
NOLDS(96) NOLDS(192) NOLDS(320) NOLDS(448) NOLDS(576) NOLDS(640) NOLDS(704) NOLDS(768)
NOLDS(960)
LDS(8192, 448) LDS(8192, 768) LDS(16384, 704)
