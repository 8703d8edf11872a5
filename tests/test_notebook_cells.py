"""The notebooks as a learner reads them: short code cells, nbval markers kept out of sight.

Why: a 170-line helper cell at the top of a tutorial hides the lesson (issue 29). A code cell a
learner reads is at most ``MAX_LINES`` lines unless ``notebooks/long_cells.txt`` lists it with
its reason (a whole kernel, say); nbval's markers live in the cell's metadata tags
(``nbval-ignore-output``, ``nbval-skip``, ``raises-exception``), not in its source.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
LONG_CELLS = REPO / "notebooks" / "long_cells.txt"
MAX_LINES = 30
MARKER = re.compile(r"#\s*NBVAL_\w+")


def long_cells() -> dict[tuple[str, str], str]:
    """(notebook, first line of the cell) -> reason, from notebooks/long_cells.txt.

    Format, one cell per line: ``<notebook> | <the cell's first line> | <reason>``; ``#``
    starts a comment line."""
    out = {}
    for n, line in enumerate(LONG_CELLS.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        assert len(parts) == 3 and all(parts), f"long_cells.txt:{n}: want 'nb | first | why'"
        out[parts[0], parts[1]] = parts[2]
    return out


def code_cells(nb: Path):
    for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
        if cell["cell_type"] == "code":
            yield i, cell, "".join(cell["source"])


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_code_cells_are_short_or_listed_with_a_reason(nb):
    listed = long_cells()
    too_long = []
    for i, _, src in code_cells(nb):
        lines = src.splitlines()
        if len(lines) > MAX_LINES and (nb.name, lines[0].strip()) not in listed:
            too_long.append(f"cell {i}: {len(lines)} lines, starts {lines[0][:60]!r}")
    assert not too_long, (f"{nb.name}: code cells over {MAX_LINES} lines, not in "
                          "notebooks/long_cells.txt:\n" + "\n".join(too_long))


def test_every_listed_long_cell_exists_and_is_long():
    cells = {(nb.name, src.splitlines()[0].strip()): len(src.splitlines())
             for nb in NOTEBOOKS for _, _, src in code_cells(nb) if src.strip()}
    for key, why in long_cells().items():
        assert key in cells, f"long_cells.txt lists a cell no notebook has: {key}"
        assert cells[key] > MAX_LINES, f"long_cells.txt lists a short cell: {key} ({why})"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_nbval_markers_are_tags_not_source(nb):
    marked = [f"cell {i}: {MARKER.search(src).group(0)}" for i, _, src in code_cells(nb)
              if MARKER.search(src)]
    assert not marked, f"{nb.name}: move these to the cell's tags:\n" + "\n".join(marked)
