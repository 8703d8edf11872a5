/* hip/hip_ext_ocp.h — ROCm's hip_ext_ocp.h API in the offline prelude (hipwb/ocp.h documents what it
 * provides). Includes the whole prelude, as ROCm's header pulls in the runtime. */
#ifndef HIPWB_HIP_HIP_EXT_OCP_H
#define HIPWB_HIP_HIP_EXT_OCP_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"
#include "../hipwb/ocp.h"
#include "../hipwb/pop_macros.h"
#endif /* HIPWB_HIP_HIP_EXT_OCP_H */
