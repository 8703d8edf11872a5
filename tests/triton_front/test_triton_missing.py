"""Without the optional triton package, wb.triton and %%triton say how to install it (runs
whether or not triton is installed: the import is made to fail)."""

from __future__ import annotations

import sys

import pytest
from IPython.utils.capture import capture_output

import workbench as wb
from workbench.triton_front import TritonNotInstalled


@pytest.fixture
def no_triton(monkeypatch):
    monkeypatch.setitem(sys.modules, "triton", None)  # `import triton` raises ImportError


def test_wb_triton_says_how_to_install(no_triton):
    with pytest.raises(TritonNotInstalled, match=r"pip install 'hip-workbench\[triton\]'"):
        wb.triton(lambda: None)


def test_the_magic_says_how_to_install(shell, no_triton):
    with capture_output(), pytest.raises(ImportError,
                                         match=r"%%triton needs the optional package triton.*"
                                               r"pip install 'hip-workbench\[triton\]'"):
        shell.run_cell_magic("triton", "", "x = 1\n")


def test_doctor_reports_triton():
    checks = {c.name: c.value for c in wb.doctor().sections["Python"]}
    from workbench.triton_front import version

    v = version()
    assert checks["triton"].startswith(v if v else "not installed")
