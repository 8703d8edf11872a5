/* hip/amd_detail/amd_hip_bf16.h — the path of ROCm's implementation header, for code that includes it
 * directly: __hip_bfloat16 / __hip_bfloat162 (hipwb/bfloat16.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_BF16_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_BF16_H
#include "../hip_runtime.h"
#endif
