"""workbench.lds core: DS decoding, phase tables (sourced vs assumed), conflict counting.

Source tags as in docs/sources.md. Expected numbers are derived by hand in the comments.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench import arch as arch_mod
from workbench.lds import (
    Access,
    AccessBatch,
    UnsupportedInstruction,
    analyze,
    analyze_batch,
    ds_instruction,
    phase_table,
)


def _sets(*specs: str) -> tuple[tuple[int, ...], ...]:
    out = []
    for s in specs:
        lanes = []
        for part in s.split(","):
            lo, _, hi = part.partition("-")
            lanes += range(int(lo), int(hi or lo) + 1)
        out.append(tuple(sorted(lanes)))
    return tuple(out)


# ------------------------------------------------------------------------------ instructions
@pytest.mark.parametrize("name,kind,size,naddr,unit", [
    ("ds_read_b32", "load", 4, 1, 0),
    ("ds_load_b128", "load", 16, 1, 0),            # GFX11+ spelling
    ("ds_read_b96", "load", 12, 1, 0),
    ("ds_read_u8", "load", 1, 1, 0),
    ("ds_read_i16", "load", 2, 1, 0),
    ("ds_read_u16_d16_hi", "load", 2, 1, 0),
    ("ds_load_u8_d16", "load", 1, 1, 0),
    ("ds_write_b8", "store", 1, 1, 0),
    ("ds_write_b16_d16_hi", "store", 2, 1, 0),
    ("ds_store_b64", "store", 8, 1, 0),
    # ISA §11.3: ADJ = 4 (<=32-bit) / 8 (64-bit); ST64 forms: offset *= 64
    ("ds_read2_b32", "load", 4, 2, 4),
    ("ds_read2_b64", "load", 8, 2, 8),
    ("ds_read2st64_b32", "load", 4, 2, 256),
    ("ds_write2st64_b64", "store", 8, 2, 512),
    ("ds_load_2addr_stride64_b32", "load", 4, 2, 256),
    ("ds_store_2addr_b64", "store", 8, 2, 8),
    ("ds_wrxchg2_rtn_b32", "atomic", 4, 2, 4),
    ("ds_add_u32", "atomic", 4, 1, 0),
    ("ds_add_rtn_f32", "atomic", 4, 1, 0),
    ("ds_add_u64", "atomic", 8, 1, 0),
    ("ds_cmpst_rtn_b64", "atomic", 8, 1, 0),
    ("ds_pk_add_f16", "atomic", 4, 1, 0),
    ("ds_max_rtn_i32", "atomic", 4, 1, 0),
    ("ds_bpermute_b32", "permute", 4, 1, 0),
    ("ds_swizzle_b32", "permute", 4, 1, 0),
])
def test_decode(name, kind, size, naddr, unit):
    op = ds_instruction(name)
    assert (op.kind, op.size, op.addresses, op.offset_unit) == (kind, size, naddr, unit)
    assert op.touches_banks == (kind != "permute")


def test_decode_returns_flag():
    assert ds_instruction("ds_add_rtn_f32").returns and not ds_instruction("ds_add_f32").returns
    assert ds_instruction("ds_read_b32").returns and not ds_instruction("ds_write_b32").returns


@pytest.mark.parametrize("name", ["ds_read_b64_tr_b6", "v_add_f32", "ds_gws_init", "ds_append",
                                  "ds_read_b8", "ds_read_b256"])
def test_decode_rejects(name):
    with pytest.raises(UnsupportedInstruction, match=name):
        ds_instruction(name)


def test_pair_addresses():
    # ds_write2_b32 offset0:1 offset1:3 -> +4 and +12 bytes; st64 b64: offset unit 8*64 = 512
    assert ds_instruction("ds_write2_b32").pair_addresses(100, 1, 3).tolist() == [104, 112]
    got = ds_instruction("ds_write2st64_b64").pair_addresses(np.array([0, 8]), 0, 1)
    assert got.tolist() == [[0, 512], [8, 520]]
    with pytest.raises(ValueError, match="offset1=256"):
        ds_instruction("ds_read2_b32").pair_addresses(0, 0, 256)
    with pytest.raises(ValueError, match="one address"):
        ds_instruction("ds_read_b32").pair_addresses(0, 0, 1)


# ------------------------------------------------------------------------------ phase tables
# CK-LDS (composable_kernel docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst)
CK_READ_B128 = _sets("0-3,20-23", "4-7,16-19", "8-11,28-31", "12-15,24-27", "32-35,52-55",
                     "36-39,48-51", "40-43,60-63", "44-47,56-59")
# HipKittens analysis/paper_experiments/phases/<instr>/phase_results.txt (gfx950, rocprofv3)
HK = {
    "ds_read_b128": (_sets("0-3,12-15,20-27", "4-11,16-19,28-31", "32-35,44-47,52-59",
                           "36-43,48-51,60-63"), 64),
    "ds_read_b96": (_sets("0-3,20-23", "4-7,16-19", "8-11,28-31", "12-15,24-27", "32-35,52-55",
                          "36-39,48-51", "40-43,60-63", "44-47,56-59"), 32),
    "ds_read_b64": (_sets("0-31", "32-63"), 64),
    "ds_write_b64": (_sets("0-15", "16-31", "32-47", "48-63"), 32),
}


def test_ck_gfx942_tables():
    t = phase_table("ds_read_b128", "gfx942")
    assert t.groups == CK_READ_B128 and t.banks == 32 and not t.is_assumption
    w = phase_table("ds_write_b128", "gfx942")
    assert w.groups == tuple(tuple(range(s, s + 8)) for s in range(0, 64, 8))
    assert not w.is_assumption


@pytest.mark.parametrize("name", sorted(HK))
def test_hipkittens_gfx950_tables(name):
    groups, banks = HK[name]
    t = phase_table(name, "gfx950")
    assert t.groups == groups and t.banks == banks and not t.is_assumption


def _conflict_matrix(name: str, arch: str) -> np.ndarray:
    """HK's phase-solver experiment in the model: only lanes a and b active, a reads offset 0,
    b reads the same bank one wrap later; conflict <=> same phase."""
    t = phase_table(name, arch)
    pairs = list(itertools.combinations(range(64), 2))
    addr = np.zeros((len(pairs), 64), dtype=np.int64)
    ex = np.zeros((len(pairs), 64), dtype=bool)
    for e, (a, b) in enumerate(pairs):
        addr[e, b] = t.banks * 4
        ex[e, [a, b]] = True
    cc = analyze(addr, ex, name, arch).conflict_cycles
    m = np.zeros((64, 64), dtype=int)
    for (a, b), c in zip(pairs, cc):
        m[a, b] = m[b, a] = int(c > 0)
    return m


@pytest.mark.parametrize("name", sorted(HK))
def test_hipkittens_conflict_matrix_reproduced(name):
    groups, _ = HK[name]
    want = np.zeros((64, 64), dtype=int)
    for g in groups:
        for a, b in itertools.permutations(g, 2):
            want[a, b] = 1
    assert np.array_equal(_conflict_matrix(name, "gfx950"), want)


@pytest.mark.parametrize("name,first", [("ds_read_b128", 64), ("ds_read_b64", 64),
                                        ("ds_read_b96", 32), ("ds_write_b64", 32)])
def test_hipkittens_bank_count_reproduced(name, first):
    # HK bank_results.txt: lane 0 at bank 0, lane 1 moved up in 16-byte steps; first conflict at
    # bank 64 (b128, b64 reads) or 32 (b96 read, b64 write) on gfx950.
    starts = np.arange(4, 129, 4)
    addr = np.zeros((len(starts), 64), dtype=np.int64)
    addr[:, 1] = starts * 4
    ex = np.zeros((len(starts), 64), dtype=bool)
    ex[:, :2] = True
    cc = analyze(addr, ex, name, "gfx950").conflict_cycles
    assert int(starts[np.flatnonzero(cc)[0]]) == first


ALL_OPS = ["ds_read_b32", "ds_read_u8", "ds_write_b16", "ds_read_b64", "ds_write_b64",
           "ds_read_b96", "ds_write_b96", "ds_read_b128", "ds_write_b128", "ds_read2_b32",
           "ds_write2st64_b64", "ds_add_u32", "ds_add_rtn_f64", "ds_bpermute_b32"]


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201"])
def test_every_table_partitions_the_wave(arch):
    a = arch_mod.get(arch)
    for ws in a.wave_sizes:
        for name in ALL_OPS:
            t = phase_table(name, arch, wave_size=ws)
            if name == "ds_bpermute_b32":
                assert t.groups == () and t.is_assumption
                continue
            lanes = sorted(itertools.chain.from_iterable(t.groups))
            assert lanes == list(range(ws)), (arch, ws, name)
            assert t.banks in (32, 64)
            assert t.source


def test_assumption_flags():
    # gfx942 ds_read_b64 is not measured anywhere (CK documents only b128; HipKittens gfx950)
    assert phase_table("ds_read_b64", "gfx942").is_assumption
    assert not phase_table("ds_read_b32", "gfx942").is_assumption  # GCN half-wave rule
    assert phase_table("ds_read_b128", "gfx90a").is_assumption     # CK grouping not on CDNA2
    assert phase_table("ds_write_b128", "gfx950").is_assumption    # HK did not measure it
    assert all(phase_table(n, "gfx1100").is_assumption for n in ALL_OPS)
    # wide read path only: other gfx950 accesses keep 32 banks
    assert phase_table("ds_read_b32", "gfx950").banks == 32


@pytest.mark.parametrize(("name", "size", "bits", "phases", "banks"), [
    ("ds_read_b64_tr_b16", 8, 16, 2, 64), ("ds_read_b64_tr_b8", 8, 8, 2, 64),
    ("ds_read_b64_tr_b4", 8, 4, 2, 64), ("ds_read_b96_tr_b6", 12, 6, 8, 32)])
def test_gfx950_transposing_reads_are_assumed_like_plain_reads(name, size, bits, phases, banks):
    op = ds_instruction(name)
    assert (op.kind, op.size, op.transpose_bits) == ("load", size, bits)
    t = phase_table(name, "gfx950")
    plain = phase_table("ds_read_b64" if size == 8 else "ds_read_b96", "gfx950")
    assert t.groups == plain.groups and len(t.groups) == phases and t.banks == banks
    assert t.is_assumption and "not measured" in t.provenance()
    acc = analyze(np.arange(64) * size, None, name, "gfx950")
    ref = analyze(np.arange(64) * size, None, "ds_read_b64" if size == 8 else "ds_read_b96",
                  "gfx950")
    assert "ASSUMPTION" in acc.summary() and acc.conflict_cycles == ref.conflict_cycles
    with pytest.raises(ValueError, match="gfx950 instruction; gfx942"):
        phase_table(name, "gfx942")


def test_assumption_is_shown_in_outputs():
    acc = analyze(np.arange(64) * 8, None, "ds_read_b64", "gfx942")
    assert "ASSUMPTION" in acc.summary() and "ASSUMPTION" in repr(acc)
    src = analyze(np.arange(64) * 16, None, "ds_read_b128", "gfx942")
    assert "ASSUMPTION" not in src.summary() and "CK-LDS" in src.summary()


def test_wave_size_checks():
    assert len(phase_table("ds_read_b32", "gfx1100", wave_size=64).groups) == 2
    assert len(phase_table("ds_read_b32", "gfx1100").groups) == 1     # wave32 default
    with pytest.raises(ValueError, match="32 lanes"):
        phase_table("ds_read_b32", "gfx942", wave_size=32)
    with pytest.raises(ValueError, match="48 lanes"):
        analyze(np.zeros(48, dtype=int), None, "ds_read_b32", "gfx942")


# ------------------------------------------------------------------------------ cost model
BROADCAST_ARCHS = ["gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"]


@pytest.mark.parametrize("arch", BROADCAST_ARCHS)
def test_broadcast_is_conflict_free(arch):
    lanes = arch_mod.get(arch).default_wave_size
    for name in ALL_OPS:
        if name.startswith("ds_add"):
            continue  # atomics to one address serialise (address conflicts), tested below
        op = ds_instruction(name)
        addr = np.full((lanes, 2) if op.addresses == 2 else lanes, 256, dtype=np.int64)
        acc = analyze(addr, None, name, arch)
        assert acc.conflict_cycles == 0 and acc.is_conflict_free, (arch, name)
        assert acc.cycles == acc.ideal_cycles == len(acc.phases)


def test_same_dword_different_bytes_is_broadcast():
    # lanes 0-3 read bytes 0..3 of dword 0, lanes 4-31 read dword 32 (also bank 0); lanes 32-63
    # off. Bank 0 holds two distinct dwords -> degree 2 -> 1 conflict cycle; phase 1 idle.
    addr = np.where(np.arange(64) < 4, np.arange(64), 128)
    acc = analyze(addr, (1 << 32) - 1, "ds_read_u8", "gfx942")
    assert [p.degree for p in acc.phases] == [2, 0]
    assert (acc.conflict_cycles, acc.cycles, acc.ideal_cycles) == (1, 2, 1)
    assert acc.phases[0].bank_dwords[0] == 2 and sum(acc.phases[0].bank_dwords) == 2


def test_strided_reads():
    # stride 2 dwords: 32 lanes of a half-wave hit the 16 even banks twice -> 2-way, 1 cycle each
    acc = analyze(np.arange(64) * 8, None, "ds_read_b32", "gfx942")
    assert [p.degree for p in acc.phases] == [2, 2] and acc.conflict_cycles == 2
    # ds_read_b128 at a 128-byte stride: every lane covers banks 0-3 -> each 8-lane CK group
    # is 8-way -> 8 phases x 7 = 56 extra cycles
    acc = analyze(np.arange(64) * 128, None, "ds_read_b128", "gfx942")
    assert acc.max_degree == 8 and acc.conflict_cycles == 56
    assert acc.lane_banks(5) == (0, 1, 2, 3)


def test_unaligned_access_spans_two_dwords():
    addr = np.zeros(64, dtype=np.int64)
    addr[0], addr[1] = 2, 128  # lane 0 covers dwords 0-1, lane 1 dword 32 (bank 0)
    acc = analyze(addr, 0b11, "ds_read_b32", "gfx942")
    assert acc.lane_banks(0) == (0, 1)
    assert acc.phases[0].bank_dwords[:2] == (2, 1) and acc.conflict_cycles == 1


def test_writes_to_one_address_do_not_conflict():
    # RPC: same-address writes: last writer wins, no conflict
    assert analyze(np.zeros(64, int), None, "ds_write_b32", "gfx942").is_conflict_free


def test_atomics_address_conflicts():
    same = analyze(np.zeros(64, int), None, "ds_add_u32", "gfx942")
    # one dword: no bank conflict, but 32 updates per half-wave phase serialise: 2 x 31
    assert same.conflict_cycles == 0 and same.address_conflict_cycles == 62
    assert same.cycles == 64 and not same.is_conflict_free
    pairs = analyze((np.arange(64) // 2) * 4, None, "ds_add_rtn_u32", "gfx942")
    # two lanes per dword, 16 dwords per phase on 16 banks: 1 extra cycle per phase
    assert pairs.conflict_cycles == 0 and pairs.address_conflict_cycles == 2
    assert analyze(np.arange(64) * 4, None, "ds_add_u32", "gfx942").is_conflict_free


def test_read2_pairs():
    lane = np.arange(64)
    # offsets 0 and 32 dwords: dwords i and i+32 share bank i%32 -> 2-way in each 16-lane phase
    two_way = analyze(np.stack([4 * lane, 4 * lane + 128], -1), None, "ds_read2_b32", "gfx942")
    assert [p.degree for p in two_way.phases] == [2, 2, 2, 2] and two_way.conflict_cycles == 4
    # offsets 0 and 16 dwords: a 16-lane phase covers dwords i and i+16 -> 32 distinct banks
    free = analyze(np.stack([4 * lane, 4 * lane + 64], -1), None, "ds_read2_b32", "gfx942")
    assert free.is_conflict_free
    # ISA: equal offsets -> one access; the model sees the same dword twice (no conflict)
    one = ds_instruction("ds_read2_b32").pair_addresses(4 * lane, 5, 5)
    assert analyze(one, None, "ds_read2_b32", "gfx942").is_conflict_free


def test_exec_mask_forms():
    column = np.arange(64) * 128  # every lane in bank 0: 32-way per half-wave
    full = analyze(column, None, "ds_read_b32", "gfx942")
    assert full.conflict_cycles == 62
    only_two = analyze(column, (1 << 32) | 1, "ds_read_b32", "gfx942")
    assert only_two.is_conflict_free and only_two.active_lanes == 2
    even = analyze(column, np.arange(64) % 2 == 0, "ds_read_b32", "gfx942")
    assert [p.degree for p in even.phases] == [16, 16]
    assert even.phases[0].active_lanes == tuple(range(0, 32, 2))
    # inactive lanes may hold garbage addresses
    garbage = np.where(np.arange(64) < 32, column, -12345)
    assert analyze(garbage, (1 << 32) - 1, "ds_read_b32", "gfx942").conflict_cycles == 31
    batch = analyze(np.stack([column, column]), np.array([1, (1 << 64) - 1], dtype=np.uint64),
                    "ds_read_b32", "gfx942")
    assert batch.conflict_cycles.tolist() == [0, 62]


def test_input_errors():
    with pytest.raises(ValueError, match="lane 3 has byte address -4"):
        analyze(np.where(np.arange(64) == 3, -4, 0), None, "ds_read_b32", "gfx942")
    with pytest.raises(ValueError, match=r"two addresses per lane"):
        analyze(np.zeros(64, int), None, "ds_read2_b32", "gfx942")
    with pytest.raises(TypeError, match="integer byte addresses"):
        analyze(np.full(64, 0.5), None, "ds_read_b32", "gfx942")
    with pytest.raises(ValueError, match="beyond lane 31"):
        analyze(np.zeros(32, int), 1 << 40, "ds_read_b32", "gfx1100")
    with pytest.raises(ValueError, match="one bitmask per execution"):
        analyze(np.zeros(64, int), np.ones(64, dtype=np.int64), "ds_read_b32", "gfx942")
    with pytest.raises(ValueError, match="unknown arch"):
        analyze(np.zeros(64, int), None, "ds_read_b32", "gfx000")


def test_bpermute_touches_no_banks():
    acc = analyze(np.arange(64) * 4, None, "ds_bpermute_b32", "gfx942")
    assert acc.phases == () and acc.conflict_cycles == 0 and acc.lane_banks(0) == ()
    assert "no LDS bank access" in acc.summary() and "ASSUMPTION" in acc.summary()


# ------------------------------------------------------------------------------ batch vs reference
def _reference_degrees(addr, ex, name, arch):
    """Brute force with Python sets, independent of the vectorised code."""
    op = ds_instruction(name)
    t = phase_table(name, arch, wave_size=addr.shape[0])
    a2 = addr.reshape(addr.shape[0], -1)
    out = []
    for group in t.groups:
        per_bank: dict[int, set] = {}
        for lane in group:
            if not ex[lane]:
                continue
            for base in a2[lane]:
                for d in range(int(base) // 4, (int(base) + op.size - 1) // 4 + 1):
                    per_bank.setdefault(d % t.banks, set()).add(d)
        out.append(max((len(s) for s in per_bank.values()), default=0))
    return out


@pytest.mark.parametrize("name,arch,lanes", [
    ("ds_read_b32", "gfx942", 64), ("ds_read_u16", "gfx942", 64), ("ds_read_b64", "gfx950", 64),
    ("ds_read_b96", "gfx942", 64), ("ds_read_b128", "gfx950", 64),
    ("ds_write_b128", "gfx90a", 64), ("ds_read2_b64", "gfx942", 64),
    ("ds_add_u32", "gfx942", 64), ("ds_read_b128", "gfx1100", 32),
    ("ds_write_b64", "gfx1201", 64),
])
def test_batch_matches_reference_and_singles(name, arch, lanes):
    rng = np.random.default_rng(7)
    op = ds_instruction(name)
    n = 40
    shape = (n, lanes, 2) if op.addresses == 2 else (n, lanes)
    # small address range -> many conflicts; some unaligned addresses
    addr = rng.integers(0, 1024, size=shape)
    ex = rng.random((n, lanes)) < 0.8
    batch = analyze(addr, ex, name, arch)
    assert isinstance(batch, AccessBatch) and len(batch) == n
    for e in range(n):
        want = _reference_degrees(addr[e], ex[e], name, arch)
        assert batch.degrees[e].tolist() == want, e
        single = analyze(addr[e], ex[e], name, arch)
        assert [p.degree for p in single.phases] == want
        assert single.conflict_cycles == batch.conflict_cycles[e]
        assert batch[e] == single
    assert batch.total_conflict_cycles == int(batch.conflict_cycles.sum())


def test_analyze_batch_always_batches():
    b = analyze_batch(np.arange(64) * 128, None, "ds_read_b32", "gfx942")
    assert isinstance(b, AccessBatch) and len(b) == 1 and b.conflict_cycles.tolist() == [62]
    assert isinstance(b[0], Access) and b[-1].conflict_cycles == 62
    with pytest.raises(IndexError, match="execution 1 out of range"):
        b[1]


# ------------------------------------------------------------------------------ text output
def test_repr_and_summary_are_deterministic():
    a1 = analyze(np.arange(64) * 128, None, "ds_read_b32", "gfx942", label="column")
    a2 = analyze(np.arange(64) * 128, None, "ds_read_b32", "gfx942", label="column")
    assert repr(a1) == repr(a2) and a1.summary() == a2.summary() and a1 == a2
    text = repr(a1)
    assert text.splitlines()[0] == "column: ds_read_b32 on gfx942, 64/64 lanes active"
    assert " 0 0-31   32  w" in text  # 32 distinct dwords in bank 0 -> 'w'
    assert a1.summary().splitlines()[1] == ("2 phases x 32 banks: 32-way worst phase; conflict "
                                            "cycles 62, cycles 64 (ideal 2)")
    assert a1.bank_matrix().shape == (2, 32) and a1.bank_matrix()[:, 0].tolist() == [32, 32]
    b = analyze(np.stack([np.arange(64) * 128] * 3), None, "ds_read_b32", "gfx942")
    assert b.summary().splitlines()[1].startswith("conflict cycles 186 (mean 62.000, max 62")
    assert repr(b) == b.summary()


def test_results_are_read_only():
    a = analyze(np.arange(64) * 4, None, "ds_read_b32", "gfx942")
    with pytest.raises(ValueError):
        a.addresses[0] = 5


def _ck_m_vector_read(instr: int, warp: int, lane_is_m_major: bool = True) -> np.ndarray:
    """Byte addresses of one ds_read_u16 of Composable Kernel's bank-conflict tutorial 14.10
    (ROCm/composable_kernel @ 393ebc1a, example/ck_tile/99_toy_tutorial/
    tutorial_14_bank_conflict_scenarios/10_m_vector_store.cpp), rebuilt from its comments:
    fp16 [kM=64, kK=32] LDS tile under the [M, K] XOR descriptor with kKPack = 8 and
    MLdsLayer = 4 on gfx950 (A_low = A xor (B mod 16), A = layer * 4 + k / 8, B = m / 4); the
    read distribution gives thread (warp w, lane l) 8 M values at k = 8 w + K_lane, one
    ds_read_u16 each, with l = 8 M_lane + K_lane (the comment's P1 -> (M_lane, K_lane))."""
    out = []
    for lane in range(64):
        ml, kl = divmod(lane, 8) if lane_is_m_major else divmod(lane, 8)[::-1]
        m, k = ml * 8 + instr, warp * 8 + kl
        b, layer = divmod(m, 4)
        k0, c = divmod(k, 8)
        a = (layer * 4 + k0) ^ (b % 16)
        out.append((b * 128 + a * 8 + c) * 2)
    return np.array(out)


def test_ck_measured_conflict_free_16_bit_reads_on_gfx950():
    # the tutorial's rocprofv3 SQ_LDS_BANK_CONFLICT for this kernel on MI355 is 0 (its table
    # and assets/bank_conflict_numbers.csv, row 10_m_vector_store): the half-wave grouping of
    # sub-dword reads agrees with it on the lane order the tutorial's comments give
    got = [analyze(_ck_m_vector_read(i, w), None, "ds_read_u16", "gfx950").conflict_cycles
           for w in range(4) for i in range(8)]
    assert sum(got) == 0
    # the same addresses with lane = 8 K_lane + M_lane would conflict: the check is not vacuous
    other = sum(analyze(_ck_m_vector_read(i, w, False), None, "ds_read_u16", "gfx950")
                .conflict_cycles for w in range(4) for i in range(8))
    assert other > 0
