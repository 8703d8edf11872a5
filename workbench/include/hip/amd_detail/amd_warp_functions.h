/* hip/amd_detail/amd_warp_functions.h — the path of ROCm's implementation header, for code that includes it
 * directly: votes and shuffles (hipwb/warp.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_WARP_FUNCTIONS_H
#define HIPWB_HIP_AMD_DETAIL_AMD_WARP_FUNCTIONS_H
#include "../hip_runtime.h"
#endif
