"""The emulator runs every kernel of the HIP corpus (tests/kernels/emu) and matches numpy."""
from __future__ import annotations

from pathlib import Path

import pytest

from workbench.emu.coverage import EXECUTED, load_corpus, report, run_case

CORPUS = Path(__file__).parent / "kernels" / "emu" / "corpus.py"
MOD = load_corpus(CORPUS)


@pytest.mark.parametrize("case", MOD.CASES, ids=[c.name for c in MOD.CASES])
def test_corpus_case(case):
    res = run_case(case, CORPUS.parent)
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
