"""``hipwb corpus DIR``: compile every HIP file of a checkout (and, with ``run``, smoke-run its
kernels on the emulator) and tabulate what works.

Why: it is how a user checks their own codebase against hipwb, and how we measure public
repositories without committing their files (docs/architecture.md, "No third-party code in
the repository"). Flags per file come from the command line and, where the checkout has one,
from its ``compile_commands.json`` (the entry for that file: its ``-I``/``-isystem``/``-D``/
``-U``/``-std=``/``-f``/``-W``/``-w``/``-include`` flags; flags that pick targets, outputs or
host-only steps are dropped, as hipwb picks the target itself).

The smoke run (``run=True``) launches each kernel once, on one workgroup of its required size
(else 64 threads), with every pointer argument a zero-filled buffer of ``SMOKE_BUFFER`` bytes,
integer scalars ``SMOKE_INT``, float scalars 1.0 and, for a kernel with an ``extern __shared__``
array, the most dynamic LDS the target allows a workgroup: it tells whether the emulator executes
the kernel (``ran``), finds a fault in it with these made-up arguments (``fault``), or lacks
something (``unsupported``: an instruction, an argument kind). It does not say the results
are right: that needs the kernel's real inputs and a reference.
"""
from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ArgumentValueError

HIP_SUFFIXES = (".hip", ".cpp", ".cu", ".cc", ".cxx")  # .cpp/.cu/.cc/.cxx only with a kernel
SKIP_DIRS = {".git", "build", "node_modules", "__pycache__", ".venv", "venv"}
SMOKE_BUFFER = 1 << 20  # bytes behind each pointer argument in a smoke run
SMOKE_INT = 64
SMOKE_TIMEOUT = 20.0  # emulation seconds per kernel in a smoke run


@dataclass
class KernelRun:
    """One kernel's smoke run: ``status`` is "ran", "fault", "unsupported" or "timeout"."""

    name: str
    status: str
    detail: str = ""


@dataclass
class FileResult:
    """One file: compiled or not (``error``: the first line of the compile error), kernels."""

    path: str
    archs: tuple[str, ...]
    kernels: tuple[str, ...] = ()
    error: str | None = None
    seconds: float = 0.0
    runs: list[KernelRun] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class CorpusReport:
    """Every file of a corpus run, in path order."""

    root: str
    files: list[FileResult]

    @property
    def compiled(self) -> int:
        return sum(f.ok for f in self.files)

    def counts(self) -> dict[str, int]:
        """Files compiled / failed; kernels found; smoke runs by status."""
        out = {"files": len(self.files), "compiled": self.compiled,
               "failed": len(self.files) - self.compiled,
               "kernels": sum(len(f.kernels) for f in self.files)}
        for f in self.files:
            for r in f.runs:
                out[r.status] = out.get(r.status, 0) + 1
        return out

    def text(self) -> str:
        from .text_table import text_table

        rows = []
        for f in self.files:
            runs = ", ".join(f"{r.status} {sum(x.status == r.status for x in f.runs)}"
                             for r in {r.status: r for r in f.runs}.values())
            rows.append([f.path, "ok" if f.ok else "error", str(len(f.kernels)),
                         runs or "-", (f.error or ", ".join(f.kernels))[:90]])
        c = self.counts()
        head = (f"hipwb corpus {self.root}: {c['compiled']} of {c['files']} files compile "
                f"({c['kernels']} kernels)")
        runs = [f"{k} {c[k]}" for k in ("ran", "fault", "unsupported", "timeout") if k in c]
        if runs:
            head += "; smoke runs: " + ", ".join(runs)
        return "\n".join([head, text_table(["file", "compile", "kernels", "smoke run",
                                            "kernels / first error"], rows)])

    def json(self) -> dict[str, Any]:
        return {"root": self.root, "counts": self.counts(),
                "files": [{"path": f.path, "ok": f.ok, "error": f.error,
                           "kernels": list(f.kernels), "seconds": round(f.seconds, 3),
                           "runs": [r.__dict__ for r in f.runs]} for f in self.files]}


# a .cpp/.cu/.cc/.cxx file is HIP when it defines or launches a kernel; libraries may spell
# __global__ through a macro (rocWMMA's samples: `ROCWMMA_KERNEL void __launch_bounds__(256) k`)
_KERNEL_FILE = re.compile(r"__global__|__launch_bounds__|<<<|\bhip(?:Ext)?LaunchKernel(?:GGL)?\b")


