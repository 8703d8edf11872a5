/* hip/hip_ext.h — HIP's AMD extensions to the launch and allocation API (host code only).
 *
 * hipExtLaunchKernelGGL launches like hipLaunchKernelGGL and records start/stop events around
 * the kernel (HIP runtime API reference, "Launch API" extensions: `template <typename... Args,
 * typename F = void (*)(Args...)> void hipExtLaunchKernelGGL(F kernel, const dim3& numBlocks,
 * const dim3& dimBlocks, std::uint32_t sharedMemBytes, hipStream_t stream, hipEvent_t
 * startEvent, hipEvent_t stopEvent, std::uint32_t flags, Args... args)`). Here, as for the rest
 * of the host API (hipwb/host_api.h), host code is parsed, never run: the launch is written as a
 * triple-chevron launch, so naming a kernel template in it makes the device compilation emit that
 * instantiation, as a real launch would. */
#ifndef HIPWB_HIP_HIP_EXT_H
#define HIPWB_HIP_HIP_EXT_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"

/* flags of hipExtMallocWithFlags (HIP runtime API reference) */
#define hipDeviceMallocDefault 0x0
#define hipDeviceMallocFinegrained 0x1
#define hipMallocSignalMemory 0x2
#define hipDeviceMallocUncached 0x3
#define hipDeviceMallocContiguous 0x4

__host__ hipError_t hipExtMallocWithFlags(void **__ptr, size_t __size, unsigned int __flags);
__host__ hipError_t hipExtLaunchKernel(const void *__func, dim3 __grid, dim3 __block, void **__args,
                                       size_t __shmem, hipStream_t __stream, hipEvent_t __start,
                                       hipEvent_t __stop, int __flags);

template <typename... __Args, typename __F = void (*)(__Args...)>
__host__ inline void hipExtLaunchKernelGGL(__F __kernel, const dim3 &__grid, const dim3 &__block,
                                           unsigned int __shmem, hipStream_t __stream,
                                           hipEvent_t __start, hipEvent_t __stop,
                                           unsigned int __flags, __Args... __args) {
  (void)__start;
  (void)__stop;
  (void)__flags;
  __kernel<<<__grid, __block, __shmem, __stream>>>(__args...);
}

#include "../hipwb/pop_macros.h"
#endif /* HIPWB_HIP_HIP_EXT_H */
