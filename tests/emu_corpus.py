"""Runs the emulator's HIP corpus (tests/kernels/emu/corpus.py) and prints opcode coverage.

Why here and not in the package: running a case needs the compiler *and* the runtime (a
``Kernel`` launch), which sit above the emulator (docs/architecture.md layers), and the corpus lives
in tests/, which the installed package never reads. ``python tests/emu_corpus.py`` prints every
case's status and ``workbench.emu.observers.coverage.report()``; tests/emu/test_emu_corpus.py uses
the same helpers.
"""
from __future__ import annotations

import argparse
import importlib.util
import inspect
import sys
from pathlib import Path

import workbench as wb
from workbench.emu.observers.coverage import report

CORPUS = Path(__file__).resolve().parent / "kernels" / "emu" / "corpus.py"


def load_corpus(path: Path = CORPUS):
    """The corpus module (its ``CASES``), loaded from a file path."""
    spec = importlib.util.spec_from_file_location("hipwb_emu_corpus", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def run_case(case, directory: Path = CORPUS.parent, seed: int = 0, trace: bool = False,
             arch: str = "gfx942", wave64: bool = False):
    """Compile and launch one corpus case on the emulator for ``arch`` (RDNA: wave32, or
    wave64 with ``wave64``), then run its check."""
    import numpy as np

    opts = ["-mwavefrontsize64"] if wave64 else []
    mod = wb.compile((directory / case.file).read_text(), arch, opts)
    k = wb.Kernel(mod, case.kernel, device="emulator" if arch == "gfx942" else f"emulator:{arch}")
    args = case.make(np.random.default_rng(seed))
    res = k.launch(case.grid, case.block, *args, dynamic_lds=case.dynamic_lds, trace=trace)
    if "arch" in inspect.signature(case.check).parameters:  # target-dependent numerics
        case.check(args, arch=arch)
    else:
        case.check(args)
    return res


def skip_reason(case, arch: str, wave64: bool = False) -> str | None:
    """Why ``case`` does not run on ``arch`` (its ``needs``), or None."""
    rdna = arch.startswith(("gfx11", "gfx12"))
    if rdna and case.needs == "cdna":
        return "CDNA-only kernel"
    if rdna and case.needs == "wave64" and not wave64:
        return "lane math written for 64-lane waves (run with --wave64)"
    return None


def run_corpus(path: Path = CORPUS, arch: str = "gfx942",
               wave64: bool = False) -> list[tuple[str, str]]:
    """Run every case compiled for ``arch``; returns (name, "ok" | "skipped: ..." | error)."""
    mod = load_corpus(path)
    out = []
    for case in mod.CASES:
        why = skip_reason(case, arch, wave64)
        if why is not None:
            out.append((case.name, f"skipped: {why}"))
            continue
        try:
            run_case(case, path.parent, arch=arch, wave64=wave64)
            out.append((case.name, "ok"))
        except Exception as e:  # report every case, keep going
            out.append((case.name, f"{type(e).__name__}: {e}"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python tests/emu_corpus.py",
                                 description="run the emulator corpus, print opcode coverage")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="path to a corpus.py")
    ap.add_argument("--arch", default="gfx942",
                    choices=("gfx942", "gfx950", "gfx1100", "gfx1201"),
                    help="compile the corpus for this target (gfx950 needs LLVM >= 20)")
    ap.add_argument("--wave64", action="store_true",
                    help="RDNA targets: compile with -mwavefrontsize64")
    a = ap.parse_args(argv)
    bad = 0
    for name, status in run_corpus(a.corpus, a.arch, a.wave64):
        print(f"{name:28s} {status}")
        bad += status != "ok" and not status.startswith("skipped")
    print(report().text())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
