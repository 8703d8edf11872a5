"""Dispatch ABI and modes: dispatch packet, kernarg preload, denormal flushing, SDWA, torch."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import workbench as wb
from workbench.runtime.kernel import Kernel

SRC = r'''
extern "C" __global__ void bytes(const unsigned* a, const unsigned short* b, unsigned* out,
                                 float* f) {
  int i = threadIdx.x;
  unsigned x = a[i];
  unsigned char c1 = (x >> 8) & 0xff, c2 = (x >> 16) & 0xff;
  unsigned short s = b[i];
  out[i] = (unsigned)(c1 * c2) + (unsigned)(short)s * 3u + ((x >> 24) ^ (s >> 8));
  f[i] = (float)c1 + (float)(x >> 24);
}
extern "C" __global__ void disp(int* out) {
  const unsigned short* p = (const unsigned short*)__builtin_amdgcn_dispatch_ptr();
  const unsigned* q = (const unsigned*)__builtin_amdgcn_dispatch_ptr();
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[2] * 1000 + q[3] + blockIdx.x;
}
extern "C" __global__ void denorm(const float* x, float* y) {
  int i = threadIdx.x;
  y[i] = x[i] * 0.5f + x[i];
}
extern "C" __global__ void pre(int a, int b, int* out) { out[threadIdx.x] = a * b + threadIdx.x; }
'''


@pytest.fixture(scope="module")
def plain():
    return wb.compile(SRC, "gfx942")


@pytest.fixture(scope="module")
def flushed():
    # FTZ float mode + kernarg preloading (gfx940+: first user SGPRs hold the kernargs)
    return wb.compile(SRC, "gfx942", options=["-fgpu-flush-denormals-to-zero", "-mllvm",
                                              "-amdgpu-kernarg-preload-count=4"])


def test_sdwa_byte_and_word_selects(plain):
    k = Kernel(plain, "bytes", device="emulator")
    assert any(i.mnemonic.endswith("_sdwa") for i in k.isa)
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**16, 64).astype(np.uint16)
    out = np.zeros(64, np.uint32)
    f = np.zeros(64, np.float32)
    k[1, 64](a, b, out, f)
    c1, c2 = (a >> 8) & 0xFF, (a >> 16) & 0xFF
    ref = (c1 * c2 + (b.view(np.int16).astype(np.int64) * 3).astype(np.uint32)
           + ((a >> 24) ^ (b >> 8))).astype(np.uint32)
    np.testing.assert_array_equal(out, ref)
    np.testing.assert_array_equal(f, c1.astype(np.float32) + (a >> 24).astype(np.float32))


def test_dispatch_packet(plain):
    k = Kernel(plain, "disp", device="emulator")
    out = np.zeros(3 * 96, np.int32)
    k[3, 96](out)  # workgroup_size_x = 96 (u16 @4), grid_size_x = 288 work-items (u32 @12)
    np.testing.assert_array_equal(out, 96 * 1000 + 288 + np.repeat(np.arange(3), 96))


def test_denormals_follow_the_descriptor(plain, flushed):
    tiny = np.array([1e-39, -2e-39, 1.0] + [0.0] * 61, np.float32)  # f32 denormals
    y = np.zeros(64, np.float32)
    Kernel(plain, "denorm", device="emulator")[1, 64](tiny, y)
    assert plain["gfx942"].kernels["denorm"].descriptor.float_denorm_mode_32 == 3
    np.testing.assert_array_equal(y[:3], (tiny[:3].astype(np.float64) * 1.5).astype(np.float32))
    assert flushed["gfx942"].kernels["denorm"].descriptor.float_denorm_mode_32 == 0
    Kernel(flushed, "denorm", device="emulator")[1, 64](tiny, y)
    np.testing.assert_array_equal(y[:3], [0.0, -0.0, 1.5])  # inputs flushed (mode 0)
    assert np.signbit(y[1])


def test_kernarg_preload(flushed):
    info = flushed["gfx942"].kernels["pre"]
    assert info.descriptor.kernarg_preload_length > 0
    k = Kernel(flushed, "pre", device="emulator")
    out = np.zeros(64, np.int32)
    k[1, 64](7, -6, out)
    np.testing.assert_array_equal(out, -42 + np.arange(64))


def test_torch_tensors_in_and_out(plain):
    k = Kernel(plain, "denorm", device="emulator")
    x = torch.linspace(-3, 3, 64, dtype=torch.float32)
    y = torch.zeros(64, dtype=torch.float32)
    k[1, 64](x, y)  # torch CPU tensors share memory with the emulator's host views
    np.testing.assert_array_equal(y.numpy(), (x.double() * 1.5).float().numpy())


def test_workgroup_info_sgpr(plain):
    """With COMPUTE_PGM_RSRC2.TG_SIZE_EN (bit 10) set, the SGPR after the workgroup ids holds
    {first_wave, 14'b0, ordered_append_term[10:0], threadgroup_size_in_waves[5:0]}
    (LLVM AMDKernelCodeT.h)."""
    from dataclasses import replace

    from workbench.emu.engine.abi import init_batch
    from workbench.emu.machine.state import State

    desc = plain["gfx942"].kernel("disp").descriptor
    desc = replace(desc, rsrc2=desc.rsrc2 | (1 << 10))
    assert desc.enable_sgpr_workgroup_info
    wg_ids = np.array([[0, 0, 0], [1, 0, 0]])
    block = (320, 1, 1)  # 5 waves per workgroup
    st = State(10, 4, 0, 2, 0, 0)
    init_batch(st, desc, (2, 1, 1), block, wg_ids, 0x1000, 0x2000, 0x3000,
               np.zeros(64, np.uint8), 0)
    slot = desc.user_sgpr_count + sum(desc.enable_sgpr_workgroup_id)
    info = st.S[slot]
    np.testing.assert_array_equal(info & 0x3F, 5)
    np.testing.assert_array_equal(info >> 31, [1, 0, 0, 0, 0] * 2)
    assert ((info >> 6) & 0x1FFFFFF == 0).all()
    np.testing.assert_array_equal(st.S[slot - 1], [0] * 5 + [1] * 5)  # workgroup id x before it
