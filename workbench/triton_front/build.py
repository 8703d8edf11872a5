"""One Triton specialization compiled by Triton's AMD backend and loaded as a hipwb Module.

``triton.compile(ASTSource(fn, signature, constexprs, attrs), target=GPUTarget("hip", arch,
64))`` builds an hsaco without a GPU or ROCm; ``workbench.loader.load`` reads it as any code
object. The result, a ``TritonModule``, is that Module with what only the Triton build knows:
the argument names and types (from the signature; the two hidden pointers Triton appends,
global and profile scratch, named as such), the IR stages (``module.ir["ttgir"]``), Triton's
metadata, and the Python file the kernel came from, so the ISA view interleaves its lines
(Triton emits line tables for the function's file; code inlined from ``triton/language`` is
shown at the kernel's line that called it, like a header's).
"""

from __future__ import annotations

import contextlib
import io
import linecache
import os
import re
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..codeobject import KernelArg
from ..compile_result import Module
from ..errors import ArgumentValueError, HipwbError
from ..loader import load
from .availability import require
from .specialize import C_TYPES, Spec

# The two pointers Triton's AMD launcher appends to every kernel's arguments
# (triton/backends/amd/driver.py, HIPLauncher.__call__: global_scratch, profile_scratch).
HIDDEN = ("global_scratch", "profile_scratch")
_MAX_MODULES = 256
# The file a %%triton cell is written to (workbench.triton_front.cell); errors in it name the
# cell line ("cell line 7"), as its file lines are the cell's.
CELL_FILE = "triton_cell.py"


class TritonCompileError(HipwbError, RuntimeError):
    """Triton could not compile a kernel; the message names the file line (the cell line for a
    ``%%triton`` cell) and the arch. ``line`` is that line (None when Triton gave none)."""

    def __init__(self, message: str, line: int | None = None, arch: str | None = None):
        super().__init__(message)
        self.line, self.arch = line, arch
        self.output = ""  # what Triton printed while it failed (a failed verify: the module)


class IRStages(dict):
    """The IR Triton produced for one arch, by stage name: ``ttir``, ``ttgir``, ``llir``,
    ``amdgcn`` (text); ``print(module.ir["ttgir"])`` shows one."""

    def __init__(self, arch: str, stages: dict[str, str]):
        super().__init__(stages)
        self.arch = arch

    def __repr__(self) -> str:
        sizes = ", ".join(f"{k} ({len(v.splitlines())} lines)" for k, v in self.items())
        return f"<Triton IR {self.arch}: {sizes}>"


@dataclass
class TritonModule(Module):
    """The Module of one Triton specialization (``wb.triton``): every view of a compiled HIP
    module (resources, occupancy, ISA with the Python lines, emulation, trace, check, timing),
    plus ``ir`` / ``ir_for(arch)`` (Triton's IR stages), ``metadata`` (per arch, Triton's
    KernelMetadata as a dict) and ``spec`` (the signature it was built for)."""

    kernel_name: str = ""
    spec: Spec | None = None
    stages: dict[str, IRStages] = field(default_factory=dict, repr=False)
    metadata: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    triton_options: dict[str, Any] = field(default_factory=dict)

    def add_arch_hint(self, arch: str) -> str:
        both = ",".join((*self.archs, arch))
        return f"give wb.triton arch='{both}' (%%triton --arch {both})"

    @property
    def ir(self) -> IRStages:
        """The IR stages of the first arch: ``module.ir["ttgir"]``."""
        return self.stages[self.archs[0]]

    def ir_for(self, arch: str) -> IRStages:
        """The IR stages of one arch."""
        return self._of_arch(self.stages, arch, self.kernel_name)

    def isa(self, kernel: str, arch: str | None = None):
        """The ISA listing with the kernel's Python source lines above their code; code Triton
        inlined from its language library sits at the kernel line that called it."""
        from .. import toolchain
        from ..inline_sites import inline_sites
        from ..isa import is_user_file, parse_listing, place_sites

        co = self.objects.get(arch or self.archs[0]) or self[arch]
        info = co.kernel(kernel)
        listing = parse_listing(co.disassembly(), info.symbol, filename=self.filename)
        inlined = [i.addr for i in listing if i.source_line is None and i.source_file]
        if inlined:
            try:
                sym = toolchain.find_toolchain().tool("llvm-symbolizer")
            except toolchain.ToolchainError:
                sym = ""
            listing = place_sites(listing, inline_sites(
                sym, co.intact_path(), inlined, lambda f: is_user_file(f, self.filename)))
        return replace(listing, source=self.source, title=f"{kernel} {co.arch}")


