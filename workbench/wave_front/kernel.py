"""WaveKernel: a compiled Wave kernel called as a Wave user calls it, on hipwb's devices.

``kern(a, b, c)`` does what Wave's own ``WaveKernel.__call__`` does on a GPU
(``wave_lang/kernel/wave/compile.py``, ``invoke``; ``invoke_with_wave_runtime`` in
``wave_lang/kernel/wave/utils/run_utils.py``): the arguments in the Wave function's order, the
dynamic symbols read from the arrays' shapes, the grid from Wave's ``kernel_launch_info.grid``
at those values, the block ``kernel_launch_info.blocks``, and the code object's arguments laid
out as Wave's runtime lays them (``abi``). The launch itself is the hipwb ``Kernel``'s: the
default device (the emulator without a GPU), traces, check mode and the timing model work as
for any kernel.
"""

from __future__ import annotations

from typing import Any

from ..errors import LaunchError
from ..kernel_views import KernelViews
from .build import WaveModule

_TIMING_KW = ("chip", "flops", "max_rows", "budget", "timeout", "clock", "force",
              "max_emulation_seconds")


class WaveKernel(KernelViews):
    """A Wave kernel compiled by ``wb.wave``, launchable on hipwb's devices.

    Launch: ``kern(*args)`` (the default device: the emulator without a GPU),
    ``kern.on("emulator:gfx950")(*args)``, ``kern.trace(*args)`` -> Trace, ``kern.check(*args)``
    -> CheckReport, ``kern.timing(*args, chip="mi300x")`` -> TimingReport; ``args`` are the Wave
    function's (torch tensors or numpy arrays for its Memory parameters, numbers for its
    scalars). Inspect: ``kern.module`` (a WaveModule), ``kern.kernel`` (the hipwb Kernel),
    ``kern.mlir``, ``kern.isa``, ``kern.resources``, ``kern.occupancy()``, ``kern.grid``,
    ``kern.block``.
    """

    def __init__(self, module: WaveModule, device: Any = None):
        self.module = module
        self.name = module.kernel_name
        self.abi = module.abi
        self._device = device
        k = module[self.name]
        self._kernel = k if device is None else k.on(device)
        self._last_grid: tuple[int, int, int] | None = None

    # -- inspection ------------------------------------------------------------------------
    @property
    def archs(self) -> tuple[str, ...]:
        return self.module.archs

    @property
    def kernel(self) -> Any:
        """The hipwb Kernel of the code object (``kern.kernel.info("gfx942")`` and the rest)."""
        return self._kernel

    @property
    def mlir(self) -> str:
        """The MLIR Wave generated (first arch); ``kern.module.mlir_for(arch)`` for another."""
        return self.module.mlir

    @property
    def signature(self) -> str:
        """The call as the Wave function declares it: ``gemm(a, b, c)``."""
        return self.abi.signature()

    @property
    def block(self) -> tuple[int, int, int]:
        """The workgroup size Wave launches with (``kernel_launch_info.blocks``)."""
        return self.abi.block

    @property
    def grid(self) -> tuple[int, int, int]:
        """The grid Wave launches: fixed when the kernel has no dynamic symbols, else that of
        the last launch (``kern.grid_for(*args)`` for given arguments)."""
        if not self.abi.grid_symbols:
            return self.abi.grid([])
        if self._last_grid is None:
            raise LaunchError(f"{self.name}'s grid depends on {', '.join(self.abi.grid_symbols)}"
                              f", read from the arguments: call {self.name}.grid_for(*args), "
                              f"or launch it first")
        return self._last_grid

    def grid_for(self, *args: Any) -> tuple[int, int, int]:
        """The grid a launch with these arguments would have (nothing runs)."""
        return self.abi.bind(args)[1]

    def occupancy(self, arch: str | None = None):
        """Occupancy at Wave's block size (its LDS is the code object's static LDS)."""
        return self.kernel.occupancy(self.block, arch or self.archs[0])

    def on(self, device: Any) -> WaveKernel:
        """The same kernel, launching on ``device`` ("emulator:gfx950", ...)."""
        return WaveKernel(self.module, device)

    def __repr__(self) -> str:
        syms = self.abi.grid_symbols
        grid = f"from {', '.join(syms)}" if syms else str(self.abi.grid([]))
        return (f"<WaveKernel {self.signature} [{', '.join(self.archs)}] grid {grid} block "
                f"{self.block}>")

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    # -- launching -------------------------------------------------------------------------
    def __call__(self, *args: Any) -> Any:
        """Launch on the kernel's device (the default device when none was given); returns
        the LaunchResult."""
        values, grid = self._bind(args)
        return self.kernel[grid, self.block](*values)

    def trace(self, *args: Any) -> Any:
        """Run on the emulator, recording every access: the Trace."""
        values, grid = self._bind(args)
        return self.kernel.trace[grid, self.block](*values)

    def check(self, *args: Any) -> Any:
        """Run on the emulator in check mode (LDS races, uninitialised reads, registers read
        before their s_waitcnt, barrier mismatches): the CheckReport."""
        values, grid = self._bind(args)
        return self.kernel.check[grid, self.block](*values)

    def timing(self, *args: Any, **options: Any) -> Any:
        """Modelled timing (``chip=`` "mi300x" for gfx942, the default for a gfx942 build,
        "mi355x" for gfx950; and the other keywords of ``Kernel.timing``): the TimingReport."""
        from ..timing import get_chip

        bad = sorted(set(options) - set(_TIMING_KW))
        if bad:
            raise LaunchError(f"{self.name}.timing: unknown keyword(s) {', '.join(bad)}; it "
                              f"takes the Wave function's arguments and {', '.join(_TIMING_KW)}")
        options.setdefault("chip", next((c for c in ("mi300x", "mi355x")
                                         if get_chip(c).arch == self.archs[0]), "mi355x"))
        values, grid = self._bind(args)
        return self.kernel.timing[grid, self.block](*values, **options)

    def _bind(self, args: tuple) -> tuple[list[Any], tuple[int, int, int]]:
        values, grid, _ = self.abi.bind(args)
        self._last_grid = grid
        return values, grid
