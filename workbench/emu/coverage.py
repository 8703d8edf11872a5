"""Opcode coverage: which semantics the emulator has executed vs. its semantic table.

Every launch adds its executed base mnemonics to ``EXECUTED`` (process-wide). ``report`` compares
them with the registry; ``run_corpus`` runs the HIP corpus (tests/kernels/emu/corpus.py) so that
``python -m workbench.emu --coverage`` prints what the corpus exercises.
"""
from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .decode import split_mnemonic
from .registry import family_of, known_mnemonics, lookup

EXECUTED: Counter = Counter()  # base mnemonic -> wave-instructions executed (this process)


def record(program, counts) -> None:
    for ins, n in zip(program.insts, counts):
        if n:
            EXECUTED[split_mnemonic(ins.mnemonic)[0]] += n


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


def find_corpus() -> Path | None:
    """tests/kernels/emu/corpus.py of the source checkout, if present."""
    p = Path(__file__).resolve().parents[2] / "tests" / "kernels" / "emu" / "corpus.py"
    return p if p.exists() else None


def load_corpus(path: Path):
    spec = importlib.util.spec_from_file_location("hipwb_emu_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def run_case(case, directory: Path, seed: int = 0, trace: bool = False, arch: str = "gfx942"):
    """Compile and launch one corpus case on the emulator for ``arch``, then run its check."""
    import numpy as np

    from .. import compile as wb_compile
    from ..runtime.kernel import Kernel

    mod = wb_compile((directory / case.file).read_text(), arch)
    k = Kernel(mod, case.kernel, device="emulator" if arch == "gfx942" else f"emulator:{arch}")
    args = case.make(np.random.default_rng(seed))
    res = k.launch(case.grid, case.block, *args, dynamic_lds=case.dynamic_lds, trace=trace)
    case.check(args)
    return res


def run_corpus(path: Path | None = None) -> list[tuple[str, str]]:
    """Run every case; returns (name, "ok" | error text)."""
    path = path or find_corpus()
    if path is None:
        raise FileNotFoundError("no tests/kernels/emu/corpus.py next to this checkout")
    mod = load_corpus(path)
    out = []
    for case in mod.CASES:
        try:
            run_case(case, path.parent)
            out.append((case.name, "ok"))
        except Exception as e:  # report every case, keep going
            out.append((case.name, f"{type(e).__name__}: {e}"))
    return out
