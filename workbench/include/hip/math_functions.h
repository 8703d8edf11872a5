/* hip/math_functions.h — device math functions (hipwb/math.h), via the full prelude.
 * Kept so that kernels written for ROCm can include it unchanged; it includes the whole
 * prelude (hip/hip_runtime.h), as ROCm's own headers pull in the runtime as well. */
#ifndef HIPWB_HIP_MATH_FUNCTIONS_H
#define HIPWB_HIP_MATH_FUNCTIONS_H
#include "hip_runtime.h"
#endif /* HIPWB_HIP_MATH_FUNCTIONS_H */