def find_sources(root: Path) -> list[Path]:
    """HIP files under ``root``: every ``.hip``, and ``.cpp``/``.cu``/``.cc``/``.cxx`` files
    that define a kernel (``__global__``, ``__launch_bounds__``) or launch one (``<<<``,
    ``hipLaunchKernelGGL``, ``hipExtLaunchKernelGGL``), skipping build and VCS folders."""
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            p = Path(dirpath) / name
            if p.suffix == ".hip":
                out.append(p)
            elif p.suffix in HIP_SUFFIXES:
                try:
                    if _KERNEL_FILE.search(p.read_text(errors="replace")):
                        out.append(p)
                except OSError:
                    continue
    return out


@dataclass
class Flags:
    """What hipwb takes from a compile command: include folders, defines, clang options."""

    include_dirs: list[str] = field(default_factory=list)
    defines: dict[str, str | None] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)


# Options with a separate value that select targets, outputs or host-only steps: dropped.
_DROP_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ", "-x", "--offload-arch", "-target", "--target",
                    "-arch", "-Xlinker", "-L", "-l", "--rocm-path", "--hip-path"}
_DROP_PREFIX = ("--offload-arch=", "--cuda-gpu-arch=", "-o", "-M", "-L", "-l", "--rocm-path=",
                "--hip-path=", "--hip-device-lib", "-fgpu-rdc", "-fno-gpu-rdc", "-march=",
                "-mtune=", "-fopenmp", "-fPIC", "-fpic", "--hip-link", "-shared")


def parse_command(args: Sequence[str], directory: Path) -> Flags:
    """The flags of one compile command that matter for the device compile, relative paths
    made absolute against the command's ``directory``."""
    f = Flags()
    it = iter(list(args)[1:])  # args[0] is the compiler
    for a in it:
        if a in ("-I", "-isystem", "-iquote"):
            f.include_dirs.append(str((directory / next(it, "")).resolve()))
        elif a.startswith(("-I", "-isystem")) and a not in ("-I", "-isystem"):
            d = a[2:] if a.startswith("-I") else a[len("-isystem"):]
            f.include_dirs.append(str((directory / d).resolve()))
        elif a == "-D":
            name, eq, value = next(it, "").partition("=")
            f.defines[name] = value if eq else None
        elif a.startswith("-D"):
            name, eq, value = a[2:].partition("=")
            f.defines[name] = value if eq else None
        elif a == "-U":
            f.defines.pop(next(it, ""), None)
        elif a.startswith("-U"):
            f.defines.pop(a[2:], None)
        elif a == "-include":
            f.options += ["-include", str((directory / next(it, "")).resolve())]
        elif a in _DROP_WITH_VALUE:
            next(it, None)
        elif a.startswith(_DROP_PREFIX) or a in ("-c", "-S", "-E") or not a.startswith("-"):
            continue
        elif a.startswith(("-std=", "-f", "-W", "-w", "-O", "-g", "-m")):
            if a.startswith("-O"):
                continue  # hipwb's opt_level decides (its default is -O3, as hipcc's)
            f.options.append(a)
    return f


def load_compile_commands(path: Path) -> dict[Path, Flags]:
    """``compile_commands.json`` -> flags per source file (absolute paths)."""
    try:
        entries = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ArgumentValueError(f"--compile-commands {path}: cannot read it ({e})") from None
    if not isinstance(entries, list):
        raise ArgumentValueError(f"--compile-commands {path}: expected a JSON list of commands")
    out: dict[Path, Flags] = {}
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or "file" not in e:
            raise ArgumentValueError(f"--compile-commands {path}: entry {i} has no 'file'")
        directory = Path(e.get("directory") or path.parent)
        args = e.get("arguments") or shlex.split(e.get("command", ""))
        out[(directory / e["file"]).resolve()] = parse_command(args, directory)
    return out


