// cube_lib.hip: the device library itself -- device code only, no kernel.
// Part of hipwb's fieldwork corpus.
#include "cube_lib.hpp"

__device__ int lib_cube(int x)
{
    return x * x * x;
}
