"""The prelude as a clang precompiled header: parsed once per LLVM, arch and option set.

Why: almost all of a cold compile is clang parsing the prelude (the C++ standard headers, the
host API, the math headers); a precompiled header (PCH) of it cuts a small kernel's compile to
about a third. Rules:

- Only offline compiles use it (hipwb's prelude: ``-include hip/hip_runtime.h`` found through
  ``-isystem workbench/include``); with ROCm's headers, with ``HIPWB_PCH=0``, or when the
  compile passes an option this module cannot classify (one that changes clang's action or
  output, or ``-Xclang``), the prelude is parsed as before.
- The header is built with the compile's own flags, less four kinds: ``-D``/``-U`` of a name
  the prelude never spells (hipwb's prelude keeps user macros out through its reserved names and
  hipwb/push_macros.h, so ``-DBLOCK=64`` cannot change it, and a sweep over such values reuses
  one header); the user's ``-include`` files (they follow the prelude, as before); remarks; and
  the user's ``-I``/``-iquote`` folders. A ``-D`` of a name the prelude spells, or of a reserved
  name (``_X``, ``__x``: the implementation's, as ``_GLIBCXX_ASSERTIONS`` is), goes into the
  header and its key.
- A user folder is searched before the prelude's own (``-isystem``) and the system's, so it
  changes the prelude only where it holds a file by a name the prelude includes. Before a header
  is used, each such folder is checked for every tail of every path the prelude read
  (``vector``, ``hip/hip_runtime.h``, ``bits/c++config.h``: a superset of the names it spells):
  a folder that holds one (``shadows``) makes the compile parse the prelude instead. Every other
  folder leaves the header unchanged, so cells with their own include folders share it.
- The key hashes this format, the toolchain's identity, the arch, the prelude's folder and
  bytes, and those build flags. clang checks the rest when it loads the header (language
  options, -O, target, each macro against the command line; clang's PCH validation); a header it
  refuses is dropped and the compile runs again without it. The system headers the prelude
  reads (libstdc++, glibc) are listed in the entry and checked fresh before each use.
- Built with ``-fno-pch-timestamp`` (clang then checks its input files by size, not mtime: a
  fresh checkout keeps its headers valid) from a fixed stub ``#include <hip/hip_runtime.h>``
  (plus the cell's leading prelude includes, ``leading_includes``) in one per-user folder
  (``stub_dir``), since a header names its main file and refuses to load without it; a stub
  that went missing is written again, the same bytes at the same path.
- Stored like the device library: ``<cache>/pch/<name>/`` with ``prelude.pch`` and
  ``entry.json`` (size, SHA-256, the headers read), published by one rename, checked on first
  use in a process; ``compile(cache=False)`` keeps its own in this process's folder. A header
  this process already checked in another cache folder is copied, not rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from . import cache_files as _files
from . import header_deps
from .prelude import INCLUDE_DIR, prelude_hash

PCH_FORMAT = 1
PRELUDE_INCLUDE = ("-include", "hip/hip_runtime.h")
STUB_NAME = "prelude-stub.hip"

# Options that take their value as the next argument, kept in both the header's build and the
# compile; ``-include`` goes to the compile only; -D/-U go by their macro's name.
_PAIRED_KEEP = frozenset({"-isystem", "-idirafter", "-mllvm"})
# The user's include folders: out of the header's flags and key, checked by ``shadows``.
_USER_DIRS = ("-I", "-iquote")
# What a compile may pass for the header to be used; anything else changes clang's action,
# output or input handling (-E -S -c -o -x -M* -save-temps -emit-llvm -Xclang ...).
_SAFE_PREFIXES = ("-D", "-U", "-I", "-f", "-m", "-W", "-w", "-g", "-O", "-std=", "-R",
                  "-isystem", "-idirafter", "-iquote", "-include", "-nogpu", "-pedantic")
_UNSAFE = re.compile(r"-(fsyntax-only|fmodules?\S*|fpch\S*|include-pch|femit\S*|fno-validate"
                     r"\S*|Wp,.*|Xclang|Xarch\S*|mllvm=.*)$")

_lock = threading.Lock()
_failed: set[str] = set()        # keys whose build failed in this process (not retried)
_verified: dict[str, tuple] = {}  # entry folder -> (size, mtime_ns, ino) of its checked .pch
_known: dict[str, Path] = {}  # key -> an entry folder this process has checked or built
_read: dict[str, tuple[str, ...]] = {}  # entry folder -> the system headers it read (checked)
build_seconds: dict[str, float] = {}  # key -> seconds this process spent building it


_override = threading.local()


def enabled() -> bool:
    """Whether compiles may use a precompiled prelude: ``HIPWB_PCH=0`` turns it off, ``using``
    overrides that in one thread."""
    on = getattr(_override, "on", None)
    if on is not None:
        return on
    return os.environ.get("HIPWB_PCH", "1").lower() not in ("0", "off", "no", "false")


@contextmanager
def using(on: bool) -> Iterator[None]:
    """Compiles in this thread use the precompiled prelude (True) or parse it (False)."""
    before = getattr(_override, "on", None)
    _override.on = on
    try:
        yield
    finally:
        _override.on = before


@cache
def prelude_names() -> frozenset[str]:
    """Every identifier the prelude's own headers spell outside comments and literals."""
    names: set[str] = set()
    for p in sorted(INCLUDE_DIR.rglob("*")):
        if not p.is_file():
            continue
        text = p.read_text(errors="replace")
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r'"(\\.|[^"\\\n])*"', " ", text)
        names.update(re.findall(r"\b[A-Za-z_]\w*\b", text))
    return frozenset(names)


