"""The JupyterLab extension's committed parts: the builtin docs match the layout catalog, the
built assets match the sources, and a wheel install would carry them."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

from workbench import layouts
from workbench.layouts.builtin_docs import builtin_docs

REPO = Path(__file__).resolve().parents[1]
EXT = REPO / "extensions" / "hipwb-lab"
BUILT = REPO / "workbench" / "labextension" / "hipwb-lab"


def test_builtins_json_is_generated_from_the_catalog():
    committed = json.loads((EXT / "src" / "builtins.json").read_text())
    assert committed == json.loads(json.dumps(builtin_docs())), (
        "run: python -m workbench.layouts.builtin_docs, then tools/build-labextension.sh")


def test_builtin_docs_carry_catalog_facts():
    docs = builtin_docs()
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")
    entry = docs[ins.builtin]
    v = next(v for v in entry["variants"] if v["arch"] == "gfx942")
    assert v["instruction"] == ins.name and v["cycles"] == ins.cycles
    assert v["types"] == {"A": "bf16", "B": "bf16", "C": "f32", "D": "f32"}
    assert v["vgprs"] == ins.vgprs
    assert entry["signature"].startswith(f"v4f {ins.builtin}(v4s a, v4s b, v4f c, int cbsz")
    # every catalog builtin is documented, wave32 and wave64 RDNA forms included
    for arch in layouts.archs():
        waves = (32, 64) if arch.startswith("gfx1") else (None,)
        for w in waves:
            assert {i.builtin for i in layouts.list(arch, wave_size=w)} <= docs.keys()


def test_built_assets_match_sources():
    r = subprocess.run([str(REPO / "tools" / "build-labextension.sh"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pkg = json.loads((BUILT / "package.json").read_text())
    assert pkg["name"] == "hipwb-lab"
    assert (BUILT / pkg["jupyterlab"]["_build"]["load"]).is_file()


def test_wheel_data_files_cover_the_built_extension():
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text())
    files = cfg["tool"]["setuptools"]["data-files"]
    covered = set()
    for patterns in files.values():
        for pattern in patterns:
            covered |= {p.relative_to(REPO) for p in REPO.glob(pattern)}
    built = {p.relative_to(REPO) for p in BUILT.rglob("*") if p.is_file()}
    assert built == covered
