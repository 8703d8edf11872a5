"""End to end in a real browser: JupyterLab + hipwb-lab + notebook 00, as a user sees them.

Headless Debian chromium (no browser download: ``tools/setup-system.sh chromium``) driven by
Playwright for Python. One lab on a free port of 127.0.0.1 serves a copy of notebook 00 with its
outputs cleared; the test runs all cells and checks what is drawn: the %%hipkernel body
highlighted by the C++ grammar (token classes) with the magic line left to Python, the compile
report and the live occupancy widget, the ISA view's line <-> instruction links, hover docs and
Tab completion of an MFMA builtin, the layout explorer redrawing after a control change and
selecting the lane of a clicked matrix cell, a ``wb.sweep`` view whose hover shows a point's
parameters and whose tap opens that variant's timing report, and no JavaScript console errors.
Screenshots go to build/e2e/ (or $HIPWB_E2E_ARTIFACTS).

It checks structure (classes, element counts, that text changed), never the notebook's exact
output text, which the tutorials may reword.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from labserver import CHROMIUM, FLAGS, REPO, TOKEN, cleared_copy, free_port, start_lab, stop

NOTEBOOK = REPO / "notebooks" / "00_getting_started.ipynb"
ARTIFACTS = Path(os.environ.get("HIPWB_E2E_ARTIFACTS", REPO / "build" / "e2e"))
RUN_ALL_TIMEOUT_S = 120
BUILTIN = "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k"

# exclusive: a JupyterLab, its kernel and chromium on ports of 127.0.0.1, never two at once
# (nor beside the wall-clock tests) under xdist: tests/conftest.py.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("exclusive")]

if not Path(CHROMIUM).exists():  # make test installs it (tools/setup-system.sh chromium)
    pytest.skip(f"{CHROMIUM} missing: run tools/setup-system.sh chromium",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")

# Token facts of one editor: which grammar classes (tok-*, from the extension's classHighlighter)
# and HIP marks are on line 1 (the magic) and on the body.
EDITOR_TOKENS = """cell => {
    const lines = [...cell.querySelectorAll('.cm-content .cm-line')];
    const classes = line => [...line.querySelectorAll('span')].flatMap(s => [...s.classList]);
    const words = (line, cls) => [...line.querySelectorAll('span.' + cls)].map(s => s.textContent);
    const body = lines.slice(1);
    return {
        first: lines.length ? lines[0].textContent : '',
        magic_classes: lines.length ? [...new Set(classes(lines[0]))] : [],
        body_classes: [...new Set(body.flatMap(classes))],
        hip: body.flatMap(l => words(l, 'cm-hipwb-hip')),
        types: body.flatMap(l => words(l, 'tok-typeName')),
        keywords: body.flatMap(l => words(l, 'tok-keyword')),
    };
}"""


@pytest.fixture(scope="module")
def lab():
    """(base URL, token) of a lab serving a cleared copy of notebook 00, torn down afterwards;
    or of the lab at $HIPWB_E2E_URL (token $HIPWB_E2E_TOKEN) serving notebooks/, e.g. one
    started by tools/verify-binder-chroot.sh from the Binder set-up."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if os.environ.get("HIPWB_E2E_URL"):
        yield os.environ["HIPWB_E2E_URL"].rstrip("/"), os.environ.get("HIPWB_E2E_TOKEN", "")
        return
    root = Path(tempfile.mkdtemp(prefix="hipwb-e2e-"))
    cleared_copy(NOTEBOOK, root)
    port = free_port()
    proc = start_lab(root, port, ARTIFACTS / "jupyterlab.log")
    try:
        yield f"http://127.0.0.1:{port}", TOKEN
    finally:
        stop(proc)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def page(lab):
    """A page of a fresh headless chromium profile, with console errors collected."""
    profile = tempfile.mkdtemp(prefix="hipwb-e2e-chromium-")
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True,
            viewport={"width": 1400, "height": 1000})
        ctx.set_default_timeout(30_000)
        try:
            pg = ctx.pages[0] if ctx.pages else ctx.new_page()
            pg.errors = []
            pg.on("pageerror", lambda e: pg.errors.append(f"pageerror: {e}"))
            pg.on("console", lambda m: pg.errors.append(f"console.error: {m.text}")
                  if m.type == "error" else None)
            pg.base, pg.token = lab
            yield pg
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)