def _resolve(name: str, includer: Path) -> Path | None:
    """A prelude file an ``#include`` names (beside the includer, then as the compile's
    ``-isystem`` and ``-idirafter`` folders would find it), else None (a system header)."""
    for d in (includer.parent, INCLUDE_DIR, INCLUDE_DIR / "hip"):
        p = (d / name).resolve()
        if p.is_file() and p.is_relative_to(INCLUDE_DIR):
            return p
    return None


def _spellings(p: Path) -> set[str]:
    return {str(p.relative_to(INCLUDE_DIR))} | (
        {str(p.relative_to(INCLUDE_DIR / "hip"))} if p.is_relative_to(INCLUDE_DIR / "hip")
        else set())


@cache
def _closure(roots: tuple[str, ...]) -> frozenset[str]:
    """Every spelling of an ``#include`` that is a no-op after the headers ``roots`` (prelude
    files, e.g. ``hip/hip_runtime.h``): the prelude files they reach and the system headers
    those include (``cmath``)."""
    names: set[str] = set()
    todo = [INCLUDE_DIR / r for r in roots]
    seen: set[Path] = set()
    while todo:
        f = todo.pop().resolve()
        if f in seen:
            continue
        seen.add(f)
        names |= _spellings(f)
        for name in _INCLUDE_RE.findall(f.read_text(errors="replace")):
            target = _resolve(name, f)
            if target is None:
                names.add(name)
            else:
                todo.append(target)
    return frozenset(names)


