/* hip/amd_detail/amd_math_functions.h — the path of ROCm's implementation header, for code that includes it
 * directly: the device math (hipwb/math.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_MATH_FUNCTIONS_H
#define HIPWB_HIP_AMD_DETAIL_AMD_MATH_FUNCTIONS_H
#include "../hip_runtime.h"
#endif
