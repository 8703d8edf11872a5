/* hip/hip_cooperative_groups.h — HIP's cooperative groups in the offline prelude
 * (hipwb/cooperative_groups.h). */
#ifndef HIPWB_HIP_COOPERATIVE_GROUPS_H
#define HIPWB_HIP_COOPERATIVE_GROUPS_H
#include "hip_runtime.h"
#include "../hipwb/push_macros.h"
#include "../hipwb/cooperative_groups.h"
#include "../hipwb/pop_macros.h"
#endif
