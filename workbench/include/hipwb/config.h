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

/* Function-definition prefixes used throughout the prelude.
 * __HIPWB_FN: a device helper, `static` so that it cannot clash with a host declaration of the
 * same name (e.g. glibc's `expf` if the user includes <cmath>): CUDA/HIP overloading keeps host
 * and device functions of equal signature apart, as clang's own HIP wrapper headers rely on.
 * __HIPWB_FN_INLINE: the same, always inlined (one-instruction wrappers, coordinate getters). */
#define __HIPWB_FN static __attribute__((device)) inline
#define __HIPWB_FN_INLINE static __attribute__((device)) inline __attribute__((always_inline))

/* Address space 4 (constant) pointer, the type of __builtin_amdgcn_implicitarg_ptr()'s result
 * (LLVM AMDGPUUsage "Address Spaces": 4 = constant). */
#define __HIPWB_CONSTANT_AS __attribute__((address_space(4)))

#endif /* HIPWB_CONFIG_H */