_INCLUDE_RE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]", re.M)
_INCLUDE_HERE = re.compile(r"#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
_LEADING_RE = re.compile(r"\s*(?://[^\n]*|/\*.*?\*/|#[ \t]*(?:pragma[ \t]+once|line)[^\n]*)",
                         re.S)


def leading_includes(source: str) -> tuple[str, ...]:
    """The prelude headers the cell includes before anything else (``#include
    <hip/hip_fp8.h>`` first thing after comments), as prelude-relative paths: precompiled with
    the prelude, as nothing of the cell comes before them. The scan stops at the first line
    that is anything else (code, a macro, a condition, another header)."""
    out: list[str] = []
    pos = 0
    while True:
        m = _LEADING_RE.match(source, pos)
        while m and m.end() > pos:
            pos = m.end()
            m = _LEADING_RE.match(source, pos)
        while pos < len(source) and source[pos].isspace():
            pos += 1
        inc = _INCLUDE_HERE.match(source, pos)
        if inc is None:
            break
        target = _resolve(inc.group(1), INCLUDE_DIR / "hip" / "x")
        if target is None:
            break
        out.append(str(target.relative_to(INCLUDE_DIR)))
        pos = inc.end()
    base = _closure(("hip/hip_runtime.h",))
    return tuple(dict.fromkeys(r for r in out if r not in base))


def whole_dump_fits(source: str, flags: Sequence[str], extras: Sequence[str]) -> bool:
    """Whether clang's AST dump of the whole translation unit holds only the cell's own code:
    clang dumps no declaration it loaded from the precompiled header, so one unfiltered dump
    replaces a filtered one per kernel unless the cell (or an ``-include``) brings in headers
    the header does not hold."""
    if sum(1 for f in flags if f.startswith("-include")) > 1:  # hipwb's own is one
        return False
    held = _closure(("hip/hip_runtime.h", *extras))
    return all(name in held for name in _INCLUDE_RE.findall(source))


def _macro_name(text: str) -> str:
    return re.split(r"[=(]", text, maxsplit=1)[0].strip()


def _reaches_prelude(name: str) -> bool:
    return name.startswith("_") or name in prelude_names()


def build_flags(flags: Sequence[str]) -> tuple[str, ...] | None:
    """The flags the header is built with (see the module docstring), or None when ``flags``
    hold an option the header cannot be used with, or not hipwb's own prelude include."""
    if not enabled() or not _has_prelude_include(flags):
        return None
    out: list[str] = []
    it = iter(flags)
    for f in it:
        if f in ("-D", "-U"):
            name = next(it, "")
            if _reaches_prelude(_macro_name(name)):
                out += [f, name]
        elif f == "-include" or f in _USER_DIRS:
            next(it, None)
        elif f in _PAIRED_KEEP:
            out += [f, next(it, "")]
        elif _UNSAFE.match(f) or not f.startswith(_SAFE_PREFIXES):
            return None
        elif f.startswith(("-D", "-U")):
            if _reaches_prelude(_macro_name(f[2:])):
                out.append(f)
        elif f.startswith("-include"):
            return None  # -includeFILE, glued: rare; parse as before
        elif f.startswith(_USER_DIRS):
            continue  # -Idir, glued: checked by shadows()
        elif not f.startswith("-R"):
            out.append(f)
    return tuple(out)


def user_dirs(flags: Sequence[str]) -> tuple[str, ...]:
    """The ``-I``/``-iquote`` folders of ``flags``, separate or glued, in order."""
    out: list[str] = []
    it = iter(flags)
    for f in it:
        if f in _USER_DIRS:
            out.append(next(it, ""))
        elif f.startswith(_USER_DIRS):
            out.append(f[len("-iquote"):] if f.startswith("-iquote") else f[2:])
    return tuple(out)


@cache
def _tails(paths: tuple[str, ...]) -> dict[str, set[str]]:
    """Each path's tails (``a/b/c`` gives ``c``, ``b/c``, ``a/b/c``) by their first part
    (kept per path set: every compile with include folders asks for the same one)."""
    out: dict[str, set[str]] = {}
    for p in paths:
        parts = Path(p).parts
        for i in range(1, len(parts)):
            out.setdefault(parts[i], set()).add("/".join(parts[i:]))
    return out


@cache
def _prelude_files() -> tuple[str, ...]:
    return tuple(str(p) for p in sorted(INCLUDE_DIR.rglob("*")) if p.is_file())


def shadows(dirs: Sequence[str], deps: Sequence[str]) -> str | None:
    """The first file in one of the user's folders ``dirs`` that an ``#include`` of the
    prelude could find instead of the prelude's own file or a system header it read
    (``deps``), else None. Only names whose first part the folder holds are looked up."""
    if not dirs:
        return None
    tails = _tails((*_prelude_files(), *deps))
    for d in dirs:
        try:
            top = os.listdir(d or ".")
        except OSError:
            continue  # no such folder: it holds nothing
        for name in top:
            for tail in tails.get(name, ()):
                if os.path.isfile(os.path.join(d, tail)):
                    return os.path.join(d, tail)
    return None


def _has_prelude_include(flags: Sequence[str]) -> bool:
    return any(tuple(flags[i:i + 2]) == PRELUDE_INCLUDE for i in range(len(flags) - 1))


def with_pch(flags: Sequence[str], pch: Path) -> tuple[str, ...]:
    """``flags`` with hipwb's ``-include hip/hip_runtime.h`` replaced by the loaded header."""
    out = list(flags)
    for i in range(len(out) - 1):
        if tuple(out[i:i + 2]) == PRELUDE_INCLUDE:
            out[i:i + 2] = ["-include-pch", str(pch)]
            break
    return tuple(out)


def key(tc, arch: str, bflags: Sequence[str], extras: Sequence[str] = ()) -> str:
    h = hashlib.sha256()
    for part in (f"pch-format-{PCH_FORMAT}", tc.identity, arch, str(INCLUDE_DIR),
                 prelude_hash(), "\0".join(bflags), "\0".join(extras)):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:24]


