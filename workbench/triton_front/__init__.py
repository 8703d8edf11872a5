"""The Triton front end: ``wb.triton(fn)`` and ``%%triton`` cells (docs/triton.md).

A @triton.jit function is compiled by Triton's own AMD backend (the optional ``triton``
package; no GPU or ROCm needed for gfx942/gfx950), its code object loaded with ``wb.load``, and
launched as a Triton user writes it: ``kern[grid](x, y, out, n, BLOCK=1024)``. Everything hipwb
shows for a HIP kernel works on it, and the ISA view shows the kernel's Python lines.

Modules: ``availability`` (is triton here, the pin, the install hint), ``specialize`` (Triton's
JIT specialization rules, the signature forms), ``build`` (compile + load -> TritonModule, IR
stages, compile errors at file lines), ``tuning`` (``@triton.autotune`` / ``@triton.heuristics``
around the jit function), ``kernel`` (TritonKernel: launches with Triton's ABI), ``cell`` (the
``%%triton`` magic's work).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..arch import parse_list as parse_archs
from ..argument_types import checked
from ..errors import ArgumentValueError
from .availability import PINNED, TritonNotInstalled, require, version
from .build import TritonCompileError, TritonModule
from .kernel import TritonKernel

__all__ = ["PINNED", "TritonCompileError", "TritonKernel", "TritonModule", "TritonNotInstalled",
           "triton", "version"]

DEFAULT_ARCH = "gfx942"


@checked
def triton(fn: Any, *, signature: dict | str | None = None, constexprs: dict | None = None,
           arch: str | Sequence[str] = DEFAULT_ARCH, num_warps: int = 4, num_stages: int = 2,
           config: int | None = None, **options: Any) -> Any:
    """A @triton.jit function as a launchable TritonKernel, compiled by Triton's AMD backend.

    ``kern[grid](*args, **constexprs)`` launches it as Triton does (grid an int, tuple or
    ``lambda meta: ...``; torch tensors or numpy arrays; the specialization inferred from the
    arguments, compiled on first use per signature, constexprs and arch). With ``signature``
    (``{"x_ptr": "*fp32", ...}`` or ``"*fp32, *fp32, *fp32, i32"``) and ``constexprs``
    (``{"BLOCK": 1024}``) it compiles now, and launches use that signature. ``arch``: one gfx
    target or several (``"gfx942,gfx950"``); ``num_warps``/``num_stages`` and other Triton AMD
    options (``waves_per_eu``, ``matrix_instr_nonkdim``, ``kpack``, ...) as keywords.
    ``fn`` may be wrapped in ``@triton.autotune`` / ``@triton.heuristics`` (``tuning``): a
    launch uses the autotuner's config number ``config`` (default 0; no GPU times them here).
    Without the optional package: TritonNotInstalled saying ``pip install
    'hip-workbench[triton]'``."""
    require("wb.triton")
    from . import specialize as sp
    from .tuning import unwrap

    archs = parse_archs(arch)
    for name, v in (("num_warps", num_warps), ("num_stages", num_stages)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ArgumentValueError(f"{name} must be an int >= 1, got {v!r}")
    if num_warps & (num_warps - 1):
        raise ArgumentValueError(f"num_warps must be a power of 2 (Triton's rule), got "
                                 f"{num_warps}")
    jit = unwrap(fn)[0]
    sp.params(jit)
    spec = None
    if signature is not None:
        spec = sp.explicit(jit, signature, constexprs)
    elif constexprs:
        raise ArgumentValueError("constexprs= goes with signature=; without a signature give "
                                 "constexprs at launch: kern[grid](..., BLOCK=1024)")
    return TritonKernel(fn, archs=archs, spec=spec, config=config,
                        options={"num_warps": num_warps, "num_stages": num_stages, **options})

