"""The sweep's result cache: a point's rows on disk, keyed by everything that decided them.

Rows live as JSON under ``<cache base>/sweeps/<key[:2]>/<key>.json`` (the cache base is
``HIPWB_CACHE_DIR`` or ``~/.cache/hipwb``, beside the compiled objects). The calling process
writes each point's rows as soon as they arrive, atomically (a temporary file renamed over), so
an interrupted sweep or a lost worker keeps every finished row and a re-run evaluates only what
is missing. A file that does not parse, or whose key does not match, is a miss and is rewritten.
Rows whose failure depends on the machine of the moment (memory, a watchdog's time limit, a
worker that died or could not load the task) are not kept: the next run tries again.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

__all__ = ["cache_base", "load", "store", "FORMAT"]

FORMAT = 1
_TRANSIENT = ("MemoryError", "timed out", "timeout", "watchdog", "KilledWorker", "CancelledError",
              "max_emulation_seconds")


def cache_base() -> Path:
    """``HIPWB_CACHE_DIR`` or ``~/.cache/hipwb``: the folder that holds the compile cache's
    ``objects`` (``compile_cache.cache_dir``), so both caches move together."""
    from ..compile_cache import cache_dir

    return cache_dir().parent


def _path(key: str) -> Path:
    return cache_base() / "sweeps" / key[:2] / f"{key}.json"


def load(key: str) -> list[dict] | None:
    """The cached rows of ``key``, or None."""
    try:
        data = json.loads(_path(key).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        return None
    return revive(rows)


def _plain(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return repr(v)             # JSON has no NaN/inf: kept as text, read back by _revive
    return v


def _revive(v):
    if v in ("nan", "inf", "-inf"):
        return float(v)
    return v


def store(key: str, rows: list[dict]) -> bool:
    """Keep ``rows`` under ``key`` unless a row failed for a transient reason; True if kept."""
    if any(r.get("status") == "worker error" or r.get("error") and any(
            t in str(r["error"]) for t in _TRANSIENT) for r in rows):
        return False
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": FORMAT, "key": key,
                           "rows": [{k: _plain(v) for k, v in r.items()} for r in rows]})
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
        return True
    except (OSError, TypeError, ValueError):
        # an unwritable or full cache folder costs the re-use, never the sweep
        return False


def revive(rows: list[dict]) -> list[dict]:
    """Rows as loaded, with NaN/inf numbers restored."""
    return [{k: _revive(v) for k, v in r.items()} for r in rows]