def precompiled(tc, arch: str, flags: Sequence[str], root: Path | None,
                extras: Sequence[str] = ()) -> Path | None:
    """The precompiled prelude for a compile with ``flags`` (built on first use), with the
    prelude headers ``extras`` after the umbrella (``leading_includes``), or None when none
    can be used: the compile then parses the prelude itself."""
    if tc.rocm_path is not None:
        return None
    bflags = build_flags(flags)
    if bflags is None:
        return None
    k = key(tc, arch, bflags, extras)
    if k in _failed:
        return None
    dirs = user_dirs(flags)
    if shadows(dirs, ()) is not None:
        return None
    try:
        main = stub(extras)
    except OSError:
        return None
    homes = ([root / "pch"] if root is not None else []) + [_files.private_dir() / "pch"]
    for home in homes:
        entry = home / f"prelude-{arch}-{k}"
        state = _check(entry)
        if state is True:
            _known[k] = entry
            return _unshadowed(entry, dirs)
        if state is not None:
            _files.warn(f"hipwb: the precompiled prelude {entry} is stale or damaged ({state}); "
                        f"rebuilding it")
        try:
            built = _copy(_known.get(k), entry) or _build(tc, arch, bflags, k, main, entry)
        except OSError as e:
            if home is homes[-1]:
                return None
            _files.unusable(root, e)
            continue
        if built is not None:
            _known[k] = built.parent
            return _unshadowed(built.parent, dirs)
        return None
    return None


def _unshadowed(entry: Path, dirs: Sequence[str]) -> Path | None:
    """The entry's header, unless a user folder holds a system header it read (as its last
    ``_check`` listed them; read again only for an entry checked under another path)."""
    if dirs:
        deps = _read.get(str(entry))
        if deps is None:
            deps = tuple(d[0] for d in _files.read_json(entry / "entry.json", 1 << 20).get(
                "deps") or ())
        if shadows(dirs, deps) is not None:
            return None
    return entry / "prelude.pch"


def _copy(known: Path | None, entry: Path) -> Path | None:
    """A header this process already checked elsewhere (another cache folder: each test's or
    sweep worker's own), copied into ``entry``: milliseconds instead of a second's build."""
    if known is None or known == entry or _check(known) is not True:
        return None
    files = {n: (known / n).read_bytes() for n in ("prelude.pch", "entry.json")}
    _files.store_dir(entry, files, lambda e: _check(e) is True)
    return entry / "prelude.pch"


