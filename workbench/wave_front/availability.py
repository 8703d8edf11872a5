"""Whether the optional Wave packages are here, and the error that says how to get them.

Wave (``wave-lang``, IREE's Python kernel language for AMD GPUs) is an optional dependency
(``pip install 'hip-workbench[wave]'``, pinned in pyproject.toml with the IREE compiler and
runtime it builds with): ``wb.wave`` imports it on first use, ``hipwb doctor`` reports it
without importing it (importing wave_lang costs about two seconds).
"""

from __future__ import annotations

import importlib.util
from importlib import metadata
from typing import Any

from ..errors import HipwbError

# The versions pyproject.toml's ``wave`` extra pins: wave-lang 3.9.1 requires the IREE compiler
# and runtime 3.9.0 (its wheel metadata), which compile gfx942 and gfx950 code objects offline
# (no ROCm, no GPU); `pip install --dry-run` of them keeps the CPU torch==2.13.0 of `make
# setup` (docs/wave.md "Installing").
PINNED = {"wave-lang": "3.9.1", "iree-base-compiler": "3.9.0", "iree-base-runtime": "3.9.0"}
INSTALL = "pip install 'hip-workbench[wave]'"


class WaveNotInstalled(HipwbError, ImportError):
    """The optional ``wave-lang`` package (or the IREE compiler it needs) is missing; the
    message says how to install it."""


def versions() -> dict[str, str | None]:
    """The installed version of each pinned distribution (None: missing); nothing imported."""
    out: dict[str, str | None] = {}
    for dist, module in (("wave-lang", "wave_lang"), ("iree-base-compiler", "iree.compiler"),
                         ("iree-base-runtime", "iree.runtime")):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            try:
                found = importlib.util.find_spec(module) is not None
            except ModuleNotFoundError:  # the parent package (iree) is missing
                found = False
            out[dist] = "installed (no metadata)" if found else None
    return out


def version() -> str | None:
    """The installed wave-lang's version, or None; wave_lang itself is not imported."""
    return versions()["wave-lang"]


def require(what: str = "wb.wave") -> Any:
    """The ``wave_lang`` module, or WaveNotInstalled naming ``what`` needed it and the fix."""
    try:
        import wave_lang  # the package first: a hidden one fails here, however much is loaded
        from iree.compiler import tools  # noqa: F401  (iree-compile, which builds the hsaco)
        from wave_lang.kernel.wave.compile import wave_compile  # noqa: F401
    except ImportError as e:
        pins = ", ".join(f"{d}=={v}" for d, v in PINNED.items())
        raise WaveNotInstalled(
            f"{what} needs the optional package wave-lang (hipwb is tested with {pins}), which "
            f"is not installed here ({e}); install it with: {INSTALL}") from None
    return wave_lang
