"""compile(source, arch) -> Module: HIP source to AMDGPU code objects, cached and inspected.

One clang run per target builds the code object and prints LLVM's own resource/occupancy remark
(``-Rpass-analysis=kernel-resource-usage``); one ``-ast-dump=json`` run, concurrent with it, names
each kernel argument and its C type (the code-object metadata alone cannot tell int from float).
Results live in a content-addressed on-disk cache (atomic directory renames, so two notebooks
may compile at once) plus an in-process memo.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from . import devlib as _devlib
from . import toolchain as _tc
from .codeobject import (
    DeviceVariable,
    HiddenArg,
    KernelArg,
    KernelInfo,
    read_kernels,
    read_variables,
    resources_of,
)

INCLUDE_DIR = Path(__file__).parent / "include"
CACHE_FORMAT = 9  # bump when the cached pickle's shape (or how kernels are named) changes
DEFAULT_FILENAME = "cell"


class CompileError(Exception):
    """clang rejected the source; ``diagnostics`` cite the user's own line numbers."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = (), arch: str = ""):
        super().__init__(message)
        self.diagnostics = tuple(diagnostics)
        self.arch = arch


@dataclass(frozen=True)
class Diagnostic:
    """One clang diagnostic: where (file as the user knows it, line, column) and what."""

    file: str
    line: int
    column: int
    severity: str  # "error", "warning", "note"
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


def _spellings(k: KernelInfo) -> tuple[str, ...]:
    """Whitespace-free demangled spellings of a kernel: full, without parameters, readable."""
    if not k.demangled:
        return ()
    return tuple("".join(x.split()) for x in (k.demangled, qualified_name(k.demangled),
                                               readable_name(k.demangled)))


@dataclass
class CodeObject:
    """One compiled code object (one arch) and the kernels in it."""

    arch: str
    path: Path
    kernels: dict[str, KernelInfo]
    command: tuple[str, ...]
    compile_seconds: float
    from_cache: bool = False
    warnings: tuple[Diagnostic, ...] = ()
    _listing_text: str | None = field(default=None, repr=False)
    # __device__/__constant__ variables by source name (hipMemcpyToSymbol's symbols)
    variables: dict[str, DeviceVariable] = field(default_factory=dict)
    # The ELF as built (kept in memory, so a file damaged on disk later is detected and
    # rewritten instead of failing llvm-objdump or a GPU loader)
    _elf: bytes | None = field(default=None, repr=False)

    @property
    def elf(self) -> bytes:
        if self._elf is None:
            self._elf = self.path.read_bytes()
        return self._elf

    def intact_path(self) -> Path:
        """``path``, rewritten from the in-memory ELF first when the file on disk no longer
        holds it (a cache entry damaged or deleted while the session runs)."""
        if self._elf is None:
            return self.path
        try:
            ok = self.path.read_bytes() == self._elf
        except OSError:
            ok = False
        if not ok:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _atomic_write(self.path, self._elf)
            self.path.with_name("listing.txt").unlink(missing_ok=True)
            self._listing_text = None
        return self.path

    def empty_kernels(self) -> list[str]:
        """Kernels whose whole code is one ``s_endpgm`` (4 bytes on every AMDGPU target,
        AMD ISA guides "SOPP"): the body compiled to nothing for this target, e.g. code behind
        ``#if __gfx90a__ || __gfx908__`` built for gfx942; a launch computes nothing."""
        return [n for n, k in self.kernels.items() if 0 < k.code_size <= 4]

    def kernel(self, name: str) -> KernelInfo:
        """A kernel by Python name, ELF symbol, demangled name (with or without its parameter
        list, e.g. ``kernel_gemm_impl<(ns::m_layout)0, 16>::kernel`` or its readable short
        form) or source name; a source name shared by several template instances is refused
        with the instances to pick from."""
        if name in self.kernels:
            return self.kernels[name]
        want = "".join(name.split())
        hits = [k for k in self.kernels.values() if name == k.symbol or want in _spellings(k)]
        if len(hits) > 1 and not any(name == k.symbol for k in hits):
            shown = "; ".join(f"{k.name} ({k.demangled or k.symbol})" for k in hits)
            raise KeyError(f"{name!r} names {len(hits)} overloads in the {self.arch} code "
                           f"object; pick one by its Python name or its demangled name with "
                           f"the parameter list: {shown}")
        if hits:
            return next((k for k in hits if name == k.symbol), hits[0])
        same = [k for k in self.kernels.values() if name == k.metadata.get("source_name")]
        if len(same) == 1:
            return same[0]
        if same:
            shown = "; ".join(f"{k.name} ({k.demangled or k.symbol})" for k in same)
            raise KeyError(f"{name!r} names {len(same)} template instances in the {self.arch} "
                           f"code object; pick one by its Python or demangled name: {shown}")
        known = ", ".join(self.kernels) or "none"
        raise KeyError(f"no kernel {name!r} in the {self.arch} code object (kernels: {known})")

    def disassembly(self) -> str:
        """The llvm-objdump listing (with source lines) of the whole code object, cached."""
        if self._listing_text is None:
            path = self.intact_path()
            cached = path.with_name("listing.txt")
            text = cached.read_text(errors="replace") if cached.exists() else ""
            # a listing names every kernel (<symbol>:); one that does not is damaged
            if text and all(f"<{k.symbol}>:" in text for k in self.kernels.values()):
                self._listing_text = text
            else:
                tc = _tc.find_toolchain()
                cmd = [tc.tool("llvm-objdump"), "-d", "-l", f"--mcpu={self.arch}"]
                # RDNA defaults to wave32; without the attribute, wave64 kernels disassemble
                # with wave32 register-tuple sizes (e.g. WMMA accumulators).
                if any(k.resources.wave_size == 64 for k in self.kernels.values()):
                    from .arch import get as get_arch

                    if get_arch(self.arch).gfx_major >= 10:
                        cmd.append("--mattr=+wavefrontsize64")
                out = subprocess.run([*cmd, str(path)], capture_output=True, text=True)
                if out.returncode != 0:
                    raise CompileError(
                        f"llvm-objdump cannot read the {self.arch} code object {path} "
                        f"({out.stderr.strip()[:200]}); the cached file is damaged: run "
                        f"workbench.compiler.clear_cache() and compile again")
                self._listing_text = out.stdout
                _atomic_write(cached, out.stdout.encode())
        return self._listing_text

    def listing(self, kernel: str):
        """The parsed ISA listing of one kernel (``workbench.isa.Listing``)."""
        from .isa import parse_listing

        info = self.kernel(kernel)
        return parse_listing(self.disassembly(), info.symbol)


