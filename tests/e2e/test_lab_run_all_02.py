"""Run All of notebook 02 (LDS bank conflicts) in JupyterLab in headless chromium.

Why this one: besides notebook 00 (test_lab_e2e.py) it is the cheapest tutorial with live views
that test does not cover: the LDS bank heatmap (two bokeh heatmaps side by side under ipywidgets
toggle buttons and instruction dropdowns) over emulator traces. The run is the one
tools/run_all_in_lab.py makes for every notebook: every code cell runs, no error output, no
JavaScript console error, no widget or bokeh view failed or drawn empty; then one control of
the heatmap is switched and the figure must follow it in the page.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from labserver import CHROMIUM, FLAGS, REPO

NOTEBOOK = REPO / "notebooks" / "02_lds_bank_conflicts.ipynb"
ARTIFACTS = Path(os.environ.get("HIPWB_E2E_ARTIFACTS", REPO / "build" / "e2e"))
RUN_ALL_TIMEOUT_S = 120

# exclusive: a JupyterLab, its kernel and chromium on ports of 127.0.0.1, never two at once
# (nor beside the wall-clock tests) under xdist: tests/conftest.py.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("exclusive")]

if not Path(CHROMIUM).exists():  # make test installs it (tools/setup-system.sh chromium)
    pytest.skip(f"{CHROMIUM} missing: run tools/setup-system.sh chromium",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
sys.path.insert(0, str(REPO / "tools"))
import run_all_in_lab  # noqa: E402  (tools/ is not a package)


@pytest.fixture(scope="module")
def browser():
    """A headless chromium of a fresh profile, closed afterwards."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def run(browser):
    """(report, page) of Run All of notebook 02 in a fresh lab; the page stays open."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with run_all_in_lab.lab_serving([NOTEBOOK], ARTIFACTS / "jupyterlab-02.log") as base:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            yield run_all_in_lab.check(browser, base, NOTEBOOK, ARTIFACTS, RUN_ALL_TIMEOUT_S,
                                       page=page), page
        finally:
            page.close()


def test_every_cell_runs_without_errors(run):
    rep, _ = run
    assert not rep["timed_out"], rep
    assert rep["cells"] >= 15 and rep["run"] == rep["cells"], rep
    assert not rep["errors"], "\n".join(rep["errors"])
    assert not rep["render"], "\n".join(rep["render"])
    # the heatmap views (two bokeh figures each) and their canvases are in the page
    assert rep["widget_views"] >= 3 and rep["bokeh_roots"] >= 6 and rep["canvases"] >= 6, rep


def test_no_javascript_errors(run):
    rep, _ = run
    assert not rep["js_errors"], "\n".join(rep["js_errors"])


def test_heatmap_follows_its_view_control(run):
    _, page = run
    out = page.locator(".jp-OutputArea-output", has=page.locator(
        ".widget-toggle-button", has_text="lanes x banks")).first
    out.scroll_into_view_if_needed()
    fig = out.locator(".bk-Figure").first
    before = fig.bounding_box()["height"]
    out.locator(".widget-toggle-button", has_text="lanes x banks").click()
    # 64 lane rows instead of the phases' 2: bokeh redraws the figure taller
    page.wait_for_function("([el, h]) => el.getBoundingClientRect().height > h + 50",
                           arg=[fig.element_handle(), before], timeout=20_000)
    out.screenshot(path=str(ARTIFACTS / "lds-heatmap-lanes.png"))
