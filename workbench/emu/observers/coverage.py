"""Opcode coverage: which semantics the emulator has executed vs. its semantic table.

Every launch adds its executed base mnemonics to ``EXECUTED`` (process-wide). ``report`` compares
them with the registry. Running the HIP corpus needs the runtime (above the emulator) and the
tests/ tree, so its runner lives there: ``python tests/emu_corpus.py`` prints what it exercises.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..decoder.registry import family_of, known_mnemonics, lookup, split_mnemonic

EXECUTED: Counter = Counter()  # base mnemonic -> wave-instructions executed (this process)


def record(program, counts) -> None:
    """Add a launch's counts under each instruction's semantic name (RDNA mnemonics under the
    gfx9 name they run as, ``rdna.RENAMES``)."""
    decoded = getattr(program, "decoded", None)
    for i, (ins, n) in enumerate(zip(program.insts, counts)):
        if n:
            EXECUTED[decoded[i].base if decoded else split_mnemonic(ins.mnemonic)[0]] += n


@dataclass
class CoverageReport:
    executed: dict[str, int]  # base mnemonic -> wave-instructions
    table: list[str]  # exact mnemonics (and prefix families) with a semantic
    unexecuted: list[str]

    def by_family(self) -> dict[str, tuple[int, int]]:
        """family -> (executed table entries, table entries)."""
        out: dict[str, list[int]] = {}
        ran = set(self.executed)
        for name in self.table:
            fam = family_of(name) or "?"
            e = out.setdefault(fam, [0, 0])
            e[1] += 1
            if name in ran or (name.endswith("*") and any(m.startswith(name[:-1]) for m in ran)):
                e[0] += 1
        return {k: (v[0], v[1]) for k, v in sorted(out.items())}

    def text(self) -> str:
        lines = [f"opcode coverage: {len(self.executed)} distinct mnemonics executed; "
                 f"semantic table has {len(self.table)} entries"]
        for fam, (n, tot) in self.by_family().items():
            lines.append(f"  {fam:10s} {n:4d} / {tot:4d} table entries executed")
        lines.append("  executed: " + ", ".join(sorted(self.executed)))
        return "\n".join(lines)


def report(executed: Counter | None = None) -> CoverageReport:
    ex = dict(EXECUTED if executed is None else executed)
    table = known_mnemonics()
    ran = set(ex)
    un = [t for t in table if t not in ran and not t.endswith("*")]
    for m in ex:
        assert lookup(m) is not None, m
    return CoverageReport(ex, table, un)
