"""__device__ / __constant__ variables set and read from Python (hipMemcpyToSymbol /
FromSymbol): for real on the emulator, through a stand-in cupy (tests/gpu/fake_cupy.py) for the
ROCm path (no AMD GPU here); tests/gpu/verify_cuda.py checks the CUDA path on an NVIDIA GPU."""
from __future__ import annotations

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.rocm import RocmDevice

SRC = r'''
__device__ float coef[4] = {1, 2, 3, 4};
__constant__ int table[8];
__device__ int counter;
namespace ns { __device__ double scale = 2.5; }
__device__ uint2 pair;
extern "C" __global__ void use(float* out) {
    out[threadIdx.x] = coef[threadIdx.x & 3] * table[threadIdx.x & 7] * ns::scale + pair.y;
    if (threadIdx.x == 0) atomicAdd(&counter, 1);
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_variables_named_and_typed_from_the_code_object(mod):
    v = mod["gfx942"].variables
    assert set(v) == {"coef", "table", "counter", "ns::scale", "pair"}
    assert v["coef"].ctype == "float[4]" and v["coef"].size == 16
    assert v["ns::scale"].symbol == "_ZN2ns5scaleE" and v["ns::scale"].ctype == "double"
    assert v["table"].section == ".rodata"  # a __constant__ the kernel only reads


def test_emulator_reads_initialisers_sets_values_and_keeps_device_state(mod):
    k = Kernel(mod, "use", device="emulator")
    g = k.globals
    np.testing.assert_array_equal(g["coef"], [1, 2, 3, 4])
    assert g["ns::scale"] == 2.5 and g["counter"] == 0 and g["table"].dtype == np.int32
    g["table"] = np.arange(8)
    g["coef"] = [1.0, 1.0, 1.0, 2.0]
    g["pair"] = (0, 7)
    out = np.zeros(64, np.float32)
    k[1, 64](out)
    i = np.arange(64)
    np.testing.assert_array_equal(out, np.array([1, 1, 1, 2])[i & 3] * (i & 7) * 2.5 + 7)
    assert g["counter"] == 1
    k[1, 64](out)
    assert g["counter"] == 2  # device variables persist between launches, as on a GPU
    g["counter"] = 100
    k[1, 64](out)
    assert g["counter"] == 101


def test_bad_globals_are_clear_and_the_session_goes_on(mod):
    k = Kernel(mod, "use", device="emulator")
    g = k.globals
    with pytest.raises(KeyError, match=r"no __device__/__constant__ variable 'coeff' .*"
                                       r"coef \(float\[4\]\)"):
        g["coeff"]
    with pytest.raises(LaunchError, match=r"coef \(float\[4\]\) has shape \(4,\), got a value "
                                          r"of shape \(3,\)"):
        g["coef"] = [1, 2, 3]
    with pytest.raises(LaunchError, match=r"counter \(int\) holds int32, got floating-point"):
        g["counter"] = 1.5
    with pytest.raises(LaunchError, match=r"must be in \[-2147483648, 2147483647\]"):
        g["counter"] = 2**31
    g["counter"] = 5
    k[1, 64](np.zeros(64, np.float32))
    assert g["counter"] == 6


def test_rocm_globals_use_the_loaded_module_with_fake_cupy_no_amd_gpu(monkeypatch, mod):
    fake = FakeCupy(hip=True).install(monkeypatch)
    dev = RocmDevice(0)
    k = Kernel(mod, "use").on(dev)
    g = k.globals
    g["coef"] = [4, 3, 2, 1]
    g["ns::scale"] = 0.5
    np.testing.assert_array_equal(g["coef"], [4, 3, 2, 1])
    assert g["ns::scale"] == 0.5
    k[1, 64](fake.empty(64, np.float32))
    # one loaded module (by path) serves the kernel and the variables, looked up by ELF symbol
    assert len(fake.raw_modules) == 1
    assert set(fake.raw_modules[0]["globals"]) == {"coef", "_ZN2ns5scaleE"}
