"""The emulator runs every kernel of the HIP corpus (tests/kernels/emu), compiled for gfx942 and
for gfx950 (and its arch-neutral kernels for gfx1100 and gfx1201 in wave32 and wave64), and
matches numpy."""
from __future__ import annotations

import numpy as np
import pytest
from emu_corpus import CORPUS, load_corpus, run_case, skip_reason

from workbench.emu.observers.coverage import EXECUTED, report
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


RDNA = [(c, arch, w64) for arch in ("gfx1100", "gfx1201") for w64 in (False, True)
        for c in MOD.CASES]


# make test: every case in wave32 and in wave64, each on one of gfx1100 / gfx1201 (alternating
# from case to case); make test FULL=1: both archs.
@pytest.mark.sample(every=2, per=("case", "wave64"))
@pytest.mark.parametrize("case,arch,wave64", RDNA,
                         ids=[f"{c.name}-{a}-w{64 if w else 32}" for c, a, w in RDNA])
def test_corpus_case_rdna(case, arch, wave64):
    """The arch-neutral corpus compiled for RDNA3 (gfx1100) and RDNA4 (gfx1201), in wave32 and
    wave64 (-mwavefrontsize64), runs on ``emulator:<arch>`` and matches the same numpy checks;
    a kernel written for CDNA builtins is not RDNA code, one written for 64-lane waves runs in
    wave64 only (the case's ``needs``)."""
    why = skip_reason(case, arch, wave64)
    if why is not None:
        pytest.skip(why)
    res = run_case(case, CORPUS.parent, arch=arch, wave64=wave64)
    assert res.stats["wave_instructions"] > 0
    assert res.stats["waves"] == (-(-case.block[0] * (case.block[1] if len(case.block) > 1 else 1)
                           * (case.block[2] if len(case.block) > 2 else 1)
                           // (64 if wave64 else 32))) * int(np.prod(case.grid))


def test_coverage_report_lists_executed_families():
    for case in MOD.CASES[:3]:
        run_case(case, CORPUS.parent)
    rep = report()
    assert "ds_bpermute_b32" in rep.executed and rep.executed["ds_bpermute_b32"] > 0
    fams = rep.by_family()
    assert fams["valu.vf32"][0] > 0 and fams["valu.vint"][0] > 0 and fams["scalar.salu"][0] > 0
    text = rep.text()
    assert "opcode coverage" in text and "memory.ds" in text
    assert set(EXECUTED) >= {"s_endpgm", "v_add_f32"}
