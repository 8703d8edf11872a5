/* hip/hip_fp8.h — HIP's fp8 types and conversions (hipwb/fp8.h): __hip_fp8_e4m3 & co. (OCP),
 * their _fnuz forms, x2/x4 types, __hip_cvt_* functions and the E8M0 scale type. Includes the
 * whole prelude, as ROCm's header pulls in the runtime. */
#ifndef HIPWB_HIP_HIP_FP8_H
#define HIPWB_HIP_HIP_FP8_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"
#include "../hipwb/fp8.h"
#include "../hipwb/pop_macros.h"
#endif /* HIPWB_HIP_HIP_FP8_H */
