// HIP's warp-sync reductions, matches and lane masks as kernels use them. Written for hipwb's
// tests (tests/prelude/test_warp_sync.py). The host gives each lane a group (grp < 0: the lane leaves
// before the call, so EXEC is divergent) and the 64-bit mask of its group's lanes in its wave:
// one call site then sees several disjoint masks, as HIP's mask rule allows.
#include <hip/hip_runtime.h>

__global__ void reduce_groups(const int* grp, const unsigned long long* masks, const int* xi,
                              const unsigned* xu, int* out_i, unsigned* out_u) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (grp[gid] < 0) return;
  unsigned long long m = masks[gid];
  int vi = xi[gid];
  unsigned vu = xu[gid];
  out_i[3 * gid + 0] = __reduce_add_sync(m, vi);
  out_i[3 * gid + 1] = __reduce_min_sync(m, vi);
  out_i[3 * gid + 2] = __reduce_max_sync(m, vi);
  out_u[6 * gid + 0] = __reduce_add_sync(m, vu);
  out_u[6 * gid + 1] = __reduce_min_sync(m, vu);
  out_u[6 * gid + 2] = __reduce_max_sync(m, vu);
  out_u[6 * gid + 3] = __reduce_and_sync(m, vu);
  out_u[6 * gid + 4] = __reduce_or_sync(m, vu);
  out_u[6 * gid + 5] = __reduce_xor_sync(m, vu);
}

// One call site per branch of a divergent if: odd groups in one, even groups in the other.
__global__ void reduce_branches(const int* grp, const unsigned long long* masks,
                                const unsigned* xu, unsigned* out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int g = grp[gid];
  if (g < 0) return;
  unsigned long long m = masks[gid];
  unsigned v = xu[gid];
  if (g & 1) {
    out[2 * gid] = __reduce_xor_sync(m, v);
    out[2 * gid + 1] = __reduce_max_sync(m, v);
  } else {
    out[2 * gid] = __reduce_or_sync(m, v);
    out[2 * gid + 1] = __reduce_min_sync(m, v);
  }
}

template <typename T>
__device__ void match_both(int gid, unsigned long long m, T v, unsigned long long* any,
                           unsigned long long* all, int* pred) {
  any[gid] = __match_any_sync(m, v);
  int p = -1;
  all[gid] = __match_all_sync(m, v, &p);
  pred[gid] = p;
}

#define MATCH_KERNEL(NAME, T)                                                                 \
  __global__ void NAME(const int* grp, const unsigned long long* masks, const T* v,          \
                       unsigned long long* any, unsigned long long* all, int* pred) {       \
    int gid = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    if (grp[gid] < 0) return;                                                                  \
    match_both(gid, masks[gid], v[gid], any, all, pred);                                       \
  }
MATCH_KERNEL(match_i32, int)
MATCH_KERNEL(match_u32, unsigned)
MATCH_KERNEL(match_i64, long long)
MATCH_KERNEL(match_long, long)
MATCH_KERNEL(match_f32, float)
MATCH_KERNEL(match_f64, double)

__global__ void lanemasks(const int* grp, unsigned long long* out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (grp[gid] < 0) return;
  out[3 * gid + 0] = __lanemask_lt();
  out[3 * gid + 1] = __lanemask_gt();
  out[3 * gid + 2] = __lanemask_eq();
}

// Stream compaction with one atomic per wave: a kept lane's slot is the number of kept lanes
// below it (__lanemask_lt), the wave's count comes from __reduce_add_sync over the lanes still
// running after the ragged-tail exit.
__global__ void compact(const int* x, int n, int* out, int* count) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n) return;
  int keep = x[gid] > 0;
  unsigned long long active = __activemask();
  unsigned total = __reduce_add_sync(active, (unsigned)keep);
  unsigned rank = __popcll(__ballot(keep) & __lanemask_lt());
  int base = 0;
  if (__lanemask_lt() == 0) base = atomicAdd(count, (int)total);  // the first running lane
  base = __shfl(base, __ffsll((long long)active) - 1);
  if (keep) out[base + rank] = x[gid];
}

// Breaks HIP's mask rule: ~0ull names lanes that do not make the call.
__global__ void bad_mask(const int* x, int* out) {
  int i = threadIdx.x;
  if (i % 4 == 0) out[i] = __reduce_add_sync(~0ull, x[i]);
}

// Breaks it differently: even lanes name all lanes, odd lanes their own bit only.
__global__ void bad_match(const int* x, unsigned long long* out) {
  int i = threadIdx.x;
  unsigned long long m = (i & 1) ? 1ull << __lane_id() : ~0ull;
  out[i] = __match_any_sync(m, x[i]);
}

#if defined(HIP_ENABLE_EXTRA_WARP_SYNC_TYPES)
// HIP's opt-in reduction types (long long, unsigned long long, float, double; int for and/or/xor)
__global__ void reduce_extra(const int* grp, const unsigned long long* masks, const long long* xl,
                             const float* xf, const double* xd, long long* out_l,
                             unsigned long long* out_u, float* out_f, double* out_d, int* out_i) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (grp[gid] < 0) return;
  unsigned long long m = masks[gid];
  long long l = xl[gid];
  unsigned long long u = (unsigned long long)l;
  out_l[3 * gid + 0] = __reduce_add_sync(m, l);
  out_l[3 * gid + 1] = __reduce_min_sync(m, l);
  out_l[3 * gid + 2] = __reduce_max_sync(m, l);
  out_u[4 * gid + 0] = __reduce_max_sync(m, u);
  out_u[4 * gid + 1] = __reduce_and_sync(m, u);
  out_u[4 * gid + 2] = __reduce_or_sync(m, u);
  out_u[4 * gid + 3] = __reduce_xor_sync(m, u);
  out_f[3 * gid + 0] = __reduce_add_sync(m, xf[gid]);
  out_f[3 * gid + 1] = __reduce_min_sync(m, xf[gid]);
  out_f[3 * gid + 2] = __reduce_max_sync(m, xf[gid]);
  out_d[2 * gid + 0] = __reduce_add_sync(m, xd[gid]);
  out_d[2 * gid + 1] = __reduce_max_sync(m, xd[gid]);
  out_i[gid] = __reduce_xor_sync(m, (int)l);
}
#endif

// HIP's mask-less __match_any/__match_all: the lanes still running are the group.
__global__ void match_running(const int* x, unsigned long long* any, unsigned long long* all,
                              int* pred) {
  int i = threadIdx.x;
  if (x[i] < 0) return;
  any[i] = __match_any(x[i] & 3);
  int p = -1;
  all[i] = __match_all(x[i] >> 8, &p);
  pred[i] = p;
}
