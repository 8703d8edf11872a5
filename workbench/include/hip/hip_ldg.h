/* hip/hip_ldg.h — __ldg (hipwb/intrinsics.h: a plain load, as HIP defines it), through the
 * prelude; ROCm's own copy lives at hip/amd_detail/hip_ldg.h, which exists here too. */
#ifndef HIPWB_HIP_HIP_LDG_H
#define HIPWB_HIP_HIP_LDG_H
#include "hip_runtime.h"
#endif
