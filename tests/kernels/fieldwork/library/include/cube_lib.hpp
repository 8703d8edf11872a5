// cube_lib.hpp: a device function offered by a separately compiled device library
// (library/cube_lib.hip, built with -fgpu-rdc). Part of hipwb's fieldwork corpus.
#ifndef HIPWB_FIELDWORK_CUBE_LIB_HPP
#define HIPWB_FIELDWORK_CUBE_LIB_HPP

#include <hip/hip_runtime.h>

__device__ int lib_cube(int x);

#endif
