"""Suite-wide pytest hooks and fixtures.

``shell``: a real IPython shell with ``%load_ext workbench``, one per test module, compiling
into that module's own cache directory (the magics and the ``--time`` cell tests use it).

A test run pinned to an LLVM older than 20 (``HIPWB_LLVM_DIR=/usr/lib/llvm-19/bin``) cannot
build gfx950 code objects. Tests that need one then stop at ``CompileError`` "cannot build
gfx950"; that exact failure, and only while the toolchain in use really lacks gfx950, is
reported as a skip naming the reason, so such a run shows what still works there. With LLVM
>= 20 nothing is changed.

Running in parallel (``make test``: ``pytest -n auto --dist loadgroup``, pytest-xdist): each
worker is its own process, so environment variables, ``HIPWB_CACHE_DIR`` and the in-process
compile memo changed by one test are never seen by another worker's tests (the shared default
cache folder is written by renames, for several processes at once). What workers do share is
kept apart by ``xdist_group`` marks, one group running on one worker, one test after another:

- ``exclusive`` (set in the test modules): tests that start JupyterLab, a Jupyter kernel or
  chromium on ports of 127.0.0.1 (``tests/e2e``, the interrupt test of ``test_emu_watchdog``)
  and tests that assert on wall-clock time (``test_bounded_work``, ``test_emu_watchdog``, the
  timed cases of ``test_emu_check``): never two at once;
- one group per module, added here, for a test that uses a module-scoped fixture (a compiled
  corpus, a lab, the ``shell``): its module's tests stay on one worker, so the fixture is set
  up once, not once per worker (test_field_idioms' corpus build is 30 s);
- one group per notebook (``make test`` runs the notebooks under nbval in the same session):
  its cells run in order in one Jupyter kernel on one worker.

xdist hands a test's group to its scheduler as a suffix of the node id (``...::test[x]@group``,
also in reports); pytest 9.2 dropped that path (pyproject.toml pins pytest below it).

Sweeps marked ``@pytest.mark.sample(every=k, per=(...))`` run a deterministic sample unless
``HIPWB_FULL=1`` (``make test FULL=1``) or ``--full``: see ``sampled``.
"""
from __future__ import annotations

import inspect
import os
import sys
import tempfile
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

from workbench import CompileError, compiler
from workbench.toolchain import ToolchainError, find_toolchain

# Wave's on-disk kernel cache (wave_lang/kernel/wave/cache.py, read when wave_lang is first
# imported) writes its files in place and evicts whole entries past 16: two workers compiling
# the same Wave kernel at once (tests/wave_front and notebook 08, whose Jupyter kernel inherits
# this environment) could read each other's half-written entry. One cache per worker, kept
# between runs; a WAVE_CACHE_DIR the user set is left alone.
os.environ.setdefault("WAVE_CACHE_DIR", str(Path(tempfile.gettempdir()) / (
    f"hipwb-test-wave-cache-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")))


def _lacks_gfx950() -> bool:
    try:
        return not find_toolchain().supports("gfx950")
    except ToolchainError:
        return False


LACKS_GFX950 = _lacks_gfx950()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    exc = call.excinfo
    if (LACKS_GFX950 and rep.failed and exc is not None and exc.errisinstance(CompileError)
            and getattr(exc.value, "arch", None) == "gfx950"
            and "cannot build gfx950" in str(exc.value)):
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), item.location[1] or 0,
                        "Skipped: this LLVM cannot build gfx950 (needs LLVM >= 20)")


# IPython's shell installs its own user module as sys.modules["__main__"] (with no usable
# __spec__), which multiprocessing's spawn start method needs: the fixture puts it back after.
_REAL_MAIN = sys.modules["__main__"]


