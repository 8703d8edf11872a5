"""The GEMM tutorial's kernels (kernels/gemm, notebook 03): every step on the emulator vs numpy.

Why: the notebook's claims (each step computes C = A . B^T exactly for integer-valued inputs,
including shapes that are not multiples of the tile) must hold for every target a step builds
for; the ISA checks pin what each step is about (the instruction that step introduces).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from workbench.emu import errors as emu_errors

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("gemm_steps", ROOT / "kernels/gemm/steps.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)

# What the emulator executes today: every bf16 step (gfx942 and gfx950), and in fp8 the steps
# that multiply on the VALU; the fp8 MFMA steps (v_mfma_scale_f32_16x16x128_f8f6f4, not emulated
# yet) are compiled and inspected below.
VALU_ONLY = {"naive", "lds_tiling"}


def _cases(emulated: bool):
    for s in S.all_steps():
        for t in S.targets(s):
            runs = t["dtype"] == "bf16" or s["name"] in VALU_ONLY
            if runs == emulated:
                yield pytest.param(s, t["arch"], t["dtype"],
                                   id=f"{s['step']}-{s['name']}-{t['arch']}-{t['dtype']}")


@pytest.mark.parametrize("s,arch,dtype", list(_cases(True)))
@pytest.mark.parametrize("shape", [(256, 256, 256), (200, 136, 256)], ids=["tiles", "edges"])
def test_step_matches_numpy(s, arch, dtype, shape):
    M, N, K = shape
    S.check_shape(s, dtype, M, N, K)
    A, B, a, b = S.inputs(M, N, K, dtype, seed=M + N)
    C = np.full((M, N), np.nan, np.float32)
    grid, block = S.launch(s, M, N, K)
    S.kernel(s, arch, dtype, device=f"emulator:{arch}")[grid, block](A, B, C, M, N, K)
    ref = S.reference(a, b)
    bad = np.argwhere(C != ref)
    assert bad.size == 0, f"{len(bad)} wrong elements, first {bad[:3].tolist()}"


# The instruction each step is about, as it must appear in the step's ISA on every target.
INTRODUCES = {
    "mfma": "v_mfma", "vector_loads": "global_load_dwordx4", "direct_lds": " lds",
    "pingpong8": "s_setprio", "interleave4": "v_mfma", "grid_remap": " lds",
}


@pytest.mark.parametrize("s,arch,dtype", list(_cases(False)))
def test_step_compiles_not_yet_emulated(s, arch, dtype):
    """Targets the emulator cannot run yet (gfx950 fp8 MFMAs): compile,
    no spills, the step's instruction is there, and the launch names what is missing."""
    mod = S.compile_step(s, arch, dtype)
    info = mod.kernels[s["kernel"]]
    assert info.resources.vgpr_spills == 0 and info.resources.sgpr_spills == 0
    isa = "\n".join(i.text for i in mod[arch].listing(s["kernel"]))
    want = INTRODUCES.get(s["name"])
    if want:
        assert want in isa
    if dtype == "fp8" and s["name"] not in ("naive", "lds_tiling"):
        assert "v_mfma_scale_f32_16x16x128_f8f6f4" in isa
    M, N, K = 256, 256, 256
    A, B, _, _ = S.inputs(M, N, K, dtype)
    C = np.zeros((M, N), np.float32)
    grid, block = S.launch(s, M, N, K)
    with pytest.raises(emu_errors.EmulatorError):
        S.kernel(s, arch, dtype, device=f"emulator:{arch}")[grid, block](A, B, C, M, N, K)


def test_gfx942_refuses_gfx950_only_steps():
    """Steps that need gfx950 fail to compile for gfx942 with a message that says so."""
    import workbench as wb

    for name in ("direct_lds", "pingpong8", "interleave4"):
        s = S.step(name)
        assert s["archs"] == ["gfx950"]
        with pytest.raises(wb.CompileError, match="gfx950"):
            wb.compile(S.source(s), arch="gfx942", include_dirs=[S.HERE])


def test_check_shape_names_the_k_multiple():
    with pytest.raises(ValueError, match="K % 128"):
        S.check_shape(S.step("pingpong8"), "fp8", 256, 256, 200)
    S.check_shape(S.step("naive"), "bf16", 3, 5, 7)
