"""compile(source, arch) -> Module: HIP source to AMDGPU code objects, cached and inspected.

One clang run per target builds the code object and prints LLVM's own resource/occupancy remark
(``-Rpass-analysis=kernel-resource-usage``); one ``-ast-dump=json`` run, concurrent with it, names
each kernel argument and its C type (the code-object metadata alone cannot tell int from float).
Results live in a content-addressed on-disk cache (plain JSON + the raw code object, checked on
read, each entry published by one directory rename, so several processes may compile at once)
plus an in-process memo.

This module runs a compile; its parts live next to it: ``clang_driver`` (command lines),
``compile_diagnostics`` (errors, warnings, remarks), ``header_deps``, ``compile_cache`` (keys,
lookups, stores), ``cache_entry`` (an entry's JSON, checked field by field), ``cache_files``
(atomic writes, CacheWarning, the private fallback folder), ``clang_ast`` and ``kernel_names``
(what the kernels are called and take), ``compile_result`` (``Module``, ``CodeObject``, the
kernel table ``kernel_infos`` that ``loader.load`` shares) and
``prelude`` (``INCLUDE_DIR``).
"""

from __future__ import annotations

import hashlib
import operator
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import (
    cache_files,
    clang_ast,
    clang_driver,
    compile_cache,
    header_deps,
    kernel_names,
    prelude_pch,
)
from . import toolchain as _tc
from .argument_types import checked
from .cache_files import CacheWarning
from .codeobject import DeviceVariable, read_kernels, read_variables
from .compile_cache import CACHE_FORMAT, cache_dir, clear_cache
from .compile_diagnostics import (
    CompileError,
    Diagnostic,
    error_message,
    parse_diagnostics,
    parse_remarks,
)
from .compile_result import (
    DEFAULT_FILENAME,
    CodeObject,
    Module,
    kernel_infos,
    set_kernel_factory,
)
from .errors import ArgumentTypeError, ArgumentValueError
from .kernel_names import guess_kernel_names, qualified_name, readable_name
from .prelude import INCLUDE_DIR

__all__ = [
    "CACHE_FORMAT", "DEFAULT_FILENAME", "INCLUDE_DIR", "CacheWarning", "CodeObject", "CompileError",
    "Diagnostic", "Module", "cache_dir", "clear_cache", "compile", "guess_kernel_names",
    "parse_diagnostics", "qualified_name", "readable_name", "set_kernel_factory",
]


@checked
def compile(
    source: str,
    arch: str | Sequence[str] = "gfx942",
    options: Sequence[str] = (),
    *,
    defines: Mapping[str, str | int | None] | None = None,
    include_dirs: Sequence[str | os.PathLike] = (),
    opt_level: int | str = 3,
    filename: str = DEFAULT_FILENAME,
    first_line: int = 1,
    cache: bool = True,
) -> Module:
    """Compile HIP device source for one or several AMD targets.

    ``filename``/``first_line`` name the source in diagnostics and in the ISA's source lines
    (a notebook passes the cell's line of its first body line); the name may hold any text but
    control characters (it is escaped into a ``#line`` directive). ``options`` go to clang
    as-is. ``cache=False`` neither reads nor writes the cache folder (``cache_dir()``); an
    unusable one (read-only, full, a file) compiles in memory with one ``CacheWarning``.
    """
    from .arch import get as get_arch

    line_directive = _line_directive(first_line, filename)
    opt_level = _opt_level(opt_level)
    if "\0" in source:
        line = source.count("\n", 0, source.index("\0")) + first_line
        raise ArgumentValueError(f"compile(source): the source holds a NUL byte (line {line} of "
                                 f"{filename}); is it a binary file? Remove the NUL bytes")
    # "gfx942,gfx950" as %%hipkernel --arch and wb.triton take it
    archs = (tuple(a.strip() for a in arch.split(",") if a.strip()) if isinstance(arch, str)
             else tuple(arch))
    if not archs:
        raise ArgumentValueError("compile() needs at least one arch")
    names = tuple(dict.fromkeys(get_arch(a).name for a in archs))  # validates, dedups
    tc = _tc.find_toolchain(probe_cache=cache)
    for a in names:
        if tc.offload_archs and not tc.supports(a):
            raise CompileError(
                f"clang {tc.clang_version} at {tc.bin_dir} cannot build {a}"
                + (" (gfx950 needs LLVM >= 20: install clang-22 lld-22 llvm-22, see "
                   "`hipwb doctor`)" if a == "gfx950" else ""),
                arch=a,
            )
    flags = clang_driver.clang_flags(tc, options, defines or {}, include_dirs, opt_level)
    text = f"{line_directive}\n{source}"
    mod = Module(source=source, archs=names, objects={}, options=tuple(options),
                 defines=dict(defines or {}),
                 include_dirs=tuple(str(Path(d).resolve()) for d in include_dirs),
                 filename=filename, first_line=first_line)
    todo = []
    for a in names:
        key = compile_cache.cache_key(tc, text, a, flags)
        hit = compile_cache.lookup(key) if cache else None
        if hit is not None:
            mod.objects[a] = hit
        else:
            todo.append((a, key))
    if todo:
        for a, co in _build(tc, text, filename, todo, flags, cache).items():
            mod.objects[a] = co
    return mod