def run_corpus(root: str | os.PathLike, archs: Sequence[str] = ("gfx942",), *,
               include_dirs: Sequence[str] = (), defines: dict[str, str | None] | None = None,
               options: Sequence[str] = (), compile_commands: str | os.PathLike | None = None,
               run: bool = False, jobs: int | None = None,
               progress: Callable[[FileResult], None] | None = None) -> CorpusReport:
    """Compile every HIP file under ``root`` for ``archs``; with ``run``, smoke-run each
    kernel on the emulator of the first arch. ``progress`` is called after each file."""
    from .compiler import CompileError, compile

    base = Path(root).resolve()
    if not base.is_dir():
        raise ArgumentValueError(f"hipwb corpus: {root} is not a folder")
    per_file = load_compile_commands(Path(compile_commands)) if compile_commands else {}
    sources = find_sources(base)
    if per_file:  # the database may name files find_sources skipped (a .cpp without the word)
        sources = sorted(set(sources) | {p for p in per_file if p.is_file()
                                         and base in p.parents})

    def one(path: Path) -> FileResult:
        import time

        flags = per_file.get(path.resolve(), Flags())
        rel = str(path.relative_to(base))
        res = FileResult(rel, tuple(archs))
        t0 = time.perf_counter()
        try:
            source = path.read_text(errors="replace")
            module = compile(source, list(archs), [*options, *flags.options],
                             defines={**flags.defines, **(defines or {})},
                             include_dirs=[*include_dirs, *flags.include_dirs,
                                           str(path.parent)],
                             filename=path.name)
        except CompileError as e:
            res.error = str(e).strip().splitlines()[0] if str(e).strip() else "compile error"
        except (OSError, ValueError) as e:
            res.error = f"{type(e).__name__}: {e}"
        else:
            res.kernels = tuple(module.kernel_names())
            if run:
                res.runs = [smoke_run(module, k, archs[0]) for k in res.kernels]
        res.seconds = time.perf_counter() - t0
        if progress is not None:
            progress(res)
        return res

    with ThreadPoolExecutor(max(1, jobs or min(4, os.cpu_count() or 1))) as pool:
        files = list(pool.map(one, sources))
    return CorpusReport(str(root), files)


def smoke_run(module: Any, name: str, arch: str) -> KernelRun:
    """One launch of one workgroup on the emulator with made-up arguments (module docstring)."""
    import numpy as np

    from .arch import get as get_arch
    from .emu import EmulatorError, KernelFault, TimeLimitExceeded
    from .emu.engine.launch import EMULATED_ARCHS
    from .runtime.args import element_dtype, vector_type

    if arch not in EMULATED_ARCHS:
        return KernelRun(name, "unsupported", f"no emulator for {arch}")
    try:
        info = module[arch].kernel(name)
    except KeyError as e:
        return KernelRun(name, "unsupported", str(e))
    args = []
    for a in info.args:
        kind = a.kind
        ctype = a.ctype_canonical.replace("const", "").strip()
        if kind == "dynamic_shared_pointer":
            return KernelRun(name, "unsupported", "dynamic LDS (extern __shared__)")
        if kind == "global_buffer" or ctype.endswith("*"):
            dt = np.dtype(element_dtype(a.pointee or "") or np.uint8)
            args.append(np.zeros(SMOKE_BUFFER // dt.itemsize, dt))
        elif kind == "by_value" and vector_type(ctype) is None and element_dtype(ctype):
            dt = np.dtype(element_dtype(ctype))  # the launch's own C-type table
            args.append(dt.type(1.0 if dt.kind == "f" else SMOKE_INT))
        else:
            return KernelRun(name, "unsupported", f"argument {a.name or '?'} ({ctype or kind})"
                             " has no smoke-run value")
    block = info.reqd_workgroup_size or (min(64, info.resources.max_flat_workgroup_size), 1, 1)
    # extern __shared__: the most the target gives a workgroup (any size the host picks fits)
    dynamic = (get_arch(arch).lds_bytes_per_workgroup - info.resources.lds_bytes
               if info.dynamic_shared else 0)
    try:
        module[name].on(f"emulator:{arch}").launch(1, block, *args, dynamic_lds=dynamic,
                                                   timeout=SMOKE_TIMEOUT)
    except TimeLimitExceeded as e:
        return KernelRun(name, "timeout", str(e).splitlines()[0])
    except KernelFault as e:
        return KernelRun(name, "fault", str(e).splitlines()[0])
    except (EmulatorError, ValueError, TypeError) as e:
        return KernelRun(name, "unsupported", str(e).splitlines()[0])
    except Exception as e:  # a LaunchError and the like: the kernel did not run
        return KernelRun(name, "unsupported", f"{type(e).__name__}: {str(e).splitlines()[0]}")
    return KernelRun(name, "ran")
