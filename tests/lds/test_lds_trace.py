"""workbench.lds.trace_analysis: bank conflicts per DS instruction of an emulator trace.

Part 1 uses hand-built DS records (expected numbers derived by hand in the comments, cost model
of workbench/lds/analysis.py: a phase costs its max distinct dwords per bank, conflict cycles =
sum of degree - 1). Part 2 runs real kernels (tests/kernels/lds/*.hip) on the emulator: an fp32
32x32 transpose unpadded vs padded and an MFMA A-operand load without/with an XOR swizzle.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from workbench.lds import SharedTile, XorSwizzle, analyze, column_access, mfma_operand_reads
from workbench.lds.trace_analysis import TraceConflicts, trace_conflicts

KERNELS = Path(__file__).parents[1] / "kernels" / "lds"
LANES = 64


# ---------------------------------------------------------------------------------------------
# hand-built records
# ---------------------------------------------------------------------------------------------
def records(rows):
    """DS columns from rows (pc, mnemonic, addr [64] or [64, 2], exec [64] bool, line, wave)."""
    n = len(rows)
    addr = np.zeros((n, LANES, 2), dtype=np.uint32)
    two = np.zeros(n, dtype=bool)
    for i, r in enumerate(rows):
        a = np.asarray(r[2], dtype=np.int64)
        if a.ndim == 2:
            addr[i] = a
            two[i] = True
        else:
            addr[i] = np.stack([a, a], -1)
    width = {"ds_read_b32": 4, "ds_write_b32": 4, "ds_read2_b32": 4, "ds_read_b64": 8,
             "ds_read_b128": 16, "ds_bpermute_b32": 4, "ds_append": 4, "ds_add_u32": 4}
    return SimpleNamespace(
        pc=np.array([r[0] for r in rows], dtype=np.int64),
        mnemonic=np.array([r[1] for r in rows], dtype=object),
        wave=np.array([r[5] for r in rows], dtype=np.int64),
        workgroup=np.zeros((n, 3), dtype=np.int64),
        exec=np.array([r[3] for r in rows], dtype=bool),
        addr=addr, two_addr=two,
        width=np.array([width[r[1]] for r in rows], dtype=np.int64),
        source_line=np.array([r[4] for r in rows], dtype=np.int64))


def trace(rows, **kw):
    return SimpleNamespace(kernel=kw.pop("kernel", "k"), ds=records(rows), **kw)


ALL = np.ones(LANES, dtype=bool)
LANE = np.arange(LANES)
SEQ = LANE * 4                    # lane i -> dword i: conflict-free
STRIDE128 = (LANE % 32) * 128     # lane i -> dword 32*(i%32): bank 0 for all 32 lanes of a half


def test_ranked_table_from_hand_built_records():
    # pc 0x10 (line 3): ds_write_b32 sequential, 2 executions -> 0 conflict cycles.
    # pc 0x20 (line 7): ds_read_b32, stride 128 B: each half-wave (phase) puts 32 distinct dwords
    #   on bank 0 -> degree 32 -> 31 extra cycles per phase, 2 phases -> 62 per execution; with
    #   3 executions: 186.
    rows = [(0x10, "ds_write_b32", SEQ, ALL, 3, 0), (0x10, "ds_write_b32", SEQ, ALL, 3, 1),
            (0x20, "ds_read_b32", STRIDE128, ALL, 7, 0),
            (0x20, "ds_read_b32", STRIDE128, ALL, 7, 1),
            (0x20, "ds_read_b32", STRIDE128, ALL, 7, 2)]
    src = "\n".join(f"line {i}" for i in range(1, 10))
    r = trace_conflicts(trace(rows), source=src)
    assert isinstance(r, TraceConflicts) and r.arch == "gfx942"
    assert [i.pc for i in r] == [0x20, 0x10]          # ranked by conflict cycles
    top = r[0]
    assert (top.mnemonic, top.source_line, top.executions) == ("ds_read_b32", 7, 3)
    assert top.conflict_cycles == 3 * 2 * 31 == r.conflict_cycles
    assert top.cycles == 3 * 2 * 32 and top.ideal_cycles == 3 * 2
    assert top.lane_accesses == 3 * 64 and top.conflicted_executions == 3
    assert top.max_degree == 32
    w = top.worst
    assert (w.execution, w.wave, w.phase, w.degree) == (0, 0, 0, 32)
    assert w.lanes == tuple(range(32)) and w.banks == (0,)
    assert r[1].conflict_cycles == 0 and r[1].worst is None and r[1].verdict() == "conflict-free"
    assert r.hot_line == 7
    lines = r.lines()
    assert [(c.line, c.conflict_cycles, c.executions) for c in lines] == [(7, 186, 3), (3, 0, 2)]
    assert lines[0].text == "line 7" and top.source_text == "line 7"
    text = r.text()
    assert "186 conflict cycles" in text and "32-way: phase 0 (lanes 0-31) on bank 0" in text
    assert "SQ_LDS_BANK_CONFLICT" in text and "not modelled: waves competing" in text
    again = trace_conflicts(trace(rows), source=src)
    assert text == again.text() and r == again                 # deterministic value
    assert r != trace_conflicts(trace(rows[:-1]), source=src)
    h = r._repr_html_()
    assert "<table" in h and "ds_read_b32" in h and "<script" not in h


def test_matches_per_execution_analyze_and_bank_hits():
    # random addresses and exec masks: the per-pc batch equals analyze() row by row
    rng = np.random.default_rng(1)
    rows = []
    for e in range(40):
        addr = rng.integers(0, 1024, LANES) * 4
        ex = rng.random(LANES) < 0.8
        rows.append((0x40, "ds_read_b32", addr, ex, 5, e))
    for e in range(10):
        base = rng.integers(0, 512, LANES) * 8
        rows.append((0x80, "ds_read2_b32", np.stack([base, base + 256], -1), ALL, 6, e))
    r = trace_conflicts(trace(rows))
    for ins in r:
        sel = [i for i, row in enumerate(rows) if row[0] == ins.pc]
        singles = [analyze(rows[i][2], rows[i][3], ins.mnemonic) for i in sel]
        assert ins.conflict_cycles == sum(a.conflict_cycles for a in singles)
        assert ins.cycles == sum(a.cycles for a in singles)
        assert np.array_equal(ins.bank_hits(), sum(a.bank_matrix() for a in singles))
        for k in (0, len(sel) - 1):
            assert ins.access(k) == singles[k]
        worst = max(range(len(sel)), key=lambda k: (singles[k].max_degree, -k))
        assert ins.worst.execution == worst


def test_exec_mask_and_read2_and_permute():
    # only lanes 0 and 1 active with stride 128: 2 distinct dwords on bank 0 -> 1 extra cycle
    two = np.zeros(LANES, dtype=bool)
    two[:2] = True
    # read2_b32: phases of 16 lanes (assumed, phases.py 'pair32'); lane i reads dwords 2i and
    # 2i+64 (offset 256 B): in a phase, dword 2i and 2i+64 share bank 2i%32 -> 2-way everywhere:
    # 4 phases x 1 = 4 conflict cycles.
    base = LANE * 8
    rows = [(0x10, "ds_read_b32", STRIDE128, two, 2, 0),
            (0x18, "ds_read2_b32", np.stack([base, base + 256], -1), ALL, 3, 0),
            (0x20, "ds_bpermute_b32", SEQ, ALL, 4, 0)]
    r = trace_conflicts(trace(rows))
    assert r.instruction(0x10).conflict_cycles == 1
    assert r.instruction(0x10).worst.lanes == (0, 1)
    assert r.instruction(0x18).conflict_cycles == 4
    assert "ASSUMPTION" in r.instruction(0x18).table.provenance()
    perm = r.instruction(0x20)
    assert perm.conflict_cycles == 0 and perm.verdict() == "no LDS bank access"
    assert perm.bank_hits().shape == (0, 32)
    with pytest.raises(KeyError, match="0x99.*0x10, 0x18, 0x20"):
        r.instruction(0x99)


def test_unmodelled_truncated_and_arch_from_trace():
    rows = [(0x10, "ds_read_b128", LANE * 16, ALL, 2, 0), (0x30, "ds_append", SEQ, ALL, 9, 0)]
    r = trace_conflicts(trace(rows, truncated=True, ds_dropped=7, arch="gfx950"))
    assert r.arch == "gfx950" and r[0].table.banks == 64     # HipKittens: gfx950 b128 reads
    assert [(u.pc, u.mnemonic, u.executions) for u in r.unmodelled] == [(0x30, "ds_append", 1)]
    text = r.text()
    assert "not modelled: ds_append @0x30 (line 9)" in text
    assert "trace truncated: 7 DS wave-instructions were not recorded" in text
    assert trace_conflicts(trace(rows), arch="gfx90a").arch == "gfx90a"


def test_bad_traces_are_named():
    with pytest.raises(TypeError, match="'ds' table"):
        trace_conflicts(object())
    t = trace([(0x10, "ds_read_b32", SEQ, ALL, 1, 0)])
    del t.ds.width
    with pytest.raises(TypeError, match="width"):
        trace_conflicts(t)
    t = trace([(0x10, "ds_read_b32", SEQ, ALL, 1, 0), (0x10, "ds_write_b32", SEQ, ALL, 1, 0)])
    with pytest.raises(ValueError, match="pc 0x10 name different instructions"):
        trace_conflicts(t)
    t = trace([(0x10, "ds_read_b64", SEQ, ALL, 1, 0)])
    t.ds.width[:] = 4
    with pytest.raises(ValueError, match="ds_read_b64 at pc 0x10 moves 8 B .* width 4"):
        trace_conflicts(t)
    t = trace([(0x10, "ds_read_b32", SEQ, ALL, 1, 0)])
    t.ds.two_addr[:] = True
    with pytest.raises(ValueError, match="ds_read_b32 at pc 0x10 takes 1 address"):
        trace_conflicts(t)


def test_empty_trace():
    t = trace([])
    t.ds = records([(0, "ds_read_b32", SEQ, ALL, 1, 0)])
    for name in ("pc", "mnemonic", "wave", "exec", "addr", "two_addr", "width", "source_line",
                 "workgroup"):
        setattr(t.ds, name, getattr(t.ds, name)[:0])
    r = trace_conflicts(t)
    assert len(r) == 0 and r.conflict_cycles == 0 and r.hot_line is None
    assert "no modelled DS instruction" in r.text()


# ---------------------------------------------------------------------------------------------
# real kernels on the emulator
# ---------------------------------------------------------------------------------------------
def _line_of(path: Path, needle: str) -> int:
    hits = [i for i, s in enumerate(path.read_text().splitlines(), 1) if needle in s]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


@pytest.fixture(scope="module")
def transposes():
    import workbench as wb

    path = KERNELS / "transpose.hip"
    out = {}
    n = 64
    x = np.arange(n * n, dtype=np.float32).reshape(n, n) * 0.5 - 7
    for pad in (0, 1):
        mod = wb.compile(path.read_text(), "gfx942", defines={"PAD": str(pad)})
        kern = wb.Kernel(mod, "transpose_lds")
        y = np.zeros_like(x)
        tr = kern.trace[(n // 32, n // 32), (32, 32)](x, y, n)
        np.testing.assert_array_equal(y, x.T)
        out[pad] = (tr, trace_conflicts(tr, source=mod), mod)
    return out


def test_transpose_unpadded_blames_the_column_read(transposes):
    path = KERNELS / "transpose.hip"
    read_line = _line_of(path, "tile[threadIdx.x][threadIdx.y]")
    write_line = _line_of(path, "tile[threadIdx.y][threadIdx.x] =")
    tr, r, _ = transposes[0]
    # 2x2 workgroups x 16 waves each; every wave reads the tile once: lane i of a half-wave reads
    # tile[i][ty] at byte 128*i + 4*ty -> 32 distinct dwords on bank ty: 31 extra cycles per
    # half-wave phase, 2 phases per wave.
    waves = 4 * (32 * 32 // 64)
    assert r.hot_line == read_line
    top = r[0]
    assert (top.mnemonic, top.source_line, top.executions) == ("ds_read_b32", read_line, waves)
    assert top.conflict_cycles == r.conflict_cycles == waves * 2 * 31
    assert top.worst.degree == 32 and top.worst.lanes == tuple(range(32))
    assert "tile[threadIdx.x][threadIdx.y]" in top.source_text
    writes = [i for i in r if i.source_line == write_line]
    assert [w.mnemonic for w in writes] == ["ds_write_b32"] and writes[0].conflict_cycles == 0
    # the emulator's addresses for wave 0 are exactly the pattern API's column access
    wave0 = int(np.flatnonzero(np.asarray(tr.ds.wave)[top.rows] == 0)[0])
    assert top.access(wave0) == column_access(SharedTile((32, 32), "f32"), 0)


def test_transpose_padded_is_conflict_free(transposes):
    tr, r, _ = transposes[1]
    read_line = _line_of(KERNELS / "transpose.hip", "tile[threadIdx.x][threadIdx.y]")
    assert r.conflict_cycles == 0 and r.is_conflict_free and r.hot_line is None
    read = [i for i in r if i.source_line == read_line]
    assert [i.mnemonic for i in read] == ["ds_read_b32"] and read[0].executions == 64
    wave0 = int(np.flatnonzero(np.asarray(tr.ds.wave)[read[0].rows] == 0)[0])
    assert read[0].access(wave0) == column_access(SharedTile((32, 32), "f32", padding=1), 0)
    assert "no bank conflicts" in r.text()


@pytest.fixture(scope="module")
def mfma_runs():
    import torch

    import workbench as wb

    path = KERNELS / "mfma_a_swizzle.hip"
    g = torch.Generator().manual_seed(0)
    a = torch.randn(16, 64, generator=g).to(torch.bfloat16)
    b = torch.randn(64, 16, generator=g).to(torch.bfloat16)
    ref = (a.float() @ b.float()).numpy()
    a16 = a.view(torch.int16).numpy().view(np.uint16).copy()
    bt16 = b.T.contiguous().view(torch.int16).numpy().view(np.uint16).copy()
    out = {}
    for sw in (0, 1):
        mod = wb.compile(path.read_text(), "gfx942", defines={"SWIZZLE": str(sw)})
        c = np.zeros((16, 16), dtype=np.float32)
        tr = wb.Kernel(mod, "mfma_a_lds").trace[1, 64](a16, bt16, c)
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)
        out[sw] = (tr, trace_conflicts(tr, source=mod))
    return out


def test_mfma_operand_load_conflicts_without_swizzle(mfma_runs):
    line = _line_of(KERNELS / "mfma_a_swizzle.hip", "bf16x4 a =")
    _, r = mfma_runs[0]
    top = r[0]
    # 4 k-steps (loop kept rolled) x 4 phases of 16 lanes (assumed b64 grouping) x 15 extra
    # cycles: the 16 lanes of a phase read 16 rows 128 B apart at the same column = 2 banks.
    assert (top.mnemonic, top.source_line, top.executions) == ("ds_read_b64", line, 4)
    assert top.conflict_cycles == r.conflict_cycles == 4 * 4 * 15
    assert top.worst.degree == 16 and len(top.worst.banks) == 2
    tile = SharedTile((16, 64), "bf16")
    for k in range(4):  # execution k is k-step k: the same addresses as the pattern API
        want = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", tile, "ds_read_b64",
                                  origin=(0, 16 * k))
        assert top.access(k) == want[0]


def test_mfma_operand_load_swizzled_is_conflict_free(mfma_runs):
    line = _line_of(KERNELS / "mfma_a_swizzle.hip", "bf16x4 a =")
    _, r = mfma_runs[1]
    assert r.conflict_cycles == 0
    read = [i for i in r if i.source_line == line]
    assert [i.mnemonic for i in read] == ["ds_read_b64"] and read[0].executions == 4
    tile = SharedTile((16, 64), "bf16", swizzle=XorSwizzle(16, chunk_bytes=8))
    for k in range(4):
        want = mfma_operand_reads("v_mfma_f32_16x16x16_bf16", "A", tile, "ds_read_b64",
                                  origin=(0, 16 * k))
        assert read[0].access(k) == want[0]
