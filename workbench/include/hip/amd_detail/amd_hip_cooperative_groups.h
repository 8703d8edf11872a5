/* hip/amd_detail/amd_hip_cooperative_groups.h — the path of ROCm's implementation header, for code that includes it
 * directly: cooperative groups (hipwb/cooperative_groups.h), through hip/hip_cooperative_groups.h. */
#ifndef HIPWB_HIP_AMD_DETAIL_AMD_HIP_COOPERATIVE_GROUPS_H
#define HIPWB_HIP_AMD_DETAIL_AMD_HIP_COOPERATIVE_GROUPS_H
#include "../hip_cooperative_groups.h"
#endif
