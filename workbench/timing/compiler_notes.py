"""What the compiler decided that the timing model takes as given: spills, and the LLVM that
allocated the registers.

Why: a spill turns register values into scratch memory traffic, which the model times like
any other vector memory access (``classes.py``: ``scratch_*`` is VMEM), so a spilling kernel's
time rests on it; and the register counts, hence occupancy and the instruction schedule, are
those of the LLVM that built the code object. ROCm's compiler is AMD's fork of LLVM and may
allocate differently from the upstream LLVM used here, so a report says which one it read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def compiler_notes(scratch_bytes: int, spill_rows_per_wave: float, command: Sequence[str],
                   vgprs: int, agprs: int, sgprs: int) -> tuple[str, ...]:
    """The report's notes on the build: scratch use (``scratch_bytes`` per work-item, from the
    code object's ``.private_segment_fixed_size``; ``spill_rows_per_wave`` scratch memory
    instructions each wave executed), and which LLVM's register allocation the numbers rest
    on (``command``: the compile's command line)."""
    out = []
    if scratch_bytes > 0:
        out.append(
            f"SCRATCH: the build uses {scratch_bytes} bytes of private (scratch) memory per "
            f"work-item, for register spills or a local array indexed at run time; each wave "
            f"executed {spill_rows_per_wave:.0f} scratch loads/stores, timed like global memory "
            f"accesses (the model knows no scratch-specific cost). A build that keeps its values "
            f"in registers is usually faster: check __launch_bounds__, tile sizes, unrolled "
            f"indexing and -O levels.")
    llvm = _llvm(command)
    out.append(
        f"Registers ({vgprs} VGPRs, {agprs} AGPRs, {sgprs} SGPRs), occupancy and the schedule "
        f"are {llvm}'s allocation; ROCm's compiler (AMD's fork of LLVM) may allocate "
        f"differently, and the timing follows the counts.")
    return tuple(out)


def _llvm(command: Sequence[str]) -> str:
    """'upstream LLVM 22', "ROCm's LLVM" or the compiler's path, from a command line."""
    clang = str(command[0]) if command else ""
    if "rocm" in clang.lower():
        return "ROCm's LLVM"
    m = re.search(r"llvm-(\d+)", clang)
    return f"upstream LLVM {m.group(1)}" if m else (clang or "the compiler")
