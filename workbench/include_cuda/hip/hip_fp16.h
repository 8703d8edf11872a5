/* hip/hip_fp16.h for NVRTC: the whole CUDA-side prelude (see hip_runtime.h). */
#include "hip_runtime.h"
