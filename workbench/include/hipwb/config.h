/* hipwb/config.h — common settings of the offline HIP device prelude.
 *
 * The prelude is used when no ROCm installation exists: the workbench compiles with
 * `clang -x hip --offload-device-only -nogpuinc -nogpulib`, so clang supplies neither its HIP
 * wrapper headers nor the ROCm device libraries (ocml/ockl). Everything here is therefore written
 * on clang builtins and LLVM intrinsics that the AMDGPU backend lowers to instructions by itself;
 * nothing may lower to a call of an external function (the code object would keep an undefined
 * symbol and could not be loaded).
 *
 * Requirements checked below: HIP language mode, device compilation for amdgcn, clang >= 19
 * (the first release the workbench supports; `__builtin_amdgcn_exp2f/logf`, arithmetic on
 * `__bf16` and `__builtin_amdgcn_ballot_w64` in wave32 are relied upon).
 */
#ifndef HIPWB_CONFIG_H
#define HIPWB_CONFIG_H

#if !defined(__HIP__)
#error "hipwb prelude: this header is for HIP device code; compile with clang -x hip"
#endif
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__AMDGCN__)
#error "hipwb prelude: device compilation must target amdgcn (--offload-arch=gfxNNN)"
#endif
#if !defined(__clang__) || __clang_major__ < 19
#error "hipwb prelude: needs clang >= 19"
#endif

/* Fixed-width integers and size_t, which HIP's headers make available to every kernel. Both are
 * clang resource headers (typedefs only; no host library code). */
#include <stddef.h>
#include <stdint.h>

/* Identifies this prelude (real ROCm headers do not define it): a kernel may test for it. */
#define __HIPWB_PRELUDE__ 1

/* The platform macro HIP's own headers define for AMD targets; portable kernels test it. */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif

/* HIP's qualifiers (documented in hipwb/qualifiers.h), defined here because every header of the
 * prelude uses them. Each is the attribute's reserved spelling (`__device__` inside its own
 * expansion is not expanded again), so a user macro named `device` or `host` changes nothing. */
#define __global__ __attribute__((__global__))
#define __device__ __attribute__((__device__))
#define __host__ __attribute__((__host__))
#define __shared__ __attribute__((__shared__))
#define __constant__ __attribute__((__constant__))

/* Function-definition prefixes used throughout the prelude.
 * __HIPWB_FN: a device helper, `static` so that it cannot clash with a host declaration of the
 * same name (e.g. glibc's `expf` if the user includes <cmath>): CUDA/HIP overloading keeps host
 * and device functions of equal signature apart, as clang's own HIP wrapper headers rely on.
 * __HIPWB_FN_INLINE: the same, always inlined (one-instruction wrappers, coordinate getters). */
#define __HIPWB_FN static __device__ inline
#define __HIPWB_FN_INLINE static __device__ inline __attribute__((__always_inline__))
/* __HIPWB_HD_INLINE: a helper callable from host and device code, as ROCm declares its
 * conversions (__float2half, __half22float2, ...) `__host__ __device__`. */
#define __HIPWB_HD_INLINE static __host__ __device__ inline __attribute__((__always_inline__))

/* Address space 4 (constant) pointer, the type of __builtin_amdgcn_implicitarg_ptr()'s result
 * (LLVM AMDGPUUsage "Address Spaces": 4 = constant). */
#define __HIPWB_CONSTANT_AS __attribute__((__address_space__(4)))

#endif /* HIPWB_CONFIG_H */
