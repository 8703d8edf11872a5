"""Read the tutorial notebooks for the docs: drop Bokeh's bookkeeping output types.

hipwb's stored notebook outputs carry two Bokeh mime types beside a type that renders
(``application/javascript`` or ``text/plain``): ``application/vnd.bokehjs_load.v0+json`` and
``application/vnd.bokehjs_exec.v0+json``, which only tell JupyterLab's Bokeh extension that
BokehJS was loaded or a plot embedded. myst-nb renders every mime type of an output before it
picks one by priority (``nb_mime_priority_overrides``), and warns about each type it has no
renderer for, even when a renderable one is present. This reader removes those two types from
an output *only* when the output keeps another type, so an output with nothing renderable still
warns (and fails ``-W``).
"""

from __future__ import annotations

import nbformat

COMPANIONS = frozenset({
    "application/vnd.bokehjs_load.v0+json",
    "application/vnd.bokehjs_exec.v0+json",
})


def read(text: str) -> nbformat.NotebookNode:
    """``nb_custom_formats`` reader for ``.ipynb``: nbformat v4, Bokeh companions removed."""
    nb = nbformat.reads(text, as_version=4)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data")
            if data and set(data) - COMPANIONS:
                for mime in COMPANIONS & set(data):
                    del data[mime]
    return nb
