"""Re-execute tutorial notebooks in place, so their stored outputs are what nbval compares.

    PYTHONPATH=$PWD .venv/bin/python tools/execute_notebooks.py notebooks/00_getting_started.ipynb

Why a script: outputs must be reproducible (nbval compares them, notebooks/sanitize.cfg masks
timings), so every notebook is run the same way: a fresh kernel started in notebooks/, cells
tagged ``raises-exception`` may raise, no per-cell timestamps are stored, and the BokehJS
bundle a live view sends to the page (~1.3 MB of JavaScript, the same for every run) is stored
as the placeholder sanitize.cfg maps it to; widget state is not stored.
"""
from __future__ import annotations

import sys
import uuid
from pathlib import Path

import nbformat
from nbclient import NotebookClient

BOKEH_LOAD = "application/vnd.bokehjs_load.v0+json"
PLACEHOLDER = "/* BokehJS (sent inline by hipwb when the notebook runs) */"


def execute(path: Path, timeout: int = 600) -> None:
    nb = nbformat.read(path, as_version=4)
    # No widget state in the file: a reopened notebook shows each widget output's static
    # picture (hipwb-lab), and the state would only grow the file.
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:  # nbformat 4.5: every cell has an id (new cells get one here)
        cell.setdefault("id", uuid.uuid4().hex[:8])
    NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                   store_widget_state=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            if BOKEH_LOAD in out.get("data", {}):
                out["data"][BOKEH_LOAD] = PLACEHOLDER
    nbformat.write(nb, path)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print("executing", arg, flush=True)
        execute(Path(arg))
