"""Structured, private and swizzled buffer resources on the emulator (memory.buffer_address),
against numpy models written from the ISA guides' buffer addressing sections: CDNA4 ISA §9.1.5
(gfx942, gfx950: structured "out of range if index >= num_records", raw, private), RDNA4 ISA
§9.4.1 Table 56 (gfx1100, gfx1201: OOB_SELECT 0-3) and §9.4.2 (swizzled addressing). Kernels:
tests/kernels/emu/buffer_structured.hip."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.errors import BufferResourceError
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "buffer_structured.hip").read_text()
NEW_LLVM = find_toolchain().clang_major >= 20
CDNA = ["gfx942"] + (["gfx950"] if NEW_LLVM else [])
RDNA = ["gfx1100", "gfx1201"]
GFX9 = 0x00020000  # V# dword 3: DFMT 4 (32), the gfx9 untyped-buffer convention
FMT = 0x16 << 12  # RDNA V# dword 3 FORMAT (nonzero: a bound resource)
OOB = 28  # RDNA OOB_SELECT at dword 3 [29:28]
TID = 1 << 23  # add_tid_enable


@cache
def _mod(arch):
    return wb.compile(SRC, arch)


def _k(arch, name):
    return Kernel(_mod(arch), name, device=f"emulator:{arch}")


def _src(n):
    return (np.arange(n, dtype=np.uint64) * 2654435761 % 2**32).astype(np.uint32) | 1


def _at(src, byte_addr, ok):
    """The dword at each byte address where ok, else 0."""
    return np.where(ok, src[np.where(ok, byte_addr, 0) // 4], 0).astype(np.uint32)


# ---- gfx9: structured = index < num_records, offset unchecked ---------------------------------
@pytest.mark.parametrize("arch", CDNA)
def test_cdna_idxen_load_checks_the_index_only(arch):
    stride, nrec, soff = 24, 10, 4
    src = _src(80)
    idx = np.arange(64, dtype=np.int64) % 14  # 10..13 past num_records
    idx[:4] = [9, 10, 0, -1]  # last record, first one out, first record, 0xffffffff
    out = np.zeros(64, np.uint32)
    _k(arch, "s_load_idx")[1, 64](src, idx.astype(np.int32), out, stride, nrec, GFX9, soff)
    ok = (idx >= 0) & (idx < nrec)
    np.testing.assert_array_equal(out, _at(src, soff + idx * stride + 8, ok))
    assert ok[0] and not ok[1] and not ok[3]


@pytest.mark.parametrize("arch", CDNA)
def test_cdna_idxen_offen_offset_past_the_stride_is_not_checked(arch):
    stride, nrec = 16, 8
    src = _src(64)
    rng = np.random.default_rng(1)
    idx = rng.integers(0, 10, 64)
    off = rng.integers(0, 8, 64) * 4  # up to 28 bytes into a 16-byte record
    idx[:2], off[:2] = [7, 7], [12, 20]
    out = np.zeros(64, np.uint32)
    _k(arch, "s_load_idx_off")[1, 64](src, idx.astype(np.int32), off.astype(np.int32), out,
                                      stride, nrec, GFX9, 0)
    np.testing.assert_array_equal(out, _at(src, idx * stride + off, idx < nrec))
    assert out[1] == src[(7 * 16 + 20) // 4]  # reads into record 8: only the index is checked


@pytest.mark.parametrize("arch", CDNA + RDNA)
def test_idxen_store_drops_out_of_range_records(arch):
    stride, nrec = 12, 6
    flags = GFX9 if arch in CDNA else FMT | 1 << OOB  # RDNA OOB_SELECT 1: index >= num_records
    dst = np.full(32, 0xDEAD, np.uint32)
    idx = (np.arange(64) - 2).astype(np.int32)  # -2, -1 (huge), 0..5 in range, 6.. dropped
    val = (np.arange(64) + 100).astype(np.uint32)
    _k(arch, "s_store_idx")[1, 64](dst, idx, val, stride, nrec, flags)
    want = np.full(32, 0xDEAD, np.uint32)
    for i, v in zip(idx, val):
        if 0 <= i < nrec:
            want[(i * stride + 4) // 4] = v
    np.testing.assert_array_equal(dst, want)


@pytest.mark.parametrize("arch", CDNA)
def test_cdna_idxen_atomics_all_or_nothing(arch):
    stride, nrec = 8, 4
    counters = np.zeros(16, np.uint32)
    idx = (np.arange(64) % 6).astype(np.int32)  # records 4 and 5 are out of range
    _k(arch, "s_atomic_idx")[1, 64](counters, idx, stride, nrec)
    want = np.zeros(16, np.uint32)
    np.add.at(want, (idx[idx < nrec] * stride + 4) // 4, 1)
    np.testing.assert_array_equal(counters, want)


@pytest.mark.parametrize("arch", CDNA)
def test_cdna_add_tid_private_buffer(arch):
    """add_tid_enable without idxen: index = lane, no range check (CDNA4 ISA §9.1.5.1), and the
    data format field is stride[17:14] (Table 45)."""
    src = _src(64 * 4100)
    off = np.full(64, 4, np.int32)
    out = np.zeros(64, np.uint32)
    lane = np.arange(64)
    _k(arch, "s_load_off")[1, 64](src, off, out, 8, 4, TID, 0)  # num_records 4: not checked
    np.testing.assert_array_equal(out, src[(lane * 8 + 4) // 4])
    # DFMT 1 -> stride = 1 << 14 | 4 = 16388 bytes
    _k(arch, "s_load_off")[1, 64](src, off * 0, out, 4, 4, TID | 1 << 15, 0)
    np.testing.assert_array_equal(out, src[lane * 16388 // 4])


@pytest.mark.skipif(not NEW_LLVM, reason="__builtin_amdgcn_raw_ptr_buffer_load_lds: clang >= 20")
@pytest.mark.parametrize("arch", CDNA)
def test_hipkittens_style_offen_lds_tile_with_stride_512(arch):
    """make_srsrc(ptr, num_records = rows * 512, stride = 512) and buffer_load ... offen lds:
    no idxen, so the raw check (offset against num_records bytes) applies; rows past `rows`
    read 0 into LDS."""
    row_bytes, rows, row0, col0 = 512, 6, 4, 8
    src = np.arange(8 * 128, dtype=np.int32) * 3 + 1  # 8 rows allocated, 6 in the resource
    out = np.zeros(256, np.int32)
    k = _k(arch, "s_tile_lds")
    mn = {i.mnemonic for i in _mod(arch)[arch].listing("s_tile_lds")}
    assert ("buffer_load_dwordx4" if arch == "gfx950" else "buffer_load_dword") in mn
    k[1, 64](src, out, row_bytes, rows, row0, col0)
    want = np.full(256, -1, np.int32)
    t = np.arange(64)
    if arch == "gfx950":
        for kk in range(4):
            row, col = row0 + t // 4, col0 + (t % 4) * 4 + kk
            want[4 * t + kk] = np.where(row < rows, src[np.minimum(row, 7) * 128 + col], 0)
    else:
        row, col = row0 + t // 16, col0 + t % 16
        want[t] = np.where(row < rows, src[row * 128 + col], 0)
    np.testing.assert_array_equal(out, want)
    assert (want == 0).any() and (want > 0).any()


@pytest.mark.skipif(not NEW_LLVM, reason="LDS DMA kernels need clang >= 20")
@pytest.mark.parametrize("arch", CDNA)
def test_idxen_lds_dma(arch):
    src = _src(256).view(np.int32)
    idx = (np.arange(64) * 3 % 40).astype(np.int32)
    out = np.zeros(64, np.int32)
    _k(arch, "s_idx_lds")[1, 64](src, idx, out, 8, 30)
    np.testing.assert_array_equal(out, np.where(idx < 30, src[idx * 2], 0))


# ---- RDNA: OOB_SELECT ---------------------------------------------------------------------------
@pytest.mark.parametrize("arch", RDNA)
def test_rdna_oob_select_on_idxen_offen(arch):
    stride, nrec = 16, 8
    src = _src(64)
    idx = np.repeat(np.arange(10), 6)[:32].astype(np.int64)
    off = np.tile(np.arange(6) * 4, 10)[:32].astype(np.int64)  # 0..20: 16 is the first past it
    args = (idx.astype(np.int32), off.astype(np.int32))
    addr = idx * stride + off
    out = np.zeros(32, np.uint32)
    k = _k(arch, "s_load_idx_off")
    k[1, 32](src, *args, out, stride, nrec, FMT | 0 << OOB, 0)  # structured
    np.testing.assert_array_equal(out, _at(src, addr, (idx < nrec) & (off + 4 <= stride)))
    k[1, 32](src, *args, out, stride, nrec, FMT | 1 << OOB, 0)  # index only
    np.testing.assert_array_equal(out, _at(src, addr, idx < nrec))
    # 3 without swizzle: raw, offset + payload against num_records *bytes*; the index is free
    k[1, 32](src, *args, out, stride, 8, FMT | 3 << OOB, 0)
    np.testing.assert_array_equal(out, _at(src, addr, off + 4 <= 8))


@pytest.mark.parametrize("arch", RDNA)
def test_rdna_structured_dwordx2_is_checked_per_dword(arch):
    stride, nrec = 16, 8
    src = _src(64)
    idx = np.arange(32, dtype=np.int64) % 9
    off = np.array([8, 12, 16, 4] * 8, np.int64)  # 12: first dword in, second out
    out = np.zeros(64, np.uint32)
    _k(arch, "s_load_idx_off_x2")[1, 32](src, idx.astype(np.int32), off.astype(np.int32), out,
                                         stride, nrec, FMT)
    o = out.reshape(32, 2)
    for kk in range(2):
        ok = (idx < nrec) & (off + 4 * kk + 4 <= stride)
        np.testing.assert_array_equal(o[:, kk], _at(src, idx * stride + off + 4 * kk, ok))
    assert o[1, 0] != 0 and o[1, 1] == 0


@pytest.mark.parametrize("arch", RDNA)
def test_rdna_soffset_and_num_records(arch):
    """OOB_SELECT 3, raw: on gfx12 "num_records is reduced by sgpr_offset" (RDNA4 Table 56);
    on gfx11 the soffset stays outside the check."""
    src = _src(64)
    idx = np.zeros(32, np.int32)  # the instruction's offset:8 is the whole offset
    out = np.zeros(32, np.uint32)
    k = _k(arch, "s_load_idx")
    for soff in (0, 4, 8):
        k[1, 32](src, idx, out, 16, 16, FMT | 3 << OOB, soff)
        ok = 8 + 4 <= (16 - soff if arch == "gfx1201" else 16)
        np.testing.assert_array_equal(out, np.full(32, src[(soff + 8) // 4] if ok else 0))


@pytest.mark.parametrize("arch", RDNA)
def test_rdna_add_tid_adds_the_lane_to_the_index(arch):
    src = _src(64)
    out = np.zeros(32, np.uint32)
    lane = np.arange(32)
    _k(arch, "s_load_off")[1, 32](src, np.full(32, 4, np.int32), out, 8, 20,
                                  FMT | TID | 1 << OOB, 0)
    np.testing.assert_array_equal(out, _at(src, lane * 8 + 4, lane < 20))


# ---- RDNA: swizzled addressing ------------------------------------------------------------------
def _swizzled(index, offset, stride, esize, istride):
    """RDNA ISA §9.4.2 "Swizzled Buffer Addressing"."""
    return ((index // istride * stride + offset // esize * esize) * istride
            + index % istride * esize + offset % esize)


def test_swizzle_formula_by_hand():
    # stride 16, 4-byte elements, index_stride 8: index 9 = (msb 1, lsb 1), offset 4 = (1, 0):
    # (1*16 + 1*4)*8 + 1*4 + 0 = 164; index 10, offset 8: (16 + 8)*8 + 2*4 = 200
    assert _swizzled(9, 4, 16, 4, 8) == 164 and _swizzled(10, 8, 16, 4, 8) == 200
    assert _swizzled(1, 4, 16, 4, 8) == 36


@pytest.mark.parametrize("arch", RDNA)
def test_rdna_swizzled_4_byte_elements(arch):
    stride = 16 | 1 << 14  # swizzle enable 1: 4-byte elements; index_stride field 0: 8
    src = _src(512)
    idx = np.arange(32, dtype=np.int64)
    off = (idx % 4) * 4
    off[20:24] = 16  # past the stride: out of range (OOB 3, swizzled)
    out = np.zeros(32, np.uint32)
    _k(arch, "s_load_idx_off")[1, 32](src, idx.astype(np.int32), off.astype(np.int32), out,
                                      stride, 30, FMT | 3 << OOB, 0)
    ok = (idx < 30) & (off + 4 <= 16)
    np.testing.assert_array_equal(out, _at(src, _swizzled(idx, off, 16, 4, 8), ok))
    # the hand-computed lanes (test_swizzle_formula_by_hand)
    assert out[9] == src[164 // 4] and out[1] == src[36 // 4] and out[10] == src[200 // 4]
    assert (out[20:24] == 0).all() and (out[30:] == 0).all()


@pytest.mark.parametrize("arch", RDNA)
def test_rdna_swizzled_soffset_place(arch):
    """gfx11 (RDNA3.5 §9.4.2): sgpr_offset is "in the base"; gfx12 (RDNA4 §9.4.2): it joins
    total_offset before the split. Index 9, offset:8, soffset 4, stride 16, index_stride 16:
    gfx11 4 + (0*16 + 2*4)*16 + 9*4 = 168; gfx12 (0 + 3*4)*16 + 9*4 = 228."""
    stride = 16 | 1 << 14
    src = _src(512)
    idx = np.full(32, 9, np.int32)
    out = np.zeros(32, np.uint32)
    _k(arch, "s_load_idx")[1, 32](src, idx, out, stride, 30, FMT | 1 << 21 | 3 << OOB, 4)
    want = 228 if arch == "gfx1201" else 168
    assert want == (_swizzled(9, 12, 16, 4, 16) if arch == "gfx1201"
                    else 4 + _swizzled(9, 8, 16, 4, 16))
    np.testing.assert_array_equal(out, np.full(32, src[want // 4]))


def test_rdna3_swizzled_16_byte_elements_dwordx4():
    stride = 32 | 3 << 14  # 16-byte elements; index_stride 8
    src = _src(1024)
    idx = np.arange(32, dtype=np.int64)
    off = (idx % 3) * 16  # 32 is past the stride
    out = np.zeros(128, np.uint32)
    _k("gfx1100", "s_load_idx_off_x4")[1, 32](src, idx.astype(np.int32), off.astype(np.int32),
                                              out, stride, 32, FMT | 3 << OOB)
    first = _swizzled(idx, off, 32, 16, 8)
    for kk in range(4):  # the dwords of a 16-byte element follow the first one
        np.testing.assert_array_equal(out.reshape(32, 4)[:, kk],
                                      _at(src, first + 4 * kk, off + 4 * kk + 4 <= 32))


# ---- an assumption, labelled -----------------------------------------------------------
@pytest.mark.parametrize("arch", CDNA)
def test_gfx9_swizzle_enable_without_an_index_is_linear_and_says_it_is_assumed(arch):
    """HipKittens' V#: stride, cache swizzle and swizzle enable, read with offen only. The gfx9
    guide gives no element size; linear addressing (the raw range check included) is what
    HipKittens' validated GEMMs rely on, and the emulator says so with a warning."""
    from workbench.emu.errors import EmulatorAssumption

    src = _src(1024)
    off = (np.arange(64, dtype=np.int64) * 12) % 4200  # past num_records for some lanes
    out = np.zeros(64, np.uint32)
    with pytest.warns(EmulatorAssumption, match=r"kernel 's_load_off': gfx9 V# with swizzle_en "
                                                r"and no index .* addressed linearly"):
        _k(arch, "s_load_off")[1, 64](src, off.astype(np.int32), out, 512 | 0xC000, 4096,
                                      GFX9, 0)
    np.testing.assert_array_equal(out, _at(src, off, off + 4 <= 4096))


