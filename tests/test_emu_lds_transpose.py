"""gfx950 transposing LDS reads (fam_dstr) against a loop-by-loop reference of the documented
exchange: in each group of 16 lanes the loaded data is a row-major tile of 64/b rows x 16
b-bit columns and lane j receives column j (b16/b8 from the sources in fam_dstr's docstring;
b4/b6 the same rule, an assumption stated there)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

pytestmark = pytest.mark.skipif(find_toolchain().clang_major < 20,
                                reason="gfx950 needs LLVM >= 20")
SRC = (Path(__file__).parent / "kernels" / "emu" / "lds_transpose.hip").read_text()
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
    data = rng.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    perm = rng.permutation(1024 // nbytes)[:64].astype(np.int32)  # rows read, in any order
    out = np.zeros(64 * nbytes // 4, np.int32)
    Kernel(mod, kernel, device="emulator:gfx950")[1, 64](data.view(np.int32), perm, out)
    want = np.frombuffer(_reference(data.tobytes(), perm, nbytes, bits), np.int32)
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
    Kernel(mod, "tr_b16", device="emulator:gfx950")[1, 64](data.view(np.int32), perm, out)
    got = out.view(np.uint16).reshape(4, 16, 4)  # [group, lane j, element r]
    np.testing.assert_array_equal(got, tile.transpose(0, 2, 1))


def test_trace_of_a_gfx950_kernel_uses_gfx950_tables_and_says_assumption(mod):
    from workbench.lds.trace_analysis import trace_conflicts

    data = np.arange(256, dtype=np.int32)
    perm = np.arange(64, dtype=np.int32)
    out = np.zeros(128, np.int32)
    tr = Kernel(mod, "tr_b16", device="emulator:gfx950").trace[1, 64](data, perm, out)
    assert tr.arch == "gfx950"
    rep = trace_conflicts(tr)
    assert rep.arch == "gfx950"
    ins = next(i for i in rep if i.mnemonic == "ds_read_b64_tr_b16")
    assert ins.table.banks == 64 and ins.table.is_assumption
    assert "ASSUMPTION: ds_read_b64_tr_b* phases not measured" in rep.text()
