/* hipwb_devlib.hip — hipwb's own small device library, built to LLVM bitcode per target.
 *
 * workbench/devlib.py compiles this file once per (arch, wave size, math options, code-object
 * version) into the compile cache and every offline compile links it with
 * `-mlink-builtin-bitcode`, which links
 * only the functions a kernel uses and internalizes them: a kernel that never prints carries
 * none of this. It holds what clang's lowering or AMD's ocml library call by name:
 *
 *   __printf_alloc     reserves a frame in the printf buffer (clang's buffered printf lowering)
 *   __assert_fail      prints the failed assertion and traps (glibc's assert macro calls it)
 *   __assertfail       the same for CUDA-style callers
 *   __oclc_*           the control constants AMD's ocml reads (ROCm ships them as oclc_*.bc):
 *                      finite-only, unsafe-math, denormals-are-zero, correctly rounded sqrt,
 *                      wave size, ISA version, ABI version
 *
 * The printf buffer's layout is the HIP runtime's (ROCm-Device-Libs printf allocator; the
 * runtime allocates it when the code object has `amdhsa.printf` metadata): a uint32 write
 * offset, a uint32 size in bytes, then the frames from byte 8. Its address is the kernel's
 * `hidden_printf_buffer` argument, at byte 72 of the implicit arguments in code-object v5/v6
 * (LLVM AMDGPUUsage, "Code Object V5 Metadata", hidden kernel arguments table) and at byte 24
 * in v4 (after hidden_global_offset_{x,y,z}; "Code Object V4 Metadata"), as ROCm-Device-Libs'
 * ockl __printf_alloc picks by __oclc_ABI_version.
 *
 * __HIPWB_ABI_VERSION is the code-object version times 100 (400, 500, 600): devlib.py builds
 * one library per version with the matching -mcode-object-version, since clang links bitcode
 * only when the modules' amdhsa_code_object_version flags agree.
 */
#if !defined(__HIPWB_ISA_VERSION) || !defined(__HIPWB_ABI_VERSION)
#error "build through workbench/devlib.py (it defines the target's constants)"
#endif

#include "../printf.h"

#define __HIPWB_GLOBAL __attribute__((address_space(1)))
#define __HIPWB_CONST __attribute__((address_space(4)))

extern "C" {

__attribute__((device)) __HIPWB_GLOBAL char *__printf_alloc(unsigned int bytes) {
  const __HIPWB_CONST char *implicit =
      (const __HIPWB_CONST char *)__builtin_amdgcn_implicitarg_ptr();
  const unsigned int at = __HIPWB_ABI_VERSION < 500 ? 24 : 72; /* hidden_printf_buffer */
  __HIPWB_GLOBAL char *buffer = *(__HIPWB_GLOBAL char *const __HIPWB_CONST *)(implicit + at);
  if (buffer == nullptr)
    return nullptr;
  __HIPWB_GLOBAL unsigned int *header = (__HIPWB_GLOBAL unsigned int *)buffer;
  unsigned int size = header[1];
  unsigned int offset = __hip_atomic_fetch_add(&header[0], bytes, __ATOMIC_RELAXED,
                                               __HIP_MEMORY_SCOPE_AGENT);
  if (8ull + offset + bytes > size)
    return nullptr;
  return buffer + 8 + offset;
}

__attribute__((device, noreturn, always_inline)) void __assert_fail(const char *assertion, const char *file,
                                                     unsigned int line,
                                                     const char *function) noexcept {
  printf("%s:%u: %s: Device-side assertion `%s' failed.\n", file, line, function, assertion);
  __builtin_trap();
}

__attribute__((device, noreturn)) void __assertfail(const char *message, const char *file,
                                                    unsigned int line, const char *function,
                                                    size_t) noexcept {
  __assert_fail(message, file, line, function);
}

/* ocml's control constants (ROCm-Device-Libs, oclc.h): read by ocml's functions and folded
 * away when both are linked, once workbench/devlib.py has made them linkonce_odr constants that
 * are not externally_initialized (as ROCm's oclc_*.bc define them). */
__attribute__((constant)) extern const bool __oclc_finite_only_opt =
    __HIPWB_FINITE_ONLY;
__attribute__((constant)) extern const bool __oclc_unsafe_math_opt =
    __HIPWB_UNSAFE_MATH;
__attribute__((constant)) extern const bool __oclc_daz_opt = __HIPWB_DAZ;
__attribute__((constant)) extern const bool __oclc_correctly_rounded_sqrt32 =
    __HIPWB_CORRECT_SQRT;
__attribute__((constant)) extern const bool __oclc_wavefrontsize64 = __HIPWB_WAVE64;
__attribute__((constant)) extern const int __oclc_ISA_version = __HIPWB_ISA_VERSION;
__attribute__((constant)) extern const int __oclc_ABI_version = __HIPWB_ABI_VERSION;
}
