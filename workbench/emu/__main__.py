"""``python -m workbench.emu --coverage``: run the HIP corpus and print opcode coverage."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .coverage import report, run_corpus


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m workbench.emu")
    ap.add_argument("--coverage", action="store_true",
                    help="run tests/kernels/emu/corpus.py and report executed opcodes")
    ap.add_argument("--corpus", type=Path, default=None, help="path to a corpus.py")
    a = ap.parse_args(argv)
    if not a.coverage:
        ap.print_help()
        return 2
    results = run_corpus(a.corpus)
    bad = 0
    for name, status in results:
        print(f"{name:28s} {status}")
        bad += status != "ok"
    print(report().text())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
