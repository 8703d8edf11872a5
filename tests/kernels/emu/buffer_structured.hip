// Structured, private and swizzled buffer resources (tests/emu/test_emu_buffer_structured.py).
// __builtin_amdgcn_make_buffer_rsrc(ptr, stride, num_records, flags) puts its 16-bit stride
// argument in V# bits [63:48], so stride bits 14/15 are the swizzle enable bits ([63] on gfx9,
// [63:62] on gfx11/gfx12) and `flags` is V# dword 3 (index stride [22:21], add_tid [23],
// OOB_SELECT [29:28] on RDNA). clang 22 has no struct_buffer builtins, so the idxen forms
// (LLVM's llvm.amdgcn.struct.buffer.* select MUBUF "idxen" / "idxen offen") are inline asm.
typedef unsigned uint2_t __attribute__((ext_vector_type(2)));
typedef unsigned uint4_t __attribute__((ext_vector_type(4)));
#define LPTR(p) ((__attribute__((address_space(3))) void*)(p))

#if defined(__gfx942__) || defined(__gfx950__)
#define LD32 "buffer_load_dword"
#define LD64 "buffer_load_dwordx2"
#define LD128 "buffer_load_dwordx4"
#define ST32 "buffer_store_dword"
#else
#define LD32 "buffer_load_b32"
#define LD64 "buffer_load_b64"
#define LD128 "buffer_load_b128"
#define ST32 "buffer_store_b32"
#endif
#define WAIT "\n\ts_waitcnt vmcnt(0)"
#if defined(__gfx1201__)
#define NOSOFF "null"  // GFX12 spells "no soffset" null (an inline 0 is not accepted)
#else
#define NOSOFF "0"
#endif

#define RSRC(p) __builtin_amdgcn_make_buffer_rsrc((void*)(p), (short)stride, nrec, flags)

// idxen: lane i loads the dword at record idx[i], byte 8 of it, plus soffset
extern "C" __global__ void s_load_idx(const unsigned* src, const int* idx, unsigned* out,
                                      int stride, int nrec, int flags, int soff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  unsigned v;
  asm volatile(LD32 " %0, %1, %2, %3 idxen offset:8" WAIT
               : "=v"(v) : "v"(idx[i]), "s"(r), "s"(soff) : "memory");
  out[i] = v;
}

// idxen offen: index in the first VGPR, byte offset in the second
extern "C" __global__ void s_load_idx_off(const unsigned* src, const int* idx, const int* off,
                                          unsigned* out, int stride, int nrec, int flags,
                                          int soff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  uint2_t p = {(unsigned)idx[i], (unsigned)off[i]};
  unsigned v;
  asm volatile(LD32 " %0, %1, %2, %3 idxen offen" WAIT
               : "=v"(v) : "v"(p), "s"(r), "s"(soff) : "memory");
  out[i] = v;
}

// idxen offen, two dwords: each dword is range-checked on its own
extern "C" __global__ void s_load_idx_off_x2(const unsigned* src, const int* idx, const int* off,
                                             unsigned* out, int stride, int nrec, int flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  uint2_t p = {(unsigned)idx[i], (unsigned)off[i]};
  uint2_t v;
  asm volatile(LD64 " %0, %1, %2, " NOSOFF " idxen offen" WAIT : "=v"(v) : "v"(p), "s"(r) : "memory");
  out[2 * i] = v.x;
  out[2 * i + 1] = v.y;
}

// idxen store: out-of-range stores are dropped
extern "C" __global__ void s_store_idx(unsigned* dst, const int* idx, const unsigned* val,
                                       int stride, int nrec, int flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(dst);
  asm volatile(ST32 " %0, %1, %2, " NOSOFF " idxen offset:4" WAIT
               : : "v"(val[i]), "v"(idx[i]), "s"(r) : "memory");
}

// a raw offen load (no index) through a resource with a stride, add_tid or swizzle bits
extern "C" __global__ void s_load_off(const unsigned* src, const int* off, unsigned* out,
                                      int stride, int nrec, int flags, int soff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  out[i] = __builtin_amdgcn_raw_buffer_load_b32(r, off[i], soff, 0);
}

// a 16-byte idxen offen load (for the swizzle refusals)
extern "C" __global__ void s_load_idx_off_x4(const unsigned* src, const int* idx, const int* off,
                                             unsigned* out, int stride, int nrec, int flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  uint2_t p = {(unsigned)idx[i], (unsigned)off[i]};
  uint4_t v;
  asm volatile(LD128 " %0, %1, %2, " NOSOFF " idxen offen" WAIT : "=v"(v) : "v"(p), "s"(r) : "memory");
  out[4 * i] = v.x;
  out[4 * i + 1] = v.y;
  out[4 * i + 2] = v.z;
  out[4 * i + 3] = v.w;
}

#if defined(__gfx942__) || defined(__gfx950__)
// atomics through a structured resource: all or nothing per lane
extern "C" __global__ void s_atomic_idx(unsigned* counters, const int* idx, int stride, int nrec) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int flags = 0x00020000;
  __amdgpu_buffer_rsrc_t r = RSRC(counters);
  unsigned one = 1;
  asm volatile("buffer_atomic_add %0, %1, %2, " NOSOFF " idxen offset:4" WAIT
               : : "v"(one), "v"(idx[i]), "s"(r) : "memory");
}

#if __has_builtin(__builtin_amdgcn_raw_ptr_buffer_load_lds)
// HipKittens' global -> LDS tile load: make_srsrc(ptr, num_records = rows * row_bytes,
// stride = row_bytes) and buffer_load_dwordx4 (gfx950; dword on gfx942) ... offen lds
extern "C" __global__ void s_tile_lds(const int* src, int* out, int row_bytes, int rows,
                                      int row0, int col0) {
  __shared__ int tile[256];
  int t = threadIdx.x;
  for (int k = t; k < 256; k += 64) tile[k] = -1;
  __syncthreads();
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(
      (void*)src, (short)row_bytes, rows * row_bytes, 0x00020000);
#if defined(__gfx950__)
  // 64 lanes x 16 bytes: 16 rows of 16 dwords starting at (row0, col0)
  int voff = (row0 + t / 4) * row_bytes + col0 * 4 + (t % 4) * 16;
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, LPTR(tile), 16, voff, 0, 0, 0);
#else
  int voff = (row0 + t / 16) * row_bytes + col0 * 4 + (t % 16) * 4;
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, LPTR(tile), 4, voff, 0, 0, 0);
#endif
  __builtin_amdgcn_s_waitcnt(0);
  __syncthreads();
  for (int k = t; k < 256; k += 64) out[k] = tile[k];
}

// the LDS-DMA form with idxen (structured): lane t loads record idx[t], dword 0
extern "C" __global__ void s_idx_lds(const int* src, const int* idx, int* out, int stride,
                                     int nrec) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[t] = -1;
  __syncthreads();
  int flags = 0x00020000;
  __amdgpu_buffer_rsrc_t r = RSRC(src);
  asm volatile("s_mov_b32 m0, 0\n\tbuffer_load_dword %0, %1, 0 idxen lds" WAIT
               : : "v"(idx[t]), "s"(r) : "memory", "m0");
  __syncthreads();
  out[t] = tile[t];
}
#endif
#endif
