// gfx950 transposing LDS reads through their clang builtins. The LDS tile is a verbatim copy of
// `data` (2 KiB); lane t reads at byte address addr[t], so the test controls which loaded row
// each lane contributes to the 16-lane exchange.
typedef short v4s __attribute__((ext_vector_type(4)));
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v3i __attribute__((ext_vector_type(3)));
#define LDS(p) ((__attribute__((address_space(3))) void*)(p))

__device__ void fill(int* tile, const int* data) {
  for (int k = threadIdx.x; k < 512; k += 64) tile[k] = data[k];
  __syncthreads();
}

extern "C" __global__ void tr_b16(const int* data, const int* addr, int* out) {
  __shared__ int tile[512];
  fill(tile, data);
  int t = threadIdx.x;
  v4s r = __builtin_amdgcn_ds_read_tr16_b64_v4i16(
      (__attribute__((address_space(3))) v4s*)LDS((char*)tile + addr[t]));
  out[2 * t] = __builtin_bit_cast(v2i, r).x;
  out[2 * t + 1] = __builtin_bit_cast(v2i, r).y;
}

extern "C" __global__ void tr_b8(const int* data, const int* addr, int* out) {
  __shared__ int tile[512];
  fill(tile, data);
  int t = threadIdx.x;
  v2i r = __builtin_amdgcn_ds_read_tr8_b64_v2i32(
      (__attribute__((address_space(3))) v2i*)LDS((char*)tile + addr[t]));
  out[2 * t] = r.x;
  out[2 * t + 1] = r.y;
}

extern "C" __global__ void tr_b4(const int* data, const int* addr, int* out) {
  __shared__ int tile[512];
  fill(tile, data);
  int t = threadIdx.x;
  v2i r = __builtin_amdgcn_ds_read_tr4_b64_v2i32(
      (__attribute__((address_space(3))) v2i*)LDS((char*)tile + addr[t]));
  out[2 * t] = r.x;
  out[2 * t + 1] = r.y;
}

extern "C" __global__ void tr_b6(const int* data, const int* addr, int* out) {
  __shared__ int tile[512];
  fill(tile, data);
  int t = threadIdx.x;
  v3i r = __builtin_amdgcn_ds_read_tr6_b96_v3i32(
      (__attribute__((address_space(3))) v3i*)LDS((char*)tile + addr[t]));
  out[3 * t] = r.x;
  out[3 * t + 1] = r.y;
  out[3 * t + 2] = r.z;
}
