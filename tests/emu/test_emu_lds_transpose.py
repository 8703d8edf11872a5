"""gfx950 transposing LDS reads (memory.dstr) against (1) a loop-by-loop reference of the exchange
rule (in each group of 16 lanes the loaded data is a row-major tile of 64/b rows x 16 b-bit
columns and lane j receives column j) and (2) the expected index maps of AMD's GPU tests of the
four instructions (ROCm rocm-libraries shared/rocroller/test/unit/TransposeLoadsTest.cpp),
re-enacted here with the same data placement, addresses and result layout."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

pytestmark = pytest.mark.skipif(find_toolchain().clang_major < 20,
                                reason="gfx950 needs LLVM >= 20")
SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "lds_transpose.hip").read_text()
CASES = {"tr_b16": ("ds_read_b64_tr_b16", 8, 16), "tr_b8": ("ds_read_b64_tr_b8", 8, 8),
         "tr_b4": ("ds_read_b64_tr_b4", 8, 4), "tr_b6": ("ds_read_b96_tr_b6", 12, 6)}


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx950")


def _elements(raw: bytes, bits: int) -> list[int]:
    v = int.from_bytes(raw, "little")
    return [(v >> (bits * i)) & ((1 << bits) - 1) for i in range(8 * len(raw) // bits)]


def _reference(data: bytes, perm: np.ndarray, nbytes: int, bits: int) -> bytes:
    loaded = [_elements(data[p * nbytes:(p + 1) * nbytes], bits) for p in perm]
    per_lane = len(loaded[0])
    out = bytearray()
    for lane in range(64):
        g, j = divmod(lane, 16)
        # the group's loaded elements, in lane order, are the tile read row by row
        tile = [e for q in range(16) for e in loaded[16 * g + q]]
        column = [tile[r * 16 + j] for r in range(per_lane)]
        out += sum(e << (bits * r) for r, e in enumerate(column)).to_bytes(nbytes, "little")
    return bytes(out)


@pytest.mark.parametrize("kernel", list(CASES))
def test_transposing_read(mod, kernel):
    mnemonic, nbytes, bits = CASES[kernel]
    assert mnemonic in {i.mnemonic for i in mod["gfx950"].listing(kernel)}
    rng = np.random.default_rng(len(kernel) + bits)
    data = rng.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    perm = rng.permutation(2048 // 16)[:64].astype(np.int32)  # rows read, in any order
    out = np.zeros(64 * nbytes // 4, np.int32)
    slots = np.zeros(512, np.uint32)  # row p at byte 16p (b96_tr_b6 needs 16-byte alignment)
    raw = data.tobytes()
    for p in range(128):
        slots.view(np.uint8)[16 * p:16 * p + nbytes] = np.frombuffer(
            raw[p * nbytes:(p + 1) * nbytes], np.uint8)
    Kernel(mod, kernel, device="emulator:gfx950")[1, 64](slots.view(np.int32), perm * 16, out)
    want = np.frombuffer(_reference(raw, perm, nbytes, bits), np.int32)
    np.testing.assert_array_equal(out, want)


def test_b16_lane_gets_a_column_of_the_4x16_tile(mod):
    """The MFMA-operand reading of the rule: with lane 4r + q pointing at row r, columns
    4q..4q+3 of a 4 x 16 half-word tile, lane j of each group receives column j."""
    tile = np.arange(64 * 4, dtype=np.uint16).reshape(4, 4, 16)  # [group, row, column]
    data = np.zeros(512, np.uint16)
    perm = np.zeros(64, np.int32)
    for g in range(4):
        for r in range(4):
            for q in range(4):
                slot = 16 * g + 4 * r + q
                data[4 * slot:4 * slot + 4] = tile[g, r, 4 * q:4 * q + 4]
                perm[slot] = slot
    out = np.zeros(128, np.int32)
    data = np.concatenate([data, np.zeros(512, np.uint16)])
    Kernel(mod, "tr_b16", device="emulator:gfx950")[1, 64](data.view(np.int32), perm * 8, out)
    got = out.view(np.uint16).reshape(4, 16, 4)  # [group, lane j, element r]
    np.testing.assert_array_equal(got, tile.transpose(0, 2, 1))


def _pack(values: np.ndarray, bits: int) -> np.ndarray:
    """b-bit values -> bytes, element i at bit i*b (little-endian, like rocRoller's packers)."""
    b = ((values[:, None] >> np.arange(bits)) & 1).astype(np.uint8).reshape(-1)
    return np.packbits(b, bitorder="little")


def _unpack(raw: np.ndarray, bits: int) -> np.ndarray:
    b = np.unpackbits(raw.view(np.uint8), bitorder="little").reshape(-1, bits).astype(np.int64)
    return (b << np.arange(bits)).sum(1)


@pytest.mark.parametrize("kernel", list(CASES))
def test_rocroller_gpu_test_index_maps(mod, kernel):
    """TransposeInstructionsTest's setup: MN = 16 rows of data copied verbatim to LDS (b6: each
    12-byte row padded to 16), lane 16x + y reads row 32x + y, then row 32x + 16 + y; the two
    results are stored register-major (b6: 12 bytes per lane) and must satisfy its asserts."""
    _, nbytes, bits = CASES[kernel]
    k = Kernel(mod, kernel, device="emulator:gfx950")
    mn, kk = 16, 128 if bits == 6 else 512 // bits  # the GPU tests 16x128 / 16x(512/b)
    rng = np.random.default_rng(bits)
    data = rng.integers(0, 16, mn * kk)
    packed = _pack(data, bits)
    stride = 16 if bits == 6 else nbytes  # the test's LDS row pitch
    lds = np.zeros(2048, np.uint8)
    for row in range(len(packed) // nbytes):
        lds[stride * row:stride * row + nbytes] = packed[nbytes * row:nbytes * (row + 1)]
    idx = np.array([32 * x + y for x in range(4) for y in range(16)], np.int32)
    outs = []
    for second in (0, 16):
        out = np.zeros(64 * nbytes // 4, np.uint32)
        k[1, 64](lds.view(np.int32), (idx + second) * stride, out.view(np.int32))
        outs.append(out.reshape(64, nbytes // 4))
    if bits == 6:
        res = _unpack(np.concatenate([o.reshape(-1) for o in outs]), 6)
        for t in range(2):
            for w in range(2):
                for z in range(2):
                    for x in range(16):
                        for y in range(16):
                            assert data[(4 * t + 2 * z + w) * 256 + 16 * x + y] == \
                                res[(4 * w + 2 * t + z) * 256 + 16 * y + x]
        return
    words = np.concatenate([outs[0].T, outs[1].T]).reshape(-1)  # result[reg * 64 + lane]
    res = _unpack(words, bits)
    nw, nz, nx = 4, 4, 32 // bits
    ny = kk // nx
    for z in range(nz):
        for w in range(nw):
            for x in range(nx):
                for y in range(ny):
                    assert data[(w * nz + z) * nx * ny + x * ny + y] == \
                        res[(z * nw + w) * nx * ny + y * nx + x]


def test_b6_needs_16_byte_aligned_addresses(mod):
    with pytest.raises(Exception, match="lane 1 reads LDS address 12, which is not 16-byte"):
        Kernel(mod, "tr_b6", device="emulator:gfx950")[1, 64](
            np.zeros(512, np.int32), np.arange(64, dtype=np.int32) * 12,
            np.zeros(192, np.int32))


def test_trace_of_a_gfx950_kernel_uses_gfx950_tables_and_says_assumption(mod):
    from workbench.lds.trace_analysis import trace_conflicts

    data = np.arange(512, dtype=np.int32)
    addr = np.arange(64, dtype=np.int32) * 8
    out = np.zeros(128, np.int32)
    tr = Kernel(mod, "tr_b16", device="emulator:gfx950").trace[1, 64](data, addr, out)
    assert tr.arch == "gfx950"
    rep = trace_conflicts(tr)
    assert rep.arch == "gfx950"
    ins = next(i for i in rep if i.mnemonic == "ds_read_b64_tr_b16")
    assert ins.table.banks == 64 and ins.table.is_assumption
    assert "ASSUMPTION: ds_read_b64_tr_b* phases not measured" in rep.text()
