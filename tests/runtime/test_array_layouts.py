"""Arrays whose bytes a kernel would misread are refused before the launch, naming the argument
(index and parameter name) and the fix: non-native byte order (issue 24: a '>f4' array gave
wrong results), Python objects, masked arrays, and non-contiguous layouts. Real kernels, real
emulator; the converted arrays then give numpy's answer."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.runtime import Kernel, LaunchError

SRC = r'''
extern "C" __global__ void add(const float* x, const float* y, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}
extern "C" __global__ void copy_bytes(const void* src, void* dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) ((char*)dst)[i] = ((const char*)src)[i];
}
'''
N = 64


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


@pytest.fixture(scope="module")
def add(mod):
    return Kernel(mod, "add", device="emulator")


@pytest.fixture(scope="module")
def copy(mod):
    return Kernel(mod, "copy_bytes", device="emulator")


def test_big_endian_is_refused_naming_the_argument_and_the_fix(add):
    x = np.arange(N, dtype=">f4")
    y = np.ones(N, np.float32)
    o = np.zeros(N, np.float32)
    with pytest.raises(LaunchError) as ei:
        add[1, 64](x, y, o, N)
    msg = str(ei.value)
    assert "argument 0 'x' of add" in msg and "'>f4'" in msg and "big-endian" in msg
    assert "arr.astype('<f4')" in msg
    assert (o == 0).all()
    add[1, 64](x.astype("<f4"), y, o, N)
    np.testing.assert_array_equal(o, np.arange(N, dtype=np.float32) + 1)


@pytest.mark.parametrize("how", ["trace", "check", "timing"])
def test_every_launch_form_refuses_it(add, how):
    x = np.ones(N, ">f4")
    y, o = np.ones(N, np.float32), np.zeros(N, np.float32)
    launcher = getattr(add, how)[1, 64]
    kw = {"chip": "mi300x"} if how == "timing" else {}
    with pytest.raises(LaunchError, match=r"argument 0 'x' of add .*big-endian"):
        launcher(x, y, o, N, **kw)


def test_big_endian_output_and_untyped_pointers_too(add, copy):
    x = np.ones(N, np.float32)
    with pytest.raises(LaunchError, match=r"argument 2 'o' of add .*'>f4'"):
        add[1, 64](x, x, np.zeros(N, ">f4"), N)
    src = np.arange(N, dtype=">i4")
    with pytest.raises(LaunchError, match=r"argument 0 'src' of copy_bytes .*astype\('<i4'\)"):
        copy[1, 64](src, np.zeros(N * 4, np.uint8), N * 4)
    rec = np.zeros(4, dtype=[("a", ">f4"), ("b", "<i2")])
    with pytest.raises(LaunchError, match=r"newbyteorder\('='\)"):
        copy[1, 64](rec, np.zeros(24, np.uint8), 24)
    # a native structured array is plain bytes: copied as they are
    ok = np.array([(1.5, 2)], dtype=[("a", "<f4"), ("b", "<i4")])
    dst = np.zeros(8, np.uint8)
    copy[1, 64](ok, dst, 8)
    assert dst.tobytes() == ok.tobytes()


def test_object_arrays_are_refused(copy):
    objs = np.array([1.0, "two", None] * 4, dtype=object)
    with pytest.raises(LaunchError, match=r"argument 0 'src' of copy_bytes .*Python objects "
                                          r"\(dtype object\).*np\.asarray"):
        copy[1, 64](objs, np.zeros(96, np.uint8), 96)


def test_masked_arrays_are_refused(add):
    x = np.ma.masked_array(np.ones(N, np.float32), mask=np.arange(N) % 2 == 0)
    y, o = np.ones(N, np.float32), np.zeros(N, np.float32)
    with pytest.raises(LaunchError, match=r"argument 0 'x' of add .*masked array.*filled"):
        add[1, 64](x, y, o, N)


def test_non_contiguous_layouts_are_refused(add):
    y, o = np.ones(N, np.float32), np.zeros(N, np.float32)
    strided = np.ones(2 * N, np.float32)[::2]
    with pytest.raises(LaunchError, match=r"argument 0 'x' of add .*contiguous.*"
                                          r"np\.ascontiguousarray"):
        add[1, 64](strided, y, o, N)
    fortran = np.asfortranarray(np.ones((8, 8), np.float32))
    with pytest.raises(LaunchError, match=r"argument 1 'y' of add .*contiguous"):
        add[1, 64](y, fortran, o, N)
    add[1, 64](np.ascontiguousarray(strided), np.ascontiguousarray(fortran).reshape(-1), o, N)
    assert (o == 2).all()
