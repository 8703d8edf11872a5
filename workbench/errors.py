"""Errors a launch can raise, each naming what the user must fix.

Why here, at the bottom of the layers: the emulator raises ``KernelFault`` too, and it sits
below the runtime (docs/architecture.md), so the class users catch as ``workbench.KernelFault``
cannot live in ``workbench.runtime``; the runtime re-exports both.
"""

from __future__ import annotations


class LaunchError(ValueError):
    """The launch was rejected before running: bad grid/block, argument count, type or device."""


class KernelFault(RuntimeError):
    """The kernel touched memory it must not: names kernel, instruction, pc, lanes and address."""

    def __init__(self, message: str, *, kernel: str = "", pc: int | None = None,
                 instruction: str = "", source_line: int | None = None,
                 lanes: tuple[int, ...] = (), address: int | None = None,
                 buffer: str | None = None, workgroup: tuple[int, int, int] | None = None,
                 wave: int | None = None, space: str = "", offset: int | None = None,
                 buffer_size: int | None = None, write: bool | None = None,
                 reason: str = ""):
        super().__init__(message)
        self.kernel = kernel
        self.pc = pc
        self.instruction = instruction
        self.source_line = source_line
        self.lanes = lanes
        self.address = address
        self.buffer = buffer  # the nearest buffer (argument name) for a global access
        self.workgroup = workgroup  # (x, y, z) workgroup id of the first faulting lane
        self.wave = wave  # its wave within the workgroup; lanes are lanes of that wave
        self.space = space  # "global", "flat", "scalar memory", "LDS", "scratch", "" (trap)
        self.offset = offset  # address - base of ``buffer`` (negative: before its start)
        self.buffer_size = buffer_size
        self.write = write
        self.reason = reason  # "out of range", "misaligned", "read-only", "trap"


# What a GPU does with a global access outside its buffer (nothing checks it there): with no
# allocation mapped at the address, an AMD GPU raises "Memory access fault by GPU node-N ...
# Reason: Page not present" and ROCr aborts the process (ROCm/MIOpen issue 125 shows the
# message and the abort); an NVIDIA GPU reports cudaErrorIllegalAddress, after which "the
# process must be terminated and relaunched" (CUDA Runtime API, enum cudaError). When another
# allocation lies there, the access silently reads or overwrites it.
GPU_OOB = ("On a GPU this access is not checked: it faults (AMD: \"Memory access fault by GPU "
           "node\", the process is aborted; NVIDIA: cudaErrorIllegalAddress, the CUDA context "
           "is lost) or, where another allocation lies, silently reads or overwrites it")
