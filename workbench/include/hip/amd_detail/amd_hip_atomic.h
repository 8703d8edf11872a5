/* hip/amd_detail/amd_hip_atomic.h — the path of ROCm's implementation header, for code that includes it
 * directly: the atomic functions (hipwb/atomics.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_ATOMIC_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_ATOMIC_H
#include "../hip_runtime.h"
#endif
