"""IPython magics: ``%%hipkernel`` compiles a cell, ``%%hipfile`` saves a header, ``%%triton``
runs a cell of Triton kernels (``workbench.triton_front.cell``), ``%hipwb``.

``%load_ext workbench`` registers them. ``%%hipkernel`` binds every kernel of the cell as a
``workbench.runtime.Kernel`` under its Python name and shows a :class:`CompileReport`. It never
replaces the user's data: a name that holds a Kernel is rebound (the cell ran again); a name
that holds anything else (a variable, a module, a builtin such as ``sum``) or is a Python
keyword is kept, and the kernel is bound as ``<name>_kernel`` (``<name>_kernel2``, ... while
those are taken too), with one printed line saying so (``bind_kernels``). A
compile error fails the cell with clang's diagnostic at the *cell* line (the ``%%hipkernel``
line is line 1, as JupyterLab numbers it), and leaves earlier kernels in the namespace alone.
"""

from __future__ import annotations

import argparse
import atexit
import keyword
import os
import re
import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.display import display

from . import compile_options, compiler, kernel_binding
from .compiler import CompileError
from .toolchain import ToolchainError

FALLBACK_ARCH = "gfx942"
SHOW_CHOICES = ("summary", "isa", "none")


class _Concise:
    """Mixin: IPython shows ``Name: message`` only, not a Python traceback into hipwb."""

    def _render_traceback_(self) -> list[str]:
        lines = str(self).splitlines() or [""]
        red, reset = "\x1b[0;31m", "\x1b[0m"
        return [f"{red}{type(self).__name__}{reset}: {lines[0]}", *lines[1:]]


class CellCompileError(_Concise, CompileError):
    """clang rejected a %%hipkernel cell; the message cites cell lines."""


class CellToolchainError(_Concise, ToolchainError):
    """No usable LLVM toolchain; the message says how to install one."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (naming the bad option) instead of exiting."""

    def error(self, message: str):
        m = re.search(r"unrecognized arguments: (.*)", message)
        if m:
            message = f"unknown option {m.group(1)}"
        raise UsageError(f"%%{self.prog}: {message}\n{self.format_usage().strip()}")

    def exit(self, status: int = 0, message: str | None = None):
        raise UsageError(message or self.format_usage())


def _hipkernel_parser() -> _Parser:
    p = _Parser(prog="hipkernel", add_help=False,
                usage="%%%%hipkernel [--arch A[,B]] [-O N] [-D X=Y]... [-I dir]... "
                      "[--show summary|isa|none] [--wave64] [--block N] "
                      "[--time CHIP --launch EXPR] [--sweep SETUP [--out NAME]]")
    p.add_argument("--arch", help="comma-separated gfx targets")
    p.add_argument("-O", dest="opt", default="3", choices=["0", "1", "2", "3", "s", "z"])
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="X=Y")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR")
    p.add_argument("--show", default="summary", choices=SHOW_CHOICES)
    p.add_argument("--wave64", action="store_true", help="compile RDNA targets for wave64")
    p.add_argument("--block", type=compile_options.block_size,
                   help="block size for the occupancy summary")
    p.add_argument("--time", metavar="CHIP", help="print the modelled timing of --launch on "
                   "CHIP (mi300x, mi325x, mi355x)")
    p.add_argument("--launch", metavar="EXPR", help="with --time: kernel[grid, block](args...)")
    p.add_argument("--sweep", metavar="SETUP", help="sweep the cell: SETUP names a dict of "
                   "wb.sweep arguments (space, launch, inputs, ...) in the notebook")
    p.add_argument("--out", metavar="NAME", help="with --sweep: the variable that receives the "
                   "SweepResult (default sweep_result)")
    return p


_LAUNCH = re.compile(r"^\s*([A-Za-z_]\w*)\s*\[(.+)\]\s*\((.*)\)\s*$", re.S)


