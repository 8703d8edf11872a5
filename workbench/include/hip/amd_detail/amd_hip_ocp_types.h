/* hip/amd_detail/amd_hip_ocp_types.h — the path of ROCm's implementation header, for code that includes it
 * directly: the __amd_* OCP types (hipwb/ocp.h), through hip/hip_ext_ocp.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_OCP_TYPES_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_OCP_TYPES_H
#include "../hip_ext_ocp.h"
#endif
