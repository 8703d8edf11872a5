/* hipwb/coordinates.h — threadIdx, blockIdx, blockDim, gridDim, warpSize, dim3.
 *
 * Each of threadIdx/blockIdx/blockDim/gridDim is an empty object whose .x/.y/.z are
 * `__declspec(property)` getters (as in HIP's and clang's CUDA headers), so `blockIdx.x` is a
 * call to a builtin, not a memory load of a variable. Sources of the values:
 *
 *   threadIdx.{x,y,z}  __builtin_amdgcn_workitem_id_{x,y,z}  (VGPR v0[,v1,v2] or packed v0 at wave
 *                      start; LLVM AMDGPUUsage, "Initial Kernel Execution State")
 *   blockIdx.{x,y,z}   __builtin_amdgcn_workgroup_id_{x,y,z} (system SGPRs; GFX12: TTMP9/TTMP7)
 *   blockDim.{x,y,z}   COV5 hidden kernel arguments (via __builtin_amdgcn_implicitarg_ptr()):
 *                      id < hidden_block_count ? hidden_group_size : hidden_remainder
 *   gridDim.{x,y,z}    hidden_block_count + (hidden_remainder != 0)  (number of blocks)
 *   warpSize           __AMDGCN_WAVEFRONT_SIZE__ (64 on gfx9; 32 on gfx10+ unless
 *                      -mwavefrontsize64)
 *
 * Why the COV5 hidden arguments and not the AQL dispatch packet: code object v5 is clang 19's
 * default (module flag amdhsa_code_object_version = 500) and the ROCm runtime fills the hidden
 * block at the end of the kernarg segment; reading it needs no extra user SGPRs (the dispatch
 * pointer would add two) and is what ROCm's own device library does under COV5. Offsets, relative
 * to the implicit-argument pointer, are those LLVM's AMDGPUHSAMetadataStreamer.cpp emits
 * (AMDGPUUsage, code object V5 metadata: hidden arguments) and match LLVM AMDGPULowerKernelAttributes.cpp
 * (`enum ImplicitArgOffsets`: HIDDEN_BLOCK_COUNT_X = 0, HIDDEN_GROUP_SIZE_X = 12,
 * HIDDEN_REMAINDER_X = 18, GRID_DIMS = 64):
 *
 *     0/4/8    u32  hidden_block_count_{x,y,z}   number of *full* work-groups
 *     12/14/16 u16  hidden_group_size_{x,y,z}    work-group size
 *     18/20/22 u16  hidden_remainder_{x,y,z}     size of the partial last group, else 0
 *     40/48/56 u64  hidden_global_offset_{x,y,z}
 *     64       u16  hidden_grid_dims
 *
 * The block-size expression is the one AMDGPULowerKernelAttributes.cpp documents for ROCm's
 * __ockl_get_local_size under v5 ("workgroup_id < hidden_block_count ? hidden_group_size :
 * hidden_remainder"); with HIP's default "uniform-work-group-size" kernel attribute that pass
 * folds the comparison to true and the remainder to 0, so blockDim.x compiles to one load of
 * hidden_group_size_x and gridDim.x to one load of hidden_block_count_x. v6 keeps v5's hidden
 * arguments. v4 has none of these (its hidden arguments start with hidden_global_offset_x), so
 * with -mcode-object-version=4 (hipwb then defines __HIPWB_CODE_OBJECT_VERSION=4) the values come
 * from the AQL dispatch packet as ROCm's __ockl_get_local_size/__ockl_get_num_groups read it
 * under v4: __builtin_amdgcn_workgroup_size_{x,y,z} (workgroup_size u16 at 4/6/8) and
 * __builtin_amdgcn_grid_size_{x,y,z} (grid_size in work-items, u32 at 12/16/20).
 */
#ifndef HIPWB_COORDINATES_H
#define HIPWB_COORDINATES_H

#include "config.h"
#include "vector_types.h"

