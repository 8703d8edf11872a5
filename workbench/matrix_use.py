"""The matrix instructions a kernel's ISA uses, each with its register layouts from the catalog.

Why: a ``tl.dot`` in Triton, a Wave ``tkw.mma`` or a HIP ``__builtin_amdgcn_mfma_*`` all end as
MFMA/WMMA instructions, and what they hold in registers is the instruction's operand layout
(``workbench.layouts``): which lane and VGPR carries A[i][k], B[k][j], C[i][j]. Reading the
mnemonics off the ISA and looking each up in the catalog answers "what did my dot become?" for
a kernel from any front end. Counts are static (instructions in the code, not executions); the
lines are the source lines the compiler attributed them to (Python lines for Triton).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .display import Displayable
from .errors import ArgumentKeyError
from .isa import Listing, category
from .layouts import MatrixInstruction, get

_MATRIX = ("MFMA", "WMMA")
_MODIFIER = re.compile(r"^(cbsz|blgp):(\d+)$")


@dataclass(frozen=True)
class MatrixUse:
    """One matrix mnemonic of a kernel: how often it appears, its catalog entry, its lines."""

    mnemonic: str
    count: int  # static: instructions in the code
    instruction: MatrixInstruction | None  # None: not in hipwb's catalog for this arch
    lines: tuple[int, ...]  # source lines (sorted) the compiler attributed them to
    formats: tuple[int, int] = (0, 0)  # gfx950 f8f6f4: the (CBSZ, BLGP) format codes used

    @property
    def shape(self) -> str:
        """"16x16x16" (M x N x K), "4 x 4x4x4" for a multi-block instruction; "?" unknown."""
        ins = self.instruction
        if ins is None:
            return "?"
        mnk = f"{ins.m}x{ins.n}x{ins.k}"
        return mnk if ins.blocks == 1 else f"{ins.blocks} x {mnk}"


@dataclass
class MatrixUses(Displayable):
    """The matrix instructions of one kernel on one arch, most used first.

    ``uses[0]`` / ``uses["v_mfma_f32_16x16x16_f16"]`` -> the MatrixInstruction (display it for
    the layout explorer, ``.A`` / ``.B`` / ``.C`` for one operand's layout)."""

    kernel: str
    arch: str
    uses: tuple[MatrixUse, ...]

    def __len__(self) -> int:
        return len(self.uses)

    def __iter__(self):
        return iter(self.uses)

    def __getitem__(self, key: int | str) -> MatrixInstruction:
        if isinstance(key, int):
            use = self.uses[key]
        else:
            found = [u for u in self.uses if u.mnemonic == key]
            if not found:
                raise ArgumentKeyError(f"{self.kernel} on {self.arch} uses no {key}; it uses "
                                       f"{', '.join(u.mnemonic for u in self.uses) or 'none'}")
            use = found[0]
        if use.instruction is None:
            raise ArgumentKeyError(f"{use.mnemonic} is not in hipwb's layout catalog for "
                                   f"{self.arch} (wb.matrix_instructions({self.arch!r}))")
        return use.instruction

    def rows(self) -> list[list]:
        """Table rows: mnemonic, count, shape, types, VGPRs of A/B/C, cycles, lines."""
        out = []
        for u in self.uses:
            ins = u.instruction
            if ins is None:
                out.append([u.mnemonic, u.count, "?", "not catalogued", "", "", _lines(u.lines)])
                continue
            types = f"{ins.a_type} x {ins.b_type} -> {ins.d_type}"
            vg = ins.vgprs
            out.append([u.mnemonic, u.count, u.shape, types,
                        f"{vg['A']} / {vg['B']} / {vg['C']}",
                        "" if ins.cycles is None else ins.cycles, _lines(u.lines)])
        return out

    header = ("instruction", "in the code", "M x N x K", "A x B -> D",
              "VGPRs A / B / C per lane", "cycles", "source lines")

    def summary(self) -> str:
        """One sentence: which matrix instructions, how many, or that there are none."""
        if not self.uses:
            return f"{self.kernel} on {self.arch} uses no matrix instruction (MFMA/WMMA)"
        parts = [f"{u.count} x {u.mnemonic}" for u in self.uses]
        return f"{self.kernel} on {self.arch}: {', '.join(parts)}"


def _lines(lines: tuple[int, ...]) -> str:
    if not lines:
        return ""
    shown = ", ".join(str(n) for n in lines[:6])
    return shown + (f" (+{len(lines) - 6})" if len(lines) > 6 else "")


def _formats(modifiers: tuple[str, ...]) -> tuple[int, int]:
    codes = {"cbsz": 0, "blgp": 0}
    for m in modifiers:
        hit = _MODIFIER.match(m)
        if hit:
            codes[hit.group(1)] = int(hit.group(2))
    return codes["cbsz"], codes["blgp"]


def _lookup(mnemonic: str, arch: str, wave_size: int,
            formats: tuple[int, int]) -> MatrixInstruction | None:
    try:
        ins = get(mnemonic, arch, wave_size=wave_size)
    except ValueError:
        return None
    if ins.blgp == "format" and formats != (0, 0):
        return ins.with_formats(*formats)  # gfx950 f8f6f4: CBSZ/BLGP pick A/B's element types
    return ins


def matrix_uses(listing: Listing, arch: str, wave_size: int = 64,
                name: str | None = None) -> MatrixUses:
    """The MFMA/WMMA instructions of a listing, most used first, each looked up in the catalog
    (with the f8f6f4 format codes its CBSZ/BLGP modifiers select)."""
    counts: Counter = Counter()
    lines: dict[tuple[str, tuple[int, int]], set[int]] = {}
    for ins in listing:
        if category(ins.mnemonic) not in _MATRIX:
            continue
        key = (ins.mnemonic, _formats(ins.modifiers))
        counts[key] += 1
        seen = lines.setdefault(key, set())
        if ins.source_line:
            seen.add(ins.source_line)
    uses = tuple(MatrixUse(m, n, _lookup(m, arch, wave_size, f), tuple(sorted(lines[(m, f)])), f)
                 for (m, f), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return MatrixUses(name or listing.symbol, arch, uses)