def _build(tc, text: str, filename: str, todo, flags, use_cache: bool,
           pch: bool = True) -> dict[str, CodeObject]:
    """Compile for every (arch, key) in todo concurrently with filtered AST dumps (arg types).

    The build runs in a private temporary folder; only ``compile_cache.store`` writes the cache
    (and with ``use_cache`` False nothing reads or writes it: the device library and the
    precompiled prelude too live in this process's own folder). Each arch's compile loads the
    precompiled prelude where one applies (``prelude_pch``); should clang refuse one, it is
    dropped and the whole build runs again parsing the prelude."""
    root = cache_dir() if use_cache else None
    extras = prelude_pch.leading_includes(text) if pch else ()
    pchs = {arch: prelude_pch.precompiled(tc, arch, flags, root, extras) if pch else None
            for arch, _ in todo}
    aflags = {arch: prelude_pch.with_pch(flags, p) if p else flags for arch, p in pchs.items()}
    stubs = [prelude_pch.stub_dir() / prelude_pch.stub_name(extras)] if any(pchs.values()) else []
    work = Path(tempfile.mkdtemp(prefix="hipwb-build-"))
    cuid = hashlib.sha256(text.encode()).hexdigest()[:16]
    try:
        src = work / f"{_safe(filename)}.hip"
        src.write_text(text)
        t0 = time.perf_counter()
        procs = {}
        for arch, _ in todo:
            out = work / arch
            out.mkdir()
            cmd = clang_driver.compile_command(tc, arch, aflags[arch], root, out, src, cuid)
            procs[arch] = (cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE, text=True, cwd=work))
        ast_base = clang_driver.ast_command(tc, todo[0][0], aflags[todo[0][0]])
        # With the prelude precompiled, one dump of the whole unit holds just the cell's code;
        # else one dump filtered by name per kernel the source scan finds.
        whole = (pchs[todo[0][0]] is not None
                 and prelude_pch.whole_dump_fits(text, flags, extras))
        guesses = [None] if whole else guess_kernel_names(text)
        ast_procs = [clang_driver.ast_proc(ast_base, src, work, name) for name in guesses]
        results = {arch: (cmd, *p.communicate()) for arch, (cmd, p) in procs.items()}
        params: dict[str, dict[str, Any]] = {}
        whole_json = b""
        for proc in ast_procs:
            out_json, _ = proc.communicate()
            if proc.returncode == 0:
                params.update(clang_ast.kernel_params(out_json))
                whole_json = out_json if whole else b""
        for arch, (_cmd, _out, err) in results.items():
            pch_used = pchs[arch]
            if procs[arch][1].returncode != 0 and pch_used and prelude_pch.refused(err, pch_used):
                prelude_pch.discard(pch_used)
                return _build(tc, text, filename, todo, flags, use_cache, pch=False)
        for arch, (_cmd, _out, err) in results.items():
            if procs[arch][1].returncode != 0:
                diags = parse_diagnostics(err, src, filename)
                raise CompileError(error_message(arch, diags, err, src, filename), diags, arch)
        # Kernels the source scan missed (macro-made names, say): ask clang for exactly those.
        raws = {arch: read_kernels((work / arch / "code.hsaco").read_bytes())[1]
                for arch, _ in todo}
        for arch_raws in raws.values():
            for raw in arch_raws:
                if raw.symbol not in params and raw.meta[".name"] not in params:
                    proc = clang_driver.ast_proc(ast_base, src, work,
                                                kernel_names.ast_filter_name(raw))
                    params.update(clang_ast.kernel_params(proc.communicate()[0]))
        variables = _variables(ast_base, src, work, todo, whole_json)
        elapsed = time.perf_counter() - t0
        built = {}
        for arch, key in todo:
            cmd, _out, err = results[arch]
            out = work / arch
            deps = header_deps.read_deps(out / "deps.d", src, stubs)
            remarks = parse_remarks(err)
            kernels = kernel_infos(raws[arch], arch, params, remarks)
            warnings = tuple(d for d in parse_diagnostics(err, src, filename)
                             if d.severity == "warning")
            display_cmd = tuple(c.replace(str(work), "$WORK") for c in cmd)
            co = CodeObject(arch=arch, path=out / "code.hsaco", kernels=kernels,
                            command=display_cmd, compile_seconds=elapsed, warnings=warnings,
                            variables=variables[arch],
                            _elf=(out / "code.hsaco").read_bytes())
            stored = compile_cache.store(key, co, deps) if use_cache else None
            co.path = stored or cache_files.private_copy(co.elf)
            if use_cache:
                compile_cache.remember(key, co, deps)
            built[arch] = co
        return built
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _variables(ast_base: list[str], src: Path, work: Path, todo,
               whole_json: bytes = b"") -> dict[str, dict[str, DeviceVariable]]:
    """Per arch, the code object's __device__/__constant__ variables by source name, typed from
    clang's AST: the whole unit's dump when there is one, else one filtered dump per variable,
    run concurrently (none when there are no variables)."""
    found = {arch: read_variables((work / arch / "code.hsaco").read_bytes()) for arch, _ in todo}
    symbols = sorted({v[0] for vs in found.values() for v in vs})
    if not symbols:
        return {arch: {} for arch, _ in todo}
    names = {**dict(zip(symbols, symbols)), **kernel_names.demangle(symbols)}
    if whole_json:
        types = {s: clang_ast.variable_type(whole_json, names[s].rsplit("::", 1)[-1])
                 for s in symbols}
    else:
        procs = {s: clang_driver.ast_proc(ast_base, src, work, names[s]) for s in symbols[:32]}
        types = {s: clang_ast.variable_type(p.communicate()[0], names[s].rsplit("::", 1)[-1])
                 for s, p in procs.items()}
    return {arch: {names[s]: DeviceVariable(names[s], s, vaddr, size, sec, types.get(s))
                   for s, vaddr, size, sec in vs} for arch, vs in found.items()}


