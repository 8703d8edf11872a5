"""The one-wave fast paths (a single wave with all 64 lanes in EXEC and no observer:
``state.solo``) give the same results as the general paths, and leave them every case they do
not cover: partial EXEC, misaligned addresses, out-of-bounds lanes, flat addresses in the LDS
aperture, trace mode. Each kernel runs as one full wave, as a partial wave and under trace (the
general path), and is checked against numpy.
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.emu import KernelFault
from workbench.runtime.kernel import Kernel

SRC = r'''
extern "C" __global__ void mem(const float* x, const float2* x2, const float4* x4, float* y,
                               float4* y4, int sh) {
    __shared__ float t[64];
    __shared__ float4 t4[64];
    int i = threadIdx.x;
    float a = x[(i * 7 + sh) & 63];          // global dword, SADDR + VADDR
    float2 b = x2[i ^ 5];                    // global dwordx2
    float4 c = x4[63 - i];                   // global dwordx4
    t[i] = a * 2.0f;                         // ds_write_b32
    t4[i] = c;                               // ds_write_b128
    __syncthreads();
    float r = t[(i + sh) & 63];              // ds_read_b32
    float4 u = t4[(i * 3) & 63];             // ds_read_b128
    y[i] = r + b.x * b.y + (r > 1.0f ? u.x : u.w);   // v_cmp, v_cndmask, fma
    y4[i] = u;                               // global store dwordx4
}
extern "C" __global__ void flat(float* x, float* y, int use_lds) {
    __shared__ float t[64];
    int i = threadIdx.x;
    t[i] = (float)i;
    __syncthreads();
    float* p = use_lds ? t : x;              // a generic pointer: flat loads and stores
    float v = p[(i + 3) & 63];
    p[i ^ 1] = v + 1.0f;
    __syncthreads();
    y[i] = p[i];
}
extern "C" __global__ void shifted(const float* x, float* y, int byte_off) {
    const float* p = (const float*)((const char*)x + byte_off);  // misaligned when odd
    y[threadIdx.x] = p[threadIdx.x];
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def _run_mem(mod, n, sh, trace=False):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(64).astype(np.float32)
    x2 = rng.standard_normal(128).astype(np.float32)
    x4 = rng.standard_normal(256).astype(np.float32)
    y = np.zeros(64, np.float32)
    y4 = np.zeros(256, np.float32)
    k = Kernel(mod, "mem", device="emulator")
    if trace:
        k.trace[1, n](x, x2, x4, y, y4, np.int32(sh))
    else:
        k[1, n](x, x2, x4, y, y4, np.int32(sh))
    return x, x2.reshape(64, 2), x4.reshape(64, 4), y, y4.reshape(64, 4)


def _mem_expect(x, x2, x4, n, sh):
    i = np.arange(n)
    t = np.zeros(64, np.float32)
    t4 = np.zeros((64, 4), np.float32)
    t[i] = x[(i * 7 + sh) & 63] * np.float32(2)
    t4[i] = x4[63 - i]
    r = t[(i + sh) & 63]
    u = t4[(i * 3) & 63]
    b = x2[i ^ 5]
    # fma(b.x, b.y, r) rounded once: exact in float64 for float32 inputs, then one rounding
    y = (b[:, 0].astype(np.float64) * b[:, 1] + r).astype(np.float32)
    return y + np.where(r > 1, u[:, 0], u[:, 3]), u


@pytest.mark.parametrize("n, trace", [(64, False), (64, True), (40, False)],
                         ids=["one-full-wave", "trace-general-path", "partial-wave"])
def test_loads_stores_lds_compare_match_numpy(mod, n, trace):
    for sh in (0, 5):
        x, x2, x4, y, y4 = _run_mem(mod, n, sh, trace)
        ey, eu = _mem_expect(x, x2, x4, n, sh)
        # lanes past n only read LDS the active lanes wrote when sh moves them: compare the
        # lanes whose sources were written
        i = np.arange(n)
        ok = ((i + sh) & 63) < n
        ok &= ((i * 3) & 63) < n
        np.testing.assert_allclose(y[:n][ok], ey[ok], rtol=2e-6, atol=1e-6)
        np.testing.assert_array_equal(y4[:n][ok], eu[ok])
        assert (y[n:] == 0).all() and (y4[n:] == 0).all()


def test_full_wave_bit_identical_to_general_path(mod):
    for sh in (0, 3):
        fast = _run_mem(mod, 64, sh)
        slow = _run_mem(mod, 64, sh, trace=True)
        for a, b in zip(fast[3:], slow[3:]):
            assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("use_lds", [0, 1], ids=["flat-global", "flat-lds-aperture"])
def test_flat_global_and_lds_aperture(mod, use_lds):
    x = np.arange(64, dtype=np.float32) * 10
    y = np.zeros(64, np.float32)
    Kernel(mod, "flat", device="emulator")[1, 64](x, y, np.int32(use_lds))
    i = np.arange(64)
    src = (i.astype(np.float32) if use_lds else np.arange(64, dtype=np.float32) * 10)
    expect = np.empty(64, np.float32)
    expect[i ^ 1] = src[(i + 3) & 63] + 1
    np.testing.assert_array_equal(y, expect)
    if not use_lds:
        np.testing.assert_array_equal(x, expect)


def test_misaligned_full_wave_reads_bytes(mod):
    x = np.arange(80, dtype=np.float32)
    raw = x.view(np.uint8)
    for off in (0, 2, 4):
        y = np.zeros(64, np.float32)
        Kernel(mod, "shifted", device="emulator")[1, 64](x, y, np.int32(off))
        np.testing.assert_array_equal(y.view(np.uint8), raw[off:off + 256])


def test_out_of_bounds_lane_of_full_wave_still_faults(mod):
    x = np.arange(64, dtype=np.float32)  # 64 floats; the kernel reads 64 floats from +8 bytes
    with pytest.raises(KernelFault) as ei:
        Kernel(mod, "shifted", device="emulator")[1, 64](x, np.zeros(64, np.float32),
                                                          np.int32(8))
    assert list(ei.value.lanes) == [62, 63] and ei.value.buffer == "x"
