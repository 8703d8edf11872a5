"""gfx950 (CDNA4) keeps gfx942's MFMAs except the ones LLVM removed: the catalog's gfx950 list is
checked against LLVM's own instruction definitions, asked through its assembler (llvm-mc), and its
gfx950 pass counts against LLVM's gfx950 scheduling model (llvm-mca)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from workbench import ToolchainError, find_toolchain, layouts

try:
    TC = find_toolchain()
except ToolchainError as e:  # pragma: no cover - CI always has clang
    pytest.skip(f"no LLVM toolchain: {e}", allow_module_level=True)
if TC.clang_major < 20 or not os.path.exists(TC.tool("llvm-mc")):
    pytest.skip("gfx950 needs LLVM >= 20 (llvm-mc)", allow_module_level=True)

GFX942 = layouts.list("gfx942")
NEW_GFX950 = {f"v_mfma_f32_{s}_{t}" for s in ("16x16x32", "32x32x16") for t in ("f16", "bf16")} | {
    f"v_mfma_{sc}f32_{s}_f8f6f4" for sc in ("", "scale_") for s in ("16x16x128", "32x32x64")} | {
    "v_mfma_i32_16x16x64_i8", "v_mfma_i32_32x32x32_i8"}


def _reg(base: int, n: int) -> str:
    return f"v{base}" if n == 1 else f"v[{base}:{base + n - 1}]"


def _line(ins) -> str:
    """One instance of ``ins`` with its catalog register counts (D = C in v0..)."""
    r = ins.vgprs
    return f"{ins.name} {_reg(0, r['D'])}, {_reg(64, r['A'])}, {_reg(72, r['B'])}, " \
           f"{_reg(0, r['C'])}\n"


def _assemble(text: str, cpu: str) -> tuple[bool, str]:
    """(accepted, encoding) from ``llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=cpu -show-encoding``."""
    out = subprocess.run([TC.tool("llvm-mc"), "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                          "-show-encoding"], input=text, capture_output=True, text=True)
    enc = re.search(r"encoding: (\[[^\]]*\])", out.stdout)
    return out.returncode == 0 and enc is not None, enc[1] if enc else out.stderr.strip()


@pytest.mark.parametrize("ins", GFX942, ids=lambda i: i.name)
def test_gfx950_lists_a_gfx942_mfma_iff_llvm_assembles_it_for_gfx950(ins):
    ok942, enc942 = _assemble(_line(ins), "gfx942")
    assert ok942, enc942
    ok950, enc950 = _assemble(_line(ins), "gfx950")
    listed = ins.name in layouts.names("gfx950")
    assert listed == ok950, f"{ins.name}: llvm-mc -mcpu=gfx950 says {enc950!r}"
    if listed:  # the same instruction: same encoding, builtin, shape and layouts
        assert enc950 == enc942
        own = layouts.get(ins.name, "gfx950")
        assert (own.builtin, own.builtin_types, own.shape("A"), own.vgprs) == \
            (ins.builtin, ins.builtin_types, ins.shape("A"), ins.vgprs)
        for op in "ABCD":
            assert (own.layout(op).lane_table() == ins.layout(op).lane_table()).all()
            assert (own.layout(op).bit_table() == ins.layout(op).bit_table()).all()
        for alias in ins.aliases:  # gfx90a spellings stay LLVM aliases on gfx950
            assert _assemble(_line(ins).replace(ins.name, alias, 1), "gfx950") == (True, enc950)


def test_gfx950_is_its_new_mfmas_plus_the_kept_gfx942_ones():
    kept = {i.name for i in GFX942} - {"v_mfma_f32_16x16x8_xf32", "v_mfma_f32_32x32x4_xf32"}
    assert set(layouts.names("gfx950")) == NEW_GFX950 | kept
    assert len(kept) == 30
    # gfx950 reads OCP fp8/bf8 in the MFMAs it keeps (gfx942: FNUZ)
    assert layouts.get("v_mfma_f32_32x32x16_bf8_fp8", "gfx950").a_type == "float8_e5m2"


def _mca_passes(instrs, cpu: str) -> list[float]:
    """Reciprocal throughput per instruction from llvm-mca: the MFMA's pass count (its
    ReleaseAtCycles on the XDL/DGEMM unit in SISchedule.td)."""
    out = subprocess.run([TC.tool("llvm-mca"), "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}",
                          "-instruction-info", "-iterations=1"],
                         input="".join(_line(i) for i in instrs), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = re.findall(r"^\s+1\s+\d+\s+([\d.]+)\s.*v_mfma", out.stdout, re.M)
    assert len(rows) == len(instrs), out.stdout
    return [float(x) for x in rows]


@pytest.mark.skipif(not os.path.exists(TC.tool("llvm-mca")), reason="no llvm-mca")
def test_gfx950_passes_follow_llvms_gfx950_scheduling_model():
    kept = [i for i in layouts.list("gfx950") if i.name in {g.name for g in GFX942}]
    got = _mca_passes(kept, "gfx950")
    assert [i.passes for i in kept] == got
    assert all(i.cycles == 4 * i.passes for i in kept)
    # the one difference from gfx942: f64 16x16x4 takes 16 passes instead of 8
    diff = {i.name for i, p942 in zip(kept, _mca_passes(kept, "gfx942"), strict=True)
            if i.passes != p942}
    assert diff == {"v_mfma_f64_16x16x4_f64"}