_kernel_factory: Callable[[Module, str], Any] | None = None


def set_kernel_factory(factory: Callable[[Module, str], Any] | None) -> None:
    """Install what builds the launchable kernel of a module (``workbench.Kernel``).

    Why a hook: ``Kernel`` lives in the runtime, a layer above the compiler (DESIGN.md), so
    ``Module`` cannot import it; the package's front door (``workbench/__init__``) installs it.
    """
    global _kernel_factory
    _kernel_factory = factory


@dataclass
class Module:
    """The result of one compile(): a code object per requested arch, and its kernels.

    ``module["add"]``, ``module.add`` and ``module.get_function("add")`` give the launchable
    kernel (one object per name, the one ``%%hipkernel`` binds); ``module["gfx942"]`` gives the
    code object of one arch.
    """

    source: str
    archs: tuple[str, ...]
    objects: dict[str, CodeObject]
    options: tuple[str, ...] = ()
    # What another compiler (NVRTC on CudaDevice, hiprtc on RocmDevice) needs to rebuild it.
    defines: dict[str, str | int | None] = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    filename: str = DEFAULT_FILENAME
    first_line: int = 1

    _bound: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, key: str) -> Any:
        """The code object of an arch (``module["gfx942"]``) or a kernel by name
        (``module["add"]``, the same as ``module.get_function("add")``)."""
        hit = self.objects.get(key)
        if hit is not None:
            return hit
        if isinstance(key, str) and self._has_kernel(key):
            return self.get_function(key)
        from .arch import get as get_arch

        try:
            name = get_arch(key).name
        except (KeyError, ValueError):
            known = ", ".join(self.kernel_names()) or "none"
            raise KeyError(f"{key!r} is neither a kernel of this module (kernels: {known}) nor "
                           f"an arch it was compiled for ({', '.join(self.archs)})") from None
        if name not in self.objects:
            raise KeyError(f"module was compiled for {', '.join(self.archs)}, not {name}")
        return self.objects[name]

    def kernel_names(self) -> list[str]:
        """Python names of the kernels, over all archs, in source order."""
        names: dict[str, None] = {}
        for co in self.objects.values():
            names.update(dict.fromkeys(co.kernels))
        return list(names)

    def _has_kernel(self, name: str) -> bool:
        for co in self.objects.values():
            try:
                co.kernel(name)
                return True
            except KeyError as e:
                if "overloads" in str(e):
                    raise  # an ambiguous name: say which overloads it could mean
        return False

    def get_function(self, name: str) -> Any:
        """The launchable kernel ``name`` (``workbench.Kernel``): one object per name."""
        k = self._bound.get(name)
        if k is None:
            if _kernel_factory is None:
                raise RuntimeError("no kernel factory: import workbench (its __init__ installs "
                                   "workbench.Kernel)")
            k = self._bound[name] = _kernel_factory(self, name)
        return k

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in type(self).__dataclass_fields__:
            raise AttributeError(name)
        if self._has_kernel(name):
            return self.get_function(name)
        known = ", ".join(self.kernel_names()) or "none"
        raise AttributeError(f"Module has no attribute or kernel {name!r} (kernels: {known})")

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self.kernel_names()})

    def isa(self, kernel: str, arch: str | None = None):
        """The ISA listing of ``kernel`` on ``arch`` (default: the first), with this module's
        source lines: ``print`` shows each source line above its code."""
        co = self.objects.get(arch or self.archs[0]) or self[arch]
        source = "\n" * (self.first_line - 1) + self.source
        return replace(co.listing(kernel), source=source, title=f"{kernel} {co.arch}")

    @property
    def kernels(self) -> dict[str, KernelInfo]:
        """Kernels of the first arch, by Python name."""
        return self.objects[self.archs[0]].kernels

    @property
    def compile_seconds(self) -> float:
        return max(co.compile_seconds for co in self.objects.values())

    @property
    def from_cache(self) -> bool:
        return all(co.from_cache for co in self.objects.values())


