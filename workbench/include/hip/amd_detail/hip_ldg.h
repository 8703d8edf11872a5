/* hip/amd_detail/hip_ldg.h — the path of ROCm's implementation header, for code that includes it
 * directly: __ldg (hipwb/intrinsics.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_HIP_LDG_H
#define HIPWB_HIP_AMD_DETAIL_HIP_LDG_H
#include "../hip_runtime.h"
#endif
