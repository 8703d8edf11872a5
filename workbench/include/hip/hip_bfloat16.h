/* hip/hip_bfloat16.h — hip_bfloat16, ROCm's bfloat16 struct (hipwb/bfloat16_struct.h), with the
 * whole prelude, as ROCm's header pulls in the runtime. (__hip_bfloat16 is hip/hip_bf16.h.) */
#ifndef HIPWB_HIP_HIP_BFLOAT16_H
#define HIPWB_HIP_HIP_BFLOAT16_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"
#include "../hipwb/bfloat16_struct.h"
#include "../hipwb/pop_macros.h"
#endif /* HIPWB_HIP_HIP_BFLOAT16_H */
