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

import workbench as wb

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gemm_steps", ROOT / "kernels/gemm/steps.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)

def _cases():
    from workbench.arch import get as get_arch
    tc = wb.find_toolchain()
    for s in S.all_steps():
        for t in S.targets(s):
            # gfx950 steps need LLVM >= 20 (Arch.min_llvm_major); a pinned LLVM 19 skips them.
            old = tc.clang_major < get_arch(t["arch"]).min_llvm_major
            yield pytest.param(s, t["arch"], t["dtype"],
                               id=f"{s['step']}-{s['name']}-{t['arch']}-{t['dtype']}",
                               marks=pytest.mark.skipif(
                                   old, reason=f"clang {tc.clang_major} cannot build {t['arch']}"))


# make test: every step on every target, in one of the two shapes (alternating from one to the
# next); make test FULL=1: both shapes everywhere.
@pytest.mark.sample(every=2, per=("s", "arch", "dtype"))
@pytest.mark.parametrize("s,arch,dtype", list(_cases()))
@pytest.mark.parametrize("shape", [(256, 256, 256), (200, 136, 256)], ids=["tiles", "edges"])
def test_step_matches_numpy(s, arch, dtype, shape):
    M, N, K = shape
    S.check_shape(s, dtype, M, N, K)
    A, B, a, b = S.inputs(M, N, K, dtype, seed=M + N)
    C = np.full((M, N), np.nan, np.float32)
    grid, block = S.launch(s, M, N, K)
    # timeout: the emulator's wall-clock watchdog (a few seconds by default) is for runaway
    # loops; a loaded CI machine needs more for the 1024-thread and naive kernels.
    S.kernel(s, arch, dtype, device=f"emulator:{arch}")[grid, block](A, B, C, M, N, K,
                                                                      timeout=300)
    ref = S.reference(a, b)
    bad = np.argwhere(C != ref)
    assert bad.size == 0, f"{len(bad)} wrong elements, first {bad[:3].tolist()}"


# The instruction each step is about, as it must appear in the step's ISA on every target.
INTRODUCES = {
    "mfma": "v_mfma", "vector_loads": "global_load_dwordx4", "direct_lds": " lds",
    "swizzle": "ds_read", "pingpong8": "s_setprio", "interleave4": "buffer_load_dwordx4",
    "grid_remap": "s_setprio",
}


@pytest.mark.parametrize("s,arch,dtype", list(_cases()))
def test_step_isa(s, arch, dtype):
    """No spills; the instruction the step introduces is in its ISA; fp8 uses the f8f6f4 MFMA."""
    mod = S.compile_step(s, arch, dtype)
    info = mod.kernels[s["kernel"]]
    assert info.resources.vgpr_spills == 0 and info.resources.sgpr_spills == 0
    isa = "\n".join(i.text for i in mod[arch].listing(s["kernel"]))
    want = INTRODUCES.get(s["name"])
    if want:
        assert want in isa
    if s["name"] in ("naive", "lds_tiling"):
        assert "v_mfma" not in isa
    elif dtype == "fp8":
        assert "v_mfma_scale_f32_16x16x128_f8f6f4" in isa
    else:
        shape = "16x16x32" if arch == "gfx950" else "16x16x16"
        assert f"v_mfma_f32_{shape}_bf16" in isa


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