_OPT_LEVELS = ("0", "1", "2", "3", "s", "z")


def _opt_level(value: int | str) -> str:
    """``opt_level`` as clang's -O suffix; anything else is refused by name."""
    text = (value if isinstance(value, str) else str(operator.index(value))
            if hasattr(value, "__index__") and not isinstance(value, bool) else None)
    if text not in _OPT_LEVELS:
        raise ArgumentValueError(f"compile(opt_level={value!r:.40}): takes one of 0, 1, 2, 3, "
                                 f"'s', 'z' (clang's -O levels)")
    return text


def _line_directive(first_line: int, filename: str) -> str:
    """The ``#line`` that names the source as the user knows it, ``filename`` written as a C
    string literal (backslash and quote escaped), so no name can end the directive early: a
    crafted ``a" #include "/etc/passwd`` stays one file name. Control characters (a newline
    would start a new directive line) and text that is not Unicode are refused by name."""
    if type(filename) is not str:
        raise ArgumentTypeError(f"compile(filename=...) takes a str, not {type(filename).__name__} "
                                f"{filename!r:.60}")
    bad = next((c for c in filename if ord(c) < 32 or ord(c) == 127), None)
    if bad is not None:
        raise ArgumentValueError(f"compile(filename={filename!r:.80}): a file name cannot hold the "
                                 f"control character {bad!r}; use a name without it")
    try:
        filename.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ArgumentValueError(f"compile(filename={filename!r:.80}): {e.reason} at position "
                                 f"{e.start}; use a name that is valid Unicode") from None
    try:
        line = operator.index(first_line) if type(first_line) is not bool else 0
    except TypeError:
        line = 0
    if not 1 <= line <= 2**31 - 1:
        raise ArgumentValueError(f"compile(first_line={first_line!r:.40}) must be an int from 1 to "
                                 f"2147483647 (the line number of the source's first line)")
    quoted = filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line {line} "{quoted}"'


def _safe(name: str) -> str:
    """``filename`` as a name for the temporary source file."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or DEFAULT_FILENAME
