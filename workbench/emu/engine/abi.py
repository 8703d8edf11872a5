"""Initial wave state per the AMDGPU dispatch ABI, driven by the kernel descriptor.

Sources: LLVM AMDGPUUsage (llvm/docs/AMDGPUUsage.rst): "Kernel Descriptor" (descriptor bits),
"Initial Kernel Execution State" (initial SGPR/VGPR state), code object V5 metadata (hidden
arguments; offsets as AMDGPUHSAMetadataStreamer.cpp emits them); the dispatch packet layout is HSA's
``hsa_kernel_dispatch_packet_t`` (HSA runtime spec / hsa.h).

User SGPRs are dense from s0 in ABI order, each only if its enable bit is set: private segment
buffer (4), dispatch ptr (2), queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat
scratch init (2), preloaded kernargs (N), private segment size (1). System SGPRs start at
RSRC2.USER_SGPR_COUNT: workgroup id x, y, z and the work-group-info SGPR (as enabled; its layout
from LLVM AMDKernelCodeT.h). v0 holds the packed
work-item ids (x 9:0, y 19:10, z 29:20; y/z only when ENABLE_VGPR_WORKITEM_ID asks for them).
EXEC has one bit per work-item of the wave that exists in the workgroup (partial last wave).
"""
from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..decoder.operands import TTMP_BASE
from ..machine.state import EXEC, FLAT_SCRATCH, LANES, State

# hsa_kernel_dispatch_packet_t (64 bytes): header u16 @0, setup u16 @2, workgroup_size_x/y/z
# u16 @4/6/8, reserved u16 @10, grid_size_x/y/z u32 @12/16/20, private_segment_size u32 @24,
# group_segment_size u32 @28, kernel_object u64 @32, kernarg_address u64 @40, reserved u64 @48,
# completion_signal u64 @56 (HSA Platform System Architecture spec, "Kernel dispatch packet").
DISPATCH_PACKET_SIZE = 64
QUEUE_SIZE = 256  # amd_queue_t is 256 bytes (ROCR amd_hsa_queue.h); we provide zeros


def dispatch_packet(grid: tuple, block: tuple, lds: int, scratch: int, kernarg_addr: int,
                    kernel_object: int = 0) -> bytes:
    dims = 3 if grid[2] > 1 or block[2] > 1 else (2 if grid[1] > 1 or block[1] > 1 else 1)
    gsize = [grid[i] * block[i] for i in range(3)]  # AQL grid sizes are in work-items
    return struct.pack("<HHHHHHIIIIIQQQQ", 0, dims, block[0], block[1], block[2], 0,
                       gsize[0], gsize[1], gsize[2], scratch, lds, kernel_object, kernarg_addr,
                       0, 0)


def waves_per_group(block: tuple, wave: int = LANES) -> int:
    return (block[0] * block[1] * block[2] + wave - 1) // wave


