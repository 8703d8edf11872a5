"""workbench.lds tiles and access generators: known bank-conflict cases, each with its source.

Source tags as in docs/sources.md. Expected counts are derived by hand in the comments
(bank = (byte address / 4) mod banks; a phase costs the max number of distinct dwords per bank;
conflict cycles = sum over phases of (degree - 1)).
"""
from __future__ import annotations

import numpy as np
import pytest

from workbench.lds import (
    AccessGroup,
    SharedTile,
    XorSwizzle,
    analyze,
    column_access,
    element_size,
    mfma_operand_reads,
    pattern,
    row_access,
)


# ------------------------------------------------------------------------------ SharedTile
def test_row_major_and_padding():
    t = SharedTile((32, 32), "f32")
    assert t.address(1, 2) == 128 + 8 and t.pitch == 128 and t.nbytes == 4096
    p = SharedTile((32, 32), "f32", padding=1, base=256)
    assert p.address(1, 2) == 256 + 132 + 8 and p.pitch == 132
    assert p.address(np.arange(3), 0).tolist() == [256, 388, 520]
    assert element_size("bf16") == 2 and element_size(np.float64) == 8
    assert SharedTile((32, 32), "f32", padding=1, base=256) == p and p != t
    assert repr(p) == "SharedTile(32x32 f32, pitch 132 B, padding 1, base 256)"
    assert repr(SharedTile((16, 64), "f16", swizzle=XorSwizzle(8))) == (
        "SharedTile(16x64 f16, pitch 128 B, swizzle 16-byte chunk ^ (row % 8))")