# ---------------------------------------------------------------------------------------------
# public entry point


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
    (a notebook passes the cell's line of its first body line). ``options`` go to clang as-is.
    """
    from .arch import get as get_arch

    archs = (arch,) if isinstance(arch, str) else tuple(arch)
    if not archs:
        raise ValueError("compile() needs at least one arch")
    names = tuple(dict.fromkeys(get_arch(a).name for a in archs))  # validates, dedups
    tc = _tc.find_toolchain()
    for a in names:
        if tc.offload_archs and not tc.supports(a):
            raise CompileError(
                f"clang {tc.clang_version} at {tc.bin_dir} cannot build {a}"
                + (" (gfx950 needs LLVM >= 20: install clang-22 lld-22 llvm-22, see "
                   "`hipwb doctor`)" if a == "gfx950" else ""),
                arch=a,
            )
    flags = _flags(tc, options, defines or {}, include_dirs, opt_level)
    text = f'#line {int(first_line)} "{filename}"\n{source}'
    mod = Module(source=source, archs=names, objects={}, options=tuple(options),
                 defines=dict(defines or {}),
                 include_dirs=tuple(str(Path(d).resolve()) for d in include_dirs),
                 filename=filename, first_line=first_line)
    todo = []
    for a in names:
        key = _key(tc, text, a, flags)
        hit = _lookup(key) if cache else None
        if hit is not None:
            mod.objects[a] = hit
        else:
            todo.append((a, key))
    if todo:
        for a, co in _build(tc, text, filename, todo, flags, cache).items():
            mod.objects[a] = co
    return mod


# ---------------------------------------------------------------------------------------------
# flags and cache keys


def _flags(tc, options, defines, include_dirs, opt_level) -> tuple[str, ...]:
    # -fno-crash-diagnostics: a backend failure (e.g. "Cannot select" for a builtin the target
    # lacks) must not leave preprocessed reproducer files in /tmp for every notebook cell.
    f = [f"-O{opt_level}", "-gline-tables-only", "-Rpass-analysis=kernel-resource-usage",
         "-fno-crash-diagnostics"]
    if tc.rocm_path is not None:
        f += [f"--rocm-path={tc.rocm_path}", "-include", "hip/hip_runtime.h"]
    else:
        # -mprintf-kind=buffered: device printf writes frames to the hidden printf buffer
        # (hipwb/printf.h). Whether ocml is there decides which math the prelude offers.
        f += ["-nogpuinc", "-nogpulib", "-isystem", str(INCLUDE_DIR), "-include",
              "hip/hip_runtime.h", "-mprintf-kind=buffered"]
        f.append("-D__HIPWB_NO_OCML=1" if _devlib.find_ocml() is None else "-D__HIPWB_OCML=1")
    for k, v in defines.items():
        f.append(f"-D{k}" if v is None else f"-D{k}={v}")
    for d in include_dirs:
        f += ["-I", str(Path(d).resolve())]
    f += list(options)
    return tuple(f)


def _link_flags(tc, arch: str, flags: Sequence[str], root: Path) -> list[str]:
    """Offline compiles link hipwb's device library and ocml (workbench/devlib.py)."""
    if tc.rocm_path is not None:
        return []
    try:
        return _devlib.link_flags(tc, arch, flags, root)
    except _devlib.DevlibError as e:
        raise CompileError(str(e), arch=arch) from None


@cache
def _prelude_hash() -> str:
    h = hashlib.sha256()
    for p in sorted(INCLUDE_DIR.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(INCLUDE_DIR)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def _key(tc, text: str, arch: str, flags: Sequence[str]) -> str:
    h = hashlib.sha256()
    for part in (str(CACHE_FORMAT), tc.identity, _prelude_hash(), arch, "\0".join(flags), text,
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


def _deps_fresh(deps: Sequence[tuple[str, int, int, str]] | None) -> bool:
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


def _sha(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _lookup(key: str) -> CodeObject | None:
    with _memo_lock:
        m = _memo.get(key)
    if m is not None and _deps_fresh(m[1]):
        co = replace(m[0], from_cache=True)
        return co
    entry = cache_dir() / key[:2] / key
    try:
        with open(entry / "info.pickle", "rb") as f:
            saved = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
        return None
    if saved.get("format") != CACHE_FORMAT or not _deps_fresh(saved["deps"]):
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


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# building


def _build(tc, text: str, filename: str, todo, flags, use_cache: bool) -> dict[str, CodeObject]:
    """Compile for every (arch, key) in todo concurrently with filtered AST dumps (arg types)."""
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
    try:
        src = work / f"{_safe(filename)}.hip"
        src.write_text(text)
        t0 = time.perf_counter()
        procs = {}
        for arch, _ in todo:
            out = work / arch
            out.mkdir()
            cmd = [tc.clang, "-x", "hip", f"--offload-arch={arch}", "--offload-device-only",
                   "--no-gpu-bundle-output", *flags, *_link_flags(tc, arch, flags, root),
                   *_dep_flags(out / "deps.d"),
                   "-o", str(out / "code.hsaco"), str(src)]
            procs[arch] = (cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                 stderr=subprocess.PIPE, text=True, cwd=work))
        ast_base = [tc.clang, "-x", "hip", f"--offload-arch={todo[0][0]}",
                    "--offload-device-only", *[f for f in flags if not f.startswith("-R")],
                    "-fsyntax-only", "-Xclang", "-ast-dump=json"]
        guesses = guess_kernel_names(text)
        ast_procs = [_ast_proc(ast_base, src, work, name) for name in guesses]
        results = {arch: (cmd, *p.communicate()) for arch, (cmd, p) in procs.items()}
        params: dict[str, dict[str, Any]] = {}
        for proc in ast_procs:
            out_json, _ = proc.communicate()
            if proc.returncode == 0:
                params.update(_kernel_params(out_json))
        for arch, (_cmd, _out, err) in results.items():
            if procs[arch][1].returncode != 0:
                diags = parse_diagnostics(err, src, filename)
                raise CompileError(_error_message(arch, diags, err, src, filename), diags, arch)
        # Kernels the source scan missed (macro-made names, say): ask clang for exactly those.
        raws = {arch: read_kernels((work / arch / "code.hsaco").read_bytes())[1]
                for arch, _ in todo}
        for arch_raws in raws.values():
            for raw in arch_raws:
                if raw.symbol not in params and raw.meta[".name"] not in params:
                    proc = _ast_proc(ast_base, src, work, _ast_filter_name(raw))
                    params.update(_kernel_params(proc.communicate()[0]))
        variables = _variables(tc, ast_base, src, work, todo)
        elapsed = time.perf_counter() - t0
        built = {}
        for arch, key in todo:
            cmd, _out, err = results[arch]
            out = work / arch
            deps = _read_deps(out / "deps.d", src)
            remarks = _parse_remarks(err)
            kernels = _kernels(raws[arch], arch, params, remarks)
            warnings = tuple(d for d in parse_diagnostics(err, src, filename)
                             if d.severity == "warning")
            display_cmd = tuple(c.replace(str(work), "$WORK") for c in cmd)
            co = CodeObject(arch=arch, path=out / "code.hsaco", kernels=kernels,
                            command=display_cmd, compile_seconds=elapsed, warnings=warnings,
                            variables=variables[arch],
                            _elf=(out / "code.hsaco").read_bytes())
            if use_cache:
                co.path = _store(root, key, out, co, deps)
                with _memo_lock:
                    _memo[key] = (co, deps)
            else:
                keep = Path(tempfile.mkdtemp(prefix="hipwb-"))
                shutil.copy(out / "code.hsaco", keep / "code.hsaco")
                co.path = keep / "code.hsaco"
            built[arch] = co
        return built
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _variables(tc, ast_base: list[str], src: Path, work: Path,
               todo) -> dict[str, dict[str, DeviceVariable]]:
    """Per arch, the code object's __device__/__constant__ variables by source name, typed from
    clang's AST (one filtered dump per variable, run concurrently; none when there are none)."""
    found = {arch: read_variables((work / arch / "code.hsaco").read_bytes()) for arch, _ in todo}
    symbols = sorted({v[0] for vs in found.values() for v in vs})
    if not symbols:
        return {arch: {} for arch, _ in todo}
    names = dict(zip(symbols, symbols))
    mangled = [s for s in symbols if s.startswith("_Z")]
    if mangled:
        out = subprocess.run([tc.tool("llvm-cxxfilt")], input="\n".join(mangled),
                             capture_output=True, text=True)
        names.update(zip(mangled, out.stdout.splitlines()))
    procs = {s: _ast_proc(ast_base, src, work, names[s]) for s in symbols[:32]}
    types = {s: _variable_type(p.communicate()[0], names[s].rsplit("::", 1)[-1])
             for s, p in procs.items()}
    return {arch: {names[s]: DeviceVariable(names[s], s, vaddr, size, sec, types.get(s))
                   for s, vaddr, size, sec in vs} for arch, vs in found.items()}


def _variable_type(ast_json: bytes, base: str) -> str | None:
    """The (desugared) C type of the __device__/__constant__ variable ``base`` in a filtered
    AST dump, e.g. ``float[4]``."""
    text = ast_json.decode("utf-8", "replace") if isinstance(ast_json, bytes) else ast_json
    dec, pos = json.JSONDecoder(), 0
    while True:
        pos = text.find("{", pos)
        if pos < 0:
            return None
        try:
            doc, pos = dec.raw_decode(text, pos)
        except ValueError:
            return None
        stack = [doc]
        while stack:
            n = stack.pop()
            if n.get("kind") == "VarDecl" and n.get("name") == base and any(
                    c.get("kind") in ("CUDADeviceAttr", "CUDAConstantAttr")
                    for c in n.get("inner") or ()):
                t = n.get("type") or {}
                return t.get("desugaredQualType") or t.get("qualType")
            stack.extend(n.get("inner") or ())


_ATTR_RE = re.compile(r"__launch_bounds__\s*\([^()]*\)|__attribute__\s*\(\(.*?\)\)", re.S)
_KERNEL_RE = re.compile(r"\b__global__\b[^;{}()]*?\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>\s*)?\(")


def guess_kernel_names(text: str) -> list[str]:
    """Names of ``__global__`` functions as written in the source (a fast pre-scan).

    Used only to start filtered AST dumps while clang compiles; kernels it misses are looked
    up afterwards by their real names, so a wrong guess costs time, never correctness.
    """
    body = _ATTR_RE.sub(" ", re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S))
    return list(dict.fromkeys(_KERNEL_RE.findall(body)))[:8]


def _ast_filter_name(raw) -> str:
    """The source name of a kernel for clang's -ast-dump-filter (demangled base name)."""
    name = raw.meta[".name"]
    m = re.match(r"_Z(?:N\d*)?(\d+)", name)
    if m and name.startswith("_Z"):
        start = m.end()
        return name[start : start + int(m.group(1))]
    return name


def _ast_proc(base: list[str], src: Path, work: Path, name: str) -> subprocess.Popen:
    return subprocess.Popen([*base, "-Xclang", f"-ast-dump-filter={name}", str(src)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=work)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or DEFAULT_FILENAME


def _store(root: Path, key: str, out: Path, co: CodeObject, deps) -> Path:
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
                fresh = _deps_fresh(pickle.load(f)["deps"])
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


def _dep_flags(path: Path) -> tuple[str, ...]:
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


def _read_deps(path: Path, src: Path) -> tuple[tuple[str, int, int, str], ...] | None:
    """Headers the compile read (from clang's dependency file), except the source and prelude.

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
    out = []
    for f in files:
        p = os.path.abspath(os.path.join(src.parent, f))
        if p == str(src) or p.startswith(prelude):
            continue
        st = os.stat(p)
        out.append((p, st.st_size, st.st_mtime_ns, _sha(p)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# reading clang's output

_DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                      r"(?P<sev>error|warning|note|fatal error): (?P<msg>.*)$")


def parse_diagnostics(stderr: str, src: Path, filename: str) -> list[Diagnostic]:
    """clang's error/warning/note lines, with the temporary path shown as the user's name."""
    out = []
    for line in stderr.splitlines():
        m = _DIAG_RE.match(line)
        if not m or "[-Rpass-analysis" in line:
            continue
        file = m["file"]
        if file in (str(src), src.name):
            file = filename
        out.append(Diagnostic(Path(file).name if file.startswith(str(INCLUDE_DIR)) else file,
                              int(m["line"]), int(m["col"]), m["sev"], m["msg"]))
    return out


_NOISE = ("[-Rpass-analysis", "could not determine the original source location")
_BACKEND_RE = re.compile(r"(?:fatal )?error(?: in backend)?: (.*)")


def _user_site(diags, error: Diagnostic, filename: str) -> Diagnostic | None:
    """The first note of ``error`` (its instantiation / expansion chain, up to the next error)
    that is in the user's own source, if any."""
    seen = False
    for d in diags:
        if d is error:
            seen = True
        elif seen and d.severity in ("error", "fatal error"):
            return None
        elif seen and d.severity == "note" and d.file == filename:
            return d
    return None


def _error_message(arch: str, diags, stderr: str, src: Path, filename: str) -> str:
    lines = [ln for ln in stderr.splitlines() if not any(n in ln for n in _NOISE)]
    text = "\n".join(lines).replace(str(src), filename).replace(str(INCLUDE_DIR) + "/", "")
    errors = [d for d in diags if d.severity in ("error", "fatal error")]
    backend = next((m.group(1) for ln in lines if (m := _BACKEND_RE.match(ln.strip()))), None)
    if not errors and backend:
        # LLVM's code generator refused (no source line): say so, naming the target.
        head = f"the {arch} code generator failed: {backend.removeprefix('error in backend: ')}"
    elif not errors:
        head = "compilation failed"
    elif errors[0].file == filename:
        head = f"{filename} line {errors[0].line}: {errors[0].message}"
    elif (site := _user_site(diags, errors[0], filename)) is not None:
        # an error inside a header (a hipwb prelude template, a user include) reached from the
        # user's code: the headline names the user's line, then where the error itself is
        head = (f"{filename} line {site.line}: {errors[0].message} "
                f"(in {errors[0].file}:{errors[0].line}, reached from this line)")
    else:
        head = f"{errors[0].file}:{errors[0].line}: {errors[0].message}"
    return f"{head}  [{arch}]\n{text.strip()}"


_REMARK_RE = re.compile(r"remark: \s*(?P<key>[^:]+?): (?P<val>\S+) \[-Rpass-analysis")


def _parse_remarks(stderr: str) -> dict[str, dict[str, str]]:
    """LLVM's kernel-resource-usage remark, per function: {"Occupancy [waves/SIMD]": "8", ...}."""
    out: dict[str, dict[str, str]] = {}
    current = None
    for line in stderr.splitlines():
        m = _REMARK_RE.search(line)
        if not m:
            continue
        key, val = m["key"].strip(), m["val"]
        if key == "Function Name":
            current = out.setdefault(val, {})
        elif current is not None:
            current[key] = val
    return out


def _kernel_params(ast_json: bytes) -> dict[str, dict[str, Any]]:
    """Per kernel (by mangled and plain name): parameter names and C types from clang's AST."""
    # A filtered dump is a sequence of JSON documents, one per matching declaration.
    text = ast_json.decode("utf-8", "replace") if isinstance(ast_json, bytes) else ast_json
    dec, pos, docs = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos] != "{":
            pos += 1
        if pos >= len(text):
            break
        try:
            doc, pos = dec.raw_decode(text, pos)
        except ValueError:
            break
        docs.append(doc)
    out: dict[str, dict[str, Any]] = {}
    stack = docs
    while stack:
        node = stack.pop()
        inner = node.get("inner") or ()
        if node.get("kind") in ("FunctionDecl", "CXXMethodDecl") and any(
            c.get("kind") == "CUDAGlobalAttr" for c in inner
        ):
            params = [
                (c.get("name", f"arg{i}"), c["type"].get("qualType", ""),
                 c["type"].get("desugaredQualType", c["type"].get("qualType", "")))
                for i, c in enumerate(x for x in inner if x.get("kind") == "ParmVarDecl")
            ]
            rec = {"name": node.get("name", ""), "params": params,
                   "dynamic_shared": _dynamic_shared(node)}
            if node.get("mangledName"):
                out[node["mangledName"]] = rec
            out.setdefault(node.get("name", ""), rec)
        else:
            stack.extend(inner)
    return out


def _dynamic_shared(kernel: dict) -> tuple[str, ...]:
    """Names of the extern __shared__ arrays (dynamic LDS) a kernel's body declares or uses.

    An ``extern __shared__ T x[]`` (HIP_DYNAMIC_SHARED) has an incomplete array type ``T[]``;
    device code can only name such a variable when it is dynamic LDS (an extern ``__device__``
    array would not link without -fgpu-rdc). Uses inside called device functions are not seen
    (their bodies are not in the kernel's AST).
    """
    names: set[str] = set()
    stack = list(kernel.get("inner") or ())
    while stack:
        n = stack.pop()
        kind = n.get("kind")
        if kind == "VarDecl" and n.get("storageClass") == "extern" and any(
                c.get("kind") == "CUDASharedAttr" for c in n.get("inner") or ()):
            names.add(n.get("name", "?"))
        elif kind == "DeclRefExpr":
            ref = n.get("referencedDecl") or {}
            if ref.get("kind") == "VarDecl" and (ref.get("type") or {}).get(
                    "qualType", "").endswith("[]"):
                names.add(ref.get("name", "?"))
        stack.extend(n.get("inner") or ())
    return tuple(sorted(names))


_QUALS = ("const", "volatile", "__restrict", "__restrict__", "restrict")


def _pointee(ctype: str) -> tuple[str | None, bool]:
    """(unqualified pointee type, is_const) for a pointer C type, else (None, False)."""
    t = ctype.strip()
    if not t.endswith("*") and not re.search(r"\*\s*(__restrict|const|volatile)\s*$", t):
        return None, False
    t = re.sub(r"\*\s*(?:__restrict|const|volatile|\s)*$", "", t).strip()
    if "*" in t:  # pointer to pointer: pass through as an opaque 64-bit value
        return t, False
    words = t.split()
    is_const = "const" in words
    base = " ".join(w for w in words if w not in _QUALS)
    return base, is_const


def _demangle(symbols) -> dict[str, str]:
    """Itanium-mangled symbols -> their demangled C++ names (llvm-cxxfilt, one call)."""
    mangled = sorted({s for s in symbols if s.startswith("_Z")})
    if not mangled:
        return {}
    out = subprocess.run([_tc.find_toolchain().tool("llvm-cxxfilt")], input="\n".join(mangled),
                         capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return dict(zip(mangled, lines)) if len(lines) == len(mangled) else {}


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside <...> and (...)."""
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        if depth == 0 and text.startswith(sep, i):
            parts.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += c
        i += 1
    return [*parts, cur]


def qualified_name(demangled: str) -> str:
    """A demangled function name without its parameter list (and return type)."""
    depth = 0
    for i, c in enumerate(demangled):
        if c in "<":
            depth += 1
        elif c in ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0:
            head = demangled[:i]
            # template functions print their return type first: "void scale<float>(...)"
            return _split_top(head, " ")[-1]
    return demangled


def readable_name(demangled: str) -> str:
    """The short readable form of a kernel's demangled name: namespaces dropped, the class
    template it is a member of kept (``kernel_gemm_impl<0, 16>::kernel``), casts of template
    arguments dropped (``(rocm_wmma_gemm::m_layout)0`` -> ``0``)."""
    parts = _split_top(qualified_name(demangled), "::")
    keep = len(parts) - 1
    while keep > 0 and "<" in parts[keep - 1]:
        keep -= 1
    short = "::".join(parts[keep:])
    short = re.sub(r"\((?:[\w:]+\s*)+\)(?=-?\w)", "", short)  # (ns::enum)0 -> 0
    return re.sub(r"\b(?:\w+::)+(?=\w)", "", short)  # ns::T -> T inside template args


def _python_names(raws, params, demangled: dict[str, str]) -> dict[str, str]:
    """Symbol -> Python identifier: the source name, or for clashing template instances the
    readable demangled name with its template arguments (``scale<float>`` -> ``scale_float``,
    a static member of a class template -> ``kernel_gemm_impl_0_16_kernel``)."""
    base = {}
    for raw in raws:
        ast = params.get(raw.symbol) or params.get(raw.meta[".name"]) or {}
        dem = demangled.get(raw.symbol)
        fallback = _split_top(qualified_name(dem), "::")[-1].split("<")[0] if dem else raw.symbol
        base[raw.symbol] = ast.get("name") or fallback
    clash = {s for s in base if list(base.values()).count(base[s]) > 1}
    for sym in clash:
        if sym in demangled:
            base[sym] = readable_name(demangled[sym])
    # overloads (`k(float*)` and `k(double*)`) still share a name: add their parameter types
    # (before, the second silently replaced the first in the module's kernel table)
    clash = {s for s in base if list(base.values()).count(base[s]) > 1}
    for sym in clash:
        dem = demangled.get(sym, "")
        i = dem.find("(", len(qualified_name(dem))) if dem else -1
        if i >= 0:
            base[sym] += "_" + dem[i:].replace("*", "_ptr")
    return {s: re.sub(r"_+", "_", re.sub(r"\W", "_", n)).strip("_") or "kernel"
            for s, n in base.items()}


def _kernels(raws, arch: str, params, remarks) -> dict[str, KernelInfo]:
    kernels: dict[str, KernelInfo] = {}
    demangled = _demangle(raw.symbol for raw in raws)
    pynames = _python_names(raws, params, demangled)
    for raw in raws:
        m = raw.meta
        ast = params.get(raw.symbol) or params.get(m[".name"]) or {"name": "", "params": []}
        rem = remarks.get(raw.symbol) or remarks.get(m[".name"]) or {}
        explicit = [a for a in m.get(".args", []) if not a[".value_kind"].startswith("hidden_")]
        hidden = tuple(HiddenArg(a[".value_kind"], a[".offset"], a[".size"])
                       for a in m.get(".args", []) if a[".value_kind"].startswith("hidden_"))
        args = []
        for i, a in enumerate(explicit):
            pname, ctype, canon = (ast["params"][i] if i < len(ast["params"])
                                   else (a.get(".name", f"arg{i}"), "", ""))
            pointee, is_const = _pointee(canon or ctype)
            args.append(KernelArg(
                name=pname or a.get(".name", f"arg{i}"), ctype=ctype or canon, offset=a[".offset"],
                size=a[".size"], kind=a[".value_kind"], pointee=pointee,
                is_const=is_const or bool(a.get(".is_const", False)),
                canonical=canon if canon and canon != ctype else None,
            ))
        occ = rem.get("Occupancy [waves/SIMD]")
        reqd = m.get(".reqd_workgroup_size")
        pyname = pynames[raw.symbol]
        kernels[pyname] = KernelInfo(
            name=pyname, symbol=raw.symbol, arch=arch, args=tuple(args), hidden_args=hidden,
            kernarg_size=int(m.get(".kernarg_segment_size", 0)),
            kernarg_align=int(m.get(".kernarg_segment_align", 8)),
            resources=resources_of(m, rem), descriptor=raw.descriptor, entry=raw.entry,
            code_size=raw.code_size, llvm_occupancy=int(occ) if occ and occ.isdigit() else None,
            reqd_workgroup_size=tuple(reqd) if reqd else None,
            metadata={**m, "source_name": ast["name"], "remark": rem},
            dynamic_shared=tuple(ast.get("dynamic_shared", ())),
            demangled=demangled.get(raw.symbol, ""),
        )
    return kernels
