/* hip/amd_detail/amd_hip_fp16.h — the path of ROCm's implementation header, for code that includes it
 * directly: __half / __half2 (hipwb/half.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP16_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_FP16_H
#include "../hip_runtime.h"
#endif
