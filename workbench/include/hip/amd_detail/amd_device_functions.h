/* hip/amd_detail/amd_device_functions.h — the path of ROCm's implementation header, for code that includes it
 * directly: the integer intrinsics, lane masks and clocks (hipwb/intrinsics.h, hipwb/warp.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_DEVICE_FUNCTIONS_H
#define HIPWB_HIP_AMD_DETAIL_AMD_DEVICE_FUNCTIONS_H
#include "../hip_runtime.h"
#endif
