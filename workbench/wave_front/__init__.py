"""The Wave front end: ``wb.wave(kernel, hyperparams)`` (docs/wave.md).

A Wave kernel (``@tkw.wave``, the optional ``wave-lang`` package: IREE's Python kernel
language for AMD GPUs) is compiled by Wave itself, through IREE, for gfx942/gfx950 with no GPU
or ROCm; its code object is loaded with ``wb.load`` and launched as a Wave user calls it:
``kern(a, b, c)``. Everything hipwb shows for a HIP kernel works on it: resources, occupancy,
the ISA, emulation, traces, check mode and the modelled timing.

Modules: ``availability`` (is wave here, the pins, the install hint), ``abi`` (Wave's kernel
ABI: argument order, scalars, dynamic symbols, the grid), ``build`` (compile + load ->
WaveModule, compile errors), ``kernel`` (WaveKernel: launches as Wave's runtime does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..arch import parse_list as parse_archs
from ..argument_types import checked
from ..errors import ArgumentTypeError
from .abi import WaveAbiError
from .availability import INSTALL, PINNED, WaveNotInstalled, require, version, versions
from .build import WaveCompileError, WaveModule
from .kernel import WaveKernel

__all__ = ["INSTALL", "PINNED", "WaveAbiError", "WaveCompileError", "WaveKernel", "WaveModule",
           "WaveNotInstalled", "version", "versions", "wave"]

DEFAULT_ARCH = "gfx942"
_MAX_MEMO = 64
# (id of the Wave kernel, hyperparams, archs, options) -> (the Wave kernel, its WaveKernel):
# the kernel object is kept so its id is not reused while the entry lives
_MEMO: dict[tuple, tuple[Any, WaveKernel]] = {}


@checked
def wave(kernel: Any, hyperparams: Mapping[Any, Any], *,
         arch: str | Sequence[str] = DEFAULT_ARCH, **options: Any) -> WaveKernel:
    """A ``@tkw.wave`` kernel compiled by Wave for ``arch`` as a launchable WaveKernel.

    ``hyperparams``: Wave's ``subs`` (symbol -> value: the shapes, tile sizes, address spaces;
    a template's ``get_*_kernel`` returns them). ``arch``: one gfx target or several
    (``"gfx942,gfx950"``), one code object each. ``options``: other ``WaveCompileOptions``
    fields (``dynamic_symbols=[M, N]``, ``schedule=``, ``waves_per_eu=``, ...). Compiled once
    per (kernel, hyperparams, arch, options) in this process. ``kern(*args)`` launches as Wave
    does. Without the optional package: WaveNotInstalled saying ``pip install
    'hip-workbench[wave]'``."""
    require("wb.wave")
    from wave_lang.kernel.wave.compile import WaveKernel as CompiledWave
    from wave_lang.kernel.wave.wave import LaunchableWave

    from .build import build, check_options

    if not isinstance(kernel, LaunchableWave):
        hint = (" (that is wave_compile's result: pass the @tkw.wave function it was compiled "
                "from)" if isinstance(kernel, CompiledWave) else
                " (decorate the function with @tkw.wave(constraints), or take the kernel a "
                "template's get_*_kernel returns)" if callable(kernel) else "")
        raise ArgumentTypeError(f"wb.wave(kernel, hyperparams): kernel must be a @tkw.wave "
                                f"kernel, got {type(kernel).__name__}{hint}")
    archs = parse_archs(arch)
    check_options(options)
    key = (id(kernel), _key(hyperparams), archs, _key(options))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is kernel:
        return hit[1]
    kern = WaveKernel(build(kernel, dict(hyperparams), archs, options))
    if len(_MEMO) >= _MAX_MEMO:
        _MEMO.clear()
    _MEMO[key] = (kernel, kern)
    return kern


def _key(mapping: Mapping[Any, Any]) -> tuple:
    """A hashable key of a mapping whose keys are symbols or names and values anything."""
    return tuple(sorted((str(k), repr(v)) for k, v in mapping.items()))
