"""The bad-input audit's cases (tests/bad_input_cases.py) as unit tests, run in this process:
each must come out ``ok`` (a valid edge case matching numpy) or ``clear`` (a HipwbError naming
what the case expects; a magic's output without hipwb's frames; a CLI usage or compile error
naming the argument, without a Python traceback). ``tests/bench/bad_inputs.py`` runs the same
cases each in its own subprocess with time and memory limits."""
from __future__ import annotations

import pytest
from bad_input_cases import CASES
from bad_input_runner import Modules, run_case

from workbench import compiler


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """The cases' kernels, compiled once for the module into a private cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("HIPWB_CACHE_DIR", str(tmp_path_factory.mktemp("hipwb-cache-bad-inputs")))
    yield Modules()
    mp.undo()
    compiler.clear_cache(memory_only=True)


def _param(case):
    marks = [pytest.mark.xfail(reason=case.known, strict=True)] if case.known else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input(case, modules, tmp_path, request):
    import workbench as wb

    shell = request.getfixturevalue("shell") if case.kind == "magic" else None
    try:
        res = run_case(case, modules, tmp_path, shell)
    finally:
        wb.set_device(None)  # a case may have changed the default device or guard
        wb.set_guard(True)
    assert res.outcome in ("ok", "clear"), f"{res.outcome}:\n{res.output}"


def test_the_audit_covers_enough():
    kinds = {k: sum(c.kind == k for c in CASES) for k in ("api", "magic", "cli")}
    assert len(CASES) >= 150 and kinds["magic"] >= 20 and kinds["cli"] >= 10, kinds
    assert len({c.id for c in CASES}) == len(CASES)
