// Global -> LDS DMA (llvm.amdgcn.global.load.lds / raw.ptr.buffer.load.lds): each lane's data
// lands at M0 + offset + lane * (4 for dword, 16 for dwordx3/x4 on gfx950). The LDS tile is
// pre-filled with -1 so the 4-byte gaps between dwordx3 lanes must stay -1.
#define GPTR(p) ((__attribute__((address_space(1))) void*)(p))
#define LPTR(p) ((__attribute__((address_space(3))) void*)(p))

__device__ void prefill(int* tile, int n) {
  for (int k = threadIdx.x; k < n; k += blockDim.x) tile[k] = -1;
  __syncthreads();
}

__device__ void dump(const int* tile, int* out, int n) {
  __syncthreads();
  for (int k = threadIdx.x; k < n; k += blockDim.x) out[k] = tile[k];
}

// global_load_lds_dword: src + t (+16 bytes of instruction offset, also applied to LDS)
extern "C" __global__ void g2l_dword(int* src, int* out) {
  __shared__ int tile[128];
  prefill(tile, 128);
  __builtin_amdgcn_global_load_lds(GPTR(src + threadIdx.x), LPTR(tile + 32), 4, 16, 0);
  __builtin_amdgcn_s_waitcnt(0);
  dump(tile, out, 128);
}

#if __has_builtin(__builtin_amdgcn_raw_ptr_buffer_load_lds)  // clang >= 20
// buffer_load_dword ... lds over a V# of num_records bytes (out-of-range dwords read 0)
extern "C" __global__ void b2l_dword(int* src, int* out, int num_records) {
  __shared__ int tile[128];
  prefill(tile, 128);
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(src, 0, num_records, 0x20000);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, LPTR(tile + 16), 4, 4 * threadIdx.x, 0, 32, 0);
  __builtin_amdgcn_s_waitcnt(0);
  dump(tile, out, 128);
}
#endif

#if defined(__gfx950__)
// dwordx4 at tile[0..256), dwordx3 at tile[256..512) (16-byte lane stride), both from src
extern "C" __global__ void g2l_wide(int* src, int* out) {
  __shared__ int tile[512];
  prefill(tile, 512);
  int t = threadIdx.x;
  __builtin_amdgcn_global_load_lds(GPTR(src + 4 * t), LPTR(tile), 16, 0, 0);
  __builtin_amdgcn_global_load_lds(GPTR(src + 256 + 3 * t), LPTR(tile + 256), 12, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  dump(tile, out, 512);
}

extern "C" __global__ void b2l_wide(int* src, int* out, int num_records) {
  __shared__ int tile[512];
  prefill(tile, 512);
  int t = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(src, 0, num_records, 0x20000);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, LPTR(tile), 16, 16 * t, 0, 0, 0);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, LPTR(tile + 256), 12, 12 * t, 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  dump(tile, out, 512);
}
#endif

// a bug on purpose: lanes 32..63 land past the 64-dword tile
extern "C" __global__ void g2l_past_end(int* src, int* out) {
  __shared__ int tile[64];
  __builtin_amdgcn_global_load_lds(GPTR(src + threadIdx.x), LPTR(tile + 32), 4, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  dump(tile, out, 64);
}
