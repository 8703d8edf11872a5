/* hip/amd_detail/amd_hip_fp8.h — the path of ROCm's implementation header, for code that includes it
 * directly: the fp8 types (hipwb/fp8.h), through hip/hip_fp8.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP8_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP8_H
#include "../hip_fp8.h"
#endif
