// MUBUF through V# resources built by __builtin_amdgcn_make_buffer_rsrc (LLVM IntrinsicsAMDGPU.td
// int_amdgcn_make_buffer_rsrc, int_amdgcn_raw_buffer_load/store). Flags 0x00020000 set
// DATA_FORMAT = 32 in V# dword 3, the value CK uses for gfx9 untyped buffers.
#define RSRC(p, bytes) __builtin_amdgcn_make_buffer_rsrc((void*)(p), 0, (bytes), 0x00020000)

typedef unsigned uint2_t __attribute__((ext_vector_type(2)));
typedef unsigned uint3_t __attribute__((ext_vector_type(3)));
typedef unsigned uint4_t __attribute__((ext_vector_type(4)));

// Gather with a bounds-checked resource: lanes whose index runs past `valid` elements read 0.
extern "C" __global__ void buffer_gather(const float* src, const int* idx, float* out,
                                         int valid) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src, valid * 4);
  out[i] = __builtin_bit_cast(float, __builtin_amdgcn_raw_buffer_load_b32(r, idx[i] * 4, 0, 0));
}

// Every width: b8/b16/b32/b64/b96/b128 loads at a byte offset from a buffer of `nbytes`, and
// the soffset argument (excluded from the range check) for the dword load.
extern "C" __global__ void buffer_widths(const unsigned char* src, const int* off, unsigned* out,
                                         int nbytes, int soff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src, nbytes);
  int o = off[i];
  unsigned* d = out + 12 * i;
  d[0] = __builtin_amdgcn_raw_buffer_load_b8(r, o, 0, 0);
  d[1] = __builtin_amdgcn_raw_buffer_load_b16(r, o & ~1, 0, 0);
  d[2] = __builtin_amdgcn_raw_buffer_load_b32(r, o & ~3, soff, 0);
  uint2_t v2 = __builtin_amdgcn_raw_buffer_load_b64(r, o & ~3, 0, 0);
  uint3_t v3 = __builtin_amdgcn_raw_buffer_load_b96(r, o & ~3, 0, 0);
  uint4_t v4 = __builtin_amdgcn_raw_buffer_load_b128(r, o & ~3, 0, 0);
  d[3] = v2.x; d[4] = v2.y; d[5] = v3.x; d[6] = v3.y; d[7] = v3.z;
  d[8] = v4.x; d[9] = v4.y; d[10] = v4.z; d[11] = v4.w;
}

// Stores: out-of-range ones are dropped (the buffer tail past `valid` keeps its contents).
extern "C" __global__ void buffer_scatter(float* dst, const int* idx, const float* val,
                                          int valid) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(dst, valid * 4);
  __builtin_amdgcn_raw_buffer_store_b32(__builtin_bit_cast(unsigned, val[i]), r, idx[i] * 4, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b8((unsigned char)i, r, 4 * valid + i, 0, 0);  // all OOB
}

// buffer_atomic_add with and without return (no clang builtin for buffer atomics in LLVM 19,
// so inline asm; sc0 = return the pre-op value on gfx940+).
extern "C" __global__ void buffer_atomics(unsigned* counters, const int* slot, unsigned* prev,
                                          int nslots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(counters, nslots * 4);
  unsigned v = 1;
  int o = slot[i] * 4;
  asm volatile("buffer_atomic_add %0, %1, %2, 0 offen sc0\n\ts_waitcnt vmcnt(0)"
               : "+v"(v) : "v"(o), "s"(r) : "memory");
  prev[i] = v;
  unsigned w = 2;
  asm volatile("buffer_atomic_add %0, %1, %2, 0 offen offset:4" : : "v"(w), "v"(o), "s"(r)
               : "memory");
}

// A resource that claims more than the allocation: the emulator's own bounds check faults.
extern "C" __global__ void buffer_overclaim(const float* src, float* out, int claim) {
  int i = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = RSRC(src, claim);
  out[i] = __builtin_bit_cast(float, __builtin_amdgcn_raw_buffer_load_b32(r, i * 4, 0, 0));
}

// A resource with data format 0 is refused rather than guessed.
extern "C" __global__ void buffer_badformat(const float* src, float* out) {
  int i = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((void*)src, 0, 256, 0);
  out[i] = __builtin_bit_cast(float, __builtin_amdgcn_raw_buffer_load_b32(r, i * 4, 0, 0));
}
