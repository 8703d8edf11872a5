"""printf and assert in device code, on the emulator: output in the cell, faults that name the
assertion, lane and line, and a session that keeps working after them.

The code object is the real one (clang's buffered printf lowering into the hidden printf buffer,
hipwb's devlib __printf_alloc/__assert_fail; workbench/emu/engine/printf.py reads the frames back).
"""
from __future__ import annotations

import numpy as np
import pytest

import workbench
from workbench import KernelFault
from workbench.emu.engine.printf import format_frame
from workbench.runtime import Kernel

SRC = r"""
__host__ __device__ int twice(int v) {
  printf("twice(%d)\n", v);
  return 2 * v;
}
extern "C" __global__ void show(const float* x, const char* word, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 50 == 0)
    printf("i=%d neg=%d u=%u hex=%#x f=%.3f e=%e s=%s w=%s c=%c ll=%lld %% pad=[%5d] star=[%*d]\n",
           i, -i, 4000000000u, i, x[i], x[i], "const", word, 'A' + i % 26, -1234567890123ll, i,
           4, i);
  if (i == 3) twice(21);
}
extern "C" __global__ void checked(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(x[i] >= 0.0f);
    y[i] = sqrtf(x[i]);
  }
}
"""


@pytest.fixture(scope="module")
def mod() -> workbench.Module:
    return workbench.compile(SRC, "gfx942")


def test_printf_formats_like_c_in_call_then_wave_then_lane_order(mod, capsys):
    """The emulator advances the waves that stand at one instruction together, so each printf
    call prints for every wave of the batch (by wave, then lane) before the next call does."""
    n = 256
    x = np.linspace(-2, 2, n).astype(np.float32)
    word = np.frombuffer(b"runtime\0", np.int8).copy()
    res = Kernel(mod, "show", "emulator")[2, 128](x, word, n)
    out = capsys.readouterr().out.splitlines()
    want = []
    for i in range(n):  # waves in order (64 lanes each), lanes in order within a wave
        if i % 50 == 0:
            hexa = f"{i:#x}" if i else "0"  # C prints %#x of 0 as 0
            want.append(f"i={i} neg={-i} u=4000000000 hex={hexa} f={x[i]:.3f} e={x[i]:e} "
                        f"s=const w=runtime c={chr(65 + i % 26)} ll=-1234567890123 % "
                        f"pad=[{i:5d}] star=[{i:4d}]")
    want.append("twice(21)")  # the later call
    assert out == want
    assert res.stats["printed"] == tuple(s + "\n" for s in want)


def test_format_frame_edge_cases():
    import struct

    words = b"".join(struct.pack("<q", v) for v in (-1, 255))
    assert format_frame("%d %x\n", words) == "-1 ff\n"
    assert format_frame("100%% %hhu", struct.pack("<Q", 7)) == "100% 7"


def test_failed_assert_is_a_kernel_fault_naming_assertion_lane_and_line(mod):
    n = 128
    x = np.abs(np.linspace(-1, 1, n)).astype(np.float32)
    x[70] = -1.0  # wave 1, lane 6
    y = np.zeros(n, np.float32)
    k = Kernel(mod, "checked", "emulator")
    with pytest.raises(KernelFault) as err:
        k[2, 64](x, y, n)
    msg = str(err.value)
    assert "Device-side assertion `x[i] >= 0.0f' failed." in msg
    assert "lanes [6] of wave 0 in workgroup (1, 0, 0)" in msg
    assert "cell:" in msg and "checked" in msg  # file:line: function of the assert
    assert err.value.lanes == (6,)
    # the session survives: the same kernel runs on good data
    x[70] = 4.0
    k[2, 64](x, y, n)
    np.testing.assert_allclose(y, np.sqrt(x), rtol=1e-6)


def test_ndebug_removes_assert(mod):
    m = workbench.compile(SRC, "gfx942", defines={"NDEBUG": None})
    x = -np.ones(64, np.float32)
    y = np.zeros(64, np.float32)
    Kernel(m, "checked", "emulator")[1, 64](x, y, 64)
    assert np.isnan(y).all()
