"""The content-addressed cache of code objects: keys, on-disk entries, in-process memo, clearing."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from . import devlib as _devlib
from .compile_result import CodeObject
from .header_deps import deps_fresh
from .prelude import prelude_hash

CACHE_FORMAT = 9  # bump when the cached pickle's shape (or how kernels are named) changes


def cache_key(tc, text: str, arch: str, flags: Sequence[str]) -> str:
    """What names a build: format, toolchain, prelude, arch, flags, source and ocml."""
    h = hashlib.sha256()
    for part in (str(CACHE_FORMAT), tc.identity, prelude_hash(), arch, "\0".join(flags), text,
                 str(_devlib.find_ocml())):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def cache_dir() -> Path:
    """Where compiled code objects are kept: ``HIPWB_CACHE_DIR`` or ``~/.cache/hipwb``."""
    env = os.environ.get("HIPWB_CACHE_DIR")
    base = Path(env) if env else Path.home() / ".cache" / "hipwb"
    return base / "objects"


_memo: dict[str, tuple[CodeObject, tuple]] = {}
_memo_lock = threading.Lock()


def remember(key: str, co: CodeObject, deps) -> None:
    """Keep a fresh build in the in-process memo (``deps``: its headers, see header_deps)."""
    with _memo_lock:
        _memo[key] = (co, deps)


def lookup(key: str) -> CodeObject | None:
    """The code object stored under ``key`` (memo first, then disk), or None when there is
    none, it has another format, a header it read changed, or its file is damaged."""
    with _memo_lock:
        m = _memo.get(key)
    if m is not None and deps_fresh(m[1]):
        co = replace(m[0], from_cache=True)
        return co
    entry = cache_dir() / key[:2] / key
    try:
        with open(entry / "info.pickle", "rb") as f:
            saved = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
        return None
    if saved.get("format") != CACHE_FORMAT or not deps_fresh(saved["deps"]):
        return None
    try:
        elf = (entry / "code.hsaco").read_bytes()
    except OSError:
        elf = b""
    if hashlib.sha256(elf).hexdigest() != saved.get("sha256"):
        _discard(entry)  # damaged on disk: rebuild (and store a good entry) instead
        return None
    co = CodeObject(
        arch=saved["arch"], path=entry / "code.hsaco", kernels=saved["kernels"],
        command=tuple(saved["command"]), compile_seconds=saved["compile_seconds"],
        from_cache=True, warnings=tuple(saved["warnings"]),
        variables=saved.get("variables", {}), _elf=elf,
    )
    with _memo_lock:
        _memo[key] = (co, saved["deps"])
    return co


def _discard(entry: Path) -> None:
    """Move a damaged cache entry out of the way (atomically) and delete it."""
    stale = Path(tempfile.mkdtemp(prefix=".stale-", dir=entry.parent))
    try:
        os.rename(entry, stale / "entry")
    except OSError:
        pass
    shutil.rmtree(stale, ignore_errors=True)


def clear_cache(memory_only: bool = False) -> None:
    """Forget compiled objects: the in-process memo, and unless memory_only the disk cache."""
    with _memo_lock:
        _memo.clear()
    if not memory_only:
        shutil.rmtree(cache_dir(), ignore_errors=True)


def store(root: Path, key: str, out: Path, co: CodeObject, deps) -> Path:
    """Move a build into the cache as one atomic directory rename; return the code path."""
    final = root / key[:2] / key
    final.parent.mkdir(parents=True, exist_ok=True)
    info = {
        "format": CACHE_FORMAT, "arch": co.arch, "kernels": co.kernels, "deps": deps,
        "command": co.command, "compile_seconds": co.compile_seconds,
        "warnings": co.warnings, "variables": co.variables,
        "sha256": hashlib.sha256((out / "code.hsaco").read_bytes()).hexdigest(),
    }
    (out / "info.pickle").write_bytes(pickle.dumps(info))
    (out / "deps.d").unlink(missing_ok=True)
    try:
        os.rename(out, final)
    except OSError:
        if not (final / "info.pickle").exists():
            raise
        # An entry with this key exists. If its headers are unchanged, another process stored
        # the same build first and it is equivalent; otherwise an included header changed
        # since (same source and flags, new content) and the entry is stale: replace it.
        try:
            with open(final / "info.pickle", "rb") as f:
                fresh = deps_fresh(pickle.load(f)["deps"])
        except (OSError, EOFError, pickle.UnpicklingError, KeyError, AttributeError,
                ImportError):
            fresh = False
        if not fresh:
            stale = Path(tempfile.mkdtemp(prefix=".stale-", dir=final.parent))
            try:
                os.rename(final, stale / "entry")
            except OSError:
                pass  # another process replaced it already
            try:
                os.rename(out, final)
            except OSError:
                if not (final / "info.pickle").exists():
                    raise
            shutil.rmtree(stale, ignore_errors=True)
    return final / "code.hsaco"