# ---- refused by name ------------------------------------------------------------------------
REFUSED = [
    ("gfx942", "s_load_idx", 16 | 0x8000, GFX9, "no element-size field"),
    ("gfx942", "s_load_idx", 0, GFX9, "idxen with stride 0"),
    ("gfx942", "s_load_idx", 16, GFX9 | TID, "add_tid_enable with idxen"),
    ("gfx1100", "s_load_idx", 16 | 2 << 14, FMT | 3 << OOB, "swizzle enable 2"),
    ("gfx1100", "s_load_idx_off_x2", 16 | 1 << 14, FMT | 3 << OOB, "larger than"),
    ("gfx1100", "s_load_idx", 20 | 3 << 14, FMT | 3 << OOB, "not a multiple"),
    ("gfx1201", "s_load_idx_off_x4", 32 | 3 << 14, FMT | 3 << OOB, "16-byte elements are not"),
]


@pytest.mark.parametrize("arch,name,stride,flags,why", REFUSED)
def test_undefined_resources_are_refused_by_name(arch, name, stride, flags, why):
    k = _k(arch, name)
    n = 64 if arch in CDNA else 32
    src, z, out = _src(1024), np.zeros(n, np.int32), np.zeros(4 * n, np.uint32)
    args = {"s_load_off": (src, z, out, stride, 64, flags, 0),
            "s_load_idx": (src, z, out, stride, 64, flags, 0),
            "s_load_idx_off_x2": (src, z, z, out, stride, 64, flags),
            "s_load_idx_off_x4": (src, z, z, out, stride, 64, flags)}[name]
    with pytest.raises(BufferResourceError, match=why) as e:
        k[1, n](*args)
    msg = str(e.value)
    assert f"kernel {name!r}" in msg and "at pc 0x" in msg and "buffer resource s[" in msg
    assert f"0x{flags:08x}" in msg and e.value.resource[3] == flags  # V# dword 3 as given