/* The COV5 hidden-argument block (first 72 bytes of it), laid out at the offsets above. */
struct __hipwb_implicit_args {
  unsigned int __block_count[3];    /* 0, 4, 8 */
  unsigned short __group_size[3];   /* 12, 14, 16 */
  unsigned short __remainder[3];    /* 18, 20, 22 */
  unsigned long long __reserved[2]; /* 24, 32: tool correlation id, reserved */
  unsigned long long __global_offset[3]; /* 40, 48, 56 */
  unsigned short __grid_dims;       /* 64 */
};
static_assert(__builtin_offsetof(__hipwb_implicit_args, __block_count) == 0, "COV5 layout");
static_assert(__builtin_offsetof(__hipwb_implicit_args, __group_size) == 12, "COV5 layout");
static_assert(__builtin_offsetof(__hipwb_implicit_args, __remainder) == 18, "COV5 layout");
static_assert(__builtin_offsetof(__hipwb_implicit_args, __global_offset) == 40, "COV5 layout");
static_assert(__builtin_offsetof(__hipwb_implicit_args, __grid_dims) == 64, "COV5 layout");

typedef const __HIPWB_CONSTANT_AS __hipwb_implicit_args *__hipwb_implicit_args_ptr;

__HIPWB_FN_INLINE __hipwb_implicit_args_ptr __hipwb_implicit_args() {
  return (__hipwb_implicit_args_ptr)__builtin_amdgcn_implicitarg_ptr();
}

/* Block size and block count along one axis, with the axis fixed at compile time (constant
 * offsets let AMDGPULowerKernelAttributes recognise and fold the loads).
 * size:  the full size, or the remainder for a partial last block;
 * count: full blocks plus one partial block if there is a remainder. */
#if defined(__HIPWB_CODE_OBJECT_VERSION) && __HIPWB_CODE_OBJECT_VERSION < 5
#define __HIPWB_BLOCK_DIM_AND_COUNT(AXIS, I)                                                 \
  __HIPWB_FN_INLINE unsigned int __hipwb_block_dim_##AXIS() {                               \
    unsigned int __group = __builtin_amdgcn_workgroup_size_##AXIS();                          \
    unsigned int __left = __builtin_amdgcn_grid_size_##AXIS() -                               \
                          __builtin_amdgcn_workgroup_id_##AXIS() * __group;                   \
    unsigned int __size = __left < __group ? __left : __group;                                \
    __builtin_assume(__size <= 1024); /* max flat work-group size (AMDGPUUsage) */             \
    return __size;                                                                             \
  }                                                                                          \
  __HIPWB_FN_INLINE unsigned int __hipwb_grid_dim_##AXIS() {                                \
    unsigned int __group = __builtin_amdgcn_workgroup_size_##AXIS();                          \
    unsigned int __grid = __builtin_amdgcn_grid_size_##AXIS();                                \
    unsigned int __full = __grid / __group;                                                    \
    return __full + (__grid > __full * __group ? 1u : 0u);                                     \
  }
#else
#define __HIPWB_BLOCK_DIM_AND_COUNT(AXIS, I)                                                 \
  __HIPWB_FN_INLINE unsigned int __hipwb_block_dim_##AXIS() {                               \
    __hipwb_implicit_args_ptr __a = __hipwb_implicit_args();                                   \
    unsigned int __size = __builtin_amdgcn_workgroup_id_##AXIS() < __a->__block_count[I]          \
                            ? __a->__group_size[I]                                               \
                            : __a->__remainder[I];                                               \
    __builtin_assume(__size <= 1024); /* max flat work-group size (AMDGPUUsage) */             \
    return __size;                                                                             \
  }                                                                                          \
  __HIPWB_FN_INLINE unsigned int __hipwb_grid_dim_##AXIS() {                                \
    __hipwb_implicit_args_ptr __a = __hipwb_implicit_args();                                   \
    return __a->__block_count[I] + (__a->__remainder[I] != 0 ? 1u : 0u);                            \
  }
