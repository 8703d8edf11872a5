/* hip/amd_detail/amd_hip_fp6.h — the path of ROCm's implementation header, for code that includes it
 * directly: the fp6 types (hipwb/fp4_fp6.h), through hip/hip_fp6.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP6_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP6_H
#include "../hip_fp6.h"
#endif
