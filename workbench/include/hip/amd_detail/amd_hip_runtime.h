/* hip/amd_detail/amd_hip_runtime.h — the path of ROCm's implementation header, for code that includes it
 * directly: the whole prelude (hip/hip_runtime.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_RUNTIME_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_RUNTIME_H
#include "../hip_runtime.h"
#endif
