"""Triton kernel files the tests here load by path, one loader for all of them.

Notebook 07's ``kernels/triton/tutorial.py`` (``kernels/`` is a folder, not a package; loaded
once, as ``TUTORIAL``, for every test module here) and the one-kernel files a test writes so that
its ``@triton.jit`` function has real file lines. Import this module only after
``pytest.importorskip("triton")``: the files import triton.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def load(path: Path, name: str) -> ModuleType:
    """The Python file at ``path``, imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_and_load(folder: Path, name: str, source: str) -> ModuleType:
    """``source`` written to ``folder/name.py`` and imported."""
    path = folder / f"{name}.py"
    path.write_text(source)
    return load(path, name)


TUTORIAL = load(Path(__file__).resolve().parents[2] / "kernels" / "triton" / "tutorial.py",
                "triton_tutorial")