def init_batch(st: State, desc: Any, grid: tuple, block: tuple, wg_ids: np.ndarray,
               kernarg_addr: int, dispatch_addr: int, queue_addr: int, kernarg: np.ndarray,
               scratch_base: int) -> None:
    """Initial SGPRs, v0 and EXEC for the waves of the workgroups ``wg_ids`` ([n, 3])."""
    wpg = waves_per_group(block, st.wave)
    n_wg = len(wg_ids)
    st.wg = np.repeat(np.arange(n_wg, dtype=np.int64), wpg)
    st.wave_in_wg = np.tile(np.arange(wpg, dtype=np.int64), n_wg)
    st.wg_global = np.repeat(wg_ids.astype(np.int64), wpg, axis=0)
    # user SGPRs (same for every wave)
    s = 0
    S = st.S

    def put64(val: int) -> None:
        nonlocal s
        S[s, :] = val & 0xFFFFFFFF
        S[s + 1, :] = (val >> 32) & 0xFFFFFFFF
        s += 2

    if desc.enable_sgpr_private_segment_buffer:
        # no private segment buffer with architected flat scratch (AMDGPUUsage descriptor bit 448)
        s += 4
    if desc.enable_sgpr_dispatch_ptr:
        put64(dispatch_addr)
    if desc.enable_sgpr_queue_ptr:
        put64(queue_addr)
    if desc.enable_sgpr_kernarg_segment_ptr:
        put64(kernarg_addr)
    if desc.enable_sgpr_dispatch_id:
        put64(0)
    if desc.enable_sgpr_flat_scratch_init:
        put64(scratch_base)
    n_pre = desc.kernarg_preload_length
    if n_pre:
        off = desc.kernarg_preload_offset * 4
        words = kernarg[off:off + 4 * n_pre].view(np.uint32)
        for k in range(n_pre):
            S[s + k, :] = words[k]
        s += n_pre
    if desc.enable_sgpr_private_segment_size:
        S[s, :] = desc.private_segment_fixed_size
        s += 1
    # system SGPRs start at USER_SGPR_COUNT (RSRC2 bits 5:1)
    s = desc.user_sgpr_count
    ex, ey, ez = desc.enable_sgpr_workgroup_id
    if st.gen >= 12:
        # GFX12 architected SGPRs: workgroup id X in TTMP9, Y in TTMP7[15:0], Z in TTMP7[31:16],
        # not in system SGPRs (LLVM AMDGPUUsage "Architected SGPRs", GFX12)
        wid = st.wg_global.astype(np.uint32)
        S[TTMP_BASE + 9, :] = wid[:, 0]
        S[TTMP_BASE + 7, :] = (wid[:, 1] & 0xFFFF) | (wid[:, 2] << np.uint32(16))
        ex = ey = ez = 0
    for dim, en in enumerate((ex, ey, ez)):
        if en:
            S[s, :] = st.wg_global[:, dim].astype(np.uint32)
            s += 1
    if desc.enable_sgpr_workgroup_info:
        # {first_wave, 14'b0, ordered_append_term[10:0], threadgroup_size_in_waves[5:0]}
        # (LLVM AMDKernelCodeT.h "Work-Group Info", AMDGPUUsage "Work-Group Info"): bit 31 =
        # first wave of its workgroup, bits 16:6 the ordered-append term (GDS ordered append,
        # which compute dispatches here never use: 0), bits 5:0 the workgroup size in waves.
        first = (st.wave_in_wg == 0).astype(np.uint32) << np.uint32(31)
        S[s, :] = first | np.uint32(wpg & 0x3F)
        s += 1
    if desc.enable_private_segment:
        # architected flat scratch: FLAT_SCRATCH holds the wave's scratch base (AMDGPUUsage)
        S[FLAT_SCRATCH, :] = scratch_base & 0xFFFFFFFF
        S[FLAT_SCRATCH + 1, :] = (scratch_base >> 32) & 0xFFFFFFFF
    # work-item ids and EXEC
    nthreads = block[0] * block[1] * block[2]
    lin = st.wave_in_wg[:, None] * st.wave + np.arange(LANES)[None, :]  # [W, 64]
    valid = (lin < nthreads) & (np.arange(LANES) < st.wave)[None, :]
    x = lin % block[0]
    y = (lin // block[0]) % block[1]
    z = lin // (block[0] * block[1])
    tid_mode = desc.enable_vgpr_workitem_id
    v0 = x.astype(np.uint32)
    if tid_mode >= 1:
        v0 |= (y.astype(np.uint32) << 10)
    if tid_mode >= 2:
        v0 |= (z.astype(np.uint32) << 20)
    if st.R.shape[0]:
        st.R[0] = np.where(valid, v0, 0)
    words = np.packbits(valid, axis=-1, bitorder="little").view(np.uint32)
    S[EXEC] = words[:, 0]
    S[EXEC + 1] = words[:, 1]
    st.set_exec_lanes(slice(0, st.W), valid)
