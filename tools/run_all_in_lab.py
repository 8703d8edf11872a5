"""Run All of each tutorial notebook in JupyterLab in headless chromium, and report what broke.

    PYTHONPATH=$PWD .venv/bin/python tools/run_all_in_lab.py [notebooks/NB.ipynb ...]

Why: nbval checks a notebook's outputs in a bare kernel, not that it works where users run it.
This opens a cleared copy of each notebook (default: every notebooks/*.ipynb) in a throw-away
JupyterLab with the checkout's hipwb-lab extension (tests/e2e/labserver.py), runs the menu
command "Run All Cells", waits until the kernel is idle and no cell is queued, and reports per
notebook: code cells run, error outputs of cells not tagged ``raises-exception`` (with their
text), JavaScript page/console errors, widget views that failed ("Error displaying widget",
"Loading widget..." left behind, a widget output with nothing drawn) and bokeh roots drawn
empty, the time taken and the slowest cell ("cell N": the cell's 0-based index in the
notebook). A full-page screenshot per notebook goes to build/e2e/run-all/. Exit status 1 on any
failure. Needs /usr/bin/chromium (tools/setup-system.sh chromium) and
python playwright (the [dev] extra); no browser download.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))
# tests/e2e is not a package: its helpers are imported from their folder
from labserver import CHROMIUM, FLAGS, TOKEN, cleared_copy, free_port, start_lab, stop  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
# A saved notebook stays within this factor of the committed one (issue 29: BokehJS is not
# written into the file, widget state is not saved).
SIZE_FACTOR = 1.5
# ... of its size before that issue, where it gave one (else of the committed file).
SIZE_BEFORE = {"00_getting_started.ipynb": 124_597, "03_gemm.ipynb": 4_282_834}

# The open notebook's panel (the one whose path ends in ``name``), for the scripts below.
_PANEL = """const panel = [...window.jupyterapp.shell.widgets('main')].find(
        w => w.context && w.context.path.endsWith(name));"""

# The open notebook's model, read through window.jupyterapp (--expose-app-in-browser): per code
# cell its index, execution count, tags, run timestamps (recordTiming), widget-view outputs, error
# outputs and stderr text; the
# number of cells queued or running ('*' prompts) and the kernel status.
MODEL_FACTS = "name => { " + _PANEL + """
    if (!panel || !panel.content.model) return null;
    const model = panel.content.model, cells = [];
    for (let i = 0; i < model.cells.length; i++) {
        const c = model.cells.get(i);
        if (c.type !== 'code') continue;
        const outs = [];
        for (let j = 0; j < c.outputs.length; j++) outs.push(c.outputs.get(j).toJSON());
        cells.push({index: i, count: c.executionCount, tags: c.getMetadata('tags') || [],
                    timing: c.getMetadata('execution') || {},
                    views: outs.filter(o => o.data &&
                        o.data['application/vnd.jupyter.widget-view+json']).length,
                    errors: outs.filter(o => o.output_type === 'error')
                                .map(o => o.ename + ': ' + o.evalue),
                    stderr: outs.filter(o => o.output_type === 'stream' && o.name === 'stderr')
                                .map(o => [].concat(o.text).join(''))});
    }
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const busy = [...panel.node.querySelectorAll('.jp-InputArea-prompt')]
        .filter(p => p.textContent.includes('*')).length;
    return {cells, busy, kernel: kernel ? kernel.status : 'none'};
}"""

# What the page drew, per code cell (in order): "Error displaying widget" texts, "Loading
# widget..." placeholders left behind, widget views drawn (outputs holding ipywidgets' DOM),
# bokeh roots (outermost bk-* elements but bokeh's notification strip, which is empty and 0 px
# tall until bokeh has something to say), canvases (also inside bokeh's shadow roots) and
# bokeh roots that are visible but drawn empty (no size or nothing in them).
DOM_FACTS = """() => {
    const canvases = root => {
        let n = root.querySelectorAll('canvas').length;
        for (const e of root.querySelectorAll('*')) if (e.shadowRoot) n += canvases(e.shadowRoot);
        return n;
    };
    const isBk = e => [...e.classList].some(c => c.startsWith('bk-'));
    return [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell')].map(cell => {
        const outs = [...cell.querySelectorAll('.jp-OutputArea-output')];
        const text = outs.map(o => o.textContent).join('\\n');
        const bk = outs.flatMap(o => [...o.querySelectorAll('*')].filter(
            e => isBk(e) && !e.classList.contains('bk-Notifications')
                 && !(e.parentElement && e.parentElement.closest('[class*="bk-"]'))));
        const empty = bk.filter(e => e.checkVisibility() && (
            e.getBoundingClientRect().width === 0 || e.getBoundingClientRect().height === 0 ||
            (e.shadowRoot && e.shadowRoot.childElementCount === 0 && !e.childElementCount)));
        return {
            widget_errors: (text.match(/Error displaying widget[^\\n]*/g) || []),
            pictures: cell.querySelectorAll('.hipwb-widget-picture').length,
            loading_left: (text.match(/Loading widget/g) || []).length,
            views_drawn: outs.filter(o => o.querySelector('.jupyter-widgets')).length,
            bokeh_roots: bk.length,
            bokeh_empty: empty.length,
            canvases: canvases(cell),
        };
    });
}"""


def _open(page, base: str, name: str, timeout_s: float) -> None:
    """Open ``name`` in a workspace of its own (only it is open) with an idle kernel."""
    ws = Path(name).stem.replace("_", "-")
    page.goto(f"{base}/lab/workspaces/{ws}/tree/{name}?reset&token={TOKEN}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=timeout_s * 1000)
    try:  # "Select Kernel" when JupyterLab asks which kernel to start
        page.locator(".jp-Dialog button:has-text('Select')").click(timeout=3000)
    except Exception:  # noqa: BLE001  (no dialog: the kernel starts by itself)
        pass
    page.wait_for_function("""() => [...document.querySelectorAll(
        '.jp-Notebook-ExecutionIndicator')].some(e => e.dataset.status === 'idle')""",
                           timeout=timeout_s * 1000)


def _run_all(page, name: str, timeout_s: float) -> tuple[dict, bool]:
    """Run All Cells and wait until every code cell ran, or the kernel has stayed idle with no
    cell queued for 3 s (Run All stopped at an error); returns (model facts, timed out)."""
    # not awaited: the command's promise settles only when the last cell is done
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    t0 = time.monotonic()
    last, idle_since = None, None
    while True:
        page.wait_for_timeout(1000)
        facts = page.evaluate(MODEL_FACTS, name)
        done = sum(c["count"] is not None for c in facts["cells"])
        total = len(facts["cells"])
        elapsed = time.monotonic() - t0
        if done != last:
            print(f"  {name}: {done}/{total} code cells run ({elapsed:.0f} s)", flush=True)
            last = done
        quiet = facts["kernel"] == "idle" and not facts["busy"]
        idle_since = (idle_since or time.monotonic()) if quiet else None
        if quiet and (done == total or time.monotonic() - idle_since >= 3):
            return facts, False
        if elapsed > timeout_s:
            return facts, True


def _screenshot(page, path: Path, max_height: int = 30_000) -> None:
    """The whole notebook in one picture: the page is made as tall as the notebook's scroll
    area (JupyterLab scrolls inside the page, so a plain full-page shot is one screen)."""
    vp = page.viewport_size
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")  # the file browser
    page.wait_for_timeout(500)
    extra = page.evaluate("""() => {
        const s = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer');
        return s ? s.scrollHeight - s.clientHeight : 0; }""")
    page.set_viewport_size({"width": vp["width"], "height": min(vp["height"] + extra,
                                                                max_height)})
    page.wait_for_timeout(1500)  # bokeh and widget layouts follow the new size
    page.evaluate("""() => { const s = document.querySelector(
        '.jp-NotebookPanel .jp-WindowedPanel-outer'); if (s) s.scrollTop = 0; }""")
    page.wait_for_timeout(500)
    # down to the last cell (the notebook leaves room to scroll past its end: not pictured)
    bottom = page.evaluate("""() => { const c = [...document.querySelectorAll(
        '.jp-NotebookPanel .jp-Cell')].pop(); return c ? c.getBoundingClientRect().bottom : 0; }""")
    size = page.viewport_size
    height = min(size["height"], max(vp["height"], int(bottom) + 24))
    page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": size["width"],
                                          "height": height})
    page.set_viewport_size(vp)


def _seconds(timing: dict) -> float | None:
    """How long a cell ran (kernel-side, execute_input -> execute_reply), from the timestamps
    JupyterLab records in its metadata; None when missing."""
    try:
        t0 = datetime.fromisoformat(timing["iopub.execute_input"].replace("Z", "+00:00"))
        t1 = datetime.fromisoformat(timing["shell.execute_reply"].replace("Z", "+00:00"))
    except (KeyError, ValueError, AttributeError):
        return None
    return (t1 - t0).total_seconds()


def check(browser, base: str, nb: Path, out: Path, timeout_s: float, page=None) -> dict:
    """Run All of ``nb`` in a fresh page (or in ``page``, left open for more checks); the
    report of what it ran and what failed."""
    own = page is None
    if own:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
    js: list[str] = []
    page.on("pageerror", lambda e: js.append(f"pageerror: {e}"))
    page.on("console", lambda m: js.append(f"console.error: {m.text}")
            if m.type == "error" else None)
    t0 = time.monotonic()
    try:
        _open(page, base, nb.name, 120)
        facts, timed_out = _run_all(page, nb.name, timeout_s)
        page.wait_for_timeout(3000)  # widget views and bokeh finish drawing
        dom = page.evaluate(DOM_FACTS)
        seconds = time.monotonic() - t0
        shot = out / f"{nb.stem}.png"
        _screenshot(page, shot)
    finally:
        if own:
            page.close()
    cells = facts["cells"]
    rep = {"notebook": nb.name, "cells": len(cells),
           "run": sum(c["count"] is not None for c in cells), "timed_out": timed_out,
           "seconds": round(seconds, 1), "js_errors": list(js), "screenshot": str(shot),
           "errors": [], "expected_errors": 0, "stderr": [], "render": [],
           "slowest": ("none", 0.0)}
    for i, c in enumerate(cells):
        d = dom[i] if i < len(dom) else None
        where = f"cell {c['index']}"
        took = _seconds(c["timing"])
        if took is not None and took > rep["slowest"][1]:
            rep["slowest"] = (where, round(took, 1))
        if c["errors"]:
            if "raises-exception" in c["tags"]:
                rep["expected_errors"] += 1
            else:
                rep["errors"] += [f"{where}: {ANSI.sub('', e)}" for e in c["errors"]]
        rep["stderr"] += [f"{where}: {s.strip()[:300]}" for s in c["stderr"]]
        if d is None:
            rep["render"].append(f"{where}: not in the page")
            continue
        rep["render"] += [f"{where}: {e}" for e in d["widget_errors"]]
        if d["loading_left"]:
            rep["render"].append(f"{where}: 'Loading widget...' left behind")
        if d["views_drawn"] < c["views"]:
            rep["render"].append(f"{where}: {c['views'] - d['views_drawn']} of {c['views']} "
                                 "widget view(s) drew nothing")
        if d["bokeh_empty"]:
            rep["render"].append(f"{where}: {d['bokeh_empty']} bokeh root(s) drawn empty")
    rep["widget_views"] = sum(d["views_drawn"] for d in dom)
    rep["bokeh_roots"] = sum(d["bokeh_roots"] for d in dom)
    rep["canvases"] = sum(d["canvases"] for d in dom)
    rep["ok"] = (not timed_out and rep["run"] == rep["cells"] and not rep["errors"]
                 and not js and not rep["render"])
    return rep


def _print(rep: dict) -> None:
    print(f"{rep['notebook']}: {'ok' if rep['ok'] else 'FAILED'}  {rep['run']}/{rep['cells']} "
          f"code cells run, {len(rep['errors'])} error outputs "
          f"(+{rep['expected_errors']} tagged raises-exception), {len(rep['js_errors'])} JS "
          f"errors, {rep['widget_views']} widget views, {rep['bokeh_roots']} bokeh roots, "
          f"{rep['canvases']} canvases, {rep['seconds']} s (slowest: {rep['slowest'][0]}, "
          f"{rep['slowest'][1]} s)"
          + ("  TIMED OUT" if rep["timed_out"] else ""), flush=True)
    if "saved_bytes" in rep:
        print(f"    saved and reopened: {rep['saved_bytes']:,} B (limit {rep['size_limit']:,} B), "
              f"{rep['pictures']} of {rep['widget_outputs_saved']} widget outputs drawn as "
              "static pictures", flush=True)
    for key in ("errors", "js_errors", "render", "stderr", "reopen"):
        for line in rep.get(key, []):
            print(f"    {key}: {line[:500]}", flush=True)
    print(f"    screenshot: {rep['screenshot']}", flush=True)


# Save, or restart the kernel of, the open notebook.
SAVE = "async name => { " + _PANEL + " await panel.context.save(); }"
RESTART = "async name => { " + _PANEL + " await panel.sessionContext.session.kernel.restart(); }"


def save_and_reopen(page, base: str, nb: Path, work: Path, rep: dict, out: Path) -> dict:
    """Save the notebook Run All left open in ``page``, restart its kernel, reload the page and
    check what a returning user sees; adds ``saved_bytes``, ``size_limit``, ``pictures`` and
    ``reopen`` (failures) to ``rep`` and returns it."""
    js: list[str] = []
    page.evaluate(SAVE, nb.name)
    saved = json.loads((work / nb.name).read_text())
    views = [sum(WIDGET_MIME in o.get("data", {}) for o in c.get("outputs", []))
             for c in saved["cells"] if c["cell_type"] == "code"]
    page.evaluate(RESTART, nb.name)
    page.on("pageerror", lambda e: js.append(f"pageerror: {e}"))
    page.on("console", lambda m: js.append(f"console.error: {m.text}")
            if m.type == "error" else None)
    _open(page, base, nb.name, 120)
    page.wait_for_timeout(4000)  # the widget manager restores (nothing) and outputs settle
    dom = page.evaluate(DOM_FACTS)
    rep["saved_bytes"] = (work / nb.name).stat().st_size
    rep["size_limit"] = int(SIZE_FACTOR * SIZE_BEFORE.get(nb.name, nb.stat().st_size))
    rep["pictures"] = sum(d["pictures"] for d in dom)
    rep["reopen"] = [f"reopen: {e}" for e in js]
    for i, (n, d) in enumerate(zip(views, dom)):
        rep["reopen"] += [f"reopen code cell {i}: {e}" for e in d["widget_errors"]]
        if d["pictures"] < n:
            rep["reopen"].append(f"reopen code cell {i}: {n - d['pictures']} of {n} widget "
                                 "output(s) show no static picture")
    if rep["saved_bytes"] > rep["size_limit"]:
        rep["reopen"].append(f"saved file {rep['saved_bytes']:,} B > {SIZE_FACTOR} x its size "
                             f"before ({rep['size_limit']:,} B)")
    rep["widget_outputs_saved"] = sum(views)
    _screenshot(page, out / f"{nb.stem}-reopened.png")
    rep["ok"] = rep["ok"] and not rep["reopen"]
    return rep


@contextlib.contextmanager
def lab_serving(notebooks: list[Path], log: Path) -> Iterator[str]:
    """A throw-away lab serving cleared copies of ``notebooks`` (in notebooks/ beside a link to
    the repository's kernels/, which the GEMM and softmax tutorials read), window.jupyterapp
    exposed; yields its base URL and stops it afterwards (``lab_serving.work``: the folder of
    the copies)."""
    root = Path(tempfile.mkdtemp(prefix="hipwb-run-all-"))
    (root / "kernels").symlink_to(REPO / "kernels")
    work = root / "notebooks"
    work.mkdir()
    for nb in notebooks:
        cleared_copy(nb, work)
    lab_serving.work = work
    port = free_port()
    lab = start_lab(work, port, log, extra_args=("--LabApp.expose_app_in_browser=True",))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(lab)
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebooks", nargs="*", type=Path,
                    default=sorted((REPO / "notebooks").glob("*.ipynb")))
    ap.add_argument("--timeout", type=float, default=900, help="seconds per notebook's Run All")
    ap.add_argument("--out", type=Path, default=REPO / "build" / "e2e" / "run-all",
                    help="folder for screenshots, the lab's log and report.json")
    ap.add_argument("--save-reopen", action="store_true",
                    help="then save, restart the kernel, reload: static pictures, file size")
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    a.out.mkdir(parents=True, exist_ok=True)
    reports = []
    with sync_playwright() as p, lab_serving(a.notebooks, a.out / "jupyterlab.log") as base:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            for nb in a.notebooks:
                if a.save_reopen:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    try:
                        rep = check(browser, base, nb, a.out, a.timeout, page=page)
                        save_and_reopen(page, base, nb, lab_serving.work, rep, a.out)
                    finally:
                        page.close()
                else:
                    rep = check(browser, base, nb, a.out, a.timeout)
                _print(rep)
                reports.append(rep)
        finally:
            browser.close()
    (a.out / "report.json").write_text(json.dumps(reports, indent=1))
    bad = [r["notebook"] for r in reports if not r["ok"]]
    print(f"{len(reports) - len(bad)}/{len(reports)} notebooks ok"
          + (f"; failed: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
