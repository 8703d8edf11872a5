/* hipwb/std.h — the C and C++ standard headers HIP's own headers make visible to every kernel.
 *
 * ROCm's hip_runtime.h (through clang's __clang_hip_runtime_wrapper.h and __clang_hip_cmath.h)
 * includes <cmath>, <cstdlib>, <climits>, <limits>, <type_traits> and <utility>, so ordinary HIP
 * code uses INFINITY/NAN/HUGE_VALF, FLT_MAX/INT_MAX, std::numeric_limits and std::enable_if
 * without including anything — and host code in a pasted .hip file calls std::fabs & co.
 * without including <cmath>. Parsing these headers costs ~100 ms of CPU per compile (clang 22;
 * <cmath> ~80 ms of it), the price of ROCm's behaviour. These are the host's (libstdc++) headers, parsed as HIP clang
 * parses them for a device compilation: their functions are host functions, and the prelude's
 * device math (hipwb/math.h, hipwb/math_ocml.h) overloads them by target, as clang's wrapper
 * headers do. <cstdio>/<cassert> come after hipwb/printf.h's device declarations. Each header is
 * included only where it exists (a machine without a C++ standard library still gets the rest
 * of the prelude). <float.h> and <limits.h> are clang's own resource headers.
 */
#ifndef HIPWB_STD_H
#define HIPWB_STD_H

/* memcpy/memset in device code: LLVM expands llvm.memcpy/memset inline for AMDGPU (constant
 * sizes unrolled, variable sizes as loops: LowerMemIntrinsics), as ROCm's device headers do. */
extern "C" {
__device__ static inline void *memcpy(void *__d, const void *__s, size_t __n) {
  return __builtin_memcpy(__d, __s, __n);
}
__device__ static inline void *memset(void *__d, int __c, size_t __n) {
  return __builtin_memset(__d, __c, __n);
}
}

#include <float.h>
#include <limits.h>

#if __has_include(<cmath>)
#include <cmath>
#endif
#if __has_include(<cstdlib>)
#include <cstdlib>
#endif
#if __has_include(<cstdio>)
#include <cstdio>
#endif
#if __has_include(<cassert>)
#include <cassert>
#endif
#if __has_include(<cstring>)
#include <cstring>
#endif
#if __has_include(<limits>)
#include <limits>
#endif
#if __has_include(<type_traits>)
#include <type_traits>
#endif
#if __has_include(<utility>)
#include <utility>
#endif
#if __has_include(<new>)
#include <new>
#endif
/* The rest of what ROCm's hip_runtime.h includes (amd_hip_runtime.h: <cstddef>, <cstdint>,
 * <tuple>; clang's HIP wrapper: <algorithm>, <complex>, <new>). Through <complex> libstdc++ also
 * brings <sstream>, <string> and the stream classes, which pasted host code uses without
 * including them (std::string, std::ostringstream). <complex> is the expensive one: with it a
 * trivial kernel compiles in about 1.9x the CPU time (docs/prelude.md); -DHIPWB_NO_HOST_STD
 * leaves it out (host code then includes <string> itself). std::complex is usable in host code
 * only (ROCm's clang wrapper also makes it a device type; the prelude does not). */
#if __has_include(<cstddef>)
#include <cstddef>
#endif
#if __has_include(<cstdint>)
#include <cstdint>
#endif
#if __has_include(<tuple>)
#include <tuple>
#endif
#if __has_include(<algorithm>)
#include <algorithm>
#endif
#if __has_include(<complex>) && !defined(HIPWB_NO_HOST_STD)
#include <complex>
#endif
/* <chrono>: ROCm's runtime headers make std::chrono visible too, and host code of AMD's own
 * libraries relies on it (rocPRIM 3.3's device/device_transform.hpp times launches with
 * std::chrono::high_resolution_clock without including <chrono>; hipCUB PR #489, "Add includes
 * for standard chrono header": "we relied on HIP to include some of these standard library
 * headers for us"). About 40 ms of CPU per compile; -DHIPWB_NO_HOST_STD leaves it out too. */
#if __has_include(<chrono>) && !defined(HIPWB_NO_HOST_STD)
#include <chrono>
#endif

#endif /* HIPWB_STD_H */
