"""Launch forms and launches refused before they run: dynamic LDS as the third config item or
the ``dynamic_lds=`` keyword, unknown keywords, and kernels that use extern __shared__ arrays
launched without dynamic bytes (refused on every device: the recording double below shows no
launch reaches the device; the emulator runs the accepted forms for real)."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime.device import LaunchResult

SRC = r'''
extern __shared__ float dyn[];
extern "C" __global__ void rev(const float* x, float* y) {
    dyn[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    y[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void rev_macro(const float* x, float* y) {
    HIP_DYNAMIC_SHARED(float, buf)
    buf[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    y[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void plain(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x]; }
'''


class RecordingDevice:
    """Device-protocol double (what a GPU would receive); no kernel runs."""

    name, kind, arch = "recording double", "gpu", "gfx942"
    launch_options = ("stream",)

    def __init__(self):
        self.calls = []

    def launch(self, kernel, info, grid, block, args, **kw):
        self.calls.append((info.name, kw))
        return LaunchResult(info.name, self.name, grid, block, 0.0)


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_extern_shared_detected_from_the_ast(mod):
    assert mod["gfx942"].kernel("rev").dynamic_shared == ("dyn",)
    assert mod["gfx942"].kernel("rev_macro").dynamic_shared == ("buf",)
    assert mod["gfx942"].kernel("plain").dynamic_shared == ()


@pytest.mark.parametrize("name", ["rev", "rev_macro"])
def test_dynamic_lds_without_bytes_refused_on_every_device(mod, name):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    dev = RecordingDevice()
    for k in (Kernel(mod, name, device=dev), Kernel(mod, name, device="emulator")):
        with pytest.raises(LaunchError, match=rf"{name} uses dynamic shared memory \(extern "
                                              rf"__shared__ \w+\) but the launch gives it 0 "
                                              rf"bytes: launch as {name}\[grid, block, nbytes\]"):
            k[1, 64](x, y)
    assert dev.calls == []  # nothing reached the device
    Kernel(mod, name, device=dev)[1, 64, 256](x, y)
    assert dev.calls[-1][1]["dynamic_lds"] == 256


def test_dynamic_lds_keyword_and_config_item_both_run(mod):
    k = Kernel(mod, "rev", device="emulator")
    x = np.arange(64, dtype=np.float32)
    for launch in (lambda y: k[1, 64, 256](x, y), lambda y: k[1, 64](x, y, dynamic_lds=256),
                   lambda y: k[1, 64, 256](x, y, dynamic_lds=256)):
        y = np.zeros(64, np.float32)
        launch(y)
        np.testing.assert_array_equal(y, x[::-1])


def test_dynamic_lds_twice_or_bad_is_refused(mod):
    k = Kernel(mod, "rev", device="emulator")
    x, y = np.zeros(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(LaunchError, match=r"dynamic LDS given twice: 256 bytes .* dynamic_lds=128"):
        k[1, 64, 256](x, y, dynamic_lds=128)
    with pytest.raises(LaunchError, match=r"dynamic LDS must be a number of bytes >= 0"):
        k[1, 64](x, y, dynamic_lds="64")
    with pytest.raises(LaunchError, match=r"dynamic LDS must be a number of bytes >= 0"):
        k[1, 64, -4](x, y)


def test_unknown_launch_keyword_names_the_forms(mod):
    x, y = np.zeros(64, np.float32), np.zeros(64, np.float32)
    k = Kernel(mod, "plain", device="emulator")
    with pytest.raises(LaunchError, match=r"unknown launch keyword\(s\) shared_mem for emulator; "
                                          r"launch as kernel\[grid, block\]\(\*args\) or "
                                          r"kernel\[grid, block, dynamic_lds_bytes\]\(\*args\).*"
                                          r"takes: dynamic_lds=, budget=, timeout="):
        k[1, 64](x, y, shared_mem=64)
    dev = RecordingDevice()
    with pytest.raises(LaunchError, match=r"keywords recording double takes: dynamic_lds=, "
                                          r"stream="):
        Kernel(mod, "plain", device=dev)[1, 64](x, y, budget=5)
    assert dev.calls == []
    k[1, 64](np.ones(64, np.float32), y)  # the session goes on
    assert (y == 1).all()
