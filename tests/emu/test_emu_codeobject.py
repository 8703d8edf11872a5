"""The code object's own data on the emulator: PT_LOAD segments mapped at CODE_BASE + vaddr,
dynamic relocations applied, PC-relative addressing (s_getpc_b64) reaching them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.machine.elfmap import load_image
from workbench.emu.machine.memory import CODE_BASE
from workbench.runtime.errors import KernelFault
from workbench.runtime.kernel import Kernel

HERE = Path(__file__).parents[1] / "kernels" / "emu"
_spec = importlib.util.spec_from_file_location("hipwb_emu_harness", HERE / "harness.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)


@pytest.fixture(scope="module")
def mod():
    return wb.compile((HERE / "codeobject.hip").read_text(), "gfx942")


def test_image_segments_and_relocations(mod):
    img = load_image(mod["gfx942"].elf)
    names = " ".join(s.name for s in img.segments)
    assert ".rodata" in names and ".text" in names and ".data" in names
    assert len(img.fixups) >= 2 and all(img.relative)  # the two `picks` pointers


def test_tables_constants_device_globals_and_relocated_pointers(mod):
    idx = np.random.default_rng(0).integers(0, 1000, 256).astype(np.int32)
    out = np.zeros(3 * 256, np.float32)
    total = np.zeros(1, np.int32)
    harness.launch_image(mod, "tables", (1,), (256,), idx, out, total)
    table = np.arange(8, dtype=np.float32) + 0.5
    primes = np.array([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53], np.float32)
    np.testing.assert_array_equal(out[0::3], table[idx & 7])
    np.testing.assert_array_equal(out[1::3], primes[idx & 15])
    np.testing.assert_array_equal(out[2::3], np.where(idx & 1, 6.5, 1.5).astype(np.float32))
    assert total[0] == 256  # __device__ int in .bss, zeroed at load, atomics on it
    # __device__ data starts from its initialiser in every launch (fresh copy per launch)
    harness.launch_image(mod, "tables", (1,), (256,), idx, out, total)
    assert total[0] == 256


def test_getpc_returns_the_load_address(mod):
    lst = mod["gfx942"].listing("pc")
    ins = next(i for i in lst if i.mnemonic == "s_getpc_b64")
    out = np.zeros(64, np.uint64)
    Kernel(mod, "pc", device="emulator")[1, 64](out)
    # CDNA3 ISA S_GETPC_B64: the address of the next instruction
    assert (out == CODE_BASE + ins.addr + 4 * len(ins.words)).all()


def test_kernel_launch_maps_the_image(mod):
    """Kernel[...] on the emulator device maps the code object's segments (what runs is the
    whole ELF): the same results as the image harness."""
    idx = np.random.default_rng(1).integers(0, 1000, 64).astype(np.int32)
    out = np.zeros(3 * 64, np.float32)
    total = np.zeros(1, np.int32)
    Kernel(mod, "tables", device="emulator")[1, 64](idx, out, total)
    table = np.arange(8, dtype=np.float32) + 0.5
    np.testing.assert_array_equal(out[0::3], table[idx & 7])
    np.testing.assert_array_equal(out[2::3], np.where(idx & 1, 6.5, 1.5).astype(np.float32))
    assert total[0] == 64


def test_without_the_image_the_fault_says_why(mod):
    """A launch given only a listing (no code object) faults with an explanation."""
    from workbench.runtime.args import bind_args
    from workbench.runtime.emulator import EmulatorDevice

    info = mod["gfx942"].kernel("tables")
    args = bind_args(info, (np.zeros(64, np.int32), np.zeros(192, np.float32),
                            np.zeros(1, np.int32)))
    with pytest.raises(KernelFault, match="did not map the code object"):
        EmulatorDevice().launch(None, info, (1, 1, 1), (64, 1, 1), args,
                                listing=mod["gfx942"].listing("tables"))


def test_null_pointer_still_faults(mod):
    src = 'extern "C" __global__ void k(float* o) { float* p = (float*)0; o[threadIdx.x] = p[1]; }'
    m = wb.compile(src, "gfx942")
    with pytest.raises(KernelFault):
        harness.launch_image(m, "k", (1,), (64,), np.zeros(64, np.float32))