#endif
__HIPWB_BLOCK_DIM_AND_COUNT(x, 0)
__HIPWB_BLOCK_DIM_AND_COUNT(y, 1)
__HIPWB_BLOCK_DIM_AND_COUNT(z, 2)
#undef __HIPWB_BLOCK_DIM_AND_COUNT

/* HIP's dim3: x, y, z default to 1. */
struct dim3 {
  unsigned int x, y, z;
  constexpr __host__ __device__ dim3(unsigned int __x_ = 1, unsigned int __y_ = 1,
                                               unsigned int __z_ = 1)
      : x(__x_), y(__y_), z(__z_) {}
};

#define __HIPWB_COORDINATE(TYPE, GX, GY, GZ)                                              \
  struct TYPE {                                                                            \
    __declspec(property(get = __get_x)) unsigned int x;                                    \
    __declspec(property(get = __get_y)) unsigned int y;                                    \
    __declspec(property(get = __get_z)) unsigned int z;                                    \
    __device__ __attribute__((__always_inline__)) static unsigned int __get_x() { return GX; }    \
    __device__ __attribute__((__always_inline__)) static unsigned int __get_y() { return GY; }    \
    __device__ __attribute__((__always_inline__)) static unsigned int __get_z() { return GZ; }    \
    __device__ __attribute__((__always_inline__)) operator dim3() const {                         \
      return dim3(__get_x(), __get_y(), __get_z());                                        \
    }                                                                                      \
    __device__ __attribute__((__always_inline__)) operator uint3() const {                        \
      return uint3(__get_x(), __get_y(), __get_z());                                       \
    }                                                                                      \
  };

__HIPWB_COORDINATE(__hipwb_thread_idx_t, __builtin_amdgcn_workitem_id_x(),
                   __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z())
__HIPWB_COORDINATE(__hipwb_block_idx_t, __builtin_amdgcn_workgroup_id_x(),
                   __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z())
__HIPWB_COORDINATE(__hipwb_block_dim_t, __hipwb_block_dim_x(), __hipwb_block_dim_y(),
                   __hipwb_block_dim_z())
__HIPWB_COORDINATE(__hipwb_grid_dim_t, __hipwb_grid_dim_x(), __hipwb_grid_dim_y(),
                   __hipwb_grid_dim_z())
#undef __HIPWB_COORDINATE

/* Internal-linkage empty objects: only their property getters are ever called. */
static __device__ const __hipwb_thread_idx_t threadIdx = {};
static __device__ const __hipwb_block_idx_t blockIdx = {};
static __device__ const __hipwb_block_dim_t blockDim = {};
static __device__ const __hipwb_grid_dim_t gridDim = {};

/* Wave size: a compile-time constant, as the target fixes it (64 on gfx9/CDNA, 32 by default on
 * gfx10+/RDNA, 64 there with -mwavefrontsize64). clang predefines __AMDGCN_WAVEFRONT_SIZE__ per
 * target; newer clang deprecates it in favour of __builtin_amdgcn_wavefrontsize(). */
#if defined(__AMDGCN_WAVEFRONT_SIZE__)
static constexpr int warpSize = __AMDGCN_WAVEFRONT_SIZE__;
#else
/* An object converting to the wave size, not a macro: a macro would also rewrite member names
 * such as hipDeviceProp_t::warpSize in host code (`prop.warpSize`). Like ROCm 7's warpSize it is
 * not a constant expression. */
struct __hipwb_warp_size_t {
  __device__ __attribute__((__always_inline__)) operator int() const {
    return __builtin_amdgcn_wavefrontsize();
  }
};
static constexpr __hipwb_warp_size_t warpSize = {};
#endif

/* HIP's legacy coordinate macros. */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

#endif /* HIPWB_COORDINATES_H */
