"""The content-addressed cache of code objects: keys, on-disk entries, in-process memo, clearing.

An entry is a folder ``objects/<key[:2]>/<key>/`` holding ``code.hsaco`` (the ELF as clang
wrote it) and ``entry.json`` (cache_entry: kernels, arguments, resources, diagnostics,
variables, header dependencies and the ELF's SHA-256), plus ``listing.txt`` once disassembled.
It appears whole in one rename; builds are reproducible (clang_driver), so two processes that
build one key build the same bytes, and the second keeps the first one's entry. Nothing in the
folder is ever unpickled, imported or executed: a damaged or crafted entry is rebuilt with one
CacheWarning, and an unusable folder (read-only, full, a file) degrades to compiling in memory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from . import cache_entry
from . import cache_files as _files
from . import devlib as _devlib
from .compile_result import CodeObject
from .header_deps import deps_fresh
from .prelude import prelude_hash

# bump when an entry's shape (cache_entry.FORMAT) or how kernels are named/built changes
CACHE_FORMAT = cache_entry.FORMAT
MAX_CODE_OBJECT = 1 << 30  # bytes; a code.hsaco over this is not one hipwb wrote


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


def _entry(key: str, root: Path | None = None) -> Path:
    return (root or cache_dir()) / key[:2] / key


def lookup(key: str) -> CodeObject | None:
    """The code object stored under ``key`` (memo first, then disk), or None when there is
    none or a header it read changed. A damaged or crafted entry gives None and one
    CacheWarning (the compile that follows rebuilds and replaces it)."""
    with _memo_lock:
        m = _memo.get(key)
    if m is not None and deps_fresh(m[1]):
        return replace(m[0], from_cache=True)
    entry = _entry(key)
    try:
        co, deps = _read(entry, key)
    except (OSError, _files.BadEntry) as e:
        if isinstance(e, OSError) and not os.path.lexists(entry):
            return None  # no entry (the usual miss), or a cache folder the store will report
        _files.warn(f"hipwb: cache entry {key[:16]} in {entry.parent.parent} is damaged "
                    f"({_reason(e)}); rebuilding it")
        return None
    if not deps_fresh(deps):
        return None  # an included header changed since: rebuild (store replaces the entry)
    with _memo_lock:
        _memo[key] = (co, deps)
    return co


def _reason(e: Exception) -> str:
    if isinstance(e, FileNotFoundError):
        return f"{Path(e.filename or '?').name} is missing"
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return str(e)


def _read(entry: Path, key: str) -> tuple[CodeObject, tuple | None]:
    """The code object in the entry folder, checked: entry.json's shape and types, the key it
    names, and the SHA-256 and size of code.hsaco. BadEntry or OSError when it is not sound."""
    doc = _files.read_json(entry / "entry.json")
    saved = cache_entry.decode(doc, key)
    try:
        elf = _files.read_bytes(entry / "code.hsaco", MAX_CODE_OBJECT)
    except FileNotFoundError:
        raise _files.BadEntry("code.hsaco is missing") from None
    if len(elf) != saved["size"] or hashlib.sha256(elf).hexdigest() != saved["sha256"]:
        raise _files.BadEntry("code.hsaco does not match its SHA-256")
    co = CodeObject(
        arch=saved["arch"], path=entry / "code.hsaco", kernels=saved["kernels"],
        command=saved["command"], compile_seconds=saved["compile_seconds"], from_cache=True,
        warnings=saved["warnings"], variables=saved["variables"], _elf=elf)
    return co, saved["deps"]


def _sound(entry: Path, key: str) -> bool:
    """Whether the entry another writer left under ``key`` is valid and its headers current."""
    try:
        return deps_fresh(_read(entry, key)[1])
    except (OSError, _files.BadEntry):
        return False


def clear_cache(memory_only: bool = False) -> None:
    """Forget compiled objects: the in-process memo, and unless memory_only the disk cache."""
    with _memo_lock:
        _memo.clear()
    if not memory_only:
        shutil.rmtree(cache_dir(), ignore_errors=True)


def store(key: str, co: CodeObject, deps) -> Path | None:
    """Put a fresh build in the disk cache: write its folder beside the final name, then rename
    it there in one step. The path of the stored code object, or None when the cache cannot
    take it (read-only, full, not a folder: one CacheWarning per folder) and the build stays in
    memory. When another process stored this key first, its entry is kept (the same bytes:
    builds are reproducible) unless it is damaged or stale."""
    root = cache_dir()
    final = _entry(key, root)
    elf = co.elf
    sha = hashlib.sha256(elf).hexdigest()
    try:
        doc = cache_entry.encode(co, key, deps, sha)
    except (TypeError, ValueError) as e:  # a value JSON cannot hold exactly: keep it in memory
        _files.warn(f"hipwb: build {key[:16]} cannot be cached ({e}); kept in memory",
                    once_for=f"encode:{e}")
        return None
    try:
        ours = _files.store_dir(final, {"code.hsaco": elf, "entry.json": doc},
                                lambda p: _sound(p, key))
        if not ours and (final / "code.hsaco").read_bytes() != elf:
            return None  # the other writer's build differs (not reproducible): keep ours
    except OSError as e:
        _files.unusable(root, e)
        return None
    return final / "code.hsaco"
