"""Run All, save, restart the kernel, reopen: notebooks 00, 02, 06 and 07 in JupyterLab in chromium.

Why: a returning user opens a notebook they ran and saved; the kernel behind it is new, so no
live widget has its model any more. hipwb-lab must draw each widget output's saved static
picture (not ipywidgets' "Error displaying widget: model not found"), and the saved file must
not carry BokehJS (issue 29: within 1.5x of the notebook's size before, ``SIZE_BEFORE``).
The run is tools/run_all_in_lab.py's ``--save-reopen`` (``make e2e-full`` does it for every
notebook).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from labserver import CHROMIUM, FLAGS, REPO

NOTEBOOKS = [REPO / "notebooks" / n for n in
             ("00_getting_started.ipynb", "02_lds_bank_conflicts.ipynb",
              "06_wave_specialization.ipynb", "07_triton.ipynb")]
ARTIFACTS = Path(os.environ.get("HIPWB_E2E_ARTIFACTS", REPO / "build" / "e2e"))
RUN_ALL_TIMEOUT_S = 240

# exclusive: a JupyterLab, its kernel and chromium on ports of 127.0.0.1 (tests/conftest.py)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("exclusive")]

if not Path(CHROMIUM).exists():  # make test installs it (tools/setup-system.sh chromium)
    pytest.skip(f"{CHROMIUM} missing: run tools/setup-system.sh chromium",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
sys.path.insert(0, str(REPO / "tools"))
import run_all_in_lab  # noqa: E402  (tools/ is not a package)


@pytest.fixture(scope="module")
def reports():
    """Per notebook, the report of Run All then save/restart/reopen, all in one lab."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    out = {}
    with sync_api.sync_playwright() as p, run_all_in_lab.lab_serving(
            NOTEBOOKS, ARTIFACTS / "jupyterlab-save-reopen.log") as base:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            for nb in NOTEBOOKS:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                try:
                    rep = run_all_in_lab.check(browser, base, nb, ARTIFACTS, RUN_ALL_TIMEOUT_S,
                                               page=page)
                    out[nb.name] = run_all_in_lab.save_and_reopen(
                        page, base, nb, run_all_in_lab.lab_serving.work, rep, ARTIFACTS)
                finally:
                    page.close()
        finally:
            browser.close()
    return out


@pytest.mark.parametrize("name", [nb.name for nb in NOTEBOOKS])
def test_run_all_then_reopen_shows_static_pictures(reports, name):
    rep = reports[name]
    assert rep["run"] == rep["cells"] and not rep["errors"] and not rep["js_errors"], rep
    assert not rep["reopen"], "\n".join(rep["reopen"])
    assert rep["pictures"] >= rep["widget_outputs_saved"], rep


def test_the_pictured_notebooks_have_widgets(reports):
    """The check means something: 00, 02 and 07 save live widget outputs (06 may have none)."""
    for name in ("00_getting_started.ipynb", "02_lds_bank_conflicts.ipynb", "07_triton.ipynb"):
        assert reports[name]["widget_outputs_saved"] >= 3, name


@pytest.mark.parametrize("name", [nb.name for nb in NOTEBOOKS])
def test_saved_file_stays_small(reports, name):
    rep = reports[name]
    assert rep["saved_bytes"] <= rep["size_limit"], rep
