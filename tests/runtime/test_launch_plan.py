"""Prebound launch plans: after one fully checked launch, repeated ``kernel[grid, block](...)``
calls skip the full argument binding, yet every error is still reported exactly as before.

These run CudaDevice against the stand-in cupy of tests/gpu/fake_cupy.py (no GPU here), so the
names say so; the real launch-overhead figure is measured by tests/gpu/verify_cuda.py on a GPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from gpu.fake_cupy import FakeCupy

import workbench as wb
from workbench.runtime import Kernel, LaunchError
from workbench.runtime import kernel as kernel_mod
from workbench.runtime.cuda import CudaDevice

ADD = """extern "C" __global__ void add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
"""


def _count_binds(monkeypatch) -> list:
    """A list that grows by one per full argument binding (the plan skips it)."""
    binds = []
    real_bind = kernel_mod.bind_args
    monkeypatch.setattr(kernel_mod, "bind_args",
                        lambda info, args: binds.append(1) or real_bind(info, args))
    return binds


@pytest.fixture
def setup(monkeypatch):
    calls = []

    def add_ref(mem, grid, block, x, y, out, n):
        calls.append(int(n))
        m = int(n)
        mem.view(int(out), np.float32, m)[:] = (mem.view(int(x), np.float32, m)
                                                + mem.view(int(y), np.float32, m))

    fake = FakeCupy(hip=False, name="Fake NVIDIA", kernels={"add": add_ref}).install(monkeypatch)
    binds = _count_binds(monkeypatch)
    k = Kernel(wb.compile(ADD), "add").on(CudaDevice(0))
    return fake, k, calls, binds


def _dev(fake, host):
    return fake.asarray(host)  # a stand-in cupy device array


def test_repeated_launch_uses_the_plan_with_fake_cupy_no_gpu(setup):
    fake, k, calls, binds = setup
    x = _dev(fake, np.arange(8, dtype=np.float32))
    out = _dev(fake, np.zeros(8, np.float32))
    for n in (8, 5, 8, 5):
        k[1, 32](x, x, out, n)
    assert calls == [8, 5, 8, 5]
    # only the first launch took the full path, where the launch guard checks it
    # (runtime/guard.py): n only gates lanes, so n=5 is covered by the check at 8
    # (workbench.lane_gates); the repeats ran the prebound plan
    assert len(binds) == 1
    np.testing.assert_array_equal(out.get(), 2 * np.arange(8, dtype=np.float32))
    res = k[1, 32](x, x, out, 8)
    assert (res.kernel, res.grid, res.block) == ("add", (1, 1, 1), (32, 1, 1))


@pytest.mark.parametrize("bad, message", [
    (lambda fake: (_dev(fake, np.zeros(8)), 8), "expects float32 elements, got a float64"),
    (lambda fake: (_dev(fake, np.zeros(8, np.float32)), 2**31), "must be in [-2147483648"),
    (lambda fake: (_dev(fake, np.zeros(8, np.float32)), 2.5), "needs an integer, got 2.5"),
])
def test_errors_unchanged_after_a_plan_exists_with_fake_cupy_no_gpu(setup, bad, message):
    fake, k, calls, binds = setup
    x = _dev(fake, np.zeros(8, np.float32))
    k[1, 32](x, x, x, 8)  # makes the plan
    y, n = bad(fake)
    with pytest.raises(LaunchError, match=message.replace("[", r"\[")):
        k[1, 32](y, x, x, n)
    assert calls == [8]  # the bad launch never ran


def test_non_contiguous_declines_to_full_check_with_fake_cupy_no_gpu(setup):
    fake, k, calls, binds = setup
    x = _dev(fake, np.zeros(8, np.float32))
    k[1, 32](x, x, x, 8)
    x.flags = {"C_CONTIGUOUS": False, "F_CONTIGUOUS": False}
    with pytest.raises(LaunchError, match="must be contiguous"):
        k[1, 32](x, x, x, 8)


def test_host_arrays_keep_the_staging_path_with_fake_cupy_no_gpu(setup):
    fake, k, calls, binds = setup
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    for _ in range(2):
        k[1, 32](x, x, out, 8)
    np.testing.assert_array_equal(out, 2 * x)  # copied back each time: no plan for host arrays
    assert len(binds) == 2


def test_default_device_launches_repeat_with_fake_cupy_no_gpu(setup, monkeypatch):
    """Launches on the default device (no .on()) take the same plan path."""
    fake, k, calls, binds = setup
    from workbench.runtime.devices import set_device

    set_device(k._device)
    plain = Kernel(k.module, "add")
    x = _dev(fake, np.zeros(8, np.float32))
    for _ in range(3):
        plain[1, 32](x, x, x, 8)
    assert calls == [8, 8, 8] and len(binds) == 1
    set_device(None)


def test_default_emulator_device_repeats(monkeypatch):
    """The emulator (no plan hook) keeps working for repeated default-device launches."""
    from workbench.runtime import devices

    monkeypatch.delenv("HIPWB_DEVICE", raising=False)
    devices.set_device("emulator")
    k = Kernel(wb.compile(ADD), "add")
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    for _ in range(2):
        k[1, 64](x, x, out, 64)
    np.testing.assert_array_equal(out, 2 * x)
    devices.set_device(None)


FLAGS = """extern "C" __global__ void flags(float* y, uint2 v, bool on, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && on) y[i] = (float)(v.x + v.y);
}
"""


def test_vector_bool_and_size_t_arguments_repeat_on_the_plan_with_fake_cupy_no_gpu(
        monkeypatch):
    """uint2 given as a tuple, a bool and a size_t: repeats take the prebound plan (no full
    binding), and the plan passes cupy exactly what the full path does."""
    seen = []

    def flags_ref(mem, grid, block, y, v, on, n):
        seen.append((bytes(np.asarray(v).tobytes()), bool(on), int(n)))
        mem.view(int(y), np.float32, int(n))[:] = float(sum(np.frombuffer(
            np.asarray(v).tobytes(), np.uint32)))

    fake = FakeCupy(hip=False, name="Fake NVIDIA", kernels={"flags": flags_ref}).install(
        monkeypatch)
    binds = _count_binds(monkeypatch)
    k = Kernel(wb.compile(FLAGS), "flags").on(CudaDevice(0))
    y = fake.asarray(np.zeros(8, np.float32))
    for v in ((1, 2), (3, 4), (1, 2), (3, 4)):
        k[1, 32](y, v, True, 8)
    # one full binding: v only feeds the stored value (workbench.argument_flow), so a new v
    # keeps the guard's verdict and every later launch runs on the plan
    assert len(binds) == 1
    assert seen[0] == seen[2] and seen[1] == seen[3]
    assert seen[0] == (np.array([1, 2], np.uint32).tobytes(), True, 8)
    np.testing.assert_array_equal(y.get(), 7)
    with pytest.raises(LaunchError, match="element 0"):
        k[1, 32](y, (-1, 2), True, 8)  # out of range for unsigned: the full path's error


STRUCT = """struct Views { const float* x; float* y; int n; float a; };
extern "C" __global__ void saxpy_views(Views v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < v.n) v.y[i] += v.a * v.x[i];
}
"""


def test_struct_of_pointers_repeats_on_the_plan_with_fake_cupy_no_gpu(monkeypatch):
    """A dataclass struct of GPU arrays: repeats take the plan, which patches each field's
    address into the struct's bytes exactly as the full path does; a changed scalar field or
    a smaller array goes back through the full path (and the guard)."""
    import struct as _struct
    from dataclasses import dataclass

    @dataclass
    class Views:
        x: "const float*"  # noqa: F722
        y: "float*"  # noqa: F722
        n: int
        a: float

    seen = []

    def ref(mem, grid, block, v):
        raw = np.asarray(v).tobytes()
        seen.append(raw)
        px, py, n, a = _struct.unpack("<QQif", raw)
        mem.view(py, np.float32, n)[:] += a * mem.view(px, np.float32, n)

    fake = FakeCupy(hip=False, name="Fake NVIDIA", kernels={"saxpy_views": ref}).install(
        monkeypatch)
    binds = _count_binds(monkeypatch)
    k = Kernel(wb.compile(STRUCT), "saxpy_views").on(CudaDevice(0))
    x = fake.asarray(np.arange(64, dtype=np.float32))
    y = fake.asarray(np.zeros(64, np.float32))
    y2 = fake.asarray(np.zeros(64, np.float32))
    for yy in (y, y, y2, y):
        k[1, 64](Views(x=x, y=yy, n=64, a=2.0))
    assert len(binds) == 1  # one full launch; the repeats (other arrays too): the plan
    assert _struct.unpack("<QQif", seen[2])[:2] == (x.data.ptr, y2.data.ptr)
    assert seen[0] == seen[1] == seen[3]
    np.testing.assert_array_equal(y.get(), 3 * 2 * np.arange(64, dtype=np.float32))
    k[1, 64](Views(x=x, y=y, n=64, a=0.5))  # a scalar field changed: the full path packs it
    assert len(binds) == 2 and _struct.unpack("<QQif", seen[-1])[3] == 0.5
