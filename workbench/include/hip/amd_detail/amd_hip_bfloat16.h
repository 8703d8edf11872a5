/* hip/amd_detail/amd_hip_bfloat16.h — the path of ROCm's implementation header, for code that
 * includes it directly: hip_bfloat16 (hipwb/bfloat16_struct.h), through hip/hip_bfloat16.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_BFLOAT16_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_BFLOAT16_H
#include "../hip_bfloat16.h"
#endif
