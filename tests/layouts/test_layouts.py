"""Catalog layouts vs independent reference data (tests/data/layouts), plus the layout API."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from workbench import layouts
from workbench.layouts import blgp_lane

DATA = Path(__file__).parents[1] / "data" / "layouts"
REF = json.loads((DATA / "reference_layouts.json").read_text())["entries"]


def all_instructions():
    for arch in layouts.archs():
        for ws in (32, 64):
            try:
                yield from layouts.list(arch, wave_size=ws)
            except ValueError:  # wave size not supported on this arch
                continue


INSTRS = list(all_instructions())


def variants(ins):
    """(operand, opsel) pairs whose layout differs: OPSEL only moves RDNA3 16-bit C/D, and picks
    the index set of a sparse (SWMMAC) instruction's compression-index operand 'I'."""
    for op in "ABCD":
        for opsel in ((0, 4) if ins.cd_opsel and op in "CD" else (0,)):
            yield op, opsel
    if ins.sparse:
        for key in range(ins.index_placer.sets):
            yield "I", key


def layout_of(ins, op, opsel):
    return ins.layout(op, index_key=opsel) if op == "I" else ins.layout(op, opsel=opsel)


def ref_for(ins, op, opsel):
    hits = [e for e in REF if ins.arch in e["archs"] and ins.name in e["names"]
            and e["wave"] == ins.wave_size and op in e["operands"] and e["opsel"] == opsel]
    assert len(hits) == 1, f"{len(hits)} reference entries for {ins.name} {op} {ins.arch}"
    return hits[0]


def test_catalog_counts():
    counts = {a: {ws: len(layouts.list(a, wave_size=ws)) for ws in (32, 64)
                  if ws in __import__("workbench.arch").arch.get(a).wave_sizes}
              for a in layouts.archs()}
    assert counts["gfx90a"] == {64: 27}
    assert counts["gfx942"] == {64: 32}
    # 4 f16/bf16 + 2 i8 + 4 f8f6f4 (scaled and not) + the 30 gfx942 MFMAs gfx950 keeps (all
    # but xf32)
    assert counts["gfx950"] == {64: 40}
    for a in ("gfx1100", "gfx1102", "gfx1151"):
        assert counts[a] == {32: 6, 64: 6}
    assert counts["gfx1201"] == {32: 22, 64: 22}  # 11 dense WMMA + 11 sparse SWMMAC


@pytest.mark.parametrize("ins", INSTRS, ids=lambda i: f"{i.arch}-w{i.wave_size}-{i.name}")
def test_every_element_matches_reference(ins):
    for op, opsel in variants(ins):
        ref = ref_for(ins, op, opsel)
        lay = layout_of(ins, op, opsel)
        assert list(lay.shape) == ref["shape"], (op, lay.shape)
        assert lay.bits == ref["bits"]
        lanes = lay.all_lanes_table().reshape(lay.replicas, -1)
        assert lanes.tolist() == ref["lanes"], f"{ins.name} {op}: lanes differ"
        assert lay.reg_table().ravel().tolist() == ref["reg"], f"{ins.name} {op}: regs differ"
        assert lay.bit_table().ravel().tolist() == ref["bit_lo"], f"{ins.name} {op}: bits differ"


def test_reference_has_no_entry_outside_the_catalog():
    known = {(i.arch, i.name, i.wave_size) for i in INSTRS}
    for e in REF:
        for arch in e["archs"]:
            for name in e["names"]:
                assert (arch, name, e["wave"]) in known, (arch, name, e["wave"])


def test_reference_case_count():
    """Every element of every operand of every catalog entry is checked (reported number)."""
    n = 0
    for ins in INSTRS:
        for op, opsel in variants(ins):
            ref = ref_for(ins, op, opsel)
            n += len(ref["lanes"]) * len(ref["reg"])
    assert n > 100_000
    print(f"reference cases checked: {n}")


