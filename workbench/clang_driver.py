"""The clang command lines of a compile: flags, device-library link flags, compile and AST runs."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from . import devlib as _devlib
from .compile_diagnostics import CompileError
from .errors import ArgumentValueError
from .header_deps import dep_flags
from .prelude import INCLUDE_DIR


def clang_flags(tc, options, defines, include_dirs, opt_level) -> tuple[str, ...]:
    """The flags shared by every clang run of a compile (the cache key hashes them): -O, line
    tables, the resource remark, the prelude or ROCm's headers, defines, -I, then ``options``."""
    # -fno-crash-diagnostics: a backend failure (e.g. "Cannot select" for a builtin the target
    # lacks) must not leave preprocessed reproducer files in /tmp for every notebook cell.
    f = [f"-O{opt_level}", "-gline-tables-only", "-Rpass-analysis=kernel-resource-usage",
         "-fno-crash-diagnostics"]
    if tc.rocm_path is not None:
        f += [f"--rocm-path={tc.rocm_path}", "-include", "hip/hip_runtime.h"]
        code_object_version(options)  # a bad value: the clear error, not clang's
    else:
        # -mprintf-kind=buffered: device printf writes frames to the hidden printf buffer
        # (hipwb/printf.h). Whether ocml is there decides which math the prelude offers.
        # -idirafter .../hip: <hip_bf16.h> without the prefix (ROCm's -I$ROCM_PATH/include/hip)
        f += ["-nogpuinc", "-nogpulib", "-isystem", str(INCLUDE_DIR), "-idirafter",
              str(INCLUDE_DIR / "hip"), "-include", "hip/hip_runtime.h", "-mprintf-kind=buffered"]
        f.append("-D__HIPWB_NO_OCML=1" if _devlib.find_ocml() is None else "-D__HIPWB_OCML=1")
        f += _cov_defines(options)
    for k, v in defines.items():
        _check_define(k, v)
        f.append(f"-D{k}" if v is None else f"-D{k}={v}")
    for d in include_dirs:
        f += ["-I", str(Path(d).resolve())]
    f += list(options)
    return tuple(f)


def code_object_version(options: Sequence[str], arch: str | None = None) -> int | None:
    """The ``-mcode-object-version`` that ``options`` ask for on ``arch`` (None: clang's
    default); CompileError naming the option when hipwb cannot build it (not 4, 5 or 6)."""
    try:
        return _devlib.code_object_version(options, arch)
    except _devlib.CodeObjectVersionError as e:
        raise CompileError(str(e), arch=arch or "") from None


def _cov_defines(options: Sequence[str]) -> list[str]:
    """``-D__HIPWB_CODE_OBJECT_VERSION=N`` when ``options`` ask for code object vN: the
    prelude's blockDim/gridDim read the v5/v6 hidden arguments, v4's dispatch packet
    (hipwb/coordinates.h). A version asked for one target only (``-Xarch_gfx942
    -mcode-object-version=4``) gets the define for that target only."""
    options = list(options)
    every = code_object_version(options)
    out = [] if every is None else [f"-D__HIPWB_CODE_OBJECT_VERSION={every}"]
    scoped = dict.fromkeys(o[len("-Xarch_"):] for o, nxt in zip(options, options[1:])
                           if o.startswith("-Xarch_") and nxt.startswith(_devlib.COV_OPTION))
    for arch in scoped:
        if arch in ("device", "amdgcn", "host"):
            continue
        v = code_object_version(options, arch)
        if v != every:
            out += [f"-Xarch_{arch}", "-U__HIPWB_CODE_OBJECT_VERSION", f"-Xarch_{arch}",
                    f"-D__HIPWB_CODE_OBJECT_VERSION={v}"]
    return out


_MACRO_RE = re.compile(r"[A-Za-z_]\w*(\(\s*(\w+\s*(,\s*\w+\s*)*(,\s*\.\.\.\s*)?|\.\.\.)?\))?")


def _check_define(name, value) -> None:
    """A ``defines`` entry becomes one ``#define`` line in clang's predefined buffer: its name
    must be a macro name (``N`` or ``F(a, b)``), and neither may hold a control character (clang
    cuts a value at a line break without a word; a name with ``=`` would move the value)."""
    if type(name) is not str or not _MACRO_RE.fullmatch(name):
        raise ArgumentValueError(
            f"defines[{name!r:.60}]: not a macro name; use an identifier such as "
            f"BLOCK or a function-like F(a, b)")
    text = "" if value is None else str(value)
    bad = next((c for c in text if (ord(c) < 32 and c != "\t") or ord(c) == 127), None)
    if bad is not None:
        raise ArgumentValueError(f"defines[{name!r}] = {text!r:.60}: a macro value cannot hold the "
                                 f"control character {bad!r} (a line break would end the #define)")


def link_flags(tc, arch: str, flags: Sequence[str], root: Path | None) -> list[str]:
    """Offline compiles link hipwb's device library and ocml (workbench/devlib.py); ``root`` is
    the cache folder that keeps the built library (None: this process's own folder)."""
    if tc.rocm_path is not None:
        return []
    try:
        return _devlib.link_flags(tc, arch, flags, root)
    except _devlib.DevlibError as e:
        raise CompileError(str(e), arch=arch) from None


def compile_command(tc, arch: str, flags: Sequence[str], root: Path | None, out: Path,
                    src: Path, cuid: str = "") -> list[str]:
    """The clang run that builds ``out/code.hsaco`` for ``arch`` (and lists its headers); run
    it in ``src``'s folder.

    Reproducible: the same source and flags give the same bytes in any folder, so two processes
    that build one cache key store identical entries. Three things would differ otherwise: the
    source's folder in the line tables (``-fdebug-compilation-dir=.`` and a relative source
    name) and HIP's compilation-unit id ``__hip_cuid_*``, which clang hashes from the input's
    path unless given (``-cuid``, here a hash of the source).
    """
    return [tc.clang, "-x", "hip", f"--offload-arch={arch}", "--offload-device-only",
            "--no-gpu-bundle-output", *flags, *link_flags(tc, arch, flags, root),
            *dep_flags(out / "deps.d"), "-fdebug-compilation-dir=.",
            *([f"-cuid={cuid}"] if cuid else []),
            "-o", str(out / "code.hsaco"), src.name]


def ast_command(tc, arch: str, flags: Sequence[str]) -> list[str]:
    """A clang run that only dumps the AST as JSON (filter it with ``ast_proc``)."""
    return [tc.clang, "-x", "hip", f"--offload-arch={arch}",
            "--offload-device-only", *[f for f in flags if not f.startswith("-R")],
            "-fsyntax-only", "-Xclang", "-ast-dump=json"]


def ast_proc(base: list[str], src: Path, work: Path, name: str | None) -> subprocess.Popen:
    """Start ``base`` (an ``ast_command``) on ``src``, dumping only the declarations ``name``
    (None: the whole translation unit, less what a precompiled header holds)."""
    only = ["-Xclang", f"-ast-dump-filter={name}"] if name is not None else []
    return subprocess.Popen([*base, *only, str(src)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=work)

