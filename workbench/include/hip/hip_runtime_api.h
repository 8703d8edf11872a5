/* hip/hip_runtime_api.h — HIP's runtime API header; offline there is no host API, so it is
 * the device prelude.
 * Kept so that kernels written for ROCm can include it unchanged; it includes the whole
 * prelude (hip/hip_runtime.h), as ROCm's own headers pull in the runtime as well. */
#ifndef HIPWB_HIP_HIP_RUNTIME_API_H
#define HIPWB_HIP_HIP_RUNTIME_API_H
#include "hip_runtime.h"
#endif /* HIPWB_HIP_HIP_RUNTIME_API_H */
