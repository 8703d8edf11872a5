"""The one front door: everything a notebook or script needs is ``wb.<name>``.

Notebooks import nothing but ``workbench as wb``; every public name resolves; a compiled
module hands out launchable kernels by name (the same object the magic binds); model objects
print as text and display as their views.
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest

import workbench as wb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

SRC = """
extern "C" __global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
"""


def _code_cells(path: Path):
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            if lines and lines[0].startswith("%%"):
                continue  # a cell magic: the cell is HIP (or a file), not Python
            yield "\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!")))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebooks_import_only_the_front_door(path):
    bad = []
    for code in _code_cells(path):
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import):
                bad += [a.name for a in node.names if a.name.startswith("workbench")
                        and (a.name, a.asname) != ("workbench", "wb")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("workbench"):
                bad.append(f"from {node.module} import ...")
    assert not bad, f"{path.name} imports {bad}: use `import workbench as wb` and wb.<name>"


def test_every_public_name_resolves_and_help_lists_it():
    doc = wb.__doc__
    for name in wb.__all__:
        assert getattr(wb, name) is not None, name
    for name in ("compile", "get_function", "occupancy_table", "trace_conflicts", "layout",
                 "lds_heatmap", "matrix_instruction", "SharedTile", "get_arch", "roofline"):
        assert name in doc, name


@pytest.fixture(scope="module")
def module():
    return wb.compile(SRC, "gfx942")


def test_a_module_hands_out_its_kernels_by_name(module):
    k = module["k"]
    assert isinstance(k, wb.Kernel)
    assert module.k is k and module.get_function("k") is k
    assert module["gfx942"].arch == "gfx942"
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    module.k[1, 64](x, y, 64)
    np.testing.assert_array_equal(y, 2 * x)
    with pytest.raises(KeyError, match="neither a kernel of this module \\(kernels: k\\)"):
        module["nope"]
    with pytest.raises(AttributeError, match="kernels: k"):
        _ = module.nope


def test_printed_objects_are_text_views(module):
    isa = str(module.k.isa)
    assert "; line 4:  if (i < n) y[i] = 2.0f * x[i];" in isa and "global_store_dword" in isa
    assert "<Kernel" in repr(module.k) and str(module.k).startswith("kernel k for gfx942")
    occ = str(module.k.occupancy(256))
    assert occ.startswith("gfx942 wave64, block 256: 8 of 8 waves/SIMD")
    table = str(wb.occupancy_table("gfx942", vgprs=65))
    assert "* 65-72    7" in table
    x = np.ones(64, np.float32)
    assert str(module.k.trace[1, 64](x, np.zeros_like(x), 64)).startswith("k: ")


def test_displayed_objects_carry_their_views(module):
    for obj in (module.k, module.k.occupancy(256), wb.occupancy_table("gfx942")):
        bundle = obj._repr_mimebundle_()
        assert bundle["text/plain"] == str(obj)
        assert 'class="hipwb"' in bundle["text/html"]
    isa = module.k.isa._repr_mimebundle_()  # the ISA view: summary line, then the listing
    assert re.match(r"ISA k gfx942: \d+ instructions", isa["text/plain"])
    assert "global_store_dword" in isa["text/html"]


def test_the_magic_binds_the_object_the_module_hands_out():
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "workbench")
    ip.run_cell_magic("hipkernel", "--arch gfx942 --show none", SRC)
    mod = ip.user_ns["k"].module
    assert ip.user_ns["k"] is mod["k"] is mod.k


def test_matrix_instructions_and_layouts_display_as_the_explorer():
    ins = wb.matrix_instruction("v_mfma_f32_16x16x16_bf16", "gfx942")
    assert str(ins).startswith("v_mfma_f32_16x16x16_bf16 [gfx942, wave64]")  # print: one line
    shown = ins._repr_mimebundle_()["text/plain"]
    assert shown.startswith("v_mfma_f32_16x16x16_bf16 on gfx942, operand A")
    assert str(ins.C).startswith("v_mfma_f32_16x16x16_bf16 C on gfx942")  # print: the matrix
    assert "operand C" in ins.C._repr_mimebundle_()["text/plain"]
    hi = wb.matrix_instruction("v_wmma_f16_16x16x16_f16", "gfx1100").layout("D", opsel=4)
    assert "OPSEL" in hi._repr_mimebundle_()["text/plain"].upper()


def test_public_functions_stay_functions_after_their_modules_are_imported():
    """`%hipwb doctor` and the CLI import workbench.doctor; the import system then sets the
    package attribute of that name: wb.doctor must still be the function."""
    import importlib

    import workbench as wb

    for name in ("doctor", "occupancy"):
        importlib.import_module(f"workbench.{name}")
        assert callable(getattr(wb, name)), name