def _busy(pg) -> int:
    return pg.evaluate("""() => [...document.querySelectorAll('.jp-InputArea-prompt')]
                          .filter(p => p.textContent.includes('*')).length""")


def _wait_idle(pg, timeout_s: float) -> None:
    t0 = time.monotonic()
    pg.wait_for_timeout(500)
    while _busy(pg):
        assert time.monotonic() - t0 < timeout_s, "cells still running"
        pg.wait_for_timeout(500)


def _run_new_cell(pg, text: str) -> None:
    """Append a code cell at the end, type ``text`` into it and run it."""
    pg.locator(".jp-Notebook .jp-Cell").last.click()
    pg.keyboard.press("Escape")
    pg.keyboard.press("b")  # command mode: insert a cell below
    pg.keyboard.press("Enter")  # edit it
    pg.keyboard.type(text)
    pg.keyboard.press("Control+Enter")  # run in place (Shift+Enter would add a cell)


@pytest.fixture(scope="module")
def ran(page):
    """Open notebook 00 and Run All; returns the page once no cell is busy."""
    pg = page
    t0 = time.monotonic()
    pg.goto(f"{pg.base}/lab/tree/{NOTEBOOK.name}?reset&token={pg.token}")
    pg.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
    try:  # "Select Kernel" when JupyterLab asks which kernel to start
        pg.locator(".jp-Dialog button:has-text('Select')").click(timeout=3000)
    except sync_api.TimeoutError:
        pass
    pg.wait_for_function("""() => [...document.querySelectorAll(
        '.jp-Notebook-ExecutionIndicator')].some(e => e.dataset.status === 'idle')""",
                         timeout=60_000)
    pg.click("text=Run")  # the menu bar
    pg.click("text=Run All Cells")
    _wait_idle(pg, RUN_ALL_TIMEOUT_S)
    pg.wait_for_timeout(1000)  # widget views and bokeh finish drawing
    pg.run_all_s = time.monotonic() - t0
    return pg


def _hipkernel_cell(pg):
    return pg.locator(".jp-CodeCell", has=pg.locator(
        ".cm-line:first-child", has_text="%%hipkernel")).first


def test_hipkernel_body_is_cpp_and_magic_line_python(ran):
    cell = _hipkernel_cell(ran)
    facts = cell.evaluate(EDITOR_TOKENS)
    cell.screenshot(path=str(ARTIFACTS / "hipkernel-cell.png"))
    assert facts["first"].startswith("%%hipkernel")
    # C++ grammar on the body: its types and keywords carry the grammar's classes ...
    assert {"float", "int"} <= set(facts["types"]), facts
    assert "tok-typeName" in facts["body_classes"] and "tok-keyword" in facts["body_classes"]
    # ... HIP words marked on top of it ...
    assert {"__global__", "blockIdx", "threadIdx"} <= set(facts["hip"]), facts
    # ... and the magic line is not C++: no C++ type/keyword classes there, no HIP marks.
    assert not {"tok-typeName", "cm-hipwb-hip"} & set(facts["magic_classes"]), facts
    # A Python cell keeps the notebook's language (no grammar classes from the extension).
    py = ran.locator(".jp-CodeCell", has=ran.locator(
        ".cm-line:first-child", has_text="%load_ext workbench")).first
    assert not [c for c in py.evaluate(EDITOR_TOKENS)["body_classes"] if c.startswith("tok-")]


def test_compile_report_and_occupancy_widget_render(ran):
    cell = _hipkernel_cell(ran)
    report = cell.locator(".jp-OutputArea-output .hipwb table")
    assert report.count() >= 1, "no compile report table under the %%hipkernel cell"
    assert "VGPRs" in report.first.inner_text()
    occ = ran.locator(".jp-CodeCell", has=ran.locator(
        ".cm-line", has_text=".occupancy(")).first
    occ.scroll_into_view_if_needed()
    live = occ.locator(".jp-OutputArea-output .widget-box")
    assert live.count() >= 1, "the occupancy widget has no live view"
    canvases = occ.evaluate("""root => (function count(r) {
        let n = r.querySelectorAll('canvas').length;
        for (const e of r.querySelectorAll('*')) if (e.shadowRoot) n += count(e.shadowRoot);
        return n; })(root)""")
    assert canvases >= 1, "no bokeh canvas drawn in the occupancy widget"
    assert not ran.locator(".jp-OutputArea-output", has_text="Error displaying widget").count()
    occ.screenshot(path=str(ARTIFACTS / "occupancy-widget.png"))


