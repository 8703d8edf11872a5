"""Check mode reports nothing on correct kernels: every case of the emulator corpus
(tests/kernels/emu) and every step of the GEMM and softmax tutorials (kernels/gemm,
kernels/softmax), whose results are also checked (check mode computes the same outputs)."""
from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import numpy as np
import pytest
from emu_corpus import CORPUS, load_corpus

import workbench as wb

ROOT = Path(__file__).resolve().parents[2]
CASES = load_corpus().CASES


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


G = _load("gemm_steps_check", ROOT / "kernels/gemm/steps.py")
SM = _load("softmax_steps_check", ROOT / "kernels/softmax/steps.py")


# make test: every case on one of gfx942 / gfx950 (alternating); make test FULL=1: both.
@pytest.mark.sample(every=2, per=("case",))
@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_corpus_case_is_clean(case, arch):
    mod = wb.compile((CORPUS.parent / case.file).read_text(), arch)
    k = wb.Kernel(mod, case.kernel, device=f"emulator:{arch}")
    args = case.make(np.random.default_rng(0))
    rep = k.check[case.grid, case.block, case.dynamic_lds](*args)
    if "arch" in inspect.signature(case.check).parameters:
        case.check(args, arch=arch)
    else:
        case.check(args)
    assert not rep, rep.text()


def _gemm_steps():
    for s in G.all_steps():
        t = [t for t in G.targets(s) if t["arch"] == "gfx942"] or G.targets(s)[:1]
        yield pytest.param(s, t[0]["arch"], t[0]["dtype"], id=f"{s['step']}-{s['name']}")


@pytest.mark.parametrize("s,arch,dtype", list(_gemm_steps()))
def test_gemm_step_is_clean(s, arch, dtype):
    M, N, K = (256, 256, 128) if s["grid"] == "tiles" else (64, 64, 64)
    G.check_shape(s, dtype, M, N, K)
    A, B, a, b = G.inputs(M, N, K, dtype, seed=1)
    C = np.full((M, N), np.nan, np.float32)
    grid, block = G.launch(s, M, N, K)
    k = G.kernel(s, arch, dtype, device=f"emulator:{arch}")
    rep = k.check[grid, block](A, B, C, M, N, K)
    assert not rep, rep.text()
    np.testing.assert_array_equal(C, G.reference(a, b))


class _Checked:
    """Kernels whose launches run in check mode, collecting the reports."""

    def __init__(self, kernels: dict) -> None:
        self.kernels, self.reports = kernels, []

    def __getitem__(self, name: str):
        outer = self

        class _L:
            def __getitem__(self, cfg):
                def call(*args):
                    outer.reports.append(outer.kernels[name].check[cfg](*args))
                return call
        return _L()


@pytest.mark.parametrize("s", SM.all_steps(), ids=lambda s: f"{s['step']}-{s['name']}")
def test_softmax_step_is_clean(s):
    mod = SM.compile_file(s["file"], "gfx942")
    ks = _Checked({k: wb.Kernel(mod, k, device="emulator") for k in s["kernels"]})
    x = SM.inputs(5, 203, seed=3)
    y = SM.run(s, ks, x)
    for rep in ks.reports:
        assert not rep, rep.text()
    assert SM.max_error(y, SM.reference(x, s["dtype"])) <= SM.TOL[s["dtype"]]
