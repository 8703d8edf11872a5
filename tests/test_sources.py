"""Every citation names a public source a reader can open.

The team's private research notes (a folder outside this repository) were once cited by file
name and section. A reader cannot open them, so code, tool output, kernels, tests, docs and
notebooks cite the primary source instead (the document, LLVM file, paper or page, with the
tags of docs/sources.md). This test fails, naming file and line, for any reference left to those
notes: their file names, the folder that held them, or their section tags (the word facts, any
case, followed by a section sign).

The patterns are assembled from pieces so that this file does not match itself.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_NOTE_NAMES = [
    "amd_hw" + "_facts",
    "tutorial_perf" + "_anchors",
    "emulator" + "_anchors",
    "jupyter" + "_anchors",
    "memory_and" + "_calibration",
    "rdna_wmma" + "_deck",
    "shared" + "/reference",
]
SECTION = "\u00a7"
PATTERN = re.compile("|".join([*map(re.escape, _NOTE_NAMES), "facts" + r"\s*" + SECTION]),
                     re.IGNORECASE)
# A section tag split over two implicitly concatenated string literals: "... FACTS " / "§3.3".
SPLIT = re.compile("facts" + r"""\s*["']\s*\n\s*["']\s*""" + SECTION, re.IGNORECASE)

# What is scanned: the repository's own sources and docs (notebooks as their JSON text).
SCANNED = ["notebooks", "workbench", "kernels", "extensions", "tests", "docs", "README.md"]
# Never scanned: caches, dependencies and build outputs (workbench/labextension is the built
# JupyterLab extension, rebuilt from extensions/ by tools/build-labextension.sh).
SKIP_DIRS = {"__pycache__", "node_modules", ".ipynb_checkpoints", "build", "dist", ".hipwb-cache",
             ".pytest_cache", ".ruff_cache", "_build"}
SKIP_PATHS = {Path("workbench/labextension")}
SKIP_SUFFIXES = {".pyc", ".pyo", ".so", ".o", ".hsaco", ".co", ".png", ".jpg", ".gif", ".svg",
                 ".npz", ".npy", ".whl", ".gz", ".zip", ".tsbuildinfo"}


def files_under(name: str) -> list[Path]:
    """The files of one scanned root (a folder or a file), caches and build outputs left out."""
    top = ROOT / name
    if top.is_file():
        return [top]
    out = []
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(ROOT)
        if (not path.is_file() or path.suffix in SKIP_SUFFIXES
                or SKIP_DIRS & set(rel.parts[:-1])
                or any(rel.is_relative_to(p) for p in SKIP_PATHS)):
            continue
        out.append(path)
    return out


def hits(path: Path) -> list[str]:
    """'file:line: text' for each reference to the private notes in ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return []  # not a text file
    text = text.replace("\\u00a7", SECTION)  # JSON files may escape the section sign
    rel = path.relative_to(ROOT).as_posix()
    lines = text.splitlines()
    found = []
    for n, line in enumerate(lines, 1):
        if PATTERN.search(line):
            found.append(f"{rel}:{n}{_cell(path, lines, n)}: {line.strip()[:160]}")
    for m in SPLIT.finditer(text):
        n = text.count("\n", 0, m.start()) + 1
        found.append(f"{rel}:{n}{_cell(path, lines, n)}: {lines[n - 1].strip()[:160]} (split)")
    return found


def _cell(path: Path, lines: list[str], n: int) -> str:
    """' (cell i)' for a line of a notebook's JSON text (nbformat writes "cell_type" first)."""
    if path.suffix != ".ipynb":
        return ""
    cells = sum('"cell_type":' in line for line in lines[:n])
    return f" (cell {cells - 1})" if cells else ""


def test_the_patterns_see_what_they_must_and_not_this_file():
    for name in _NOTE_NAMES:
        assert PATTERN.search(f"see {name}.md") and PATTERN.search(f"see {name.upper()}")
    for tag in ("FACTS " + SECTION + "3.1", "(facts " + SECTION + "1.2)",
                "Facts" + SECTION + "6"):
        assert PATTERN.search(tag), tag
    assert SPLIT.search('"... FACTS "\n    "' + SECTION + '3.3): per wave"')
    for fine in ("CDNA3 ISA guide " + SECTION + "7.1", "test_rdna_vgpr_counts_match_facts",
                 "AMD APP OpenCL Programming Guide " + SECTION + "6.2", "shared/ folder"):
        assert not PATTERN.search(fine), fine
    assert hits(Path(__file__)) == []


@pytest.mark.parametrize("root", SCANNED)
def test_no_citation_of_private_notes(root):
    found = [h for path in files_under(root) for h in hits(path)]
    assert not found, (
        f"{len(found)} reference(s) to private notes under {root}; cite the primary source "
        "(the document, LLVM file, paper or URL; tags in docs/sources.md) instead:\n"
        + "\n".join(found))
