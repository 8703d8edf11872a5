"""RDNA4 sparse WMMA (v_swmmac_*): the catalog's compressed A, B, compression-index and D layouts
against the AMD Matrix Instruction Calculator's own printed tables (tests/data/layouts/
calc_swmmac.json, verbatim cells; every element is also checked against the restated equations in
reference_layouts.json by test_layouts.py), and the sparse-operand API."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from workbench import layouts

DATA = Path(__file__).parents[1] / "data" / "layouts"
CALC = json.loads((DATA / "calc_swmmac.json").read_text())["tables"]
ARCH = "gfx1201"
NAMES = ["v_swmmac_f32_16x16x32_f16", "v_swmmac_f32_16x16x32_bf16", "v_swmmac_f16_16x16x32_f16",
         "v_swmmac_bf16_16x16x32_bf16", "v_swmmac_i32_16x16x32_iu8", "v_swmmac_i32_16x16x32_iu4",
         "v_swmmac_i32_16x16x64_iu4"] + [f"v_swmmac_f32_16x16x32_{a}_{b}" for a in ("fp8", "bf8")
                                         for b in ("fp8", "bf8")]
_REG = re.compile(r"v(\d+)\{(\d+)\}(?:\.\[(\d+):(\d+)\])?")


def _parse(text: str) -> tuple[int, int, int, int]:
    """'v1{17}.[15:8]' -> (lane, reg, lo, hi); no bit range = the whole VGPR."""
    m = _REG.fullmatch(text)
    reg, lane = int(m[1]), int(m[2])
    return (lane, reg, int(m[4]), int(m[3])) if m[3] else (lane, reg, 0, 31)


def _group_slot(lay, i: int, k: int) -> tuple[int, int, int, int]:
    """Where the calculator's logical A[i][k] / K[i][k] lives: the slot of the two stored elements
    of k's 4-group (c = 2*floor(k/4) and the next), one lane and register, adjacent bits."""
    (a,), (b,) = lay.location(0, i, 2 * (k // 4)), lay.location(0, i, 2 * (k // 4) + 1)
    assert (a.lane, a.reg) == (b.lane, b.reg) and a.bit_hi + 1 == b.bit_lo, (a, b)
    return a.lane, a.reg, a.bit_lo, b.bit_hi


@pytest.mark.parametrize("table", sorted(CALC))
def test_catalog_matches_the_calculators_tables(table):
    name, wave, matrix, *opsel = table.split()
    ins = layouts.get(name, ARCH, wave_size=int(wave[1:]))
    assert ins.sparse
    key = int(opsel[0].removeprefix("opsel")) if opsel else 0
    for row, col, text in CALC[table]:
        want = _parse(text)
        if matrix == "A":
            got = _group_slot(ins.A, row, col)
        elif matrix == "K":
            got = _group_slot(ins.layout("I", index_key=key), row, col)
        else:
            (loc,) = ins.layout(matrix).location(0, row, col)
            got = tuple(loc)
        assert got == want, f"{table} [{row}][{col}]: catalog {got}, calculator {text}"


def test_every_swmmac_and_index_set_is_covered():
    tables = set(CALC)
    for name in NAMES:
        for w in (32, 64):
            ins = layouts.get(name, ARCH, wave_size=w)
            for m in "ABD":
                assert f"{name} w{w} {m}" in tables
            sets = {int(t.rsplit("opsel", 1)[1]) for t in tables
                    if t.startswith(f"{name} w{w} K")}
            assert sets == set(range(ins.index_placer.sets)), (name, w, sets)


def test_calculator_readme_examples_verbatim():
    """The calculator README's SWMMAC example: V_SWMMAC_F32_16X16X32_F16, wave32,
    K[2][31] = v0{18}.[15:12]; with --opsel 1 (the second index set) v0{18}.[31:28]."""
    ins = layouts.get("v_swmmac_f32_16x16x32_f16", ARCH)
    assert _group_slot(ins.layout("I"), 2, 31) == _parse("v0{18}.[15:12]")
    assert _group_slot(ins.layout("I", index_key=1), 2, 31) == _parse("v0{18}.[31:28]")
    # "the first stored value's bits 13:12, the second's 15:14"
    assert ins.layout("I").location(0, 2, 14) == [(18, 0, 12, 13)]
    assert ins.layout("I").location(0, 2, 15) == [(18, 0, 14, 15)]


def test_catalog_lists_the_eleven_swmmacs_per_wave_size():
    for w in (32, 64):
        assert [n for n in layouts.names(ARCH, wave_size=w) if n.startswith("v_swmmac")] == NAMES
    assert not any(i.sparse for a in layouts.archs() if a != ARCH for i in layouts.list(a))


def test_sparse_operands():
    ins = layouts.get("v_swmmac_f32_16x16x32_f16", ARCH)
    assert (ins.m, ins.n, ins.k) == (16, 16, 32) and ins.flops == 2 * 16 * 16 * 32
    assert ins.shape("A") == (1, 16, 16) and ins.shape("I") == (1, 16, 16)  # stored A
    assert ins.shape("B") == (1, 32, 16) and ins.dtype("I") == "u2"
    # calculator --detail-instruction: GPRs A 4 / B 8 / D 8 (wave32), 2 / 4 / 4 (wave64)
    assert ins.vgprs == {"A": 4, "B": 8, "C": 8, "D": 8, "I": 1}
    assert layouts.get(ins.name, ARCH, wave_size=64).vgprs == \
        {"A": 2, "B": 4, "C": 4, "D": 4, "I": 1}
    assert ins.builtin == "__builtin_amdgcn_swmmac_f32_16x16x32_f16_w32"
    assert ins.cycles == 16 and layouts.get("v_swmmac_i32_16x16x64_iu4", ARCH).cycles == 8
    with pytest.raises(ValueError, match=r"index_key must be in 0\.\.1"):
        ins.layout("I", index_key=2)
    assert layouts.get("v_swmmac_i32_16x16x64_iu4", ARCH).index_placer.sets == 1
    assert layouts.get(ins.name, ARCH, wave_size=64).index_placer.sets == 4
    with pytest.raises(ValueError, match="operand must be one of 'A', 'B', 'C', 'D', got 'I'"):
        layouts.get("v_wmma_f32_16x16x16_f16", ARCH).layout("I")
    # the 2-bit indices round-trip through their register like any other operand
    v = np.zeros((1, 1, 32), np.uint32)
    vals = np.random.default_rng(1).integers(0, 4, (1, 1, 16, 16)).astype(np.uint32)
    ins.scatter_bits(v, "I", vals, index_key=1)
    assert (v & 0xFFFF == 0).all()  # set 1 = the high 16 bits of each lane
    assert (ins.gather_bits(v, "I", index_key=1) == vals).all()
