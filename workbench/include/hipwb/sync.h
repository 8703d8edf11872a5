/* hipwb/sync.h — barriers and memory fences.
 *
 * __syncthreads()        release fence (workgroup) + s_barrier + acquire fence (workgroup), as
 *                        HIP's __work_group_barrier does: stores before the barrier become
 *                        visible to every thread of the block after it (LDS and global memory).
 *                        On gfx12 LLVM emits the split s_barrier_signal/s_barrier_wait pair.
 * __threadfence_block()  seq_cst fence, workgroup scope
 * __threadfence()        seq_cst fence, agent (device) scope
 * __threadfence_system() seq_cst fence, system scope (clang's empty scope string = system)
 * __syncwarp()           wave-level: the lanes of a wave execute in lock-step, so this is only a
 *                        compiler barrier (wave_barrier) plus a wavefront-scope fence.
 *
 * Fences are __builtin_amdgcn_fence(order, scope) with the LLVM AMDGPU sync scopes
 * "workgroup"/"agent"/""(system) (LLVM AMDGPUUsage, "Memory Scopes"); the backend's memory
 * model turns them into the right s_waitcnt / buffer_wbl2 / buffer_inv / cache invalidations
 * for each target.
 */
#ifndef HIPWB_SYNC_H
#define HIPWB_SYNC_H

#include "config.h"

__HIPWB_FN_INLINE void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* CUDA's predicate barriers: count / and / or of `predicate` over the block. They need block-
 * wide communication, so they are built from LDS atomics around two barriers. */
__HIPWB_FN int __syncthreads_count(int __predicate) {
  __shared__ int __count;
  if (__builtin_amdgcn_workitem_id_x() == 0 && __builtin_amdgcn_workitem_id_y() == 0 &&
      __builtin_amdgcn_workitem_id_z() == 0)
    __count = 0;
  __syncthreads();
  if (__predicate) __hip_atomic_fetch_add(&__count, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  int __result = __count;
  __syncthreads(); /* nobody may reset `count` for a later call before all have read it */
  return __result;
}
__HIPWB_FN int __syncthreads_and(int __predicate) {
  return __syncthreads_count(!__predicate) == 0;
}
__HIPWB_FN int __syncthreads_or(int __predicate) {
  return __syncthreads_count(__predicate) != 0;
}

__HIPWB_FN_INLINE void __threadfence_block() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
__HIPWB_FN_INLINE void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }
__HIPWB_FN_INLINE void __threadfence_system() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }

__HIPWB_FN_INLINE void __syncwarp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
/* HIP (>= 6.2, amd_warp_sync_functions.h) takes a 64-bit mask only, like its other *_sync
 * functions (hipwb/warp.h). */
template <typename __MaskT>
__device__ inline void __syncwarp(__MaskT) {
  static_assert(__is_integral(__MaskT) && sizeof(__MaskT) == 8,
                "The mask of __syncwarp must be a 64-bit integer (unsigned long long), as in HIP");
  __syncwarp();
}

#endif /* HIPWB_SYNC_H */
