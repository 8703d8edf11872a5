"""MUBUF buffer loads/stores/atomics through V# resources (memory.buffer): range check against
num_records (out of range: loads 0, stores dropped), soffset outside the check, per-dword checks
for wide loads, and the launch-buffer bounds check behind it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.errors import EmulatorError
from workbench.runtime.errors import KernelFault
from workbench.runtime.kernel import Kernel

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "buffer.hip").read_text()
N = 256


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def _k(mod, name):
    return Kernel(mod, name, device="emulator")


def test_gather_out_of_range_reads_zero(mod):
    rng = np.random.default_rng(0)
    src = rng.standard_normal(300).astype(np.float32)
    valid = 200  # the resource covers 200 of the 300 elements
    idx = rng.integers(-50, 320, N).astype(np.int32)
    idx[:4] = [0, 199, 200, -1]
    out = np.full(N, np.nan, np.float32)
    _k(mod, "buffer_gather")[N // 64, 64](src, idx, out, valid)
    ok = (idx >= 0) & (idx < valid)  # negative offsets are huge unsigned voffsets
    want = np.where(ok, src[np.clip(idx, 0, 299)], 0).astype(np.float32)
    np.testing.assert_array_equal(out, want)
    assert ok.any() and (~ok).any()


def test_widths_per_dword_range_check_and_soffset(mod):
    rng = np.random.default_rng(1)
    nbytes, soff = 1000, 24
    src = rng.integers(0, 256, nbytes + 64).astype(np.uint8)
    off = rng.integers(nbytes - 40, nbytes + 8, N).astype(np.int32)
    off[:64] = rng.integers(0, nbytes, 64)
    out = np.zeros(12 * N, np.uint32)
    _k(mod, "buffer_widths")[N // 64, 64](src, off, out, nbytes, soff)
    o = out.reshape(N, 12)
    b = src.astype(np.uint32)

    def word(start, ok):  # little-endian dword at `start` where ok, else 0
        s = np.where(ok, start, 0)
        return np.where(ok, b[s] | b[s + 1] << 8 | b[s + 2] << 16 | b[s + 3] << 24, 0)

    np.testing.assert_array_equal(o[:, 0], np.where(off + 1 <= nbytes,
                                                    b[np.minimum(off, nbytes)], 0))
    o2 = off & ~1
    np.testing.assert_array_equal(o[:, 1], np.where(o2 + 2 <= nbytes, b[o2] | b[o2 + 1] << 8, 0))
    o4 = off & ~3
    # soffset moves the address but is not part of the range check
    np.testing.assert_array_equal(o[:, 2], word(o4 + soff, o4 + 4 <= nbytes))
    for col, k in [(3, 0), (4, 1), (5, 0), (6, 1), (7, 2), (8, 0), (9, 1), (10, 2), (11, 3)]:
        np.testing.assert_array_equal(o[:, col], word(o4 + 4 * k, o4 + 4 * k + 4 <= nbytes),
                                      err_msg=f"column {col}")
    # some dwordx4 loads really straddle the end (first dwords in range, last ones zero)
    assert ((o4 + 4 <= nbytes) & (o4 + 16 > nbytes)).any()


def test_scatter_drops_out_of_range_stores(mod):
    rng = np.random.default_rng(2)
    valid = 100
    dst = np.full(128, -1.0, np.float32)
    idx = rng.permutation(np.arange(-20, 236))[:N].astype(np.int32)
    val = rng.standard_normal(N).astype(np.float32)
    _k(mod, "buffer_scatter")[N // 64, 64](dst, idx, val, valid)
    want = np.full(128, -1.0, np.float32)
    ok = (idx >= 0) & (idx < valid)
    want[idx[ok]] = val[ok]
    np.testing.assert_array_equal(dst, want)


def test_atomics_return_and_all_or_nothing(mod):
    rng = np.random.default_rng(3)
    nslots = 8
    slot = rng.integers(0, nslots, N).astype(np.int32)
    counters = np.zeros(nslots + 4, np.uint32)
    prev = np.zeros(N, np.uint32)
    _k(mod, "buffer_atomics")[N // 64, 64](counters, slot, prev, nslots)
    c1 = np.bincount(slot, minlength=nslots)
    c2 = np.zeros(nslots, np.int64)
    np.add.at(c2, slot[slot + 1 < nslots] + 1, 2)  # offset:4 -> the next slot; last one OOB
    np.testing.assert_array_equal(counters[:nslots], c1 + c2)
    assert (counters[nslots:] == 0).all()
    for s in range(nslots):  # every lane saw a distinct pre-op value of its slot
        p = np.sort(prev[slot == s])
        assert len(set(p.tolist())) == len(p) and (p < counters[s]).all()


def test_resource_larger_than_the_buffer_faults(mod):
    src = np.zeros(32, np.float32)
    with pytest.raises(KernelFault, match="'src'"):
        _k(mod, "buffer_overclaim")[1, 64](src, np.zeros(64, np.float32), 256)
    out = np.zeros(64, np.float32)
    _k(mod, "buffer_overclaim")[1, 64](src + 1, out, 128)  # 32 floats: lanes >= 32 read 0
    np.testing.assert_array_equal(out, np.r_[np.ones(32), np.zeros(32)].astype(np.float32))


def test_invalid_data_format_is_refused(mod):
    with pytest.raises(EmulatorError, match="data format 0"):
        _k(mod, "buffer_badformat")[1, 64](np.zeros(64, np.float32), np.zeros(64, np.float32))
