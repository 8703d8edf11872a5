"""Suite-wide pytest hooks and fixtures.

``shell``: a real IPython shell with ``%load_ext workbench``, one per test module, compiling
into that module's own cache directory (the magics and the ``--time`` cell tests use it).

A test run pinned to an LLVM older than 20 (``HIPWB_LLVM_DIR=/usr/lib/llvm-19/bin``) cannot
build gfx950 code objects. Tests that need one then stop at ``CompileError`` "cannot build
gfx950"; that exact failure, and only while the toolchain in use really lacks gfx950, is
reported as a skip naming the reason, so such a run shows what still works there. With LLVM
>= 20 nothing is changed.
"""
from __future__ import annotations

import sys

import pytest
from IPython.core.interactiveshell import InteractiveShell

from workbench import CompileError, compiler
from workbench.toolchain import ToolchainError, find_toolchain


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
