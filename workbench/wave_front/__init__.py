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
# (id of the Wave kernel, hyperparams, archs, options, id of the schedule) -> (the Wave
# kernel, the schedule, its WaveKernel): both are kept so their ids are not reused while the
# entry lives
_MEMO: dict[tuple, tuple[Any, Any, WaveKernel]] = {}


@checked
def wave(kernel: Any, hyperparams: Mapping[Any, Any], *,
         arch: str | Sequence[str] = DEFAULT_ARCH,
         wave_schedule: Any = None,
         **options: Any) -> WaveKernel:
    """A ``@tkw.wave`` kernel compiled by Wave for ``arch`` as a launchable WaveKernel.

    ``hyperparams``: Wave's ``subs`` (symbol -> value: the shapes, tile sizes, address spaces;
    a template's ``get_*_kernel`` returns them). ``arch``: one gfx target or several
    (``"gfx942,gfx950"``), one code object each. ``wave_schedule``: a manual schedule (a
    ``@wave_schedule.wave_schedule()`` function, ``wave_compile``'s third argument; with
    ``schedule=SchedulingType.MANUAL``). ``options``: other ``WaveCompileOptions`` fields
    (``dynamic_symbols=[M, N]``, ``schedule=``, ``waves_per_eu=``, ...). Compiled once per
    (kernel, hyperparams, arch, schedule, options) in this process. ``kern(*args)`` launches
    as Wave does. Without the optional package: WaveNotInstalled saying ``pip install
    'hip-workbench[wave]'``."""
    require("wb.wave")
    from wave_lang.kernel.wave.compile import WaveKernel as CompiledWave
    from wave_lang.kernel.wave.wave import LaunchableWave

    from .build import build, check_options, check_schedule

    archs = parse_archs(arch)
    check_options(options)
    check_schedule(wave_schedule, options)
    if not isinstance(kernel, LaunchableWave):
        hint = (" (that is wave_compile's result: pass the @tkw.wave function it was compiled "
                "from)" if isinstance(kernel, CompiledWave) else
                " (decorate the function with @tkw.wave(constraints), or take the kernel a "
                "template's get_*_kernel returns)" if callable(kernel) else "")
        raise ArgumentTypeError(f"wb.wave(kernel, hyperparams): kernel must be a @tkw.wave "
                                f"kernel, got {type(kernel).__name__}{hint}")
    key = (id(kernel), _key(hyperparams), archs, _key(options), id(wave_schedule))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is kernel and hit[1] is wave_schedule:
        return hit[2]
    kern = WaveKernel(build(kernel, dict(hyperparams), archs, options, wave_schedule))
    if len(_MEMO) >= _MAX_MEMO:
        _MEMO.clear()
    _MEMO[key] = (kernel, wave_schedule, kern)
    return kern


def _key(mapping: Mapping[Any, Any]) -> tuple:
    """A hashable key of a mapping whose keys are symbols or names and values anything."""
    return tuple(sorted((str(k), repr(v)) for k, v in mapping.items()))
