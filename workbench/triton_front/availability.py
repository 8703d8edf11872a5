"""Whether the optional ``triton`` package is here, and the error that says how to get it.

Triton is an optional dependency (``pip install 'hip-workbench[triton]'``, pinned in
pyproject.toml): ``wb.triton`` and ``%%triton`` import it on first use, ``hipwb doctor`` reports
it without importing it (importing triton costs about a second).
"""

from __future__ import annotations

import importlib.util
from importlib import metadata
from typing import Any

from ..errors import HipwbError

# The version pyproject.toml's ``triton`` extra pins: its AMD backend compiles gfx942 and gfx950
# offline (no ROCm, no GPU), and `pip install --dry-run` of it keeps the CPU torch==2.13.0 that
# `make setup` installs (docs/triton.md "Installing").
PINNED = "3.9.0"
INSTALL = "pip install 'hip-workbench[triton]'"


class TritonNotInstalled(HipwbError, ImportError):
    """The optional ``triton`` package is missing; the message says how to install it."""


def version() -> str | None:
    """The installed triton's version, or None; triton itself is not imported."""
    try:
        return metadata.version("triton")
    except metadata.PackageNotFoundError:
        return "installed (no metadata)" if importlib.util.find_spec("triton") else None


def require(what: str = "wb.triton") -> Any:
    """The ``triton`` module, or TritonNotInstalled naming ``what`` needed it and the fix."""
    try:
        import triton
        from triton.backends.compiler import GPUTarget  # noqa: F401  (the AMD backend's home)
    except ImportError as e:
        raise TritonNotInstalled(
            f"{what} needs the optional package triton (hipwb is tested with triton=={PINNED}), "
            f"which is not installed here ({e}); install it with: {INSTALL}") from None
    return triton
