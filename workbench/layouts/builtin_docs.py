"""Completion/hover documentation of the matrix-core builtins, generated from the catalog.

Why: the JupyterLab extension (extensions/hipwb-lab) completes and documents
``__builtin_amdgcn_mfma_*`` / ``wmma_*`` / ``swmmac_*`` from the same facts hipwb computes with,
so the editor never says something the catalog does not. ``python -m
workbench.layouts.builtin_docs OUT`` writes the JSON the extension bundles; tests/
test_lab_extension.py checks it is up to date. Every text the extension shows is written here
(``doc``: the completion text; ``table`` and ``notes``: the hover card): the extension only
lays it out, so a fact the catalog does not know (RDNA has no LLVM pass count) is left out
rather than printed as "null" (tests/layouts/test_builtin_docs.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .catalog import archs, instructions
from .instruction import MatrixInstruction

# Parameter names after A, B, C for each argument order (workbench.layouts.probes._call has
# the same orders as calls): CDNA cbsz/abid/blgp; RDNA3 16-bit OPSEL; iu8/iu4 signedness+clamp.
_PARAMS = {
    "mfma": ["a", "b", "c", "cbsz", "abid", "blgp"],
    "wmma": ["a", "b", "c"],
    "wmma_opsel": ["a", "b", "c", "opsel"],
    "wmma_int": ["a_signed", "a", "b_signed", "b", "c", "clamp"],
    "f8f6f4": ["a", "b", "c", "a_fmt", "b_fmt", "a_opsel", "a_scale", "b_opsel", "b_scale"],
    "f8f6f4_scale": ["a", "b", "c", "a_fmt", "b_fmt", "a_opsel", "a_scale", "b_opsel",
                     "b_scale"],
    "swmmac": ["a", "b", "c", "index"],  # A stored 2:4-compressed; index: 2-bit positions
    "swmmac_int": ["a_signed", "a", "b_signed", "b", "c", "index", "clamp"],
}
_HEAD = ["arch", "instruction", "M×N×K", "D = A·B + C", "VGPRs A/B/C", "cycles"]


def timing_text(ins: MatrixInstruction) -> str:
    """What is known of the timing: '16 cycles (4 passes)', '16 cycles', or '' when nothing."""
    parts = [f"{ins.cycles} cycles"] if ins.cycles is not None else []
    if ins.passes is not None:
        parts.append(f"({ins.passes} passes)")
    return " ".join(parts)


def _variant(ins: MatrixInstruction) -> dict[str, Any]:
    shape = f"{ins.m}x{ins.n}x{ins.k}" + (f" x{ins.blocks} blocks" if ins.blocks > 1 else "") + (
        " (A 2:4 sparse)" if ins.sparse else "")
    return {
        "arch": ins.arch,
        "instruction": ins.name,
        "shape": shape,
        "types": {"A": ins.a_type, "B": ins.b_type, "C": ins.c_type, "D": ins.d_type},
        "wave_size": ins.wave_size,
        "vgprs": dict(ins.vgprs),
        "cycles": ins.cycles,
        "passes": ins.passes,
        "timing": timing_text(ins),
        "timing_source": ins.timing_source,
        "source": ins.source,
    }


def _cells(v: dict[str, Any]) -> list[str]:
    """One hover-table row: the _HEAD columns of one arch / wave size."""
    t, r = v["types"], v["vgprs"]
    regs = f"{r['A']}/{r['B']}/{r['C']}" + (f" + {r['I']} index" if "I" in r else "")
    return [f"{v['arch']} w{v['wave_size']}", v["instruction"], v["shape"],
            f"{t['D']} = {t['A']}·{t['B']} + {t['C']}", regs, v["timing"]]


def _line(v: dict[str, Any]) -> str:
    """One completion-text line of one arch / wave size."""
    t, r = v["types"], v["vgprs"]
    index = f" index {r['I']}" if "I" in r else ""
    return (f"{v['arch']} wave{v['wave_size']}: {v['instruction']}  {v['shape']}  "
            f"D:{t['D']} = A:{t['A']} x B:{t['B']} + C:{t['C']}  "
            f"VGPRs A {r['A']} B {r['B']} C/D {r['C']}{index}  {v['timing']}").rstrip()


def _notes(variants: list[dict[str, Any]]) -> list[str]:
    """Where the numbers come from: each distinct timing / layout source with its archs."""
    out = []
    for what, key in (("cycles", "timing_source"), ("layouts", "source")):
        by: dict[str, list[str]] = {}
        for v in variants:
            if v[key]:
                archs = by.setdefault(v[key], [])
                if v["arch"] not in archs:
                    archs.append(v["arch"])
        out += [f"{what} ({', '.join(archs)}): {src}" for src, archs in by.items()]
    return out


def builtin_docs() -> dict[str, dict[str, Any]]:
    """``{builtin: {signature, params, variants: [per arch/wave size]}}`` for every builtin in
    the catalog, sorted, deterministic (the JSON is committed)."""
    out: dict[str, dict[str, Any]] = {}
    for arch in archs():
        # RDNA has wave32 and wave64 forms (different builtins); CDNA only wave64
        waves = (32, 64) if arch.startswith("gfx1") else (None,)
        for wave in waves:
            for ins in instructions(arch, wave_size=wave):
                entry = out.setdefault(ins.builtin, {
                    "builtin": ins.builtin,
                    "form": ins.builtin_form,
                    "params": _PARAMS[ins.builtin_form],
                    "result": ins.builtin_types[0],
                    "operand_types": list(ins.builtin_types[1:]),
                    "variants": [],
                })
                v = _variant(ins)
                if v not in entry["variants"]:
                    entry["variants"].append(v)
    for entry in out.values():
        ret, ta, tb, tc = entry["result"], *entry["operand_types"]
        names = entry["params"]
        types = {"a": ta, "b": tb, "c": tc}
        args = ", ".join(f"{types.get(p, 'int')} {p}" for p in names)
        entry["signature"] = f"{ret} {entry['builtin']}({args})"
        variants = entry["variants"]
        entry["table"] = {"head": _HEAD, "rows": [_cells(v) for v in variants]}
        entry["notes"] = _notes(variants)
        for v in variants:  # their sources are in the notes, once per builtin
            del v["timing_source"], v["source"]
        entry["doc"] = "\n".join([entry["signature"], "", *map(_line, variants), "",
                                  *entry["notes"]])
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    """Write the JSON to the path given (default: the extension's src/builtins.json)."""
    argv = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parents[2]
    dest = Path(argv[0]) if argv else root / "extensions" / "hipwb-lab" / "src" / "builtins.json"
    dest.write_text(json.dumps(builtin_docs(), indent=1, sort_keys=True) + "\n")
    print(f"{dest}: {len(builtin_docs())} builtins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
