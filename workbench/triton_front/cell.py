"""The work of the ``%%triton`` cell magic (registered in ``workbench.magics``).

The cell is Python that defines @triton.jit functions. It is written to a file of its own
(``<session folder>/<hash of the cell>/triton_cell.py``, padded with blank lines so that file
lines are cell lines: Triton's line tables, Python's errors and the ISA view then all count as
JupyterLab does, the ``%%triton`` line being line 1) and run in a namespace that starts as a
copy of the notebook's. Each @triton.jit function of the cell becomes a TritonKernel (what
``wb.triton`` gives) bound under its name by ``%%hipkernel``'s rules (a name holding a kernel
is rebound, one holding anything else is kept and the kernel goes to ``<name>_kernel``); the
cell's other names (imports, constants) are copied back to the notebook. Kernels compile at
their first launch, or now for those ``--signature`` names. A syntax error, a failing
statement or a Triton compile error names the cell line; the notebook keeps running.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import kernel_binding
from ..arch import parse_list
from ..errors import HipwbError
from . import specialize, tuning
from .availability import TritonNotInstalled, require
from .build import CELL_FILE, TritonCompileError
from .kernel import TritonKernel

_DIR: list[Path] = []


class CellError(HipwbError, RuntimeError):
    """A ``%%triton`` cell failed; the message names the cell line."""

    def _render_traceback_(self) -> list[str]:
        lines = str(self).splitlines() or [""]
        return [f"\x1b[0;31m{type(self).__name__}\x1b[0m: {lines[0]}", *lines[1:]]


class CellTritonNotInstalled(CellError, ImportError):
    """``%%triton`` without the optional triton package."""


def parser(base: type) -> argparse.ArgumentParser:
    p = base(prog="triton", add_help=False,
             usage="%%%%triton [--arch A[,B]] [--num-warps N] [--num-stages N] "
                   "[--signature 'kernel(*fp32, i32, BLOCK=1024)']... [--option K=V]...")
    p.add_argument("--arch", default=None, help="comma-separated gfx targets")
    p.add_argument("--num-warps", type=int, default=4)
    p.add_argument("--num-stages", type=int, default=2)
    p.add_argument("--signature", action="append", default=[],
                   help="compile a kernel now: 'name(types..., CONSTEXPR=value)'")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="a Triton AMD option, e.g. waves_per_eu=2")
    return p


def _cell_dir() -> Path:
    if not _DIR:
        d = Path(tempfile.mkdtemp(prefix="hipwb-triton-cells-"))
        atexit.register(shutil.rmtree, d, True)
        _DIR.append(d)
    return _DIR[0]


def write_cell(cell: str, first_line: int) -> Path:
    """The cell as a file whose line numbers are the cell's (blank lines before the body)."""
    text = "\n" * (first_line - 1) + cell
    if not text.endswith("\n"):
        text += "\n"
    d = _cell_dir() / hashlib.sha1(text.encode()).hexdigest()[:16]
    path = d / CELL_FILE
    if not path.exists():
        d.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    import linecache

    linecache.checkcache(str(path))
    return path


def _options(items: list[str]) -> dict[str, Any]:
    import ast

    out = {}
    for item in items:
        k, eq, v = item.partition("=")
        if not eq or not k.strip().isidentifier():
            raise CellError(f"%%triton --option {item!r}: write it as NAME=VALUE, e.g. "
                            f"waves_per_eu=2")
        try:
            out[k.strip()] = ast.literal_eval(v.strip())
        except (ValueError, SyntaxError):
            out[k.strip()] = v.strip()
    return out


