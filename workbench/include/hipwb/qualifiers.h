/* hipwb/qualifiers.h — HIP function/variable qualifiers and __launch_bounds__.
 *
 * The CUDA/HIP qualifiers are clang's own attributes in HIP mode (clang Attr.td: CUDAGlobal,
 * CUDADevice, CUDAHost, CUDAShared, CUDAConstant), exactly as HIP's headers spell them:
 *   __global__   -> __attribute__((global))    kernel entry point (amdgpu_kernel calling conv.)
 *   __device__   -> __device__    device function / variable in global memory
 *   __host__     -> __host__      host function (meaningful with __device__)
 *   __shared__   -> __shared__    variable in LDS (address space 3)
 *   __constant__ -> __constant__  variable in the constant address space
 *   __forceinline__ -> inline + always_inline;  __noinline__ is a clang keyword in HIP mode
 *   (since clang 15) and is left alone.
 *   __align__(N) -> __attribute__((__aligned__(N)))  (HIP's host_defines.h spelling, as CUDA's;
 *   e.g. `extern __shared__ __align__(16) float smem[];`)
 *
 * __launch_bounds__(MAX_THREADS[, MIN_WAVES_PER_EU]) follows HIP's headers: the first argument
 * becomes __amdgpu_flat_work_group_size__(1, MAX_THREADS) and the optional second one
 * __amdgpu_waves_per_eu__(MIN_WAVES_PER_EU). Attribute names: clang Attr.td AMDGPUFlatWorkGroupSize
 * / AMDGPUWavesPerEU (LLVM review D24513); they become the IR attributes
 * "amdgpu-flat-work-group-size"="1,N" and "amdgpu-waves-per-eu" (LLVM AMDGPUUsage, "LLVM IR
 * Attributes"), and N shows up as .max_flat_workgroup_size in the code-object metadata.
 * Without __launch_bounds__ clang assumes 1..1024 threads per block (AMDGPUUsage: implied
 * default "1,1024"). Note HIP's second argument is waves per EU (SIMD), not CUDA's blocks per
 * multiprocessor.
 */
#ifndef HIPWB_QUALIFIERS_H
#define HIPWB_QUALIFIERS_H

#include "config.h"

/* __global__ ... __constant__ themselves are defined in config.h (the prelude's own headers use
 * them); each expands to the attribute of the same name (a macro is not re-expanded inside its
 * own expansion), the reserved spelling that no user macro can change. */
#define __forceinline__ inline __attribute__((__always_inline__))
#ifndef __align__
#define __align__(n) __attribute__((__aligned__(n)))
#endif

#define __HIPWB_LAUNCH_BOUNDS_1(max_threads) \
  __attribute__((__amdgpu_flat_work_group_size__(1, max_threads)))
#define __HIPWB_LAUNCH_BOUNDS_2(max_threads, min_waves_per_eu)    \
  __attribute__((__amdgpu_flat_work_group_size__(1, max_threads), \
                 __amdgpu_waves_per_eu__(min_waves_per_eu)))
#define __HIPWB_PICK_3RD(__a, __b, __name, ...) __name
#define __launch_bounds__(...) \
  __HIPWB_PICK_3RD(__VA_ARGS__, __HIPWB_LAUNCH_BOUNDS_2, __HIPWB_LAUNCH_BOUNDS_1, )(__VA_ARGS__)

/* Dynamic LDS: `HIP_DYNAMIC_SHARED(float, smem)` declares the block's dynamically sized shared
 * array (its size comes from the launch), as in HIP. */
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE

#endif /* HIPWB_QUALIFIERS_H */