def _timing_request(args: argparse.Namespace):
    """(Chip, kernel name, config text, call text) of ``--time CHIP --launch EXPR``, or None."""
    if args.time is None:
        if args.launch is not None:
            raise UsageError("%%hipkernel: --launch goes with --time CHIP (e.g. --time mi355x)")
        return None
    from .timing import get_chip

    try:
        chip = get_chip(args.time)
    except ValueError as e:
        raise UsageError(f"%%hipkernel --time: {e}") from None
    if not args.launch:
        raise UsageError("%%hipkernel --time needs --launch 'kernel[grid, block](args...)'")
    m = _LAUNCH.match(args.launch)
    if not m:
        raise UsageError(f"%%hipkernel --launch {args.launch!r}: write it as "
                         "'kernel[grid, block](args...)'")
    return chip, m.group(1), m.group(2), m.group(3).strip()


def parse_defines(items: list[str]) -> dict[str, str | None]:
    """``["N=4", "FAST"]`` -> ``{"N": "4", "FAST": None}``, rejecting bad macro names."""
    try:
        return compile_options.parse_defines(items)
    except ValueError as e:
        raise UsageError(str(e)) from None


def parse_archs(text: str) -> tuple[str, ...]:
    """``"gfx942,gfx1100"`` -> validated arch names (UsageError naming an unknown one)."""
    try:
        return compile_options.parse_archs(text)
    except ValueError as e:
        raise UsageError(str(e)) from None


def bind_kernels(ns: dict, module: Any) -> dict[str, str]:
    """Bind each kernel of ``module`` in the user namespace ``ns`` (``workbench.kernel_binding``'s
    rule: a name holding a Kernel is rebound, any other taken name is kept and the kernel goes to
    ``<name>_kernel``); kernel name -> bound name."""
    from .runtime.kernel import Kernel

    kernels = {name: module.get_function(name) for name in module.kernels}  # module[name]
    return kernel_binding.bind_kernels(ns, kernels, (Kernel,), "%%hipkernel")


_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)