@pytest.mark.parametrize("ins", INSTRS, ids=lambda i: f"{i.arch}-w{i.wave_size}-{i.name}")
def test_location_and_coords_are_inverse(ins):
    for op, opsel in variants(ins):
        lay = layout_of(ins, op, opsel)
        table = lay.element_table()
        lanes, reg, elem = lay.all_lanes_table(), lay.reg_table(), lay.elem_table()
        coords = np.stack(np.indices(lay.shape), axis=-1)
        for rep in range(lay.replicas):  # coords(location(x)) == x for every element
            assert (table[lanes[rep], reg, elem] == coords).all()
            if lay.bits == 64:
                assert (table[lanes[rep], reg + 1, elem] == coords).all()
        used = table[..., 0] >= 0  # location(coords(s)) == s for every used slot
        per_elem = lay.replicas * (2 if lay.bits == 64 else 1)
        assert used.sum() == per_elem * np.prod(lay.shape), f"{ins.name} {op}: slot reused"
        lane_s, reg_s, elem_s = np.nonzero(used)
        for s in range(0, len(lane_s), 97):  # point API on a spread of slots
            c = lay.coords(int(lane_s[s]), int(reg_s[s]), int(elem_s[s]))
            locs = lay.location(*c)
            lo = int(elem_s[s]) * lay.bits
            assert any(loc.lane == lane_s[s] and loc.bit_lo == lo
                       and reg_s[s] in (loc.reg, loc.reg + (lay.bits == 64)) for loc in locs)


def test_appendix_a_spot_checks_verbatim():
    spec = json.loads((DATA / "appendix_a.json").read_text())
    for label, name, element, where in spec["rows"]:
        arch, ws = spec["arch_labels"][label]
        ins = layouts.get(name, arch, wave_size=ws)
        op, r, c = re.fullmatch(r"([ABCD])\[(\d+)\]\[(\d+)\]", element).groups()
        m = re.match(r"v(\d+)\{(\d+)\}(?:\.\[(\d+):(\d+)\])?", where)
        reg, lane = int(m[1]), int(m[2])
        hi, lo = (int(m[3]), int(m[4])) if m[3] else (31, 0)
        locs = ins.layout(op).location(0, int(r), int(c))
        assert (lane, reg, lo, hi) == tuple(locs[-1] if "replica" in where else locs[0]), \
            (name, element, locs)
        if "replica in lane" in where:
            replica_lane = int(re.search(r"replica in lane (\d+)", where)[1])
            assert locs[0] == (replica_lane, reg, lo, hi)


