/* hip/hip_runtime_api.h for NVRTC: the whole CUDA-side prelude (see hip_runtime.h). */
#include "hip_runtime.h"
