"""The semantic table: mnemonic -> builder that compiles one instruction into a handler.

Why a registry: every instruction family lives in its own module and adds itself here on import,
so a new family (MFMA, fp8, ...) is one new file plus one line in ``semantics/families.py``.
A family's name is its module path under ``semantics`` (``memory.ds``, ``valu.vint``): the
coverage report groups by it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Handler kinds (what the scheduler does after calling the handler).
NORMAL = 0  # falls through to the next instruction; handler returns None
BRANCH = 1  # handler returns a bool [w] array (or bool): True = jump to ``Exec.target``
ENDPGM = 2  # the group's waves end
BARRIER = 3  # the group's waves wait at a workgroup barrier
INDIRECT = 4  # handler returns an int64 [w] array of next PCs (s_setpc/s_swappc)

SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa")  # encoding suffixes LLVM prints after a mnemonic


def split_mnemonic(m: str) -> tuple[str, str]:
    """``v_add_f32_e64`` -> (``v_add_f32``, ``e64``): the base the table is keyed by, the
    encoding."""
    for s in SUFFIXES:
        if m.endswith(s):
            return m[: -len(s)], s[1:]
    return m, ""


@dataclass
class Exec:
    """A compiled instruction: ``run(state, group)`` plus what the scheduler does next."""

    run: Callable[[Any, Any], Any]
    kind: int = NORMAL
    target: int = -1  # BRANCH: absolute byte address of the branch target


@dataclass
class Decoded:
    """One instruction as builders see it (operands parsed, modifiers split off)."""

    inst: Any  # workbench.isa.Instruction (addr, mnemonic, operands, words, source_line, text)
    mnemonic: str  # full mnemonic as printed, e.g. "v_add_f32_e32"
    base: str  # without the encoding suffix (_e32/_e64/_dpp/_sdwa), e.g. "v_add_f32"
    encoding: str  # "e32" | "e64" | "dpp" | "sdwa" | ""  (from the suffix / the word count)
    ops: list  # positional operands: workbench.emu.decoder.operands.Operand
    mods: dict = field(default_factory=dict)  # "offset" -> 16, "glc" -> True, "op_sel" -> [..]
    kernel: Any = None  # the ProgramInfo (kernel-wide facts: denorm modes, LDS size, ...)
    gpr_idx: int = 0  # gfx9 VGPR index mode in force: its field mask (valu.vindex), 0 = off

    @property
    def addr(self) -> int:
        return self.inst.addr

    def mod(self, name: str, default: Any = None) -> Any:
        return self.mods.get(name, default)


Builder = Callable[[Decoded], "Exec | Callable"]

_EXACT: dict[str, Builder] = {}
_PREFIX: list[tuple[str, Builder]] = []
_FAMILY_OF: dict[str, str] = {}


def semantic(*names: str, prefix: str | None = None, family: str = "") -> Callable:
    """Decorator: register ``builder`` for exact base mnemonics and/or a mnemonic prefix."""

    def deco(builder: Builder) -> Builder:
        fam = family or builder.__module__.partition(".semantics.")[2] or builder.__module__
        for n in names:
            if n in _EXACT and _EXACT[n] is not builder:
                raise ValueError(f"emulator semantic {n!r} registered twice")
            _EXACT[n] = builder
            _FAMILY_OF[n] = fam
        if prefix is not None:
            _PREFIX.append((prefix, builder))
            _FAMILY_OF[prefix + "*"] = fam
        return builder

    return deco


def lookup(base: str) -> Builder | None:
    """The builder for a base mnemonic, or None when no family implements it."""
    b = _EXACT.get(base)
    if b is not None:
        return b
    for p, b in _PREFIX:
        if base.startswith(p):
            return b
    return None


def known_mnemonics() -> list[str]:
    """Every exact base mnemonic with a semantic (prefix families listed as ``prefix*``)."""
    return sorted(_FAMILY_OF)


def family_of(name: str) -> str:
    return _FAMILY_OF.get(name, "")


def as_exec(x: Exec | Callable) -> Exec:
    return x if isinstance(x, Exec) else Exec(x)


__all__ = [
    "NORMAL", "BRANCH", "ENDPGM", "BARRIER", "INDIRECT", "Exec", "Decoded", "semantic", "lookup",
    "known_mnemonics", "family_of", "as_exec",
]
