"""The builtin documentation the JupyterLab extension ships (hover card and Tab-completion text):
every builtin of the catalog, RDNA included, says only what is known -- never "null",
"undefined", "None" or "NaN" (RDNA WMMAs have no LLVM pass count: the card used to read
"32 (null passes)") -- and the built bundle carries exactly the generated data."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from workbench import layouts
from workbench.arch import get as get_arch
from workbench.layouts.builtin_docs import builtin_docs, timing_text

REPO = Path(__file__).resolve().parents[2]
EXT = REPO / "extensions" / "hipwb-lab"
BUILT = REPO / "workbench" / "labextension" / "hipwb-lab"
SHIPPED = json.loads((EXT / "src" / "builtins.json").read_text())
NULLISH = re.compile(r"\b(null|undefined|None|NaN)\b")


def _texts(entry: dict) -> list[str]:
    """Every string the extension shows for one builtin: completion text, hover table, notes."""
    return [entry["doc"], entry["signature"], *entry["table"]["head"],
            *(c for row in entry["table"]["rows"] for c in row), *entry["notes"]]


def _catalog():
    for arch in layouts.archs():
        for w in get_arch(arch).wave_sizes:
            yield from layouts.list(arch, wave_size=w)


CATALOG = list(_catalog())


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shown_text_has_no_null_placeholders(name):
    entry = SHIPPED[name]
    for text in _texts(entry):
        assert isinstance(text, str) and not NULLISH.search(text), (name, text)
    rows = entry["table"]["rows"]
    assert len(rows) == len(entry["variants"]) and all(len(r) == 6 for r in rows)
    for v, row in zip(entry["variants"], rows, strict=True):
        assert row[-1] == v["timing"] and v["timing"] in entry["doc"]


def test_every_catalog_builtin_is_shipped_with_what_is_known_of_its_timing():
    seen = set()
    for ins in CATALOG:
        entry = SHIPPED[ins.builtin]
        (v,) = [v for v in entry["variants"]
                if (v["arch"], v["wave_size"], v["instruction"]) ==
                (ins.arch, ins.wave_size, ins.name)
                and (v["types"]["A"], v["types"]["B"]) == (ins.a_type, ins.b_type)]
        want = f"{ins.cycles} cycles" + (f" ({ins.passes} passes)" if ins.passes else "")
        assert v["timing"] == timing_text(ins) == want
        assert f"{ins.arch} wave{ins.wave_size}: {ins.name}" in entry["doc"]
        seen.add(ins.family)
    assert seen == {"cdna2", "cdna3", "cdna4", "rdna3", "rdna4"}
    rdna = SHIPPED["__builtin_amdgcn_wmma_f32_16x16x16_f16_w32"]
    assert [r[-1] for r in rdna["table"]["rows"]] == ["32 cycles"] * 3  # gfx1100/1102/1151


def test_unknown_timing_is_left_out():
    ins = layouts.get("v_wmma_f32_16x16x16_f16", "gfx1100")
    assert timing_text(replace(ins, cycles=None)) == ""
    assert timing_text(replace(ins, cycles=None, passes=2)) == "(2 passes)"


def test_sparse_builtins_document_their_index_argument():
    entry = SHIPPED["__builtin_amdgcn_swmmac_f32_16x16x32_f16_w32"]
    assert entry["signature"] == ("v8f __builtin_amdgcn_swmmac_f32_16x16x32_f16_w32(v8h a, "
                                  "v16h b, v8f c, int index)")
    assert entry["table"]["rows"][0][2:5] == ["16x16x32 (A 2:4 sparse)", "f32 = f16·f16 + f32",
                                              "4/8/8 + 1 index"]


def test_generated_data_is_the_committed_data():
    assert SHIPPED == json.loads(json.dumps(builtin_docs()))


def _bundled() -> dict:
    """The builtins.json webpack inlined into the built extension (``JSON.parse('...')``)."""
    for js in sorted((BUILT / "static").glob("*.js")):
        text = js.read_text(encoding="utf-8")
        start = text.find("JSON.parse('{\"__builtin_amdgcn_")
        if start < 0:
            continue
        out, i = [], start + len("JSON.parse('")
        while text[i] != "'":  # undo the JS string escapes (\\ and \')
            if text[i] == "\\":
                i += 1
            out.append(text[i])
            i += 1
        return json.loads("".join(out))
    raise AssertionError(f"no bundled builtins.json under {BUILT / 'static'}")


def test_the_built_extension_ships_this_data():
    assert _bundled() == SHIPPED, "run tools/build-labextension.sh"


def test_the_extension_only_lays_out_generated_text():
    """builtins.js reads the generated fields, never a raw catalog number (which may be null)."""
    js = (EXT / "src" / "builtins.js").read_text()
    fields = set(re.findall(r"\b[bv]\.(\w+)", js))
    assert fields <= {"doc", "signature", "table", "notes"}, fields
    assert "${" not in js.split("export function completeBuiltin")[0]
