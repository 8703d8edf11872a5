/* hip/hip_runtime.h for NVRTC — the workbench's portable HIP device subset mapped onto CUDA.
 *
 * CudaDevice compiles a Module's HIP source with NVRTC (cupy.RawModule) and `-I` this folder,
 * and puts `#include <hip/hip_runtime.h>` in front of the source, as the AMD build does with
 * `-include hip/hip_runtime.h`. It lets *portable* kernels run on an NVIDIA GPU so that launch,
 * DLPack and timing code paths can be exercised there; it is not a HIP implementation.
 *
 * Same in CUDA, so nothing to map: __global__ __device__ __shared__ __constant__
 *   __launch_bounds__ __forceinline__ threadIdx blockIdx blockDim gridDim __syncthreads
 *   __syncthreads_count/_and/_or __threadfence(_block/_system) __syncwarp atomicAdd/... math
 *   functions (expf, fmaxf, __expf, rsqrtf ...) __popc __clz __ffs __brev clock64.
 * Mapped here:
 *   hipThreadIdx_x ... hipGridDim_z  -> threadIdx.x ... gridDim.z
 *   HIP_DYNAMIC_SHARED(type, var)    -> extern __shared__ type var[];
 *   __lane_id()                      -> PTX %laneid
 *   __shfl/_up/_down/_xor(v, ..., w) -> __shfl*_sync(0xffffffff, v, ..., w): all 32 lanes of the
 *                                       warp must take part, as all lanes of a wave do on AMD
 *   __ballot(p) (64-bit result)      -> __ballot_sync(0xffffffff, p) widened to 64 bits
 *   __any(p), __all(p)               -> __any_sync / __all_sync(0xffffffff, p)
 *   *_sync(mask, ...) with any mask type (ROCm 7's HIP needs 64-bit) -> the 32-bit CUDA call;
 *                                       __ballot_sync returns 64 bits, as in HIP
 *   __hip_bfloat16/__hip_bfloat162   -> __nv_bfloat16/__nv_bfloat162 (when cuda_bf16.h exists)
 *   __half, __half2                  -> cuda_fp16.h (when it exists)
 * warpSize is CUDA's built-in: 32 on every NVIDIA GPU, where an AMD CDNA wave has 64 lanes.
 * Kernels that hard-code 64 (or assume a 64-bit __ballot fills up) are not portable; use
 * warpSize. Not mapped: __builtin_amdgcn_* builtins, inline AMD assembly, HIP vector-type
 * operators (float4 + float4), wall_clock64; CudaDevice refuses the first two with the cell line.
 */
#ifndef HIPWB_CUDA_HIP_RUNTIME_H
#define HIPWB_CUDA_HIP_RUNTIME_H

#define __HIPWB_CUDA__ 1
#define __HIP_PLATFORM_NVIDIA__ 1

#if defined(__has_include)
#if __has_include(<cuda_fp16.h>)
#include <cuda_fp16.h>
#endif
#if __has_include(<cuda_bf16.h>)
#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
#endif
#endif

#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#define __HIPWB_FULL_WARP 0xffffffffu

/* Each mapped name is a function-like macro over a __hipwb_* function, so it cannot clash with
 * a declaration CUDA's own headers may already have made (they are included before this file;
 * the functions below are parsed before the macros exist, so they call CUDA's originals). */

