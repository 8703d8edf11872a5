"""LDS accesses outside the allocation: a fault by default whose message says what the GPU
would do, and lds_oob="hardware" that follows the hardware (reads 0, writes dropped) — the
unguarded prefix sum below relies on it, as a published example does."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.emu import EmulatorError, KernelFault
from workbench.runtime import LaunchError
from workbench.runtime.kernel import Kernel

SRC = r'''
extern "C" __global__ void scan(const int* x, int* y) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    for (int d = 1; d < 64; d *= 2) {
        int v = s[t - d];          // t - d < 0 reads outside s: 0 on the GPU
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    y[t] = s[t];
}
extern "C" __global__ void spill_write(int* y, int k) {
    __shared__ int s[64];
    s[threadIdx.x] = 1;
    s[threadIdx.x + k] = 2;        // lanes past 63 write outside s: dropped on the GPU
    __syncthreads();
    y[threadIdx.x] = s[threadIdx.x];
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_out_of_range_read_faults_by_default_and_says_what_hardware_does(mod):
    k = Kernel(mod, "scan", device="emulator")
    x = np.arange(64, dtype=np.int32)
    y = np.zeros(64, np.int32)
    with pytest.raises(KernelFault) as ei:
        k[1, 64](x, y)
    msg = str(ei.value)
    assert "outside the workgroup's 256-byte LDS allocation" in msg
    assert "on an AMD GPU this read would return 0" in msg
    assert "CDNA3 ISA guide §3.11" in msg and "RDNA2 ISA guide §3.6.1" in msg
    assert "lds_oob='hardware'" in msg
    assert (y == 0).all()  # nothing written back


def test_hardware_mode_reads_zero(mod):
    k = Kernel(mod, "scan", device="emulator")
    x = np.arange(64, dtype=np.int32)
    y = np.zeros(64, np.int32)
    k[1, 64](x, y, lds_oob="hardware")
    np.testing.assert_array_equal(y, np.cumsum(x))


def test_hardware_mode_drops_writes(mod):
    k = Kernel(mod, "spill_write", device="emulator")
    y = np.zeros(64, np.int32)
    with pytest.raises(KernelFault, match=r"this write would be dropped"):
        k[1, 64](y, 8)
    k[1, 64](y, 8, lds_oob="hardware")
    np.testing.assert_array_equal(y, np.r_[np.ones(8), np.full(56, 2)])


def test_bad_mode_refused_and_session_goes_on(mod):
    k = Kernel(mod, "spill_write", device="emulator")
    y = np.zeros(64, np.int32)
    with pytest.raises(EmulatorError, match=r"lds_oob must be 'fault' or 'hardware'"):
        k[1, 64](y, 0, lds_oob="gpu")
    k[1, 64](y, 0)
    assert (y == 2).all()
    with pytest.raises(LaunchError, match=r"unknown launch keyword"):
        k[1, 64](y, 0, lds_oobb="hardware")