def test_ck_xor_preshuffle_form():
    # CK-LDS: col_xor = (row % (KPerBlock/KPack)) ^ col (col in KPack vectors), offset =
    # row*RowStride + col_xor*KPack; fp16, KPerBlock = 64, KPack = 8.
    t = SharedTile((16, 64), "f16", swizzle=XorSwizzle(8))
    r, c = np.meshgrid(np.arange(16), np.arange(64), indexing="ij")
    ck_elem = r * 64 + ((r % 8) ^ (c // 8)) * 8 + c % 8
    assert np.array_equal(t.address(r, c), 2 * ck_elem)


@pytest.mark.parametrize("rows,cols,swz,hk", [
    # HazyResearch/HipKittens include/types/shared/st_shape.cuh, bf16:
    # st_16x32: offset ^ (((offset % 1024) >> 9) << 5)
    (16, 32, XorSwizzle(n=2, chunk_bytes=32, rows_per_key=8),
     lambda o: o ^ (((o % 1024) >> 9) << 5)),
    # st_16x16: offset ^ (((offset % 512) >> 7) << 3)
    (16, 16, XorSwizzle(n=4, chunk_bytes=8, rows_per_key=4),
     lambda o: o ^ (((o % 512) >> 7) << 3)),
])
def test_hipkittens_swizzle_forms(rows, cols, swz, hk):
    t = SharedTile((rows, cols), "bf16", swizzle=swz)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    assert np.array_equal(t.address(r, c), hk(2 * (r * cols + c)))


def test_callable_swizzle_and_errors():
    t = SharedTile((8, 32), "f32", swizzle=lambda row, chunk: chunk ^ (row % 8))
    assert t.address(3, 0) == 3 * 128 + 3 * 16
    bad = SharedTile((8, 32), "f32", swizzle=lambda row, chunk: chunk + row)
    with pytest.raises(ValueError, match="swizzle maps row 1 chunk 7 to chunk 8"):
        bad.address(1, 28)
    with pytest.raises(ValueError, match="power of two"):
        XorSwizzle(6)
    with pytest.raises(ValueError, match="multiple of 8"):
        SharedTile((8, 16), "f32", swizzle=XorSwizzle(8))  # 64-byte rows = 4 chunks
    with pytest.raises(ValueError, match="whole number"):
        SharedTile((8, 6), "f32", swizzle=XorSwizzle(1))
    with pytest.raises(IndexError, match="col 32 out of range"):
        SharedTile((8, 32), "f32").address(0, 32)
    with pytest.raises(ValueError, match="unknown element dtype"):
        SharedTile((8, 32), "fp4")


# ------------------------------------------------------------------------------ known cases
def test_transpose_column_read_32_way_and_padding_fix():
    # 32x32 fp32, unpadded: element (i, c) is at 128*i + 4c -> bank c for every i. ds_read_b32 on
    # gfx942 is checked per half-wave (AMD APP OpenCL guide §6.2): lanes 0-31 read column 0,
    # lanes 32-63 column 1 -> 32-way in both phases, 2 x 31 = 62 conflict cycles.
    t = SharedTile((32, 32), "f32")
    acc = column_access(t, 0, "ds_read_b32", "gfx942")
    assert [p.degree for p in acc.phases] == [32, 32] and acc.conflict_cycles == 62
    assert {acc.lane_banks(i) for i in range(32)} == {(0,)}
    # +1 padding: pitch 33 dwords -> bank (i + c) mod 32, all distinct -> conflict-free
    padded = column_access(SharedTile((32, 32), "f32", padding=1), 0, "ds_read_b32", "gfx942")
    assert padded.is_conflict_free and padded.cycles == 2


def test_row_read_conflict_free():
    # lane i reads dword i (lanes 32-63 continue on row 1): 32 distinct banks per half-wave
    t = SharedTile((32, 32), "f32")
    acc = row_access(t, 0, "ds_read_b32", "gfx942")
    assert acc.is_conflict_free and acc.addresses.tolist() == list(range(0, 256, 4))
    assert row_access(t, 3, "ds_read_b128", "gfx942").is_conflict_free


def test_column_read_exec_masked():
    # only even lanes active: 16 distinct dwords in bank 0 per half-wave -> 16-way
    t = SharedTile((32, 32), "f32")
    acc = pattern(t, lambda i: (i % 32, i // 32) if i % 2 == 0 else None, "ds_read_b32")
    assert [p.degree for p in acc.phases] == [16, 16] and acc.active_lanes == 32


def test_broadcast_pattern():
    t = SharedTile((16, 64), "bf16")
    for ins in ("ds_read_b32", "ds_read_b64", "ds_read_b128"):
        assert pattern(t, lambda i: (0, 0), ins, "gfx942").is_conflict_free
        assert pattern(t, lambda i: (0, 0), ins, "gfx950").is_conflict_free


def test_mfma_16x16x16_bf16_a_swizzle():
    # gfx942 v_mfma_f32_16x16x16_bf16 A (AMD matrix calculator): lane = 16*(k//4) + i, 8 B/lane
    # -> one ds_read_b64. Tile 16 x 64 bf16 (128-B rows = one pass over 32 banks).
    # Unswizzled: lanes 0-15 (one assumed 16-lane phase) read rows 0-15 at bytes 0-7 -> dwords
    # 32r, 32r+1 -> banks 0 and 1 hold 16 distinct dwords each -> 16-way; same for the other
    # three phases (banks 2-3, 4-5, 6-7): 4 x 15 = 60 conflict cycles.
    plain = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", SharedTile((16, 64), "bf16"),
                               "ds_read_b64", "gfx942")
    assert isinstance(plain, AccessGroup) and len(plain) == 1
    assert [p.degree for p in plain[0].phases] == [16] * 4 and plain.conflict_cycles == 60
    # XOR on 8-byte chunks with key row % 16: phase g reads chunk g ^ r for r = 0..15 -> 16
    # distinct 8-byte slots of the 128-byte bank line -> conflict-free.
    swz = SharedTile((16, 64), "bf16", swizzle=XorSwizzle(16, chunk_bytes=8))
    fixed = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", swz, "ds_read_b64", "gfx942")
    assert fixed.is_conflict_free and fixed.cycles == 4
    # B stored K-contiguous as [N, K] is the same lane formula with j for i
    assert mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "B", swz, "ds_read_b64",
                              "gfx942").is_conflict_free


def _ck_vertical(lane: int) -> tuple[int, int]:
    # 8 consecutive k (16 B) per lane, lane = 16*(k//8) + row: the "vertical" MFMA read of CK-LDS
    return lane % 16, 8 * (lane // 16)


def test_ck_gfx942_b128_vertical_read():
    # CK-LDS (composable_kernel lds_bank_conflicts.rst): a naive row-major MFMA read conflicts
    # 4-way in each phase.
    # 16 x 64 fp16 (128-B rows). CK group {0-3, 20-23}: lanes 0-3 = rows 0-3, chunk 0 -> banks
    # 0-3 with 4 distinct dwords each; lanes 20-23 = rows 4-7, chunk 1 -> banks 4-7, 4 each ->
    # 4-way; every group alike -> 8 phases x 3 = 24 conflict cycles.
    naive = pattern(SharedTile((16, 64), "f16"), _ck_vertical, "ds_read_b128", "gfx942")
    assert [p.degree for p in naive.phases] == [4] * 8 and naive.conflict_cycles == 24
    # The grouping matches the vertical read: had the read used ds_write_b128's 8 consecutive
    # lanes (rows 0-7 at chunk 0 -> banks 0-3 x 8 rows), it would be 8-way: 8 x 7 = 56.
    as_write = analyze(naive.addresses, None, "ds_write_b128", "gfx942")
    assert as_write.conflict_cycles == 56
    # CK XOR preshuffle (KPerBlock 64, KPack 8): chunk ^ (row % 8). Group {0-3,20-23}: rows 0-3
    # chunk 0 -> chunks 0,1,2,3; rows 4-7 chunk 1 -> 5,4,7,6: 8 distinct chunks = 32 banks.
    swz = pattern(SharedTile((16, 64), "f16", swizzle=XorSwizzle(8)), _ck_vertical,
                  "ds_read_b128", "gfx942")
    assert swz.is_conflict_free and swz.cycles == 8


def test_gfx950_16x16x32_bf16_b128_swizzle():
    # gfx950 v_mfma_f32_16x16x32_bf16 A (CK-MFMA lane constants): lane = 16*(k//8) + i,
    # 8 bf16 = 16 B -> one ds_read_b128; HK phases: 4 x 16 lanes over 64 banks.
    # Unswizzled 16 x 64 bf16: phase {0-3,12-15,20-27} reads rows 0-3,12-15 at chunk 0 and rows
    # 4-11 at chunk 1; a 128-B row is half of the 256-B bank line, so even rows use banks 0-31
    # and odd rows 32-63: banks 0-3 get rows 0,2,12,14 -> 4-way (every phase alike):
    # 4 x 3 = 12 conflict cycles. (Modular's make_mma_swizzle docs [3rd-party] also state 4-way
    # for the unswizzled MMA pattern on MI355X's 64 banks.)
    plain = mfma_operand_reads("v_mfma_f32_16x16x32_bf16", "A", SharedTile((16, 64), "bf16"),
                               "ds_read_b128", "gfx950")
    assert [p.degree for p in plain[0].phases] == [4] * 4 and plain.conflict_cycles == 12
    # chunk ^ (row % 8): the 16 lanes of a phase land on 16 distinct (row parity, chunk) pairs,
    # e.g. phase 0: rows 0-3 -> banks 0-3, 36-39, 8-11, 44-47; rows 12-15 -> 16-19, 52-55,
    # 24-27, 60-63; rows 4-7 -> 20-23, 48-51, 28-31, 56-59; rows 8-11 -> 4-7, 32-35, 12-15,
    # 40-43: all 64 banks once -> conflict-free.
    swz = SharedTile((16, 64), "bf16", swizzle=XorSwizzle(8))
    fixed = mfma_operand_reads("v_mfma_f32_16x16x32_bf16", "A", swz, "ds_read_b128", "gfx950")
    assert fixed.is_conflict_free
    assert sorted(b for ln in fixed[0].phases[0].active_lanes
                  for b in fixed[0].lane_banks(ln)) == list(range(64))


def test_mfma_read_split_and_transposed_storage():
    t = SharedTile((16, 16), "bf16")
    # transposed B ([K, N] rows of 32 B) is not contiguous along k: ds_read_b64 is refused
    with pytest.raises(ValueError, match="lane 0's ds_read_b64 #0 needs tile elements"):
        mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "B", t, "ds_read_b64", "gfx942",
                           transpose=True)
    # ...but 4 x ds_read_u16 work. Part p: lanes 0-15 read k = p (dwords 8p + j//2, pairs of
    # lanes share a dword), lanes 16-31 read k = 4 + p (dwords 32 + 8p + j//2, same banks):
    # 2-way per half-wave -> 2 conflict cycles per part, 8 in all.
    g = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "B", t, "ds_read_u16", "gfx942",
                           transpose=True)
    assert len(g) == 4 and [a.conflict_cycles for a in g] == [2, 2, 2, 2]
    assert g.conflict_cycles == 8 and "4 x ds_read_u16" in g.summary()


@pytest.mark.parametrize("padding,per_part", [(0, 2), (1, 2), (4, 0)])
def test_mfma_d_store_padding(padding, per_part):
    # D of v_mfma_f32_16x16x16_bf16 (AMD matrix calculator): GPR = i % 4, lane = 16*(i//4) + j;
    # register p is stored with ds_write_b32: a half-wave writes rows p and 4+p, cols 0-15.
    # pitch 16 dwords: rows p and 4+p start 64 dwords apart -> same banks -> 2-way;
    # pitch 17: shift 68 = 4 mod 32 -> 12 banks overlap -> still 2-way;
    # pitch 20: shift 80 = 16 mod 32 -> banks j and j+16, disjoint -> conflict-free.
    t = SharedTile((16, 16), "f32", padding=padding)
    g = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "D", t, "ds_write_b32", "gfx942")
    assert len(g) == 4 and [a.conflict_cycles for a in g] == [per_part] * 4


