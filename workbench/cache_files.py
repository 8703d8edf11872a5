"""Files hipwb keeps on disk (compile cache, device library, toolchain probe): written atomically,
read as plain data only, and never trusted to be usable.

Why one module: every cache file faces the same three facts. The folder may be shared
(``HIPWB_CACHE_DIR`` across sweep workers, notebooks, users), so nothing read from it is ever
unpickled, imported or executed: entries are JSON and raw bytes, checked on read. Several
processes write it at once, so every write lands whole in one rename, and two writers of one
content-addressed name write equivalent content. And it may be read-only, full, damaged, or not
a folder at all: hipwb then warns once (``CacheWarning``) and works in memory.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_JSON_BYTES = 64 << 20  # an entry's metadata is kilobytes; more is not an entry of ours


class CacheWarning(UserWarning):
    """A cache file was damaged (rebuilt) or the cache folder is unusable (compiled in memory)."""


class BadEntry(ValueError):
    """A cache file that is not what hipwb wrote: the message says what is wrong with it."""


_warned: set[str] = set()
_lock = threading.Lock()


def warn(message: str, once_for: str | None = None) -> None:
    """One line through ``warnings`` as a CacheWarning; with ``once_for``, only the first time
    per process for that subject (e.g. one warning per unusable folder, not per compile)."""
    if once_for is not None:
        with _lock:
            if once_for in _warned:
                return
            _warned.add(once_for)
    warnings.warn(" ".join(message.split()), CacheWarning, stacklevel=4)


def unusable(root: Path, err: OSError) -> None:
    """Say once per process that the cache folder ``root`` cannot be written, and why."""
    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exhausted",
           errno.EROFS: "it is on a read-only file system", errno.EACCES: "permission denied",
           errno.EPERM: "permission denied", errno.ENOTDIR: "a path in it is a file, not a folder",
           errno.EEXIST: "a path in it is a file, not a folder"}.get(
        err.errno, err.strerror or type(err).__name__)
    warn(f"hipwb: cannot write the compile cache {root} ({why}); compiling in memory instead "
         f"(set HIPWB_CACHE_DIR to a writable folder to keep builds)", once_for=f"root:{root}")


def read_json(path: Path, limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON value in ``path``: BadEntry when it is too big, not UTF-8 or not JSON (an absent
    file raises FileNotFoundError; other OSErrors pass through)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size > limit:
            raise BadEntry(f"{path.name} is over {limit >> 20} MiB")
        data = f.read(limit + 1)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BadEntry(f"{path.name} is not JSON ({str(e)[:80]})") from None


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, BadEntry when over ``limit`` (OSErrors pass through)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size > limit:
            raise BadEntry(f"{path.name} is over {limit >> 20} MiB")
        return f.read(limit + 1)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` in one rename (a reader never sees half a file); the temporary
    file is removed when the write fails (a full disk leaves nothing behind)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def new_entry_dir(parent: Path) -> Path:
    """A fresh temporary folder in ``parent`` (created as needed) to fill and ``publish``."""
    parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=".tmp-", dir=parent))


def store_dir(final: Path, files: dict[str, bytes], keep_existing: Callable[[Path], bool]
              ) -> bool:
    """Write ``files`` into a new folder beside ``final`` and ``publish`` it there (see it);
    on any error nothing is left behind and the OSError passes through."""
    tmp = new_entry_dir(final.parent)
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return publish(tmp, final, keep_existing)


def publish(tmp: Path, final: Path, keep_existing: Callable[[Path], bool]) -> bool:
    """Move the filled folder ``tmp`` to ``final`` in one rename.

    When ``final`` exists already (another process stored the same content-addressed entry
    first), it is kept if ``keep_existing(final)`` says it is valid and current, and ``tmp`` is
    dropped; otherwise it is moved aside and ``tmp`` takes its place. True when ``final`` now
    holds ``tmp``'s content, False when it holds the other writer's. OSErrors other than the
    name being taken pass through (with ``tmp`` removed).
    """
    try:
        for _ in range(3):
            try:
                os.rename(tmp, final)
                return True
            except OSError as e:
                if e.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.ENOTDIR, errno.EISDIR):
                    raise
            if keep_existing(final):
                return False
            discard(final)
        raise OSError(errno.EBUSY, f"{final} keeps being replaced by other writers")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def discard(path: Path) -> None:
    """Move a file or folder out of the way in one rename, then delete it (best effort)."""
    try:
        stale = Path(tempfile.mkdtemp(prefix=".stale-", dir=path.parent))
    except OSError:
        return
    try:
        os.rename(path, stale / "entry")
    except OSError:
        pass  # gone already, or another process replaced it
    shutil.rmtree(stale, ignore_errors=True)


_private: dict[int, Path] = {}


def private_dir() -> Path:
    """This process's own temporary folder (removed at exit): where code objects and device
    libraries live when the cache is off or unusable. Per process id, so a forked worker never
    shares its parent's."""
    pid = os.getpid()
    with _lock:
        d = _private.get(pid)
        if d is None:
            d = _private[pid] = Path(tempfile.mkdtemp(prefix="hipwb-"))
            atexit.register(shutil.rmtree, d, True)
    return d


def private_copy(elf: bytes) -> Path:
    """A new file ``code.hsaco`` holding ``elf`` in this process's own folder."""
    path = Path(tempfile.mkdtemp(dir=private_dir())) / "code.hsaco"
    path.write_bytes(elf)
    return path
