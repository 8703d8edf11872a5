"""Branch targets and their labels over instruction-like objects (``mnemonic``, ``regs``,
``operands``, ``addr``, ``size``, ``text``, ``target``): the ISA listing's and the timing model's.

Why a module of its own: the ISA view (compiler layer) and the timing model's timed listing
(models layer) both print ``s_cbranch_execnz L1`` rather than objdump's raw SIMM16; the rule sits
at the bottom so both can use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# branches that go through registers, not to a SIMM16 offset (GCN3 fork/join)
_NOT_JUMPS = ("s_cbranch_join", "s_cbranch_g_fork", "s_cbranch_i_fork")


def branch_target(ins: Any, starts: Mapping[str, int] | None = None) -> int | None:
    """The address a branch (``s_branch``, ``s_cbranch_*``) goes to, else None.

    SOPP branches: PC = PC + 4 + SIMM16 * 4 (AMD CDNA3 ISA, "SOPP"); objdump prints SIMM16 as
    an unsigned 16-bit number ("s_cbranch_scc0 65527" is -9). Where the operand is no number,
    the label objdump prints ("kernel+0x78", ``Instruction.target``) is read against
    ``starts`` (symbol -> start address).
    """
    m = ins.mnemonic
    if not (m == "s_branch" or m.startswith("s_cbranch_")) or m.startswith(_NOT_JUMPS):
        return None
    try:
        simm = int(ins.regs[0], 0) & 0xFFFF
        return ins.addr + ins.size + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
    except (IndexError, ValueError):
        pass
    sym, _, off = (ins.target or "").partition("+")
    if starts and sym in starts:
        return starts[sym] + (int(off, 16) if off else 0)
    return None


def branch_labels(instructions: Sequence[Any],
                  starts: Mapping[str, int] | None = None) -> dict[int, str]:
    """Address -> label ("L1", "L2", ... in address order) of every branch target that is an
    instruction of ``instructions`` (any listing-like sequence: the ISA view's, the timing
    model's); ``starts`` (symbol -> address) reads targets objdump names by symbol."""
    here, known = {ins.addr for ins in instructions}, dict(starts or {})
    targets = {t for ins in instructions
               if (t := branch_target(ins, known)) is not None and t in here}
    return {t: f"L{k}" for k, t in enumerate(sorted(targets), 1)}


def labelled_text(ins: Any, labels: Mapping[int, str]) -> str:
    """``ins.text`` with a branch's SIMM16 replaced by its target's label (``labels`` from
    :func:`branch_labels`); other instructions, and branches out of ``labels``, unchanged."""
    target = branch_target(ins) if labels else None
    if target is None or target not in labels:
        return ins.text
    return " ".join([ins.mnemonic, labels[target], *ins.operands[1:]])
