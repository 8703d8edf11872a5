"""The Device protocol every backend implements, and what a launch returns.

Backends: ``EmulatorDevice`` (runs the gfx942/gfx950/RDNA code object on the CPU), ``RocmDevice``
(cupy on ROCm, our code object via RawModule) and ``CudaDevice`` (cupy on CUDA, portable HIP via
NVRTC).
``kernel[grid, block](*args)`` is the same call on every one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..codeobject import KernelInfo
    from ..compile_result import Module
    from .args import BoundArg

Dim3 = tuple[int, int, int]


class LaunchedKernel(Protocol):
    """What a device reads of the kernel it launches; ``runtime.kernel.Kernel`` is one.

    Why a protocol: the kernel sits on the floor above the devices (it picks one and calls it),
    so the devices name only what they use of it and never import it.
    """

    name: str
    module: Module

    def isa_for(self, arch: str | None = None) -> Any:
        """The ISA listing (with source lines) of one arch."""
        ...


@runtime_checkable
class Device(Protocol):
    """A place kernels run. ``arch`` is the gfx target it executes (None: not an AMD ISA)."""

    name: str  # e.g. "emulator", "rocm:0 (gfx942)", "cuda:0 (NVIDIA H100)"
    kind: str  # "emulator" | "rocm" | "cuda"
    arch: str | None

    def launch(self, kernel: LaunchedKernel, info: KernelInfo, grid: Dim3, block: Dim3,
               args: list[BoundArg], *, dynamic_lds: int = 0, trace: bool = False,
               **options: Any) -> LaunchResult:
        """Run one launch; outputs are written back into the argument arrays in place."""
        ...

    # Optional: ``plan(kernel, info, grid, block, args, *, dynamic_lds=0)`` -> a callable
    # ``run(argv) -> LaunchResult | None`` prebound after a fully checked launch, or None.
    # Kernel keeps one per launcher and argument types; ``run`` must return None (never raise
    # a different error) whenever an argument needs the full checks of ``bind_args`` — also
    # when an argument's Python type differs from the one it was made for (Kernel reuses the
    # last plan without looking the types up again).


@dataclass
class LaunchResult:
    """What one launch did: where, with what configuration, how long (host wall time)."""

    kernel: str
    device: str
    grid: Dim3
    block: Dim3
    seconds: float
    trace: Any = None  # emulator Trace when launched with trace=True
    stats: dict[str, Any] = field(default_factory=dict)
    stream: Any = None  # workbench.timing.InstStream when run in timing (stream) mode
    check: Any = None  # workbench.emu.observers.check.CheckReport when run with check=True

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v}" for k, v in self.stats.items()
                        if isinstance(v, (int, float, str)))
        return (f"LaunchResult({self.kernel} on {self.device}, grid={self.grid}, "
                f"block={self.block}, {self.seconds * 1e3:.2f} ms host{extra})")
