"""Errors raised by the emulator; each names the kernel, instruction, address and lanes."""
from __future__ import annotations

from ..errors import HipwbError
from ..errors import KernelFault as _RuntimeKernelFault


class EmulatorError(HipwbError, RuntimeError):
    """Base class: anything the emulator refuses or cannot do."""


class UnknownInstruction(EmulatorError):
    """An instruction or modifier without a semantic in the emulator's table."""

    def __init__(self, mnemonic: str, addr: int, text: str = "", detail: str = "") -> None:
        self.mnemonic, self.addr, self.text = mnemonic, addr, text
        msg = f"emulator: no semantic for {mnemonic!r} at pc 0x{addr:x}"
        if detail:
            msg += f" ({detail})"
        if text:
            msg += f": `{text.strip()}`"
        super().__init__(msg)


class BufferResourceError(EmulatorError):
    """A buffer instruction met a V# (or an address) whose behaviour the ISA guide leaves
    undefined: names the kernel, instruction, pc, the V#'s dwords and fields, wave and lanes."""

    def __init__(self, message: str, *, kernel: str = "", pc: int = -1, instruction: str = "",
                 resource: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.kernel, self.pc, self.instruction, self.resource = kernel, pc, instruction, resource


class EmulatorAssumption(UserWarning):
    """The emulator ran something the ISA guides leave undefined the way hardware evidence says
    it behaves; the message names the assumption and its evidence."""


class BudgetExceeded(EmulatorError):
    """The launch executed more wave-instructions than its budget (runaway loop?)."""


class TimeLimitExceeded(BudgetExceeded):
    """The launch ran longer (wall clock) than its ``timeout`` (runaway loop?)."""


class EmulationInterrupted(KeyboardInterrupt):
    """Ctrl-C / "Interrupt kernel" stopped an emulation; names the kernel and where it stood.

    A ``KeyboardInterrupt`` (so notebooks and scripts treat it as an interrupt), raised after
    the emulator has dropped the launch: nothing half-written is kept.
    """


class BarrierDeadlock(EmulatorError):
    """Some waves of a workgroup wait at s_barrier while the others have ended."""


class Livelock(EmulatorError):
    """Every runnable wave spins in a loop whose state repeats and nobody writes memory (check
    mode, ``workbench.emu.observers.check``)."""


class KernelFault(_RuntimeKernelFault, EmulatorError):
    """A memory access outside every buffer of the launch (or outside LDS / scratch).

    The same class users catch as ``workbench.KernelFault`` (it subclasses
    ``workbench.errors.KernelFault``).
    """

    def __init__(self, message: str, *, kernel: str = "", pc: int = -1, lanes=(),
                 address: int | None = None, source_line: int | None = None,
                 instruction: str = "", buffer: str | None = None, **where) -> None:
        _RuntimeKernelFault.__init__(self, message, kernel=kernel, pc=pc, instruction=instruction,
                                     source_line=source_line, lanes=tuple(lanes),
                                     address=address, buffer=buffer, **where)
