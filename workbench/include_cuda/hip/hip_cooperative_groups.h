/* hip/hip_cooperative_groups.h for NVRTC: HIP's cooperative groups are CUDA's (same namespace,
 * class and function names for the subset hipwb's AMD prelude offers: this_thread_block,
 * tiled_partition, thread_block_tile shuffles/votes, coalesced_threads, reduce). */
#ifndef HIPWB_CUDA_HIP_COOPERATIVE_GROUPS_H
#define HIPWB_CUDA_HIP_COOPERATIVE_GROUPS_H
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#endif
