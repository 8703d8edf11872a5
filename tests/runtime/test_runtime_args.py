"""Launch checks shared by every device: argument count/types, scalar ranges, block limits.

The device here is a recording double for the Device protocol (no kernel runs): these tests are
about what is rejected *before* a launch, and what a device receives.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest
import torch

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.device import LaunchResult
from workbench.runtime.devices import parse_device

SRC = """
struct Pair { int a; float b; };
extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
extern "C" __global__ void __launch_bounds__(128)
mixed(__hip_bfloat16* h, unsigned char u8, long long big, double d, Pair p, void* any) {
    if (threadIdx.x == 0) { h[0] = __float2bfloat16(d + p.b); ((int*)any)[0] = u8 + big + p.a; }
}
"""


class RecordingDevice:
    """Device-protocol double that records what a launch would receive."""

    name = "recording double"
    kind = "emulator"
    arch = "gfx942"

    def __init__(self):
        self.calls = []

    def launch(self, kernel, info, grid, block, args, **kw):
        self.calls.append((info.name, grid, block, args, kw))
        return LaunchResult(info.name, self.name, grid, block, 0.0)


@pytest.fixture(scope="module")
def module():
    return wb.compile(SRC, arch="gfx942")


@pytest.fixture
def dev():
    return RecordingDevice()


def test_signature_from_clang_ast(module):
    info = module.kernels["mixed"]
    assert [a.name for a in info.args] == ["h", "u8", "big", "d", "p", "any"]
    assert info.args[0].pointee == "__hip_bfloat16"
    assert info.args[4].ctype == "Pair" and info.args[4].size == 8
    assert info.resources.max_flat_workgroup_size == 128


def test_good_launch_types_scalars_exactly(module, dev):
    k = Kernel(module, "add", dev)
    x = np.ones(100, np.float32)
    res = k[(1, 1), 64](x, torch.ones(100), x, np.int64(100))
    name, grid, block, args, _ = dev.calls[0]
    assert (grid, block) == ((1, 1, 1), (64, 1, 1))
    assert args[3].scalar_bytes() == (100).to_bytes(4, "little")
    assert [a.kind for a in args] == ["buffer", "buffer", "buffer", "scalar"]
    assert "add on recording double" in repr(res)


@pytest.mark.parametrize(
    "args, message",
    [
        ((np.ones(4, np.float32),) * 3, "takes 4 argument(s) but 3 were given"),
        ((np.ones(4, np.float32),) * 3 + (2.5,), "'n' of add (int) needs an integer"),
        ((np.ones(4, np.float32), np.ones(4), np.ones(4, np.float32), 4),
         "'y' of add (const float *) expects float32 elements, got a float64"),
        ((np.ones(4, np.float32), np.ones(4, np.float32), 7, 4), "'out' of add is a pointer"),
        ((np.ones(4, np.float32),) * 3 + (2**31,), "must be in [-2147483648, 2147483647]"),
        ((np.ones(8, np.float32)[::2],) * 3 + (4,), "must be contiguous"),
    ],
)
def test_bad_arguments_named(module, dev, args, message):
    with pytest.raises(LaunchError) as e:
        Kernel(module, "add", dev)[1, 64](*args)
    assert message in str(e.value)
    assert not dev.calls


def test_block_over_launch_bounds_rejected(module, dev):
    k = Kernel(module, "mixed", dev)
    h = torch.zeros(1, dtype=torch.bfloat16)
    with pytest.raises(LaunchError, match="at most 128"):
        k[1, 256](h, 1, 2, 3.0, bytes(8), np.zeros(1, np.int32))
    k[1, 128](h, 255, -(2**63), 3.0, bytes(8), np.zeros(1, np.int32))
    args = dev.calls[0][3]
    assert args[1].scalar_bytes() == b"\xff"
    assert args[2].scalar_bytes() == (2**63).to_bytes(8, "little")
    with pytest.raises(LaunchError, match="must be in \\[0, 255\\]"):
        k[1, 128](h, 256, 0, 3.0, bytes(8), np.zeros(1, np.int32))
    with pytest.raises(LaunchError, match="pass its raw bytes"):
        k[1, 128](h, 1, 0, 3.0, (1, 2.0), np.zeros(1, np.int32))


def test_bfloat16_accepts_raw_bits_and_torch(module, dev):
    k = Kernel(module, "mixed", dev)
    for h in (np.zeros(1, np.uint16), torch.zeros(1, dtype=torch.bfloat16)):
        k[1, 1](h, 0, 0, 0.0, bytes(8), np.zeros(1, np.int32))
    with pytest.raises(LaunchError, match="expects bfloat16 elements, got a float32"):
        k[1, 1](np.zeros(1, np.float32), 0, 0, 0.0, bytes(8), np.zeros(1, np.int32))


def test_bad_grid_and_lds(module, dev):
    k = Kernel(module, "add", dev)
    x = np.ones(4, np.float32)
    with pytest.raises(LaunchError, match="dimensions must be >= 1"):
        k[0, 64](x, x, x, 4)
    with pytest.raises(LaunchError, match="tuple of 1-3 ints"):
        k[(1, 2, 3, 4), 64](x, x, x, 4)
    with pytest.raises(LaunchError, match="bytes of LDS"):
        k[1, 64, 1 << 20](x, x, x, 4)


def test_wrong_arch_device_refused(module):
    class Gfx1100Device(RecordingDevice):
        name, arch = "gfx1100 double", "gfx1100"

    x = np.ones(4, np.float32)
    with pytest.raises(LaunchError, match="compile with --arch gfx1100"):
        Kernel(module, "add", Gfx1100Device())[1, 64](x, x, x, 4)


def test_unknown_kernel_and_device(module):
    with pytest.raises(KeyError, match="kernels: add, mixed"):
        Kernel(module, "nope")
    with pytest.raises(LaunchError, match="unknown device"):
        parse_device("tpu")


def test_struct_by_value_from_numpy_structured_and_ctypes(module, dev):
    """A by-value struct takes a numpy structured scalar, a 0-d structured array or a ctypes
    Structure of its size (before: only bytes/np.void; a 0-d array was 'got an array')."""
    import ctypes

    class Eight(ctypes.Structure):
        _fields_ = [("a", ctypes.c_int32), ("b", ctypes.c_float)]

    k = Kernel(module, "mixed", dev)
    h = np.zeros(1, np.uint16)
    dt = np.dtype([("a", "<i4"), ("b", "<f4")])
    for s in (np.array((3, 1.5), dt), np.array((3, 1.5), dt)[()], Eight(3, 1.5)):
        k[1, 1](h, 0, 0, 0.0, s, np.zeros(1, np.int32))
        assert dev.calls[-1][3][4].scalar_bytes() == struct.pack("<if", 3, 1.5)
    with pytest.raises(LaunchError, match=r"\(8 bytes\): pass its raw bytes.*; got 12 bytes"):
        k[1, 1](h, 0, 0, 0.0, np.zeros((), [("a", "<i4"), ("b", "<f8")]),
                np.zeros(1, np.int32))
