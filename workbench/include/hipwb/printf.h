/* hipwb/printf.h — printf and assert in device code.
 *
 * printf: the device declaration HIP's headers make (a host <cstdio> declaration alone is not
 * callable from a kernel). The workbench compiles with `-mprintf-kind=buffered`, so clang lowers
 * every device printf call itself (llvm/lib/Transforms/Utils/AMDGPUEmitPrintf.cpp): it reserves a
 * frame with `__printf_alloc(bytes)` and stores [control dword: size << 2 | 2 if the format is a
 * constant][MD5 low 64 bits of the format, or the format string][each argument, 8 bytes, or a
 * %s string's bytes padded to 8]; the format strings go to the code object's `amdhsa.printf`
 * metadata and the kernel gets a `hidden_printf_buffer` argument. `__printf_alloc` lives in
 * hipwb's own device library (hipwb/devlib/hipwb_devlib.hip, linked only where used); the
 * emulator provides the buffer and prints the frames after the launch, and ROCm's runtime
 * prints buffered-printf frames of a code object the same way on a GPU.
 *
 * assert: glibc's <assert.h> macro calls __assert_fail(expr, file, line, function); as in ROCm,
 * a device definition of __assert_fail (hipwb/devlib) prints "file:line: function: Device-side
 * assertion `expr' failed." and executes s_trap, which the emulator reports as a KernelFault
 * naming the lanes and the source line. NDEBUG removes assert as usual. __assertfail (CUDA's
 * name) is declared too.
 *
 * This header must come before <cstdio>/<cassert> so that `std::printf` sees both declarations.
 */
#ifndef HIPWB_PRINTF_H
#define HIPWB_PRINTF_H

#include "config.h"

extern "C" {
__device__ int printf(const char *__format, ...);
__device__ __attribute__((__noreturn__)) void __assert_fail(const char *__assertion, const char *__file,
                                                     unsigned int __line,
                                                     const char *__function) noexcept;
__device__ __attribute__((__noreturn__)) void __assertfail(const char *__message, const char *__file,
                                                    unsigned int __line, const char *__function,
                                                    size_t __char_size) noexcept;
}

#endif /* HIPWB_PRINTF_H */
