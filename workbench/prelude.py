"""hipwb's HIP prelude headers (``workbench/include``): where they are and a hash of them all."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

INCLUDE_DIR = Path(__file__).parent / "include"


@cache
def prelude_hash() -> str:
    """A digest of every prelude file (its path and bytes): part of each cache key."""
    h = hashlib.sha256()
    for p in sorted(INCLUDE_DIR.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(INCLUDE_DIR)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()
