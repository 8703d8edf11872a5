"""Emulator errors: out-of-bounds accesses, runaway loops, unknown instructions, barriers."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.emu import BudgetExceeded, EmulatorError, KernelFault, UnknownInstruction
from workbench.runtime.kernel import Kernel

SRC = r'''
extern "C" __global__ void scale(const float* x, float* y, int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n + extra) y[i] = 2.0f * x[i < n ? i : 0];
}
extern "C" __global__ void spin(const int* flag, int* out) {
  int k = 0;
  while (*(volatile const int*)flag == 0) k++;
  out[threadIdx.x] = k;
}
extern "C" __global__ void lds_oob(int* out, int idx) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + idx];
}
extern "C" __global__ void odd_instruction(int* out) {
  int v = threadIdx.x;
  asm volatile("v_mqsad_u32_u8 v[0:3], v[0:1], v2, v[0:3]" ::: "v0", "v1", "v2", "v3");
  out[threadIdx.x] = v;
}
'''


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_out_of_bounds_write_names_lane_address_and_buffer(mod):
    k = Kernel(mod, "scale", device="emulator")
    x = np.arange(100, dtype=np.float32)
    y = np.zeros(100, np.float32)
    with pytest.raises(KernelFault) as ei:
        k[1, 128](x, y, 100, 3)  # lanes 100..102 write past the end of y
    e = ei.value
    msg = str(e)
    assert "'scale'" in msg and "global_store_dword" in msg and "'y'" in msg
    assert list(e.lanes) == [36, 37, 38]  # i = 100..102 are lanes 36..38 of wave 1
    assert "past the end of buffer 'y' (size 400)" in msg
    assert e.address is not None and e.pc > 0 and e.source_line == 4
    assert e.buffer == "y" and e.instruction.startswith("global_store_dword")
    assert isinstance(e, wb.KernelFault)  # the public class users catch
    assert (y == 0).all()  # a faulting launch writes nothing back
    k[1, 128](x, y, 100, 0)  # the process and the device keep working
    np.testing.assert_array_equal(y, 2 * x)


def test_lds_out_of_bounds_read(mod):
    k = Kernel(mod, "lds_oob", device="emulator")
    out = np.zeros(64, np.int32)
    with pytest.raises(KernelFault, match=r"LDS.*256-byte LDS allocation"):
        k[1, 64](out, 10)
    k[1, 64](out, 0)
    np.testing.assert_array_equal(out, np.arange(64))


def test_runaway_loop_hits_budget_then_device_still_works(mod):
    k = Kernel(mod, "spin", device="emulator")
    out = np.zeros(64, np.int32)
    with pytest.raises(BudgetExceeded, match=r"'spin' exceeded its budget of 20,000"):
        k.launch(1, 64, np.zeros(1, np.int32), out, budget=20_000)
    k[1, 64](np.ones(1, np.int32), out)
    assert (out == 0).all()


def test_unknown_instruction_names_mnemonic_and_address(mod):
    k = Kernel(mod, "odd_instruction", device="emulator")
    addr = next(i.addr for i in k.isa if i.mnemonic == "v_mqsad_u32_u8")
    with pytest.raises(UnknownInstruction) as ei:
        k[1, 64](np.zeros(64, np.int32))
    assert "v_mqsad_u32_u8" in str(ei.value) and f"0x{addr:x}" in str(ei.value)
    assert ei.value.addr == addr


def test_read_only_buffer_write_faults(mod):
    from workbench.emu.engine.launch import Buffer, execute

    info = mod["gfx942"].kernel("scale")
    listing = mod["gfx942"].listing("scale")
    from workbench.runtime.args import bind_args
    from workbench.runtime.marshal import pack_kernargs

    x = np.ones(64, np.float32)
    y = np.zeros(64, np.float32)
    bound = bind_args(info, (x, y, 64, 0))
    bufs = [Buffer("x", x.view(np.uint8), True), Buffer("y", y.view(np.uint8), False)]

    def kern(addrs, hidden):
        return bytes(pack_kernargs(info, bound, [addrs[0], addrs[1], None, None], (1, 1, 1),
                                   (64, 1, 1)))
    with pytest.raises(KernelFault, match="read-only buffer 'y'"):
        execute(info, listing, (1, 1, 1), (64, 1, 1), bufs, kern)


def test_wrong_arch_is_refused():
    m = wb.compile('extern "C" __global__ void k(int* p) { p[0] = 1; }', "gfx1100")
    with pytest.raises(Exception, match="gfx942"):
        Kernel(m, "k", device="emulator")[1, 32](np.zeros(1, np.int32))


def test_emulator_error_is_base_class():
    assert issubclass(KernelFault, EmulatorError) and issubclass(BudgetExceeded, EmulatorError)
