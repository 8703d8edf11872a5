"""Write ``calc_swmmac.json``: spot checks of the RDNA4 sparse WMMA (SWMMAC) register layouts,
verbatim from the AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_calculator).

    python tests/data/layouts/gen_calc_swmmac.py PATH/TO/matrix_calculator.py

runs the calculator the caller points at (nothing of it is copied here) with
``-a rdna4 -i v_swmmac_* -R -c -w 32|64`` for the A, B, compression-index (``-k``, every index
set ``--opsel``) and D matrices, and keeps a fixed sample of each printed table's cells: the
calculator's own notation, ``vR{L}.[hi:lo]`` (register offset R, lane L, bits; no range = the
whole VGPR), for A[i][k], B[k][j], K[i][k] and D[i][j] (A and K indexed by the logical k).
tests/layouts/test_layouts_swmmac.py checks the catalog against every kept cell.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
NAMES = ["f32_16x16x32_f16", "f32_16x16x32_bf16", "f16_16x16x32_f16", "bf16_16x16x32_bf16",
         "i32_16x16x32_iu8", "i32_16x16x32_iu4", "i32_16x16x64_iu4"] + [
    f"f32_16x16x32_{a}_{b}" for a in ("fp8", "bf8") for b in ("fp8", "bf8")]
PER_TABLE = 24  # cells kept per printed table (plus its four corners)


def table(calc: str, args: list[str]) -> list[list[str]] | None:
    """The CSV layout the calculator prints (rows without the header row and column), or None
    when it refuses the arguments (an OPSEL index set the instruction does not have)."""
    out = subprocess.run([sys.executable, calc, "-a", "rdna4", "-R", "-c", *args],
                         capture_output=True, text=True)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    body = [r for r in rows if r and r[0].isdigit()]
    return [r[1:] for r in body] if out.returncode == 0 and body else None


def main(calc: str) -> None:
    version = subprocess.run([sys.executable, calc, "-v"], capture_output=True,
                             text=True).stdout.strip()
    rng = np.random.default_rng(0)
    tables: dict[str, list] = {}
    for name in NAMES:
        for wave in (32, 64):
            base = ["-i", f"v_swmmac_{name}", "-w", str(wave)]
            jobs = [("A", 0, ["-A"]), ("B", 0, ["-B"]), ("D", 0, ["-D"])] + [
                ("K", s, ["-k", "--opsel", str(s)]) for s in range(4)]
            for matrix, opsel, extra in jobs:
                t = table(calc, base + extra)
                if t is None:
                    continue
                rows, cols = len(t), len(t[0])
                picks = {(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)} | {
                    (int(r), int(c)) for r, c in zip(rng.integers(0, rows, PER_TABLE),
                                                     rng.integers(0, cols, PER_TABLE),
                                                     strict=True)}
                key = f"v_swmmac_{name} w{wave} {matrix}" + (f" opsel{opsel}" if matrix == "K"
                                                             else "")
                tables[key] = [[r, c, t[r][c]] for r, c in sorted(picks)]
    out = {"source": f"{version} (ROCm/amd_matrix_instruction_calculator), -a rdna4 -R -c; "
                     "produced by tests/data/layouts/gen_calc_swmmac.py",
           "notation": "tables: 'instruction wWAVE MATRIX [opselN]' -> [row, col, register] with "
                       "register vR{L}.[hi:lo] = register offset R, lane L, bits hi..lo (none: "
                       "all 32); row, col = i, k for A and K (k logical: a 4-k group shares one "
                       "field), k, j for B, i, j for D; opsel = index set of K"}
    rows = ",\n  ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in tables.items())
    head = json.dumps(out, indent=1)[:-2]  # one table per line
    (HERE / "calc_swmmac.json").write_text(f'{head},\n "tables": {{\n  {rows}\n }}\n}}\n')
    print(f"wrote {sum(map(len, tables.values()))} cells of {len(tables)} tables to "
          f"{HERE / 'calc_swmmac.json'}")


if __name__ == "__main__":
    main(sys.argv[1])