def test_isa_view_links_source_lines_and_instructions(ran):
    marker = ran.locator(".hipwb details[open] pre span.src", has_text="; line").first
    marker.scroll_into_view_if_needed()
    marker.click()
    pre = marker.locator("xpath=..")
    selected = pre.locator(".hipwb-ins.hipwb-sel")
    assert selected.count() >= 1, "clicking a source line selected no instruction"
    key = marker.get_attribute("data-hipwb-key")
    assert all(k == key for k in selected.evaluate_all(
        "els => els.map(e => e.dataset.hipwbKey)"))
    # and back: an instruction of another line selects that line's marker(s)
    other = pre.locator(f".hipwb-ins:not([data-hipwb-key='{key}'])").first
    other.click()
    back = pre.locator("span.src.hipwb-sel")
    assert back.count() >= 1
    assert back.first.get_attribute("data-hipwb-key") == other.get_attribute("data-hipwb-key")


def test_mfma_builtin_hover_docs_and_completion(ran):
    _run_new_cell(ran, f"%%hipfile mfma_doc.h\nauto d = {BUILTIN}")
    _wait_idle(ran, 30)
    cell = ran.locator(".jp-CodeCell", has=ran.locator(
        ".cm-line:first-child", has_text="%%hipfile mfma_doc.h")).first
    word = cell.locator("span.cm-hipwb-builtin", has_text=BUILTIN).first
    word.hover()
    doc = ran.locator(".cm-tooltip .hipwb-builtin-doc")
    doc.wait_for(state="visible", timeout=10_000)
    text = doc.inner_text()
    assert BUILTIN in text and "v_mfma_f32_16x16x16_bf16" in text and "bf16" in text
    assert "gfx942" in text and "cycles" in text
    ran.screenshot(path=str(ARTIFACTS / "mfma-hover-docs.png"),
                   clip=_around(cell.bounding_box(), doc.bounding_box()))
    # Tab completion of a builtin prefix in the same cell
    cell.locator(".cm-content").click()
    ran.keyboard.press("Control+End")
    ran.keyboard.type("\n__builtin_amdgcn_mfma_f32_32x32x")
    ran.keyboard.press("Tab")
    items = ran.locator(".jp-Completer-item", has_text="__builtin_amdgcn_mfma_f32_32x32x")
    items.first.wait_for(state="visible", timeout=10_000)
    assert items.count() >= 2
    ran.screenshot(path=str(ARTIFACTS / "mfma-completion.png"))
    ran.keyboard.press("Escape")


def _around(*boxes) -> dict:
    x0 = min(b["x"] for b in boxes) - 8
    y0 = min(b["y"] for b in boxes) - 8
    x1 = max(b["x"] + b["width"] for b in boxes) + 8
    y1 = max(b["y"] + b["height"] for b in boxes) + 8
    return {"x": max(x0, 0), "y": max(y0, 0), "width": x1 - max(x0, 0),
            "height": y1 - max(y0, 0)}


def test_layout_explorer_responds_to_a_control(ran):
    _run_new_cell(ran, 'wb.layout("v_mfma_f32_16x16x16_bf16", "gfx942")')
    _wait_idle(ran, 60)
    cell = ran.locator(".jp-CodeCell").last
    select = cell.locator(".widget-dropdown", has=ran.locator(
        "label", has_text="instruction")).locator("select")
    try:
        select.wait_for(state="visible", timeout=20_000)
    except sync_api.TimeoutError:
        cell.screenshot(path=str(ARTIFACTS / "layout-explorer-missing.png"))
        raise
    info = cell.locator(".widget-html").first
    before = info.inner_text()
    options = select.evaluate("s => [...s.options].map(o => o.value)")
    target = next(o for o in options if "32x32" in o)
    select.select_option(target)
    ran.wait_for_function("([el, old]) => el.innerText !== old",
                          arg=[info.element_handle(), before], timeout=20_000)
    assert info.inner_text() != before
    cell.screenshot(path=str(ARTIFACTS / "layout-explorer.png"))


