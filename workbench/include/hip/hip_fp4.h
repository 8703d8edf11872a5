/* hip/hip_fp4.h — ROCm's hip_fp4.h API in the offline prelude (hipwb/fp4_fp6.h documents what it
 * provides). Includes the whole prelude, as ROCm's header pulls in the runtime. */
#ifndef HIPWB_HIP_HIP_FP4_H
#define HIPWB_HIP_HIP_FP4_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"
#include "../hipwb/fp4_fp6.h"
#include "../hipwb/pop_macros.h"
#endif /* HIPWB_HIP_HIP_FP4_H */
