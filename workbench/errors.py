"""Errors a launch can raise, each naming what the user must fix.

Why here, at the bottom of the layers: the emulator raises ``KernelFault`` too, and it sits
below the runtime (DESIGN.md), so the class users catch as ``workbench.KernelFault`` cannot
live in ``workbench.runtime``; the runtime re-exports both.
"""

from __future__ import annotations


class LaunchError(ValueError):
    """The launch was rejected before running: bad grid/block, argument count, type or device."""


class KernelFault(RuntimeError):
    """The kernel touched memory it must not: names kernel, instruction, pc, lanes and address."""

    def __init__(self, message: str, *, kernel: str = "", pc: int | None = None,
                 instruction: str = "", source_line: int | None = None,
                 lanes: tuple[int, ...] = (), address: int | None = None,
                 buffer: str | None = None):
        super().__init__(message)
        self.kernel = kernel
        self.pc = pc
        self.instruction = instruction
        self.source_line = source_line
        self.lanes = lanes
        self.address = address
        self.buffer = buffer