_MODULES: dict[tuple, TritonModule] = {}


def source_of(fn: Any) -> tuple[str, str]:
    """(text of the file that defines the @triton.jit function, its base name): the line tables
    count lines in that file (an IPython cell's too: linecache holds it)."""
    path = fn.fn.__code__.co_filename
    text = "".join(linecache.getlines(path))
    if not text:
        try:
            text = Path(path).read_text()
        except OSError:
            text = ""
    return text, path.rsplit("/", 1)[-1]


def wave_size(arch: str) -> int:
    from ..arch import get

    return get(arch).default_wave_size


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The compile options, refused when Triton's AMD backend does not know one."""
    from triton.backends.amd.compiler import HIPOptions

    known = set(HIPOptions.__dataclass_fields__) - {"arch", "backend_name", "extern_libs"}
    bad = sorted(set(options) - known)
    if bad:
        raise ArgumentValueError(f"unknown Triton option(s) {', '.join(bad)}; the AMD backend "
                                 f"takes: {', '.join(sorted(known))}")
    return options


def build(fn: Any, spec: Spec, archs: tuple[str, ...], options: dict[str, Any]) -> TritonModule:
    """Compile ``fn`` for ``spec`` on each arch (memoised by Triton's hash of the function,
    the specialization, archs and options) and load the code objects as one module."""
    key = (fn.cache_key, spec.key, archs, tuple(sorted((k, repr(v)) for k, v in
                                                      options.items())))
    hit = _MODULES.get(key)
    if hit is not None:
        return hit
    triton = require()
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    t0 = time.perf_counter()
    hsacos, stages, metas = [], {}, {}
    for arch in archs:
        src = ASTSource(fn, *spec.source_args(HIPBackend))
        with warnings.catch_warnings():
            # Triton 3.9 warns once that its FP-fusion default will change; the default applies
            # (enable_fp_fusion= chooses), the warning would only repeat in every notebook.
            warnings.filterwarnings("ignore", message="TRITON_DEFAULT_FP_FUSION")
            native: list[str] = []
            printed = io.StringIO()
            try:
                with _native_stderr(native), contextlib.redirect_stdout(printed):
                    k = triton.compile(src, target=GPUTarget("hip", arch, wave_size(arch)),
                                       options=dict(options))
            except Exception as e:  # Triton raises CompilationError, and RuntimeError from MLIR
                err = compile_error(fn, e, arch, "".join(native))
                # a failed verification also prints the whole module: kept, not shown
                err.output = printed.getvalue() + "".join(native)
                raise err from None
            sys.stdout.write(printed.getvalue())  # what it printed on the way, as it was
            sys.stderr.write("".join(native))
        hsacos.append(k.asm["hsaco"])
        stages[arch] = IRStages(arch, {s: v for s, v in k.asm.items()
                                       if isinstance(v, str) and s != "source"})
        metas[arch] = dict(k.metadata._asdict())
    seconds = time.perf_counter() - t0
    loaded = load(hsacos, name=fn.__name__)
    text, filename = source_of(fn)
    objects = {a: replace(co, kernels={n: _named(info, spec, fn.__name__)
                                       for n, info in co.kernels.items()},
                          compile_seconds=seconds / len(archs))
               for a, co in loaded.objects.items()}
    module = TritonModule(source=text, archs=tuple(objects), objects=objects, filename=filename,
                          kernel_name=fn.__name__, spec=spec, stages=stages, metadata=metas,
                          triton_options=dict(options))
    if len(_MODULES) >= _MAX_MODULES:
        _MODULES.clear()
    _MODULES[key] = module
    return module


