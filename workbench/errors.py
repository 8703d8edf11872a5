"""The errors hipwb raises for the user to act on: one base, ``HipwbError``, each naming what
to fix (the argument, cell line, lane or address).

Why here, at the bottom of the layers: every floor raises them (the emulator raises
``KernelFault`` and sits below the runtime, docs/architecture.md), so they cannot live higher.
Each is also the built-in class Python would raise for the same mistake (``TypeError`` for a
wrong type, ``ValueError`` for a bad value, ``RuntimeError`` for a failed run), so code that
catches those keeps working.

In IPython a ``HipwbError`` shows the user's own frames and its message, not the frames inside
hipwb (and IPython's magic machinery) it passed through: ``%hipwb traceback on`` shows them all
(``show_tracebacks(True)`` from code).
"""

from __future__ import annotations

import types
from pathlib import Path

_SETTINGS = {"full_tracebacks": False}
# Frames from these folders are machinery, not the user's code: hipwb itself and the IPython
# layers a magic call passes through.
_PACKAGE = str(Path(__file__).resolve().parent)
_MACHINERY = ("/IPython/", "/decorator.py", "/traitlets/", "/ipykernel/")


def show_tracebacks(on: bool | None = None) -> bool:
    """Show (True) or hide (False, the default) hipwb's own frames in the tracebacks IPython
    prints for hipwb errors; returns the setting (unchanged when ``on`` is None)."""
    if on is not None:
        if not isinstance(on, bool):
            raise ArgumentTypeError(f"show_tracebacks(on): expected True, False or None, got "
                                    f"{type(on).__name__} {on!r:.40}")
        _SETTINGS["full_tracebacks"] = on
    return _SETTINGS["full_tracebacks"]


def _machinery(frame: types.FrameType) -> bool:
    name = frame.f_code.co_filename
    return name.startswith(_PACKAGE) or any(m in name for m in _MACHINERY)


def render_traceback(exc: BaseException) -> list[str]:
    """IPython's traceback of ``exc`` with hipwb's and IPython's own frames left out (all of
    them when ``show_tracebacks()`` is on), and one line saying how many were hidden."""
    from IPython import get_ipython  # only ever called by IPython

    shell = get_ipython()
    tb = exc.__traceback__
    if shell is None:
        return [f"{type(exc).__name__}: {exc}"]
    if _SETTINGS["full_tracebacks"]:
        return shell.InteractiveTB.structured_traceback(type(exc), exc, tb)
    kept, hidden = [], 0
    while tb is not None:
        if _machinery(tb.tb_frame):
            hidden += 1
        else:
            kept.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    short = None
    for frame, lasti, lineno in reversed(kept):
        short = types.TracebackType(short, frame, lasti, lineno)
    # The chain (``raise ... from``) is machinery too: show this error alone.
    cause, context, suppress = exc.__cause__, exc.__context__, exc.__suppress_context__
    exc.__cause__, exc.__context__, exc.__suppress_context__ = None, None, True
    try:
        if short is None:
            lines = str(exc).splitlines() or [""]
            red, reset = "\x1b[0;31m", "\x1b[0m"
            stb = [f"{red}{type(exc).__name__}{reset}: {lines[0]}", *lines[1:]]
        else:
            stb = shell.InteractiveTB.structured_traceback(type(exc), exc, short)
    finally:
        exc.__cause__, exc.__context__, exc.__suppress_context__ = cause, context, suppress
    if hidden:
        stb = [*stb, f"({hidden} frame{'s' if hidden != 1 else ''} inside hipwb hidden: "
                     f"%hipwb traceback on shows them)"]
    return stb


class HipwbError(Exception):
    """Base of every error hipwb raises for the user: the message names what to fix."""

    def _render_traceback_(self) -> list[str]:  # IPython's hook for custom tracebacks
        return render_traceback(self)


class ArgumentTypeError(HipwbError, TypeError):
    """A public function got an argument of the wrong type; names the function and argument."""


class ArgumentValueError(HipwbError, ValueError):
    """A public function got an argument of the right type but a value it cannot take."""


class ArgumentKeyError(HipwbError, KeyError):
    """A name or key that does not exist (a kernel, a variable, a symbol); lists those that do."""

    def __str__(self) -> str:  # KeyError's own str() quotes the message
        return str(self.args[0]) if self.args else ""


class ArgumentAttributeError(HipwbError, AttributeError):
    """An attribute that does not exist (``module.nope``: no such kernel); lists those that do."""


class ArgumentIndexError(HipwbError, IndexError):
    """An index (lane, row, execution, rank) outside its range; names the range."""


class LaunchError(HipwbError, ValueError):
    """The launch was rejected before running: bad grid/block, argument count, type or device."""


class KernelFault(HipwbError, RuntimeError):
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
