"""Build and launch helpers shared by the unseen-kernel tests (tests/test_unseen_kernels*.py).

An arch label is a real target, optionally with one suffix naming a compile option:
"gfx1100-w64" (-mwavefrontsize64), "gfx942-O1", "gfx942-O0".
"""
from __future__ import annotations

import functools
from pathlib import Path

import workbench as wb

SUFFIX = {"-w64": "-mwavefrontsize64", "-O1": "-O1", "-O0": "-O0"}


def split(arch: str) -> tuple[str, list[str]]:
    """("gfx1100", ["-mwavefrontsize64"]) for "gfx1100-w64", ("gfx942", ["-O1"]) for
    "gfx942-O1"; (arch, []) otherwise."""
    for suffix, opt in SUFFIX.items():
        if arch.endswith(suffix):
            return arch[: -len(suffix)], [opt]
    return arch, []


@functools.cache
def module(folder: Path, fname: str, arch: str):
    """The compiled module of ``folder/fname`` for the arch label (cached per test session)."""
    real, opts = split(arch)
    return wb.compile((folder / fname).read_text(), real, opts, filename=fname)


def kernel(folder: Path, fname: str, name: str, arch: str):
    """Kernel ``name`` of that module, bound to the emulator of the label's real target."""
    return module(folder, fname, arch)[name].on(f"emulator:{split(arch)[0]}")


def wave_size(arch: str) -> int:
    """Lanes per wave of the arch label's build."""
    real, opts = split(arch)
    return 64 if "-mwavefrontsize64" in opts else wb.get_arch(real).default_wave_size