def test_wmma_rdna3_replicated_lanes():
    # gfx1100 v_wmma_f32_16x16x16_f16 A (AMD matrix calculator, RDNA3): lanes i and i+16 both hold
    # row i (16 k = 32 B) -> 2 x ds_read_b128. Under the assumed 8-lane RDNA phases, lanes 0-7 =
    # rows 0-7 of a 32-B-pitch tile: rows r and r+4 share banks -> 2-way in each of 4 phases.
    g = mfma_operand_reads("v_wmma_f32_16x16x16_f16", "A", SharedTile((16, 16), "f16"),
                           "ds_read_b128", "gfx1100")
    assert len(g) == 2 and [a.conflict_cycles for a in g] == [4, 4]
    assert g[0].addresses[3] == g[0].addresses[19]  # the replica lane reads the same row
    assert "ASSUMPTION" in g[0].summary()


def test_generator_errors():
    t = SharedTile((16, 64), "bf16")
    with pytest.raises(ValueError, match="holds 4-byte elements"):
        mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", SharedTile((16, 64), "f32"),
                           "ds_read_b64", "gfx942")
    with pytest.raises(IndexError, match="lane 0 would access row 16"):
        mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", t, "ds_read_b64", "gfx942",
                           origin=(16, 0))
    with pytest.raises(ValueError, match="contiguous"):  # 4-byte swizzle chunks split a b64
        pattern(SharedTile((16, 64), "bf16", swizzle=XorSwizzle(16, chunk_bytes=4)),
                lambda i: (i % 16, 0), "ds_read_b64", "gfx942")
    with pytest.raises(ValueError, match=r"fn\(0\) returned 5"):
        pattern(t, lambda i: 5, "ds_read_b32", "gfx942")
    with pytest.raises(ValueError, match="does not address LDS memory"):
        row_access(t, 0, "ds_bpermute_b32", "gfx942")
    with pytest.raises(ValueError, match="lanes=32 is not a wave size of gfx942"):
        row_access(t, 0, "ds_read_b32", "gfx942", lanes=32)


def test_read2_pattern():
    # ds_read2_b32: lane i reads (0, i) and (16, i) of a 32x32 fp32 tile: dwords i and 512 + i
    # share bank i -> 2-way in each assumed 16-lane phase -> 4 conflict cycles.
    t = SharedTile((32, 32), "f32")
    acc = pattern(t, lambda i: ((i // 32, i % 32), (16 + i // 32, i % 32)), "ds_read2_b32")
    assert acc.conflict_cycles == 4 and acc.addresses.shape == (64, 2)
