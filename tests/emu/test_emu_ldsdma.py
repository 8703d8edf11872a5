"""Global -> LDS DMA on the emulator (memory.ldsdma): global_load_lds_dword (gfx942, gfx950),
global_load_lds_dwordx3/x4 (gfx950), buffer_load_dword/x3/x4 ... lds, against a numpy model of
the documented addressing (LDS = M0 + offset + lane * stride; LLVM "AMDGPU DMA Operations")."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "ldsdma.hip").read_text()
NEW_LLVM = find_toolchain().clang_major >= 20
ARCHS = ["gfx942"] + (["gfx950"] if NEW_LLVM else [])
DEVICE = {"gfx942": "emulator", "gfx950": "emulator:gfx950"}


@pytest.fixture(scope="module", params=ARCHS)
def target(request):
    return request.param, wb.compile(SRC, request.param)


def _src(n=1024):
    return (np.arange(n, dtype=np.int32) * 7 + 3).astype(np.int32)


def _mnemonics(mod, arch, name):
    return {i.mnemonic for i in mod[arch].listing(name)}


def test_global_load_lds_dword(target):
    arch, mod = target
    assert "global_load_lds_dword" in _mnemonics(mod, arch, "g2l_dword")
    src, out = _src(), np.zeros(128, np.int32)
    Kernel(mod, "g2l_dword", device=DEVICE[arch])[1, 64](src, out)
    want = np.full(128, -1, np.int32)
    want[32 + 4:32 + 4 + 64] = src[4:4 + 64]  # offset 16 B moves both addresses by 4 dwords
    np.testing.assert_array_equal(out, want)


def test_buffer_load_dword_lds_with_range_check(target):
    arch, mod = target
    if not NEW_LLVM:
        pytest.skip("__builtin_amdgcn_raw_ptr_buffer_load_lds needs clang >= 20")
    assert "buffer_load_dword" in _mnemonics(mod, arch, "b2l_dword")
    src, out = _src(), np.zeros(128, np.int32)
    Kernel(mod, "b2l_dword", device=DEVICE[arch])[1, 64](src, out, 200)
    want = np.full(128, -1, np.int32)
    t = np.arange(64)
    inr = 4 * t + 32 + 4 <= 200  # offset + voffset range-checked against num_records bytes
    want[16 + 8 + t] = np.where(inr, src[8 + t], 0)
    np.testing.assert_array_equal(out, want)


@pytest.mark.skipif(not NEW_LLVM, reason="gfx950 needs LLVM >= 20")
def test_gfx950_wide_global_load_lds():
    mod = wb.compile(SRC, "gfx950")
    assert {"global_load_lds_dwordx4", "global_load_lds_dwordx3"} <= _mnemonics(
        mod, "gfx950", "g2l_wide")
    src, out = _src(), np.zeros(512, np.int32)
    Kernel(mod, "g2l_wide", device="emulator:gfx950")[1, 64](src, out)
    want = np.full((2, 64, 4), -1, np.int32)
    want[0] = src[:256].reshape(64, 4)
    want[1, :, :3] = src[256:256 + 192].reshape(64, 3)  # 16-byte lane stride, gap stays -1
    np.testing.assert_array_equal(out, want.reshape(-1))


@pytest.mark.skipif(not NEW_LLVM, reason="gfx950 needs LLVM >= 20")
def test_gfx950_wide_buffer_load_lds_per_dword_range_check():
    mod = wb.compile(SRC, "gfx950")
    assert {"buffer_load_dwordx4", "buffer_load_dwordx3"} <= _mnemonics(mod, "gfx950", "b2l_wide")
    src, out, nrec = _src(), np.zeros(512, np.int32), 600
    Kernel(mod, "b2l_wide", device="emulator:gfx950")[1, 64](src, out, nrec)
    want = np.full((2, 64, 4), -1, np.int32)
    for t in range(64):
        for k in range(4):
            want[0, t, k] = src[4 * t + k] if 16 * t + 4 * k + 4 <= nrec else 0
        for k in range(3):
            want[1, t, k] = src[3 * t + k] if 12 * t + 4 * k + 4 <= nrec else 0
    np.testing.assert_array_equal(out, want.reshape(-1))


def test_lds_dma_faults_name_the_side_that_is_out_of_bounds(target):
    arch, mod = target
    src, out = _src(), np.zeros(128, np.int32)
    if NEW_LLVM:
        with pytest.raises(Exception, match=r"global read by `buffer_load_dword.* buffer 'src'"):
            Kernel(mod, "b2l_dword", device=DEVICE[arch])[1, 64](src[:4], out, 4096)
    with pytest.raises(Exception, match=r"LDS address 256 .*outside the workgroup's 256-byte"):
        Kernel(mod, "g2l_past_end", device=DEVICE[arch])[1, 64](src, out)