def run_cell(user_ns: dict, args: argparse.Namespace, cell: str, first_line: int,
             default_archs: tuple[str, ...]) -> dict[str, TritonKernel]:
    """Run a %%triton cell; returns its kernels by the name each was bound to."""
    try:
        require("%%triton")
    except TritonNotInstalled as e:
        raise CellTritonNotInstalled(str(e)) from None
    archs = parse_list(args.arch) if args.arch else default_archs
    options = {"num_warps": args.num_warps, "num_stages": args.num_stages,
               **_options(args.option)}
    config = options.pop("config", None)  # --option config=i: an @triton.autotune config
    sigs = {}
    for s in args.signature:
        try:
            name, types, consts = specialize.parse_cell_signature(s)
        except ValueError as e:
            raise CellError(f"%%triton {e}") from None
        sigs[name] = (types, consts)
    path = write_cell(cell, first_line)
    text = path.read_text()
    try:
        code = compile(text, str(path), "exec")
    except SyntaxError as e:
        where = f"cell line {e.lineno}" if e.lineno else "the cell"
        shown = f"\n    {e.text.strip()}" if e.text else ""
        raise CellError(f"%%triton: {where}: SyntaxError: {e.msg}{shown}") from None
    ns = dict(user_ns)
    before = {k: id(v) for k, v in ns.items()}
    ns["__name__"] = "__main__"
    try:
        exec(code, ns)
    except Exception as e:
        line = _cell_line(e, str(path))
        where = f"cell line {line}" if line else "the cell"
        raise CellError(f"%%triton: {where}: {type(e).__name__}: {e}") from None
    jits = {k: v for k, v in ns.items() if _is_cell_jit(v, str(path))}
    missing = sorted(set(sigs) - set(jits))
    if missing:
        raise CellError(f"%%triton --signature: no @triton.jit function {', '.join(missing)} in "
                        f"the cell (functions: {', '.join(jits) or 'none'})")
    for k, v in ns.items():  # the cell's other names, as if it had run in the notebook
        if k not in jits and k != "__builtins__" and before.get(k) != id(v):
            user_ns[k] = v
    kernels: dict[str, TritonKernel] = {}
    for name, fn in jits.items():
        spec = None
        jit, layers = tuning.unwrap(fn)
        if name in sigs:
            try:
                spec = specialize.explicit(jit, *sigs[name])
            except ValueError as e:
                raise CellError(f"%%triton --signature {name}: {e}") from None
        try:
            kernels[name] = TritonKernel(fn, archs=archs, options=options, spec=spec,
                                         config=config if tuning.configs(layers) else None)
        except TritonCompileError as e:
            raise CellError(f"%%triton: {e}") from None
        except ValueError as e:
            raise CellError(f"%%triton: {name}: {e}") from None
    return bind(user_ns, kernels)


def _is_cell_jit(v: Any, path: str) -> bool:
    """A @triton.jit function of the cell, also inside @triton.autotune / @triton.heuristics."""
    jit = tuning.unwrap(v)[0]
    fn = getattr(jit, "fn", None)
    return (tuning.is_jit(jit)
            and getattr(getattr(fn, "__code__", None), "co_filename", None) == path)


def _cell_line(e: BaseException, path: str) -> int | None:
    """The cell line of the innermost traceback frame in the cell's file."""
    line = None
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def bind(ns: dict, kernels: dict[str, TritonKernel]) -> dict[str, TritonKernel]:
    """Bind each kernel by ``workbench.kernel_binding``'s rule (the one ``%%hipkernel``
    follows); bound name -> kernel."""
    from ..runtime.kernel import Kernel

    bound = kernel_binding.bind_kernels(ns, kernels, (Kernel, TritonKernel), "%%triton")
    return {bound[name]: k for name, k in kernels.items()}


def summary(kernels: dict[str, TritonKernel], seconds: float) -> str:
    """One line per kernel: compiled (resources) or compiled at first launch; the compile
    time when the cell compiled (with ``--signature``)."""
    lines = []
    for bound, k in kernels.items():
        if k._last is None:
            lines.append(f"{bound}: Triton kernel for {', '.join(k.archs)}; compiles at its "
                         f"first launch ({bound}[grid](...)) or {bound}.specialize(...)")
            continue
        parts = []
        for arch in k.module.archs:
            r = k.kernel.info(arch).resources
            occ = k.occupancy(arch)
            parts.append(f"{arch} {r.vgprs} VGPRs {r.agprs} AGPRs {r.sgprs} SGPRs, LDS "
                         f"{k.module.metadata[arch].get('shared', 0)} B, "
                         f"{occ.waves_per_simd} waves/SIMD")
        lines.append(f"{bound}({k.module.spec.text()}): " + "; ".join(parts))
    if any(k._last is not None for k in kernels.values()):  # worded as every compile view
        lines.append(f"compile time: {seconds * 1000:.0f} ms")  # (notebooks/sanitize.cfg)
    return "\n".join(lines)