static __device__ __forceinline__ unsigned int __hipwb_lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/* HIP's mask-less warp operations (CUDA removed these forms for sm_70+). */
template <typename T>
static __device__ __forceinline__ T __hipwb_shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(__HIPWB_FULL_WARP, var, src_lane, width);
}
template <typename T>
static __device__ __forceinline__ T __hipwb_shfl_up(T var, unsigned int delta,
                                                    int width = warpSize) {
  return __shfl_up_sync(__HIPWB_FULL_WARP, var, delta, width);
}
template <typename T>
static __device__ __forceinline__ T __hipwb_shfl_down(T var, unsigned int delta,
                                                      int width = warpSize) {
  return __shfl_down_sync(__HIPWB_FULL_WARP, var, delta, width);
}
template <typename T>
static __device__ __forceinline__ T __hipwb_shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(__HIPWB_FULL_WARP, var, lane_mask, width);
}
static __device__ __forceinline__ unsigned long long __hipwb_ballot(int predicate) {
  return (unsigned long long)__ballot_sync(__HIPWB_FULL_WARP, predicate);
}
static __device__ __forceinline__ int __hipwb_any(int predicate) {
  return __any_sync(__HIPWB_FULL_WARP, predicate);
}
static __device__ __forceinline__ int __hipwb_all(int predicate) {
  return __all_sync(__HIPWB_FULL_WARP, predicate);
}

/* HIP's *_sync forms take a 64-bit lane mask on ROCm 7 (cupy PR #9977,
 * https://github.com/cupy/cupy/pull/9977: a static_assert fires in hiprtc otherwise);
 * any mask type is accepted here and its low 32 bits are CUDA's mask. */
template <typename M, typename T>
static __device__ __forceinline__ T __hipwb_shfl_sync(M mask, T var, int src_lane,
                                                      int width = warpSize) {
  return __shfl_sync((unsigned int)mask, var, src_lane, width);
}
template <typename M, typename T>
static __device__ __forceinline__ T __hipwb_shfl_up_sync(M mask, T var, unsigned int delta,
                                                         int width = warpSize) {
  return __shfl_up_sync((unsigned int)mask, var, delta, width);
}
template <typename M, typename T>
static __device__ __forceinline__ T __hipwb_shfl_down_sync(M mask, T var, unsigned int delta,
                                                           int width = warpSize) {
  return __shfl_down_sync((unsigned int)mask, var, delta, width);
}
template <typename M, typename T>
static __device__ __forceinline__ T __hipwb_shfl_xor_sync(M mask, T var, int lane_mask,
                                                          int width = warpSize) {
  return __shfl_xor_sync((unsigned int)mask, var, lane_mask, width);
}
template <typename M>
static __device__ __forceinline__ unsigned long long __hipwb_ballot_sync(M mask, int predicate) {
  return (unsigned long long)__ballot_sync((unsigned int)mask, predicate);
}
template <typename M>
static __device__ __forceinline__ int __hipwb_any_sync(M mask, int predicate) {
  return __any_sync((unsigned int)mask, predicate);
}
template <typename M>
static __device__ __forceinline__ int __hipwb_all_sync(M mask, int predicate) {
  return __all_sync((unsigned int)mask, predicate);
}

#define __lane_id() __hipwb_lane_id()
#define __shfl(...) __hipwb_shfl(__VA_ARGS__)
#define __shfl_up(...) __hipwb_shfl_up(__VA_ARGS__)
#define __shfl_down(...) __hipwb_shfl_down(__VA_ARGS__)
#define __shfl_xor(...) __hipwb_shfl_xor(__VA_ARGS__)
#define __ballot(p) __hipwb_ballot(p)
#define __any(p) __hipwb_any(p)
#define __all(p) __hipwb_all(p)
#define __shfl_sync(...) __hipwb_shfl_sync(__VA_ARGS__)
#define __shfl_up_sync(...) __hipwb_shfl_up_sync(__VA_ARGS__)
#define __shfl_down_sync(...) __hipwb_shfl_down_sync(__VA_ARGS__)
#define __shfl_xor_sync(...) __hipwb_shfl_xor_sync(__VA_ARGS__)
#define __ballot_sync(m, p) __hipwb_ballot_sync(m, p)
#define __any_sync(m, p) __hipwb_any_sync(m, p)
#define __all_sync(m, p) __hipwb_all_sync(m, p)

#endif /* HIPWB_CUDA_HIP_RUNTIME_H */