def _check(entry: Path) -> bool | str | None:
    """True when the entry is sound and its headers unchanged, None when there is none, else
    what is wrong. The SHA-256 is checked once per process per file."""
    try:
        st = os.stat(entry / "prelude.pch")
        doc = _files.read_json(entry / "entry.json", 1 << 20)
    except FileNotFoundError:
        return None if not os.path.lexists(entry) else "a file is missing"
    except (OSError, _files.BadEntry) as e:
        if isinstance(e, OSError) and not os.path.lexists(entry):
            return None  # e.g. a path above it is a file: the build says the folder is unusable
        return str(e) if isinstance(e, _files.BadEntry) else (e.strerror or type(e).__name__)
    if type(doc) is not dict or doc.get("format") != PCH_FORMAT or doc.get("size") != st.st_size:
        return "prelude.pch does not match entry.json"
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
    if _verified.get(str(entry)) != stamp:
        with open(entry / "prelude.pch", "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != doc.get("sha256"):
                return "prelude.pch does not match its SHA-256"
        _verified[str(entry)] = stamp
    deps = doc.get("deps")
    if type(deps) is not list or not header_deps.deps_fresh([tuple(d) for d in deps]):
        return "a system header it read has changed"
    _read[str(entry)] = tuple(d[0] for d in deps)
    return True


def stub_name(extras: Sequence[str] = ()) -> str:
    """The file name of the main file of a header with these ``extras``."""
    return STUB_NAME if not extras else (
        f"prelude-stub-{hashlib.sha256(_stub_text(extras)).hexdigest()[:12]}.hip")


def _stub_text(extras: Sequence[str]) -> bytes:
    return "".join(f"#include <{h}>\n" for h in ("hip/hip_runtime.h", *extras)).encode()


@cache
def stub_dir() -> Path:
    """Where the stubs live: one folder per user in the temporary folder, the same for every
    cache folder and process, since each header names its stub's path (a header copied from
    one cache folder to another must find it). Refused, for this process's own folder, when
    another user owns it or can write to it."""
    d = Path(tempfile.gettempdir()) / f"hipwb-{os.getuid()}-pch-stubs"
    try:
        d.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(d)
        if st.st_uid == os.getuid() and not st.st_mode & 0o022 and os.path.isdir(d) \
                and not os.path.islink(d):
            return d
    except OSError:
        pass
    return _files.private_dir() / "pch-stubs"


def stub(extras: Sequence[str] = ()) -> Path:
    """The main file of the header with these ``extras``, written when missing: its content
    is fixed, and clang checks a header's inputs by size (``-fno-pch-timestamp``), so a stub a
    temporary-folder cleaner removed is simply written again."""
    text = _stub_text(extras)
    path = stub_dir() / stub_name(extras)
    try:
        if path.read_bytes() == text:
            return path
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    _files.atomic_write(path, text)
    return path


def _build(tc, arch: str, bflags: Sequence[str], k: str, main: Path, entry: Path
           ) -> Path | None:
    """Build one header from the stub ``main`` into ``entry``; None (remembered for this
    process) when clang cannot: the compile then parses the prelude and reports any error in it
    as usual."""
    work = Path(tempfile.mkdtemp(dir=_files.private_dir()))
    t0 = time.perf_counter()
    try:
        cmd = [tc.clang, "-x", "hip", f"--offload-arch={arch}", "--offload-device-only",
               "--no-gpu-bundle-output", *bflags, "-S", "-fpch-instantiate-templates",
               "-Xclang", "-emit-pch",
               "-Xclang", "-fno-pch-timestamp", *header_deps.dep_flags(work / "deps.d"),
               "-o", str(work / "prelude.pch"), str(main)]
        p = subprocess.run(cmd, capture_output=True, cwd=work)
        if p.returncode != 0:
            with _lock:
                _failed.add(k)
            return None
        data = (work / "prelude.pch").read_bytes()
        deps = header_deps.read_deps(work / "deps.d", main) or ()
        doc = {"format": PCH_FORMAT, "size": len(data), "arch": arch, "stub": str(main),
               "sha256": hashlib.sha256(data).hexdigest(), "flags": list(bflags),
               "deps": [list(d) for d in deps]}
        _files.store_dir(entry, {"prelude.pch": data, "entry.json": json.dumps(doc).encode()},
                         lambda e: _check(e) is True)
        build_seconds[k] = time.perf_counter() - t0
        return entry / "prelude.pch"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def status(tc) -> tuple[bool, str]:
    """``hipwb doctor``'s line: whether cold compiles load a precompiled prelude, checked by
    building (or finding) gfx942's for the default options; else why they parse it."""
    from .clang_driver import clang_flags
    from .compile_cache import cache_dir

    if not enabled():
        return False, "off (HIPWB_PCH=0): every compile parses the prelude"
    if tc.rocm_path is not None:
        return False, "not used with ROCm's headers: every compile parses them"
    pch = precompiled(tc, "gfx942", clang_flags(tc, (), {}, (), "3"), cache_dir())
    if pch is None:
        return False, (f"clang {tc.clang_version} could not build one: compiles parse the "
                       f"prelude (about 3x slower cold)")
    built = build_seconds.get(pch.parent.name.rsplit("-", 1)[-1])  # prelude-<arch>-<key>
    how = f"built in {built:.1f} s" if built is not None else "ready"
    return True, f"yes, one per arch and option set ({how}: {pch.parent.parent})"


def refused(stderr: str, pch: Path) -> bool:
    """Whether a failed compile's errors are clang refusing the precompiled prelude (clang's
    PCH errors name the file: "... differs in precompiled file '<path>' ...")."""
    return str(pch) in stderr


def discard(pch: Path) -> None:
    """Drop an entry clang refused, so the next compile builds it afresh."""
    _verified.pop(str(pch.parent), None)
    _read.pop(str(pch.parent), None)
    for k, v in list(_known.items()):
        if v == pch.parent:
            del _known[k]
    _files.discard(pch.parent)