@pytest.fixture(scope="module")
def shell(request, tmp_path_factory):
    """A real IPython shell with the workbench extension loaded and a private compile cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("HIPWB_CACHE_DIR",
    str(tmp_path_factory.mktemp(f"hipwb-cache-{request.module.__name__}")))
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    yield ip
    mp.undo()
    compiler.clear_cache(memory_only=True)
    sys.modules["__main__"] = _REAL_MAIN


# ------------------------------------------------------------------ sampled sweeps

TESTS = Path(__file__).resolve().parent


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="hipwb: run every case of the sweeps marked @pytest.mark.sample "
                          "(the same as HIPWB_FULL=1; make test FULL=1)")


def full_run(config) -> bool:
    return config.getoption("full") or os.environ.get("HIPWB_FULL", "") not in ("", "0")


def _key(value):
    """``value`` where hashable, else its identity: parametrize hands each case the same object
    (a step's dict, a corpus case) wherever it appears in the grid."""
    try:
        hash(value)
        return value
    except TypeError:
        return ("object", id(value))


def sampled(items) -> tuple[list, list]:
    """(kept, dropped) of ``items`` under their ``sample`` marks.

    ``@pytest.mark.sample(every=k, per=("name", ...))`` on a parametrized test: its cases are
    split into groups by the values of the ``per`` parameters (one group when ``per`` is
    empty), in collection order. Group number g keeps its cases at positions p with
    p % k == g % k, or, when it has fewer than g % k + 1 cases, the one at g % its size: every
    group runs at least once, and the other parameters rotate over the groups (the corpus: each
    kernel runs on one arch of its list, the next kernel on the next arch). The test's first and
    last cases always run. Deterministic: every xdist worker collects the same sample.
    """
    funcs: dict[str, dict] = {}
    for item in items:
        mark = item.get_closest_marker("sample")
        if mark is None or not hasattr(item, "callspec"):
            continue
        every = int(mark.kwargs.get("every", mark.args[0] if mark.args else 2))
        per = tuple(mark.kwargs.get("per", ()))
        key = tuple(_key(item.callspec.params[name]) for name in per)
        f = funcs.setdefault(item.nodeid.split("[", 1)[0], {"every": every, "groups": {},
                                                              "all": []})
        f["groups"].setdefault(key, []).append(item)
        f["all"].append(item)
    drop = set()
    for f in funcs.values():
        k = f["every"]
        keep = {id(f["all"][0]), id(f["all"][-1])}
        for g, group in enumerate(f["groups"].values()):
            picked = [it for p, it in enumerate(group) if p % k == g % k]
            keep.update(id(it) for it in (picked or [group[g % len(group)]]))
        drop.update(id(it) for it in f["all"] if id(it) not in keep)
    kept = [it for it in items if id(it) not in drop]
    return kept, [it for it in items if id(it) in drop]


def _named(config) -> set[tuple[Path, str]]:
    """(path, "fn[id]") of each test named with its parameters on the command line: such a
    case runs even when the sample leaves it out."""
    out = set()
    for arg in config.args:
        path, sep, rest = arg.partition("::")
        if sep and "[" in rest:
            out.add((Path(config.invocation_params.dir, path).resolve(), rest))
    return out


def _module_fixture(item) -> bool:
    """Whether ``item`` uses a module-, class- or package-scoped fixture of tests/."""
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        fd = defs[-1]
        if fd.scope not in ("module", "class", "package"):
            continue
        try:
            where = Path(inspect.getfile(fd.func)).resolve()
        except (TypeError, OSError):
            continue
        if where.is_relative_to(TESTS):
            return True
    return False


_SAMPLED = pytest.StashKey[tuple[int, int]]()


@pytest.hookimpl(tryfirst=True)  # before -k/-m: the sample does not depend on them
def pytest_collection_modifyitems(config, items):
    dropped = []
    if not full_run(config):
        kept, dropped = sampled(items)
        named = _named(config)
        back = [it for it in dropped if (it.path.resolve(), it.nodeid.split("::", 1)[1]) in named]
        if back:
            keep = {id(it) for it in kept + back}
            kept = [it for it in items if id(it) in keep]
            dropped = [it for it in dropped if id(it) not in keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    swept = sum(1 for it in items if it.get_closest_marker("sample") and hasattr(it, "callspec"))
    config.stash[_SAMPLED] = (len(dropped), len(dropped) + swept)
    if hasattr(config, "workeroutput"):  # an xdist worker: tell the controller
        config.workeroutput["hipwb_sampled"] = config.stash[_SAMPLED]
    for item in items:  # the group is the module's name (unique: rootdir-relative imports)
        if item.get_closest_marker("xdist_group") is not None:
            continue
        if item.path.suffix == ".ipynb":  # nbval: a notebook's cells in order, in one kernel
            item.add_marker(pytest.mark.xdist_group(f"notebook-{item.path.stem}"))
        elif _module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.path.stem))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    out = getattr(node, "workeroutput", {}).get("hipwb_sampled")
    if out is not None:
        node.config.stash[_SAMPLED] = tuple(out)


def pytest_terminal_summary(terminalreporter, config):
    dropped, total = config.stash.get(_SAMPLED, (0, 0))
    if full_run(config) and total:
        terminalreporter.write_line(f"hipwb: full run: all {total} cases of the sampled sweeps")
    elif dropped:
        terminalreporter.write_line(
            f"hipwb: {dropped} of {total} cases of the sampled sweeps left out (deselected); "
            "HIPWB_FULL=1 (make test FULL=1) or --full runs them all")
