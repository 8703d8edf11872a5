"""The emulator runs every kernel of the HIP corpus (tests/kernels/emu), compiled for gfx942 and
for gfx950, and matches numpy."""
from __future__ import annotations

import pytest
from emu_corpus import CORPUS, load_corpus, run_case

from workbench.emu.coverage import EXECUTED, report
from workbench.toolchain import find_toolchain

MOD = load_corpus(CORPUS)


@pytest.mark.parametrize("case", MOD.CASES, ids=[c.name for c in MOD.CASES])
def test_corpus_case(case):
    res = run_case(case, CORPUS.parent)
    assert res.stats["wave_instructions"] > 0


@pytest.mark.parametrize("case", MOD.CASES, ids=[c.name for c in MOD.CASES])
def test_corpus_case_gfx950(case):
    """The same corpus compiled for gfx950 (LLVM >= 20 emits gfx950-only instructions into it,
    e.g. v_bitop3_b32 and v_cvt_pk_bf16_f32) runs on ``emulator:gfx950``."""
    if find_toolchain().clang_major < 20:
        pytest.skip("gfx950 needs LLVM >= 20")
    res = run_case(case, CORPUS.parent, arch="gfx950")
    assert res.stats["wave_instructions"] > 0


def test_coverage_report_lists_executed_families():
    for case in MOD.CASES[:3]:
        run_case(case, CORPUS.parent)
    rep = report()
    assert "ds_bpermute_b32" in rep.executed and rep.executed["ds_bpermute_b32"] > 0
    fams = rep.by_family()
    assert fams["fam_vf32"][0] > 0 and fams["fam_vint"][0] > 0 and fams["fam_salu"][0] > 0
    text = rep.text()
    assert "opcode coverage" in text and "fam_ds" in text
    assert set(EXECUTED) >= {"s_endpgm", "v_add_f32"}