@magics_class
class HipMagics(Magics):
    """``%%hipkernel``, ``%%hipfile``, ``%%triton`` and ``%hipwb`` with per-session defaults."""

    def __init__(self, shell: Any):
        super().__init__(shell)
        self.archs: tuple[str, ...] | None = None  # set by %hipwb arch
        self._header_dir: Path | None = None
        self.last_module: compiler.Module | None = None

    # -- defaults ------------------------------------------------------------------------------
    def default_archs(self) -> tuple[str, ...]:
        """The session's arch (%hipwb arch), else the ROCm GPU's, else gfx942."""
        if self.archs:
            return self.archs
        from .doctor import rocm_gpu_arch

        gpu = rocm_gpu_arch()
        return (gpu,) if gpu else (FALLBACK_ARCH,)

    @property
    def header_dir(self) -> Path:
        """This session's folder of %%hipfile headers (created on first use)."""
        if self._header_dir is None:
            self._header_dir = Path(tempfile.mkdtemp(prefix="hipwb-headers-"))
            atexit.register(shutil.rmtree, self._header_dir, True)
        return self._header_dir

    def _session_includes(self, source: str) -> list[Path]:
        """The header folder, when the cell includes one of its headers.

        Only then: the folder's path is per session, and it becomes part of the cache key.
        """
        if self._header_dir is None:
            return []
        for name in _INCLUDE_RE.findall(source):
            if (self._header_dir / name).is_file():
                return [self._header_dir]
        return []

    def _first_line(self, body: str, magic: str = "%%hipkernel") -> int:
        """Cell line of the body's first line: 2, or more when blank lines precede the magic
        (IPython drops them before it sees %%hipkernel; JupyterLab still counts them)."""
        hist = getattr(self.shell, "history_manager", None)
        raw = hist.input_hist_raw[-1] if hist is not None and hist.input_hist_raw else ""
        lines = raw.splitlines()
        for i, line in enumerate(lines):
            if line.lstrip().startswith(magic):
                rest = "\n".join(lines[i + 1:])
                if rest.strip() == body.strip():
                    return i + 2
                break
        return 2

    # -- %%hipkernel ---------------------------------------------------------------------------
    @cell_magic
    def hipkernel(self, line: str, cell: str) -> None:
        """Compile the cell's HIP code; bind its kernels; show resources, occupancy and ISA.

        %%hipkernel [--arch A[,B]] [-O N] [-D X=Y]... [-I dir]... [--show summary|isa|none]
                    [--wave64] [--block N] [--time CHIP --launch 'k[grid, block](args)']
                    [--sweep SETUP [--out NAME]]

        ``--time mi355x --launch 'k[grid, block](a, b)'`` prints the modelled timing of that
        launch on the chip (``k.timing[grid, block](a, b, chip="mi355x").summary()``), compiling
        for the chip's arch too. ``--sweep SETUP`` sweeps the cell instead (``wb.sweep``, the
        rest of its arguments from the dict SETUP); the result goes to ``--out`` NAME.
        """
        try:
            args = _hipkernel_parser().parse_args(shlex.split(line))
        except ValueError as e:  # shlex: unbalanced quotes
            raise UsageError(f"%%hipkernel: cannot parse options {line!r}: {e}") from None
        archs = parse_archs(args.arch) if args.arch is not None else self.default_archs()
        if args.sweep is not None or args.out is not None:
            return self._sweep_cell(args, archs, line, cell)
        timed = _timing_request(args)
        if timed is not None and timed[0].arch not in archs:
            archs = [*archs, timed[0].arch] if args.arch is not None else [timed[0].arch]
        defines = parse_defines(args.defines)
        options = ["-mwavefrontsize64"] if args.wave64 else []
        first_line = self._first_line(cell)
        includes = [*args.includes, *self._session_includes(cell)]
        t0 = time.perf_counter()
        try:
            module = compiler.compile(
                cell, archs, options, defines=defines, include_dirs=includes,
                opt_level=args.opt, filename="cell", first_line=first_line)
        except CompileError as e:
            err = CellCompileError(str(e), e.diagnostics, e.arch)
            raise err from None
        except ToolchainError as e:
            raise CellToolchainError(str(e)) from None
        seconds = time.perf_counter() - t0
        self.last_module = module
        bound = bind_kernels(self.shell.user_ns, module)
        if args.show != "none":
            from .widgets.compile_report import CompileReport

            source = "\n" * (first_line - 2) + "%%hipkernel " + line + "\n" + cell
            display(CompileReport(module, source=source, seconds=seconds, block=args.block,
                                  show_isa=args.show == "isa"))
        if timed is not None:
            chip, name, config, call = timed
            if name not in module.kernels:
                raise UsageError(f"%%hipkernel --launch: no kernel {name!r} in this cell "
                                 f"(kernels: {', '.join(module.kernels)})")
            report = self.shell.ev(f"{bound[name]}.timing[{config}]({call}{', ' if call else ''}"
                                   f"chip={chip.name!r})")
            print(report.summary())

    def _sweep_cell(self, args: argparse.Namespace, archs: Any, line: str, cell: str) -> None:
        """``%%hipkernel --sweep SETUP [--out NAME]``: ``wb.sweep`` of the cell's source over
        the targets of ``--arch`` with its -D/-I, the rest of the arguments from the dict
        SETUP; the SweepResult goes to NAME (default ``sweep_result``) and shows its view."""

        if args.sweep is None:
            raise UsageError("%%hipkernel: --out goes with --sweep SETUP")
        if args.time is not None or args.launch is not None:
            raise UsageError("%%hipkernel: --sweep times every variant itself; drop --time")
        if args.opt != "3":
            raise UsageError("%%hipkernel --sweep compiles every variant at -O3; drop -O")
        out = args.out or "sweep_result"
        if not out.isidentifier() or keyword.iskeyword(out):
            raise UsageError(f"%%hipkernel --out {out!r}: not a Python variable name")
        if args.sweep not in self.shell.user_ns:
            raise UsageError(f"%%hipkernel --sweep {args.sweep}: no such variable; define a "
                             f"dict of wb.sweep arguments, e.g. {args.sweep} = dict(space=..., "
                             f"launch=..., inputs=..., reference=..., check_shape=..., "
                             f"shapes=...)")
        setup = self.shell.user_ns[args.sweep]
        if not isinstance(setup, dict) or "space" not in setup:
            raise UsageError(f"%%hipkernel --sweep {args.sweep}: a dict of wb.sweep arguments "
                             f"with at least 'space' (and launch=, inputs=, ...), got "
                             f"{type(setup).__name__}")
        taken = sorted({"targets", "defines", "include_dirs", "options", "filename"} & set(setup))
        if taken:
            raise UsageError(f"%%hipkernel --sweep {args.sweep}: {', '.join(taken)} come from "
                             f"the cell's options (--arch, -D, -I, --wave64); drop them from "
                             f"the dict")
        from .sweeps import sweep

        kw = dict(setup)
        space = kw.pop("space")
        result = sweep(cell, space, targets=list(archs), defines=parse_defines(args.defines),
                       include_dirs=[*args.includes, *self._session_includes(cell)],
                       options=["-mwavefrontsize64"] if args.wave64 else [],
                       filename="cell", **kw)
        self.shell.user_ns[out] = result
        if args.show != "none":
            display(result.view())

    # -- %%triton ------------------------------------------------------------------------------
    @cell_magic
    def triton(self, line: str, cell: str) -> None:
        """Run a cell of @triton.jit functions; bind each as a launchable Triton kernel.

        %%triton [--arch A[,B]] [--num-warps N] [--num-stages N]
                 [--signature 'kernel(*fp32, *fp32, i32, BLOCK=1024)']... [--option K=V]...

        Each kernel launches as in Triton (``kernel[grid](x, y, out, n, BLOCK=1024)``) on the
        default device, compiled by Triton's AMD backend at its first launch per signature,
        or now for those ``--signature`` names (docs/triton.md). Needs the optional package:
        ``pip install 'hip-workbench[triton]'``.
        """
        from .triton_front import cell as triton_cell

        try:
            args = triton_cell.parser(_Parser).parse_args(shlex.split(line))
        except ValueError as e:  # shlex: unbalanced quotes
            raise UsageError(f"%%triton: cannot parse options {line!r}: {e}") from None
        t0 = time.perf_counter()
        archs = self.archs or (FALLBACK_ARCH,)
        kernels = triton_cell.run_cell(self.shell.user_ns, args, cell,
                                       self._first_line(cell, "%%triton"), archs)
        print(triton_cell.summary(kernels, time.perf_counter() - t0))

    # -- %%hipfile -----------------------------------------------------------------------------
    @cell_magic
    def hipfile(self, line: str, cell: str) -> None:
        """Save the cell as a header that later %%hipkernel cells can ``#include``.

        %%hipfile name.h
        """
        parts = shlex.split(line)
        if len(parts) != 1:
            raise UsageError("%%hipfile takes one file name, e.g. %%hipfile tile.h")
        name = parts[0]
        bad = next((c for c in name if ord(c) < 32 or ord(c) == 127), None)
        if bad is not None or not name.strip(". /"):
            what = f"the control character {bad!r}" if bad is not None else "no file name"
            raise UsageError(f"%%hipfile {name!r}: a header name with {what}; use a name such "
                             f"as tile.h")
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts or name.endswith("/"):
            raise UsageError(f"%%hipfile {name}: use a relative name without '..', e.g. tile.h")
        path = self.header_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = cell if cell.endswith("\n") else cell + "\n"
        changed = not path.exists() or path.read_text() != text
        if changed:  # an unchanged header keeps its mtime: cells that include it stay cached
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text)
            os.replace(tmp, path)
        n = len(text.splitlines())
        state = "saved" if changed else "unchanged"
        print(f'{state} {name} ({n} lines): #include "{name}" in %%hipkernel cells')

    # -- %hipwb --------------------------------------------------------------------------------
    _HIPWB_USAGE = ("usage: %hipwb arch [A[,B]|auto] | device [emulator|rocm[:N]|cuda[:N]|auto]"
                    " | doctor | cache [clear] | traceback [on|off]")

    @line_magic
    def hipwb(self, line: str) -> Any:
        """Session settings and tools: arch, device, doctor, cache.

        %hipwb arch [A[,B]|auto]       show or set the default arch of %%hipkernel
        %hipwb device [emulator|rocm|cuda|auto]   show or set the launch device
        %hipwb doctor                  what hipwb found on this machine
        %hipwb cache [clear]           where compiled code objects live / forget them
        %hipwb traceback [on|off]      show hipwb's own frames in its errors' tracebacks
        """
        try:
            words = shlex.split(line)
        except ValueError as e:
            raise UsageError(f"%hipwb: cannot parse {line!r}: {e}") from None
        if not words:
            raise UsageError(self._HIPWB_USAGE)
        cmd, rest = words[0], words[1:]
        if cmd == "arch":
            return self._arch(rest)
        if cmd == "device":
            return self._device(rest)
        if cmd == "doctor" and not rest:
            from .doctor import doctor

            display(doctor())
            return None
        if cmd == "cache":
            return self._cache(rest)
        if cmd == "traceback":
            return self._traceback(rest)
        what = f"unknown option {cmd!r}" if cmd != "doctor" else f"doctor takes no {rest[0]!r}"
        raise UsageError(f"%hipwb: {what}\n{self._HIPWB_USAGE}")

    def _arch(self, rest: list[str]) -> None:
        if len(rest) > 1:
            raise UsageError("%hipwb arch takes one value, e.g. %hipwb arch gfx942,gfx1100")
        if rest and rest[0] == "auto":
            self.archs = None
        elif rest:
            self.archs = parse_archs(rest[0])
        how = "set by %hipwb arch" if self.archs else "detected (auto)"
        print(f"default arch: {','.join(self.default_archs())} ({how})")

    def _device(self, rest: list[str]) -> None:
        from .runtime.devices import get_device, set_device
        from .runtime.errors import LaunchError

        if len(rest) > 1:
            raise UsageError("%hipwb device takes one value: emulator, rocm[:N], cuda[:N] or auto")
        try:
            if rest:
                dev = set_device(None if rest[0] == "auto" else rest[0])
            else:
                dev = get_device()
        except LaunchError as e:
            raise UsageError(f"%hipwb device: {e}") from None
        except ImportError as e:
            raise UsageError(f"%hipwb device: this device is not available here ({e})") from None
        print(f"device: {dev.name}")

    def _traceback(self, rest: list[str]) -> None:
        from .errors import show_tracebacks

        if rest not in ([], ["on"], ["off"]):
            raise UsageError("%hipwb traceback takes on or off")
        on = show_tracebacks(rest == ["on"] if rest else None)
        print(f"hipwb errors show {'every frame' if on else 'your frames only'} "
              f"(%hipwb traceback {'off' if on else 'on'} to change)")

    def _cache(self, rest: list[str]) -> None:
        if rest == ["clear"]:
            compiler.clear_cache()
            print("compile cache cleared")
            return
        if rest:
            raise UsageError(f"%hipwb cache: unknown option {rest[0]!r}; use %hipwb cache clear")
        root = compiler.cache_dir()
        n = sum(1 for _ in root.glob("??/*/entry.json")) if root.is_dir() else 0
        print(f"compile cache: {root} ({n} code objects)")


def load_ipython_extension(ipython: Any) -> None:
    """Register the magics (``%load_ext workbench``): %%hipkernel, %%hipfile, %%triton, %hipwb."""
    ipython.register_magics(HipMagics)
