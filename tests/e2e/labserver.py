"""A throw-away JupyterLab server and a headless Debian chromium for the end-to-end tests.

Why here: the closed network makes a default chromium hang (QUIC, component updates, first-run
pages), and a lab left over from a failed run would hold a port; these helpers start both with
every flag that avoids that, on a free port of 127.0.0.1, and tear them down in ``finally``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TOKEN = "hipwb-e2e"
REPO = Path(__file__).resolve().parents[2]
# The checkout's built extension (tools/build-labextension.sh), served in addition to what the
# environment has installed: the test checks the assets of this checkout.
LABEXT_DIR = REPO / "workbench" / "labextension"


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_settings(root: Path) -> Path:
    """User settings of the test's lab: every cell laid out (no windowing: off-screen editors
    exist, so their tokens can be read), each cell's run recorded in its metadata (start and end
    times, which tools/run_all_in_lab.py reports) and no news prompt over the page."""
    settings = root / ".settings"
    tracker = {"windowingMode": "none", "recordTiming": True}
    for ext, name, value in (("notebook-extension", "tracker", tracker),
                             ("apputils-extension", "notification", {"fetchNews": "false"})):
        d = settings / f"@jupyterlab/{ext}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{name}.jupyterlab-settings").write_text(json.dumps(value))
    return settings


def start_lab(root: Path, port: int, log: Path, timeout_s: float = 60,
              extra_args: tuple[str, ...] = ()) -> subprocess.Popen:
    """``jupyter lab`` on ``root`` (this interpreter's environment, so kernels import this
    checkout when PYTHONPATH says so), with ``extra_args`` appended to its command line;
    returns once /api/status answers."""
    (root / ".workspaces").mkdir(exist_ok=True)
    settings = write_settings(root)
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--notebook-dir={root}",
           "--ServerApp.disable_check_xsrf=True", "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           f"--LabApp.extra_labextensions_path={LABEXT_DIR}",
           f"--LabApp.workspaces_dir={root / '.workspaces'}",
           f"--LabApp.user_settings_dir={settings}", *extra_args]
    if os.getuid() == 0:
        cmd.append("--allow-root")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    out = log.open("w")
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}/api/status?token={TOKEN}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {proc.returncode}: see {log}")
        try:
            urllib.request.urlopen(url, timeout=1)
            return proc
        except OSError:
            time.sleep(0.3)
    stop(proc)
    raise RuntimeError(f"jupyter lab did not answer in {timeout_s} s: see {log}")


def stop(proc: subprocess.Popen) -> None:
    """Terminate the lab (and its kernels with it); kill it if it does not go in 20 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def cleared_copy(nb: Path, dest: Path) -> Path:
    """``nb`` with outputs and prompts cleared: every output the test sees comes from its run."""
    doc = json.loads(nb.read_text())
    for cell in doc["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    doc["metadata"].pop("widgets", None)
    out = dest / nb.name
    out.write_text(json.dumps(doc))
    return out