# Page position of data point (x, y) of the first bokeh figure under ``cell`` whose title holds
# ``title``, through the figure view's own scales. Bokeh.index holds the page's root views; a
# figure inside a layout sits in its parent's shadow root, so containment is checked on roots.
FIGURE_POINT = """([cell, title, x, y]) => {
    const all = [];
    const walk = v => {
        all.push(v);
        for (const c of (v.child_views || [])) walk(c);
    };
    for (const v of Object.values(window.Bokeh.index)) if (cell.contains(v.el)) walk(v);
    const fig = all.find(v => v.frame && v.model.title && v.model.title.text.includes(title));
    if (!fig) return null;
    const r = fig.el.getBoundingClientRect();
    return {x: r.left + fig.frame.x_scale.compute(x), y: r.top + fig.frame.y_scale.compute(y)};
}"""


def test_layout_explorer_tap_selects_the_lane(ran):
    """Notebook 01 says a click on a matrix cell selects that lane: the tap goes from bokeh in
    the page through jupyter_bokeh to the kernel, which sets the lane control."""
    _run_new_cell(ran, 'wb.layout("v_mfma_f32_16x16x16_bf16", "gfx942", operand="A", lane=21)')
    _wait_idle(ran, 60)
    cell = ran.locator(".jp-CodeCell").last
    lane = cell.locator(".widget-dropdown", has=ran.locator(
        "label", has_text="lane")).locator("select")
    lane.wait_for(state="visible", timeout=20_000)
    assert lane.input_value() == "21"
    cell.scroll_into_view_if_needed()
    ran.wait_for_timeout(500)
    # A[i=10, k=10] of the 16x16x16 bf16 MFMA sits in lane i + 16 * (k // 4) = 42 (the catalog's
    # formula, which notebook 01 asserts against every element)
    try:  # once bokeh has drawn the figure
        at = ran.wait_for_function(FIGURE_POINT, arg=[cell.element_handle(), "colour = lane",
                                                      10, 10], timeout=20_000).json_value()
    except sync_api.TimeoutError:
        cell.screenshot(path=str(ARTIFACTS / "layout-explorer-tap-missing.png"))
        raise
    ran.mouse.click(at["x"], at["y"])
    ran.wait_for_function("el => el.value === '42'", arg=lane.element_handle(),
                          timeout=20_000)
    cell.screenshot(path=str(ARTIFACTS / "layout-explorer-tap.png"))


# A small sweep in the lab's kernel (inline: the point is the view, not Dask), then its view.
SWEEP_CELL = (
    "import numpy as np\n"
    "src = 'extern \"C\" __global__ void scale(const float* x, float* y, int n) { int i = "
    "(blockIdx.x * 256 + threadIdx.x) * VEC; for (int v = 0; v < VEC; ++v) if (i + v < n) "
    "y[i + v] = 2.0f * x[i + v]; }'\n"
    "res = wb.sweep(src, dict(VEC=[1, 4, 16]), launch=lambda s, p: ((-(-s[0] // (256 * "
    "p['VEC'])),), (256,)), inputs=lambda s, p: (np.zeros(s[0], np.float32), np.zeros(s[0], "
    "np.float32), s[0]), shapes=[(1 << 20,)], targets='mi300x', cluster='inline', "
    "progress=False)\n"
    "res.view()")

# Page position of point ``i`` of the sweep view's shared source, in the panel whose title holds
# ``title`` (the same walk over Bokeh.index as FIGURE_POINT).
SWEEP_POINT = """([cell, title, i]) => {
    const all = [];
    const walk = v => { all.push(v); for (const c of (v.child_views || [])) walk(c); };
    for (const v of Object.values(window.Bokeh.index)) if (cell.contains(v.el)) walk(v);
    const fig = all.find(v => v.frame && v.model.title && v.model.title.text.includes(title));
    if (!fig) return null;
    const r = fig.model.renderers.find(r => r.data_source && r.data_source.name === 'sweep_points');
    const d = r.data_source.data;
    const b = fig.el.getBoundingClientRect();
    return {x: b.left + fig.frame.x_scale.compute(d['x_registers'][i]),
            y: b.top + fig.frame.y_scale.compute(d['y'][i]), n: d['y'].length};
}"""

# Text of the page including open shadow roots (bokeh draws its tooltips in them).
PAGE_TEXT = """() => (function text(r) {
    let t = r.textContent || '';
    for (const e of r.querySelectorAll('*')) if (e.shadowRoot) t += ' ' + text(e.shadowRoot);
    return t; })(document.body)"""


