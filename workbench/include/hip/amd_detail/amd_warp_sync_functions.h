/* hip/amd_detail/amd_warp_sync_functions.h — the path of ROCm's implementation header, for code that includes it
 * directly: the *_sync warp functions (hipwb/warp.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_WARP_SYNC_FUNCTIONS_H
#define HIPWB_HIP_AMD_DETAIL_AMD_WARP_SYNC_FUNCTIONS_H
#include "../hip_runtime.h"
#endif
