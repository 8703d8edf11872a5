"""Content fingerprints for the sweep's result cache: of functions, folders and hipwb itself.

A cached row may be reused only when everything that decided it is unchanged. The parts that
are not plain values get a fingerprint here:

* a function (input factory, reference, launch, flops): its source text when Python can find it
  (a notebook cell's function included: IPython keeps cell sources in ``linecache``), else its
  bytecode and constants; plus the values it closes over and the globals it names, where those
  are data (numbers, strings, tuples, arrays; a module counts by name, a function recursively).
  A global that is some other object counts by its type name only, so changing it does not
  invalidate: the documented limit (``docs/sweeps.md``).
* a folder of headers: the path, size and SHA-256 of every file under it (the source's own
  folder and each ``-I``), so editing a header reruns the points that may include it.
* hipwb: its version and a hash of its package sources (emulator, timing model, prelude); the
  timing model's own hash is kept apart, as a column of provenance.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import types
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["function_fingerprint", "tree_fingerprint", "package_fingerprint", "digest"]

_MAX_TREE_FILES = 4000
_HEADER_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inc", ".inl", ".hip", ".cpp", ".cc",
                    ".cu", ".def", ".ipp", ""}


def digest(*parts: Any) -> str:
    """SHA-256 over the parts' reprs (str/bytes as they are), each NUL-separated."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _value(v: Any, depth: int) -> str:
    if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
        return repr(v)
    if isinstance(v, (tuple, list, frozenset, set)):
        items = sorted(map(repr, v)) if isinstance(v, (set, frozenset)) else \
            [_value(x, depth) for x in v]
        return f"{type(v).__name__}({','.join(items)})"
    if isinstance(v, dict):
        return "{" + ",".join(f"{_value(k, depth)}:{_value(x, depth)}"
                              for k, x in sorted(v.items(), key=lambda kv: repr(kv[0]))) + "}"
    if isinstance(v, types.ModuleType):
        return f"module {v.__name__}"
    if isinstance(v, (types.FunctionType, types.MethodType)):
        return function_fingerprint(v, depth + 1) if depth < 4 else f"function {v.__qualname__}"
    if hasattr(v, "tobytes") and hasattr(v, "dtype"):      # numpy arrays
        try:
            return f"array {v.dtype} {getattr(v, 'shape', '')} " + digest(v.tobytes())
        except Exception:
            pass
    if type(v).__module__ == "torch" and hasattr(v, "numpy"):  # torch tensors
        try:
            return "tensor " + _value(v.detach().cpu().numpy(), depth)
        except Exception:
            pass
    return f"object {type(v).__module__}.{type(v).__qualname__}"


def _code_text(code: types.CodeType) -> str:
    consts = [(_code_text(c) if isinstance(c, types.CodeType) else repr(c))
              for c in code.co_consts]
    return digest(code.co_code, code.co_names, code.co_varnames, *consts)


def function_fingerprint(fn: Any, depth: int = 0) -> str:
    """A fingerprint of what ``fn`` computes (see the module docstring); None gives 'none'."""
    if fn is None:
        return "none"
    target = getattr(fn, "__func__", fn)
    if not isinstance(target, types.FunctionType):
        # a callable object (functools.partial, a class instance): its type and its data
        parts = [type(fn).__qualname__]
        for attr in ("func", "args", "keywords"):
            if hasattr(fn, attr):
                parts.append(_value(getattr(fn, attr), depth))
        return digest(*parts)
    try:
        text = inspect.getsource(target)
    except (OSError, TypeError):
        text = _code_text(target.__code__)
    parts = [text, _value(target.__defaults__, depth), _value(target.__kwdefaults__, depth)]
    if target.__closure__:
        for name, cell in zip(target.__code__.co_freevars, target.__closure__):
            try:
                parts.append(f"{name}={_value(cell.cell_contents, depth)}")
            except ValueError:       # an empty cell
                parts.append(f"{name}=<empty>")
    glb = target.__globals__
    for name in _global_names(target.__code__):
        if name in glb:
            parts.append(f"{name}={_value(glb[name], depth)}")
    return digest(*parts)


def _global_names(code: types.CodeType) -> list[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names.update(_global_names(c))
    return sorted(names)


def tree_fingerprint(folders: list[str]) -> str:
    """Path, size and content hash of every header-like file under ``folders``."""
    parts: list[str] = []
    count = 0
    for folder in folders:
        root = Path(folder)
        if not root.is_dir():
            parts.append(f"{folder}: absent")
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                p = Path(dirpath) / name
                if p.suffix.lower() not in _HEADER_SUFFIXES:
                    continue
                count += 1
                if count > _MAX_TREE_FILES:
                    # a huge tree: fall back to sizes and modification times for the rest
                    st = p.stat()
                    parts.append(f"{p} {st.st_size} {st.st_mtime_ns}")
                    continue
                try:
                    parts.append(f"{p} {_file_hash(str(p), p.stat().st_mtime_ns)}")
                except OSError:
                    parts.append(f"{p} unreadable")
    return digest(*parts)


@lru_cache(maxsize=8192)
def _file_hash(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=4)
def package_fingerprint(sub: str = "") -> str:
    """A hash of hipwb's package sources (``sub``: one sub-package, e.g. 'timing')."""
    root = Path(__file__).resolve().parents[1] / sub
    parts = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.suffix in (".py", ".h", ".json", ".bc", ".ll") and \
                "__pycache__" not in p.parts and "labextension" not in p.parts:
            parts.append(f"{p.relative_to(root)} {hashlib.sha256(p.read_bytes()).hexdigest()}")
    return digest(*parts)[:16]