def test_sweep_view_hover_shows_the_parameters_and_a_tap_opens_the_report(ran):
    _run_new_cell(ran, SWEEP_CELL)
    _wait_idle(ran, 120)
    cell = ran.locator(".jp-CodeCell").last
    cell.scroll_into_view_if_needed()
    try:
        at = ran.wait_for_function(SWEEP_POINT, arg=[cell.element_handle(), "VGPRs", 0],
                                   timeout=30_000).json_value()
    except sync_api.TimeoutError:
        cell.screenshot(path=str(ARTIFACTS / "sweep-view-missing.png"))
        raise
    assert at["n"] == 3
    ran.mouse.move(at["x"], at["y"])
    ran.wait_for_function(f"() => ({PAGE_TEXT})().includes('VEC')", timeout=10_000)
    text = ran.evaluate(PAGE_TEXT)
    assert "Pareto front" in text and "modelled GB/s" in text
    cell.screenshot(path=str(ARTIFACTS / "sweep-view-hover.png"))
    ran.mouse.click(at["x"], at["y"])
    # the tapped point's report replaces the "computing the modelled report for ... (row 0)
    # ..." line: "VEC=... (row 0):" then the report (the sweep view's own hint also says
    # "modelled timing", so the wait is for the report's heading line)
    out = cell.locator(".jp-OutputArea-output", has_text=re.compile(r"\(row [^)]*\):"))
    try:
        out.first.wait_for(state="visible", timeout=60_000)
    except sync_api.TimeoutError:
        cell.screenshot(path=str(ARTIFACTS / "sweep-view-tap-missing.png"))
        raise
    text = out.first.inner_text()
    assert "VEC=" in text and "modelled timing" in text.split("(row ", 1)[1], text
    cell.screenshot(path=str(ARTIFACTS / "sweep-view-report.png"))


def test_why_views_roofline_chart_lines_table_and_timed_isa_links(ran):
    """Section 7 of notebook 00: the roofline draws as a bokeh chart (its legend names the
    ceilings), the per-line table is an HTML table, and a source line of the timed ISA selects
    its instructions (the lab extension links it as it links the ISA view)."""
    cell = ran.locator(".jp-CodeCell", has=ran.locator(".cm-line", has_text="rep.roofline()"))
    cell.first.scroll_into_view_if_needed()
    chart = cell.first.locator(".jp-OutputArea-output canvas")
    chart.first.wait_for(state="visible", timeout=30_000)
    text = ran.evaluate(PAGE_TEXT)
    assert "roofline of add" in text and "HBM achievable" in text
    table = ran.locator(".jp-OutputArea-output table", has_text="wait vmcnt").first
    assert table.locator("tr").count() >= 2
    timed = ran.locator("div.hipwb", has_text="ISA with modelled cycles per instruction").first
    timed.scroll_into_view_if_needed()
    marker = timed.locator("pre span.src", has_text="; line 4").first
    marker.click()
    selected = timed.locator("pre .hipwb-ins.hipwb-sel")
    assert selected.count() >= 3  # the loads, the wait, the add and the store of line 4
    assert any("s_waitcnt vmcnt(0)" in t for t in selected.all_inner_texts())
    cell.first.screenshot(path=str(ARTIFACTS / "roofline.png"))


def test_long_table_sorts_by_a_header_click(ran):
    _run_new_cell(ran, "wb.table([[i, (7 * i) % 10] for i in range(10)], ['i', 'seven i mod 10'])")
    _wait_idle(ran, 30)
    table = ran.locator("table.hipwb-sortable").last
    table.scroll_into_view_if_needed()
    column = "els => els.map(r => r.cells[1].textContent)"
    assert table.locator("tr").evaluate_all(column)[1:] == [str(7 * i % 10) for i in range(10)]
    table.locator("th", has_text="seven").click()
    assert table.locator("tr").evaluate_all(column)[1:] == [str(v) for v in range(10)]
    table.locator("th", has_text="seven").click()  # again: descending
    assert table.locator("tr").evaluate_all(column)[1:] == [str(v) for v in range(9, -1, -1)]


def test_no_javascript_errors_and_time(ran):
    assert not ran.errors, "\n".join(ran.errors)
    assert ran.run_all_s < 180
