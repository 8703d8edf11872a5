"""Run All in JupyterLab in a real (headless) browser: no JavaScript errors, widgets drawn.

    PYTHONPATH=$PWD .venv/bin/python tests/browser/lab_run_all.py notebooks/*.ipynb --shots DIR

Why a script and not a pytest test: it needs Debian's chromium (``tools/setup-system.sh
chromium``) and python ``playwright`` (no browser download: it drives /usr/bin/chromium), and it
takes a minute per notebook. It copies the notebooks to a temporary folder (Run All must not
rewrite the stored outputs), starts ``jupyter lab`` there with this environment (so kernels
import this checkout), opens each notebook, runs Run All Cells, waits for the kernel, and then
reports: page errors and console errors, error outputs of cells not tagged raises-exception,
live widget views (ipywidgets) and bokeh canvases drawn, and a screenshot per notebook
(``--shots DIR``). Exit status 1 when a check fails.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
TOKEN = "hipwb-browser-check"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_lab(root: Path, port: int) -> subprocess.Popen:
    (root / ".workspaces").mkdir()
    # Own user settings: every cell laid out (no windowing, so screenshots find the widgets)
    # and no news prompt over the page.
    settings = root / ".settings"
    for ext, name, value in (("notebook-extension", "tracker", {"windowingMode": "none"}),
                             ("apputils-extension", "notification", {"fetchNews": "false"})):
        d = settings / f"@jupyterlab/{ext}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{name}.jupyterlab-settings").write_text(json.dumps(value))
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [str(jupyter), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
           f"--IdentityProvider.token={TOKEN}", f"--notebook-dir={root}",
           "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           # its own workspace: files other sessions left open are not restored here
           f"--LabApp.workspaces_dir={root / '.workspaces'}",
           f"--LabApp.user_settings_dir={root / '.settings'}"]
    if os.getuid() == 0:
        cmd.append("--allow-root")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/api/status?token={TOKEN}"
    for _ in range(120):
        try:
            urllib.request.urlopen(url, timeout=1)
            return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("jupyter lab did not start")


def run_notebook(page, port: int, name: str, shots: Path | None, timeout_s: float) -> dict:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text} {m.location}")
            if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 else None)
    # one fresh workspace per notebook: only this notebook is open in the page
    ws = Path(name).stem.replace("_", "-")
    page.goto(f"http://127.0.0.1:{port}/lab/workspaces/{ws}/tree/{name}?reset&token={TOKEN}")
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
    dialog = page.locator(".jp-Dialog button:has-text('Select')")
    try:  # "Select Kernel" when the notebook's kernel is not running yet
        dialog.click(timeout=5000)
    except Exception:
        pass
    page.wait_for_function("""() => [...document.querySelectorAll(
        '.jp-Notebook-ExecutionIndicator')].some(e => e.dataset.status === 'idle')""",
                           timeout=60_000)
    page.click("text=Run", timeout=10_000)  # the menu bar
    page.click("text=Run All Cells", timeout=10_000)
    t0 = time.time()
    page.wait_for_timeout(2000)
    while time.time() - t0 < timeout_s:
        busy = page.evaluate("""() => [...document.querySelectorAll('.jp-InputArea-prompt')]
                                 .filter(p => p.textContent.includes('*')).length""")
        if not busy:
            break
        page.wait_for_timeout(1000)
    page.wait_for_timeout(3000)  # let widget views and bokeh finish drawing
    facts = page.evaluate("""() => ({
        cells: document.querySelectorAll('.jp-CodeCell').length,
        run: [...document.querySelectorAll('.jp-InputArea-prompt')]
               .filter(p => /\\[\\d+\\]/.test(p.textContent)).length,
        busy: [...document.querySelectorAll('.jp-InputArea-prompt')]
               .filter(p => p.textContent.includes('*')).length,
        widgets: document.querySelectorAll('.jp-OutputArea-output .widget-box').length,
        classes: [...new Set([...document.querySelectorAll('.jp-OutputArea-output *')]
               .flatMap(e => [...e.classList]).filter(c => /widget|bk/.test(c)))].slice(0, 30),
        widget_errors: [...document.querySelectorAll('.jp-OutputArea-output')]
               .filter(o => /Error displaying widget|Cannot read properties/.test(o.textContent))
               .length,
        error_outputs: [...document.querySelectorAll(
               '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
               .map(o => o.textContent.slice(0, 200)),
        bokeh: (function count(root) {  // canvases, also inside bokeh's nested shadow roots
               let n = root.querySelectorAll('canvas').length;
               for (const e of root.querySelectorAll('*'))
                   if (e.shadowRoot) n += count(e.shadowRoot);
               return n; })(document),
    })""")
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / (Path(name).stem + ".png")), full_page=False)
        live = page.locator(".jp-OutputArea-output:has(.widget-box)").first
        if live.count():  # the first live view, scrolled into the page
            live.screenshot(path=str(shots / (Path(name).stem + "-widget.png")))
    facts["js_errors"] = errors
    return facts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("notebooks", nargs="+", type=Path)
    ap.add_argument("--shots", type=Path, default=None, help="folder for screenshots")
    ap.add_argument("--timeout", type=float, default=240, help="seconds per notebook")
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="hipwb-lab-"))
    # The repository's layout around the copies: tutorials read ../kernels/<topic>/*.hip.
    (tmp / "kernels").symlink_to(Path(__file__).resolve().parents[2] / "kernels")
    work = tmp / "notebooks"
    work.mkdir()
    for nb in a.notebooks:  # outputs cleared: every prompt and output must come from this run
        doc = json.loads(nb.read_text())
        for cell in doc["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        doc["metadata"].pop("widgets", None)
        (work / nb.name).write_text(json.dumps(doc))
    port = free_port()
    lab = start_lab(work, port)
    bad = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            for nb in a.notebooks:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                facts = run_notebook(page, port, nb.name, a.shots, a.timeout)
                page.close()
                expected = json.loads(nb.read_text())
                tagged = sum(1 for c in expected["cells"] if "raises-exception"
                             in c.get("metadata", {}).get("tags", []))
                ok = (not facts["js_errors"] and not facts["busy"] and not facts["widget_errors"]
                      and facts["run"] == facts["cells"]
                      and len(facts["error_outputs"]) <= tagged)
                bad += not ok
                print(f"{nb.name}: {'ok' if ok else 'FAILED'} {json.dumps(facts)}")
            browser.close()
    finally:
        lab.terminate()
        lab.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
