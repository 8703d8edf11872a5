"""Header dependencies of a compile: asking clang for them, reading them, checking them fresh."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from .prelude import INCLUDE_DIR


def dep_flags(path: Path) -> tuple[str, ...]:
    """Ask the device cc1 itself for a make-style list of every header it reads.

    Not ``-MD -MF``: since llvm/llvm-project PR #125646 ("[Driver][HIP] Do not pass
    -dependency-file flag for HIP Device offloading", 2025: host and device jobs raced on one
    file) the driver of LLVM 21+ gives them to no device job, so clang 22 wrote no list ("argument
    unused during compilation: '-MF'") and an edited header kept serving the stale object.
    These are the cc1 options clang 19's driver derives from ``-MD -MF`` (``-###``), given
    directly; both LLVMs write the same list (one device job here, so nothing races).
    """
    out: list[str] = []
    for opt in ("-dependency-file", str(path), "-MT", "code.hsaco", "-sys-header-deps"):
        out += ["-Xclang", opt]
    return tuple(out)


def read_deps(path: Path, src: Path, skip: Sequence[Path] = ()
              ) -> tuple[tuple[str, int, int, str], ...] | None:
    """Headers the compile read (from clang's dependency file), except the source, the prelude
    and ``skip`` (the precompiled prelude's stub, which clang lists as one of its inputs).

    None when clang wrote no list: such a build is never served from the cache again, since
    nothing would tell that a header it read has changed.
    """
    try:
        raw = path.read_text()
    except OSError:
        return None
    body = raw.split(":", 1)[1] if ":" in raw else ""
    files = body.replace("\\\n", " ").split()
    prelude = str(INCLUDE_DIR)
    skipped = {str(src), *(str(s) for s in skip)}
    out = []
    for f in files:
        p = os.path.abspath(os.path.join(src.parent, f))
        if p in skipped or p.startswith(prelude):
            continue
        st = os.stat(p)
        out.append((p, st.st_size, st.st_mtime_ns, _sha(p, st)))
    return tuple(out)


def deps_fresh(deps: Sequence[tuple[str, int, int, str]] | None) -> bool:
    """Whether every header the compile read is unchanged (stat first, hash on doubt)."""
    if deps is None:  # clang wrote no dependency list: nothing can vouch for the headers
        return False
    for path, size, mtime, digest in deps:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_size == size and st.st_mtime_ns == mtime:
            continue
        if st.st_size != size or _sha(path) != digest:
            return False
    return True


_digests: dict[tuple[str, int, int, int], str] = {}


def _sha(path: str, st: os.stat_result | None = None) -> str:
    """SHA-256 of a header; with its ``stat``, remembered for that (size, mtime, inode), as
    every compile lists the same ~250 system headers the prelude reads."""
    if st is not None:
        k = (path, st.st_size, st.st_mtime_ns, st.st_ino)
        d = _digests.get(k)
        if d is not None:
            return d
    with open(path, "rb") as f:
        d = hashlib.sha256(f.read()).hexdigest()
    if st is not None:
        _digests[k] = d
    return d

