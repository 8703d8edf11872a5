"""The compile options that ``hipwb compile`` and ``%%hipkernel`` both take as text (-D, --arch).

Parsed here once, so the shell and the notebook accept and refuse the same spellings; errors are
ValueErrors naming the option, which each front end turns into its own usage error.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable

from .arch import get as get_arch
from .errors import ArgumentValueError

__all__ = ["block_size", "parse_archs", "parse_defines"]


def parse_defines(items: Iterable[str]) -> dict[str, str | None]:
    """``["N=4", "FAST"]`` -> ``{"N": "4", "FAST": None}``, rejecting bad macro names."""
    out: dict[str, str | None] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ArgumentValueError(f"-D {item!r}: {name!r} is not a valid macro name")
        out[name] = value if eq else None
    return out


def parse_archs(text: str) -> tuple[str, ...]:
    """``"gfx942,gfx1100"`` -> arch names, validated and normalised, repeats dropped."""
    names = [a.strip() for a in text.split(",") if a.strip()]
    if not names:
        raise ArgumentValueError("--arch needs at least one gfx target, e.g. --arch gfx942")
    try:
        return tuple(dict.fromkeys(get_arch(a).name for a in names))
    except ValueError as e:
        raise ArgumentValueError(f"--arch: {e}") from None


def block_size(text: str) -> int:
    """``--block N`` (an argparse ``type=``): threads per block, 1 to 1024 (the most any AMD
    target runs); argparse names the option in its error."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if not 1 <= n <= 1024:
        raise argparse.ArgumentTypeError(f"a block size is 1 to 1024 threads, got {n}")
    return n