def _named(info: Any, spec: Spec, name: str) -> Any:
    """The loaded kernel's arguments named and typed by the specialization."""
    args = spec.args()
    if len(info.args) != len(args) + len(HIDDEN):
        raise TritonCompileError(
            f"{name}: the code object has {len(info.args)} arguments but the signature "
            f"({spec.text()}) gives {len(args)} plus Triton's {len(HIDDEN)} hidden pointers; "
            f"this Triton version lays out its kernel arguments differently from the "
            f"{HIDDEN} hipwb knows")
    out = []
    for a, (n, t) in zip(info.args, [*args, *((h, "*i8") for h in HIDDEN)]):
        c = C_TYPES[t.lstrip("*")]
        if n in HIDDEN:
            c = "void"
        ctype, pointee = (f"{c} *", c) if t.startswith("*") else (c, None)
        out.append(KernelArg(n, ctype, a.offset, a.size, a.kind, pointee, a.is_const))
    return replace(info, args=tuple(out))


@contextlib.contextmanager
def _native_stderr(into: list[str]):
    """What native code writes to file descriptor 2 meanwhile, appended to ``into``: MLIR
    prints a verifier's diagnostic there ("<file>:<line>:<col>: error: ..."), while Triton
    raises only "RuntimeError: error encountered during parsing"."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            into.append(tmp.read().decode(errors="replace"))


_DIAGNOSTIC = re.compile(r"^(.+?):(\d+):\d+: error: (.*)$", re.M)


def compile_error(fn: Any, e: Exception, arch: str, native: str = "") -> TritonCompileError:
    """A Triton failure as a TritonCompileError naming the file line and the arch (for MLIR's
    failures, from the diagnostic it printed to ``native``)."""
    from triton.compiler.errors import CompilationError

    text, filename = source_of(fn)
    diag = next((m for m in _DIAGNOSTIC.finditer(native)
                 if m[1] == fn.fn.__code__.co_filename), None) or _DIAGNOSTIC.search(native)
    if diag is not None and not isinstance(e, CompilationError):
        own = diag[1] == fn.fn.__code__.co_filename
        line = int(diag[2]) if own else None
        lines = text.splitlines()
        name = "cell" if filename == CELL_FILE else filename
        where = f"{name} line {line}" if line else name
        snippet = f"\n    {lines[line - 1].strip()}" if line and 0 < line <= len(lines) else ""
        at = "" if own else f" (at {diag[1].rsplit('/', 1)[-1]}:{diag[2]})"
        return TritonCompileError(f"{where}: Triton cannot compile {fn.__name__} for {arch}: "
                                  f"{diag[3].strip()}{at}{snippet}", line, arch)
    if isinstance(e, CompilationError):
        line = _file_line(e, text, fn)
        msg = (getattr(e, "error_message", None) or str(e)).strip()
        name = "cell" if filename == CELL_FILE else filename
        where = f"{name} line {line}" if line else name
        snippet = ""
        lines = text.splitlines()
        if line and 0 < line <= len(lines):
            snippet = f"\n    {lines[line - 1].strip()}"
        return TritonCompileError(f"{where}: Triton cannot compile {fn.__name__} for {arch}: "
                                  f"{msg}{snippet}", line, arch)
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    name = "the cell" if filename == CELL_FILE else filename
    return TritonCompileError(f"{name}: Triton's AMD backend failed on {fn.__name__} for "
                              f"{arch}: {type(e).__name__}: {first}", None, arch)


def _file_line(e: Any, text: str, fn: Any) -> int | None:
    """The file line of a CompilationError: its AST node's line counts from the ``def`` line
    of the function whose source it carries (the kernel's, or a @triton.jit helper's)."""
    node = getattr(e, "node", None)
    rel = getattr(node, "lineno", None)
    if rel is None:
        return None
    src = getattr(e, "src", None) or ""
    head = src.lstrip("\n").splitlines()[0].strip() if src.strip() else ""
    start = getattr(fn, "def_file_line_number", None)
    if head and not (fn.src or "").lstrip().startswith(head):
        hits = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.strip() == head]
        start = hits[0] if hits else None
    return None if start is None else start + rel - 1
