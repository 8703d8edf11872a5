/* hip/hip_runtime.h — the workbench's offline HIP device prelude (umbrella header).
 *
 * Used when no ROCm installation is present: the workbench compiles with
 * `-nogpuinc -nogpulib -isystem workbench/include -include hip/hip_runtime.h`, and kernels may
 * also `#include <hip/hip_runtime.h>` themselves (every header has an include guard). It offers
 * the device side of HIP for the documented subset below, written on clang builtins so that the
 * kernels compile to self-contained code objects (no undefined symbols). With ROCm installed the
 * workbench uses ROCm's own headers instead. Pieces, each documented in its header:
 *
 *   hipwb/config.h        requirements (HIP, amdgcn, clang >= 19), <stdint.h>, common macros
 *   hipwb/printf.h        device printf (clang's buffered lowering) and assert (__assert_fail)
 *   hipwb/std.h           the standard headers ROCm's make visible (<cmath>, <cstdlib>,
 *                         <limits>, <type_traits>, <utility>, ...)
 *   hipwb/qualifiers.h    __global__ __device__ __host__ __shared__ __constant__
 *                         __forceinline__ __launch_bounds__ HIP_DYNAMIC_SHARED
 *   hipwb/coordinates.h   threadIdx blockIdx blockDim gridDim warpSize dim3 (COV5 hidden args)
 *   hipwb/sync.h          __syncthreads (+_count/_and/_or) __threadfence(_block/_system) __syncwarp
 *   hipwb/warp.h          __lane_id __ballot __any __all __activemask __shfl(_up/_down/_xor)[_sync]
 *                         __ballot/__any/__all_sync __reduce_*_sync __match_any/all[_sync]
 *                         __lanemask_lt/gt/eq
 *   hipwb/shuffle_lanes.h the shuffles' source-lane arithmetic (host-testable)
 *   hipwb/atomics.h       atomicAdd/Sub/Exch/Min/Max/And/Or/Xor/CAS/Inc/Dec (+_system, _block)
 *   hipwb/vector_types.h  char1..double4 with .x/.y/.z/.w, operators, make_* constructors
 *   hipwb/half.h          __half __half2 (on _Float16) and the __h* intrinsics
 *   hipwb/bfloat16.h      __hip_bfloat16 __hip_bfloat162 (on __bf16)
 *   hipwb/math.h          float math (+ trivial double), fast __expf-style intrinsics, min/max
 *   hipwb/math_inline.h   tanhf powf sinf cosf tanf sincosf written on exp2/log2/fma
 *   hipwb/math_ocml.h     the rest of HIP's math, float and double, on AMD's ocml (linked as
 *                         bitcode by workbench/devlib.py; refused with a message without it)
 *   hipwb/intrinsics.h    __popc __clz __ffs __brev __umulhi __bitextract_u32 ... clock64
 *   hipwb/conversions.h   __float_as_int __longlong_as_double ... (bit casts) and the
 *                         rounding-mode conversions __float2int_rn ... __double2float_ru
 *   hipwb/host_api.h      declarations of the host API (hipMalloc, hipLaunchKernelGGL, events,
 *                         texture-object types, ...) so that whole .hip files parse
 *   hipwb/cooperative_groups.h  (through hip/hip_cooperative_groups.h) cooperative groups
 *   hipwb/fp8.h           (through hip/hip_fp8.h) __hip_fp8_e4m3 & co., OCP and FNUZ, E8M0
 *   hipwb/ocp.h           (through hip/hip_ext_ocp.h) the __amd_* OCP types and the scaled /
 *                         stochastic conversions of gfx950
 *   hipwb/fp4_fp6.h       (through hip/hip_fp4.h, hip/hip_fp6.h) __hip_fp4_e2m1, __hip_fp6_*
 *   hipwb/minifloat.h     software encode/decode of those formats (host, other targets)
 *   hipwb/push_macros.h, hipwb/pop_macros.h  keep user macros (-DN=256, -Dx=1) out of the
 *                         prelude: every public header's body sits between the two
 * ROCm's other include paths resolve too: hip/amd_detail/*.h (amd_hip_runtime.h, amd_hip_fp16.h,
 * ...) and hip/hip_ldg.h include the parts above, and the compiler also searches this hip/
 * folder itself, last (after the user's -I), so `#include <hip_bf16.h>` works as with
 * -I$ROCM_PATH/include/hip. <omp.h> (next to hip/) declares the OpenMP runtime for host code.
 *
 * Every __builtin_amdgcn_* builtin of clang stays available as is.
 *
 * Not provided offline: texture and surface fetches (tex1Dfetch, tex2D, ...: declared deleted
 * with a message), grid-wide cooperative sync, device malloc/free, and running host code: the
 * host API is declared only (the workbench launches kernels itself; main() is not run).
 */
#ifndef HIPWB_HIP_RUNTIME_H
#define HIPWB_HIP_RUNTIME_H

#include "../hipwb/push_macros.h"
#include "../hipwb/config.h"
#include "../hipwb/printf.h"
#include "../hipwb/std.h"
#include "../hipwb/qualifiers.h"
#include "../hipwb/coordinates.h"
#include "../hipwb/sync.h"
#include "../hipwb/warp.h"
#include "../hipwb/atomics.h"
#include "../hipwb/vector_types.h"
#include "../hipwb/half.h"
#include "../hipwb/bfloat16.h"
#include "../hipwb/math.h"
#include "../hipwb/intrinsics.h"
#include "../hipwb/conversions.h"
#include "../hipwb/host_api.h"
#include "../hipwb/pop_macros.h"

#endif /* HIPWB_HIP_RUNTIME_H */
