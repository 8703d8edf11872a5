/* hip/amd_detail/amd_hip_vector_types.h — the path of ROCm's implementation header, for code that includes it
 * directly: the vector types and HIP_vector_type (hipwb/vector_types.h), through hip/hip_runtime.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_VECTOR_TYPES_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_VECTOR_TYPES_H
#include "../hip_runtime.h"
#endif