def test_gfx950_against_ck_constants():
    ck = json.loads((DATA / "ck_gfx950.json").read_text())["shapes"]
    for s in ck.values():
        for name in s["instructions"]:
            ins = layouts.get(name, "gfx950")
            assert (ins.m, ins.n, ins.k) == (s["M"], s["N"], s["K"])
            i, k = np.indices((s["M"], s["K"]))
            # A: k lane group = floor(k / kABKPerLane) of kABKLane, kAMLane lanes per group
            assert (s["kAMLane"] * s["kABKLane"]) == 64
            lane = (k // s["kABKPerLane"]) * s["kAMLane"] + i
            slot = k % s["kABKPerLane"]
            assert (ins.A.lane_table()[0] == lane).all()
            assert (ins.A.reg_table()[0] * 2 + ins.A.elem_table()[0] == slot).all()
            assert ins.vgprs["A"] == s["kABKPerLane"] * 16 // 32
            # C: row i = (cm0 * kCMLane + lane group) * kCM1PerLane + cm1; reg = cm0*kCM1 + cm1
            i, j = np.indices((s["M"], s["N"]))
            cm1 = i % s["kCM1PerLane"]
            group = (i // s["kCM1PerLane"]) % s["kCMLane"]
            cm0 = i // (s["kCM1PerLane"] * s["kCMLane"])
            assert (ins.C.lane_table()[0] == group * s["N"] + j).all()
            assert (ins.C.reg_table()[0] == cm0 * s["kCM1PerLane"] + cm1).all()


# AMD Matrix Instruction Calculator (CALC) --detail-instruction: A GPRs, B GPRs, C/D GPRs
FACTS_GPRS = [
    ("gfx90a", "v_mfma_f32_16x16x16f16", 2, 2, 4),
    ("gfx90a", "v_mfma_f32_32x32x8bf16_1k", 2, 2, 16),
    ("gfx90a", "v_mfma_f32_16x16x4f32", 1, 1, 4),
    ("gfx90a", "v_mfma_f32_32x32x2f32", 1, 1, 16),
    ("gfx90a", "v_mfma_i32_16x16x16i8", 1, 1, 4),
    ("gfx90a", "v_mfma_i32_32x32x8i8", 1, 1, 16),
    ("gfx90a", "v_mfma_f64_16x16x4f64", 2, 2, 8),
    ("gfx90a", "v_mfma_f32_32x32x4f16", 2, 2, 32),
    ("gfx90a", "v_mfma_f32_4x4x4f16", 2, 2, 4),
    ("gfx942", "v_mfma_f32_16x16x16_bf16", 2, 2, 4),
    ("gfx942", "v_mfma_f32_32x32x8_f16", 2, 2, 16),
    ("gfx942", "v_mfma_f32_16x16x32_fp8_fp8", 2, 2, 4),
    ("gfx942", "v_mfma_f32_32x32x16_bf8_fp8", 2, 2, 16),
    ("gfx942", "v_mfma_i32_16x16x32_i8", 2, 2, 4),
    ("gfx942", "v_mfma_i32_32x32x16_i8", 2, 2, 16),
    ("gfx942", "v_mfma_f32_16x16x8_xf32", 2, 2, 4),
    ("gfx942", "v_mfma_f32_16x16x4_f32", 1, 1, 4),
    ("gfx942", "v_mfma_f64_16x16x4_f64", 2, 2, 8),
]


@pytest.mark.parametrize("arch,name,a,b,cd", FACTS_GPRS)
def test_vgpr_counts_match_facts_table(arch, name, a, b, cd):
    assert layouts.get(name, arch).vgprs == {"A": a, "B": b, "C": cd, "D": cd}


def test_rdna_vgpr_counts_match_facts():
    # CALC, RDNA3: A/B f16 8 VGPRs, iu8 4, iu4 2; C/D 8 (wave32, also for 16-bit) / 4 (w64)
    for ws, cd in ((32, 8), (64, 4)):
        for name, ab in (("v_wmma_f32_16x16x16_f16", 8), ("v_wmma_i32_16x16x16_iu8", 4),
                         ("v_wmma_i32_16x16x16_iu4", 2), ("v_wmma_f16_16x16x16_f16", 8)):
            assert layouts.get(name, "gfx1100", wave_size=ws).vgprs == \
                {"A": ab, "B": ab, "C": cd, "D": cd}
    # CALC, RDNA4: f16 A/B 4 (w32) / 2 (w64); fp8/iu8 2 / 1; f32 C/D 8 / 4; f16 C/D 4 (w32)
    g = lambda n, ws: layouts.get(n, "gfx1201", wave_size=ws).vgprs  # noqa: E731
    assert g("v_wmma_f32_16x16x16_f16", 32) == {"A": 4, "B": 4, "C": 8, "D": 8}
    assert g("v_wmma_f32_16x16x16_f16", 64) == {"A": 2, "B": 2, "C": 4, "D": 4}
    assert g("v_wmma_f32_16x16x16_fp8_bf8", 32)["A"] == 2
    assert g("v_wmma_i32_16x16x16_iu8", 64)["A"] == 1
    assert g("v_wmma_f16_16x16x16_f16", 32)["D"] == 4


_VEC = re.compile(r"v(\d+)(bf|[fhsid])")
_SIZE = {"float": 32, "int": 32, "long": 64, "double": 64}


def _type_bits(t):
    m = _VEC.fullmatch(t)
    if m:
        return int(m[1]) * {"f": 32, "h": 16, "s": 16, "bf": 16, "i": 32, "d": 64}[m[2]]
    return _SIZE[t]


@pytest.mark.parametrize("ins", INSTRS, ids=lambda i: f"{i.arch}-w{i.wave_size}-{i.name}")
def test_builtin_vector_sizes_match_layout_registers(ins):
    """The builtin's per-lane argument sizes equal the VGPRs of each operand."""
    res, a, b, c = (_type_bits(t) for t in ins.builtin_types)
    assert res == c
    assert (a // 32, b // 32, c // 32) == (ins.vgprs["A"], ins.vgprs["B"], ins.vgprs["C"]) \
        or (ins.vgprs["A"] == 1 and a == 32)


def test_timing_and_types():
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")
    assert (ins.cycles, ins.passes) == (16, 4)  # SCHED: 4 passes; CALC: 16 cycles
    assert layouts.get("v_mfma_f32_16x16x16f16", "gfx90a").passes == 8  # SCHED; CALC 32 cyc
    assert layouts.get("v_mfma_f32_32x32x16_bf16", "gfx950").passes == 8  # SCHED
    assert layouts.get("v_mfma_f32_16x16x32_fp8_bf8", "gfx942").b_type == "float8_e5m2fnuz"
    assert layouts.get("v_wmma_f32_16x16x16_bf8_fp8", "gfx1201").a_type == "float8_e5m2"
    assert layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942").builtin == \
        "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k"
    assert ins.flops == 2 * 16 * 16 * 16


# ---- lookup API ---------------------------------------------------------------------------------
def test_aliases_and_lookup_errors():
    assert layouts.get("v_mfma_f32_16x16x16bf16_1k", "gfx942").name == "v_mfma_f32_16x16x16_bf16"
    assert layouts.get("V_MFMA_F32_32X32X1F32", "gfx942").name == "v_mfma_f32_32x32x1_2b_f32"
    with pytest.raises(ValueError, match="did you mean.*v_mfma_f32_16x16x16bf16_1k.*gfx942"):
        layouts.get("v_mfma_f32_16x16x16_bf16", "gfx90a")
    with pytest.raises(ValueError, match="unknown arch 'gfx9999'"):
        layouts.get("v_mfma_f32_16x16x16_f16", "gfx9999")
    with pytest.raises(ValueError, match="gfx1030 has no matrix"):
        layouts.get("v_wmma_f32_16x16x16_f16", "gfx1030")
    assert layouts.list("gfx1030") == []
    with pytest.raises(ValueError, match="wave_size=32 is not supported on gfx942"):
        layouts.list("gfx942", wave_size=32)
    ins = layouts.get("v_mfma_f32_16x16x16_f16", "gfx942")
    with pytest.raises(ValueError, match="operand must be one of"):
        ins.layout("E")
    with pytest.raises(ValueError, match="row=16 out of range 0..15"):
        ins.A.location(0, 16, 0)
    with pytest.raises(ValueError, match="lane=64 out of range"):
        ins.A.coords(64, 0, 0)


def test_printing_is_a_readable_matrix():
    ins = layouts.get("v_mfma_f32_16x16x16_f16", "gfx942")
    text = str(ins.A)
    assert text.splitlines()[0].startswith("v_mfma_f32_16x16x16_f16 A on gfx942 (wave64)")
    row5 = text.splitlines()[3 + 5].split()
    assert row5[0] == "5" and row5[1 + 13] == "53.0.1"  # A[5][13] = v0{53}.[31:16]
    assert "16x16 f32, 4 VGPRs" in repr(ins.D) and repr(ins.D) == str(ins.D)
    d = str(layouts.get("v_mfma_f32_32x32x8_bf16", "gfx942").D).splitlines()
    assert d[3 + 22].split()[1 + 3] == "35.10"  # D[22][3] = v10{35}


# ---- modifiers ----------------------------------------------------------------------------------
def test_cbsz_abid_examples_from_facts():
    ins = layouts.get("v_mfma_f32_4x4x1_16b_f32", "gfx942")  # 16 blocks
    # CBSZ=1, ABID=1: block 1 feeds blocks 0-1, block 3 feeds 2-3 (CALC README's example)
    assert [ins.source_block(b, 1, 1) for b in range(4)] == [1, 1, 3, 3]
    assert {ins.source_block(b, 4, 13) for b in range(16)} == {13}
    g = ins.gather_index("A", cbsz=1, abid=1)
    assert (g.lane[0] == ins.A.lane_table()[1]).all() and (g.lane[2] == ins.A.lane_table()[3]).all()
    src = ins.effective_source("A", 2, 3, 0, cbsz=1, abid=1)
    assert src == ins.A.location(3, 3, 0)[0]
    with pytest.raises(ValueError, match="cbsz=5 exceeds log2"):
        ins.gather_index("A", cbsz=5)
    with pytest.raises(ValueError, match="abid=2 must be < 2"):
        ins.gather_index("A", cbsz=1, abid=2)
    with pytest.raises(ValueError, match="does not support CBSZ/ABID"):
        layouts.get("v_mfma_f32_16x16x16_f16", "gfx942").gather_index("A", cbsz=1)


def test_blgp_patterns_from_facts():
    lanes = np.arange(64)
    assert (blgp_lane(lanes, 0) == lanes).all()
    assert (blgp_lane(lanes[32:], 1) == lanes[:32]).all()  # 0-31 broadcast into 32-63
    assert (blgp_lane(lanes[:32], 2) == lanes[32:]).all()  # 32-63 into 0-31
    assert blgp_lane(0, 3) == 16 and blgp_lane(48, 3) == 0  # lane 16 -> 0, lane 0 -> 48
    for g in range(4):
        assert set(blgp_lane(lanes, 4 + g).tolist()) == set(range(16 * g, 16 * g + 16))
    ins = layouts.get("v_mfma_f32_16x16x4_f32", "gfx942")
    g = ins.gather_index("B", blgp=3)
    assert (g.lane == (ins.B.lane_table() + 16) % 64).all()
    with pytest.raises(ValueError, match="does not support BLGP"):
        layouts.get("v_mfma_f32_16x16x16_f16", "gfx942").gather_index("B", blgp=1)
    f64 = layouts.get("v_mfma_f64_16x16x4_f64", "gfx942")
    assert f64.negate_mask(5) == (True, False, True)  # CDNA3 f64: BLGP bits negate A, B, C
    assert (f64.gather_index("B", blgp=5).lane == f64.B.lane_table()).all()
    with pytest.raises(ValueError, match="does not support BLGP"):
        layouts.get("v_mfma_f64_16x16x4f64", "gfx90a").negate_mask(1)


def test_opsel_rdna3_16bit_output():
    ins = layouts.get("v_wmma_f16_16x16x16_f16", "gfx1100")
    assert ins.layout("D", opsel=4).location(0, 5, 9) == [(25, 2, 16, 31)]
    assert ins.D.location(0, 5, 9) == [(25, 2, 0, 15)]
    with pytest.raises(ValueError, match="no OPSEL-selected C/D halves"):
        layouts.get("v_wmma_f16_16x16x16_f16", "gfx1201").layout("D", opsel=4)


# ---- emulator-facing gather / scatter -----------------------------------------------------------
@pytest.mark.parametrize("name,arch,ws", [
    ("v_mfma_f32_16x16x16_bf16", "gfx942", 64), ("v_mfma_f32_16x16x32_fp8_fp8", "gfx942", 64),
    ("v_mfma_f64_4x4x4_4b_f64", "gfx942", 64), ("v_mfma_f32_32x32x1_2b_f32", "gfx942", 64),
    ("v_wmma_i32_16x16x16_iu4", "gfx1100", 64), ("v_wmma_f16_16x16x16_f16", "gfx1201", 32),
])
def test_gather_scatter_roundtrip(name, arch, ws):
    ins = layouts.get(name, arch, wave_size=ws)
    rng = np.random.default_rng(0)
    for op in "ABD":
        lay = ins.layout(op)
        vgprs = np.zeros((3, lay.regs, ins.wave_size), np.uint32)
        hi = 1 << min(lay.bits, 62)
        vals = rng.integers(0, hi, size=(3, *lay.shape), dtype=np.uint64)
        if lay.bits < 64:
            vals = vals.astype(np.uint32)
        ins.scatter_bits(vgprs, op, vals)
        assert (ins.gather_bits(vgprs, op) == vals).all()
        # the gather index is the layout's first location, element by element
        g = ins.gather_index(op)
        b, r, c = 0, lay.rows - 1, lay.cols - 1
        loc = lay.location(b, r, c)[0]
        assert (g.lane[b, r, c], g.reg[b, r, c], g.shift[b, r, c]) == (loc.lane, loc.reg,
                                                                       loc.bit_lo)
    assert ins.gather_index("A") is ins.gather_index("A")  # cached


def test_gather_replicas_rdna3():
    ins = layouts.get("v_wmma_f32_16x16x16_f16", "gfx1100", wave_size=64)
    for rep in range(4):
        assert (ins.gather_index("B", replica=rep).lane == ins.B.lane_table() + 16 * rep).all()
    with pytest.raises(ValueError, match="replica=4 out of range 0..3"):
        ins.gather_index("A", replica=4)
    vgprs = np.zeros((1, 8, 64), np.uint32)
    vals = np.arange(256, dtype=np.uint32).reshape(1, 1, 16, 16)
    ins.scatter_bits(vgprs, "A", vals)  # writes every copy
    for rep in range(4):
        assert (ins.gather_bits(vgprs, "A", replica=rep) == vals).all()


def test_scatter_keeps_other_half_and_validates():
    ins = layouts.get("v_wmma_f16_16x16x16_f16", "gfx1100")
    vgprs = np.full((1, 8, 32), 0xABCD0000, np.uint32)
    ins.scatter_bits(vgprs, "D", np.full((1, 1, 16, 16), 0x1234, np.uint32))
    assert (vgprs == 0xABCD1234).all()
    with pytest.raises(ValueError, match="must have shape"):
        ins.scatter_bits(vgprs, "D", np.zeros((1, 16, 16), np.uint32))
    with pytest.raises(ValueError, match="uint32 array"):
        ins.gather_bits(vgprs.astype(np.int64), "A")
    with pytest.raises(ValueError, match="needs"):
        ins.gather_bits(np.zeros((1, 2, 32), np.uint32), "A")


F8F6F4 = ["v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4",
          "v_mfma_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"]


@pytest.mark.parametrize("name", F8F6F4)
def test_gfx950_f8f6f4_formats_against_ck_tables(name):
    """fp4 / fp6 selections (CBSZ/BLGP 4 and 2) against the CK mx_mfma_op register tables."""
    base = layouts.get(name, "gfx950")
    m = base.m
    i, k = np.indices((m, base.k))
    g = k // 32
    for code, bits in ((4, 4), (2, 6), (3, 6)):
        ins = base.with_formats(code, code)
        assert ins.vgprs == {"A": bits, "B": bits, "C": m * m // 64, "D": m * m // 64}
        for op in "AB":
            lay = ins.layout(op)
            lanes, reg, bit = (lay.lane_table()[0], lay.reg_table()[0], lay.bit_table()[0])
            if op == "B":
                lanes, reg, bit = lanes.T, reg.T, bit.T
            assert (lanes == i + m * g).all()
            s = k % 32  # element of the lane
            if bits == 4:  # Reg r byte n = K(8r+2n), K(8r+2n+1)
                assert (32 * reg + bit == 4 * s).all()
            else:  # K 0-15 in Reg 0-2 [0:95], 16-31 in Reg 3-5, element n at bit 6n
                half = s // 16
                assert (32 * reg + bit == 96 * half + 6 * (s % 16)).all()
    with pytest.raises(ValueError, match="cbsz=5 is not a format code"):
        base.with_formats(5, 0)
    with pytest.raises(ValueError, match="no CBSZ/BLGP format selection"):
        base.with_formats(2, 2).with_formats(0, 0)


@pytest.mark.parametrize("name", [n for n in F8F6F4 if "scale" in n])
def test_gfx950_scale_lanes_match_the_ck_hardware_mapping(name):
    ck = json.loads((DATA / "ck_mx_gfx950.json").read_text())["scale_mapping"]
    ins = layouts.get(name, "gfx950")
    ref = ck[f"{ins.m}x{ins.n}x{ins.k}"]
    lay = ins.A
    table = lay.element_table()  # [lane, reg, elem] -> (block, row, k)
    scale = ins.scale_lane("A")[0]
    for row in range(ins.m):
        for t in range(ins.k):
            lane, byte = row + ins.m * (t // 32), t % 32
            _, r, kk = table[lane, byte // 4, byte % 4]
            assert r == row
            assert scale[row, kk] == row + ref["offsets"][t // 16], (row, t)
    # B: column j, k block floor(k/32) -> lane j + N*floor(k/32), like A
    j, k = np.indices((ins.n, ins.k))
    assert (ins.scale_lane("B")[0].T == j + ins.n * (k // 32)).all()
