// More amdgcn builtins: float helpers (class, fract, ldexp, sin/cos in revolutions, cube map
// ids), LDS append/consume counters, packed atomics, dispatch-packet sizes, scheduling hints.
#include <hip/hip_runtime.h>

__global__ void float_helpers(const float* x, const int* e, int* cls, float* fr, float* ld,
                              float* sn, float* cs) {
  int i = threadIdx.x;
  cls[i] = __builtin_amdgcn_classf(x[i], 0x3) ? 1 : 0;            // any NaN
  cls[i] |= __builtin_amdgcn_classf(x[i], 0x204) ? 2 : 0;         // -inf or +inf
  cls[i] |= __builtin_amdgcn_classf(x[i], 0x90) ? 4 : 0;          // +-denormal
  fr[i] = __builtin_amdgcn_fractf(x[i]);
  ld[i] = __builtin_amdgcn_ldexpf(x[i], e[i]);
  sn[i] = __builtin_amdgcn_sinf(x[i]);   // sin(2*pi*x)
  cs[i] = __builtin_amdgcn_cosf(x[i]);
}

// cube-map face selection of a direction (v_cubeid / v_cubema / v_cubesc / v_cubetc)
__global__ void cube(const float* d, float* id, float* ma, float* sc, float* tc) {
  int i = threadIdx.x;
  float x = d[3 * i], y = d[3 * i + 1], z = d[3 * i + 2];
  id[i] = __builtin_amdgcn_cubeid(x, y, z);
  ma[i] = __builtin_amdgcn_cubema(x, y, z);
  sc[i] = __builtin_amdgcn_cubesc(x, y, z);
  tc[i] = __builtin_amdgcn_cubetc(x, y, z);
}

// stream compaction through the LDS append counter: ds_append adds the wave's active-lane
// count and returns the old value (one base per wave); each lane adds its rank among them
__global__ void append_compact(const int* x, int* out, int* count) {
  __shared__ int slots;
  if (threadIdx.x == 0) slots = 0;
  __syncthreads();
  int v = x[threadIdx.x];
  if (v > 0) {
    unsigned long long act = __ballot(1);
    unsigned lane = __lane_id();
    int rank = __popcll(act & ((1ull << lane) - 1));
    int at = __builtin_amdgcn_ds_append(&slots) + rank;
    out[at] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) *count = slots;
}

// sizes from the dispatch packet / implicit arguments, and scheduling hints
__global__ void sizes(unsigned* out) {
  __builtin_amdgcn_s_setprio(2);
  __builtin_amdgcn_sched_barrier(0);
  __builtin_amdgcn_s_sleep(1);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = __builtin_amdgcn_workgroup_size_x();
    out[1] = __builtin_amdgcn_grid_size_x();
    out[2] = __builtin_amdgcn_workgroup_size_y();
    out[3] = __builtin_amdgcn_grid_size_y();
  }
  __builtin_amdgcn_s_setprio(0);
}

// ds_consume: every wave takes its active-lane count off a counter that starts at `start`;
// each wave's first active lane records the value it saw
__global__ void consume_count(int start, int* seen, int* left) {
  __shared__ int c;
  if (threadIdx.x == 0) c = start;
  __syncthreads();
  if (threadIdx.x % 3 != 0) {
    int old = __builtin_amdgcn_ds_consume(&c);
    if ((int)__lane_id() == __ffsll((long long)__ballot(1)) - 1) seen[threadIdx.x / warpSize] = old;
  }
  __syncthreads();
  if (threadIdx.x == 0) *left = c;
}
