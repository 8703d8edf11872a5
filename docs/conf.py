"""Sphinx configuration of hipwb's documentation: ``make docs`` builds it into build/docs.

The source folder is the repository root, so the tutorial pages are notebooks/*.ipynb
themselves and a link such as ``../notebooks/03_gemm.ipynb`` works both here and on a Git
host; ``include_patterns`` takes only docs/*.md and the notebooks. The build is offline by
design: no intersphinx, the built-in alabaster theme, no CDN scripts in the pages. Notebooks are
rendered with their stored outputs and never executed (``make test`` runs them under nbval).
``make docs`` runs ``sphinx-build -W --keep-going -n``: a warning or a broken reference fails.

    sphinx-build -W --keep-going -n -c docs -b html . build/docs
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "hipwb"
author = "the hipwb developers"
version = release = "0.1.0"

extensions = ["myst_nb"]  # myst-nb brings myst-parser: Markdown pages and notebooks
root_doc = "docs/index"
include_patterns = ["docs/*.md", "notebooks/*.ipynb"]
# Folders the file search need not walk at all (excluded folders are pruned).
exclude_patterns = [
    ".*", "build", "dist", "node_modules", "binder", "extensions", "kernels", "tests", "tools",
    "workbench", "docs/_ext", "docs/_templates", "**/.ipynb_checkpoints",
]

html_theme = "alabaster"
html_title = "hipwb"
html_theme_options = {
    "description": "a Jupyter workbench for AMD GPU HIP kernels",
    "page_width": "1240px",  # room for ISA listings and compile reports
}
templates_path = ["_templates"]
# build/docs/index.html sends the browser on to the root document, build/docs/docs/index.html.
html_additional_pages = {"index": "hipwb_redirect.html"}

# Markdown: headings get anchors, so `gpu.md#the-launch-guard` resolves.
myst_heading_anchors = 3

# Notebooks: stored outputs only.
nb_execution_mode = "off"
# Read through docs/_ext/hipwb_notebooks.py: it drops Bokeh's bookkeeping mime types where an
# output also has a renderable one (its docstring says why priorities alone do not do it).
nb_custom_formats = {".ipynb": ["hipwb_notebooks.read", {}, False]}
# An ipywidgets view draws only with a widget manager loaded from a CDN: never load it, and show
# the static HTML each hipwb view stores beside its widget (priority None removes a type).
nb_ipywidgets_js: dict = {}
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
]
