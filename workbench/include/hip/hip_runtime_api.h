/* hip/hip_runtime_api.h — HIP's runtime API header: the device prelude (hip/hip_runtime.h),
 * which also declares the host API (hipwb/host_api.h) so that host code parses. Kept so that
 * code written for ROCm can include it unchanged. */
#ifndef HIPWB_HIP_HIP_RUNTIME_API_H
#define HIPWB_HIP_HIP_RUNTIME_API_H
#include "hip_runtime.h"
#endif /* HIPWB_HIP_HIP_RUNTIME_API_H */
