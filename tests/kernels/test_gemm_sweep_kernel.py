"""The tile-sweep kernel of the GEMM tutorial (kernels/gemm/sweep_tiled.hip) on the emulator.

Why: notebook 03's tile sweep (tile shape x waves x K step, set with -DSWEEP_*) trusts that every
point it builds computes C = A . B^T exactly, K steps of several 128-byte K tiles (gemm_tiled.h
KT) and single/double buffering included, and that a point whose LDS does not fit fails to
compile with a clear message instead of building something wrong.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench import CompileError

ROOT = Path(__file__).resolve().parents[2]
GEMM = ROOT / "kernels/gemm"
_spec = importlib.util.spec_from_file_location("gemm_steps", GEMM / "steps.py")
S = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(S)


def _old_llvm() -> bool:
    from workbench.arch import get as get_arch
    return wb.find_toolchain().clang_major < get_arch("gfx950").min_llvm_major


pytestmark = pytest.mark.skipif(_old_llvm(), reason="this clang cannot build gfx950")


def _compile(dtype: str, BM=256, BN=256, WM=2, WN=4, KT=1, DBUF=1, **extra):
    defs = dict(SWEEP_BM=BM, SWEEP_BN=BN, SWEEP_WM=WM, SWEEP_WN=WN, SWEEP_KT=KT,
                SWEEP_DBUF=DBUF, **extra)
    if dtype == "fp8":
        defs["GEMM_FP8"] = "1"
    return wb.compile((GEMM / "sweep_tiled.hip").read_text(), "gfx950", defines=defs,
                      include_dirs=[GEMM], filename="sweep_tiled.hip")


# (BM, BN, WM, WN, KT, DBUF), dtype, (M, N, K): a K step of two tiles with and without double
# buffering, a rectangular tile, and the edge shape (M, N not multiples of the tile).
POINTS = [
    pytest.param((128, 128, 2, 2, 2, 1), "fp8", (256, 256, 512), id="128x128-w2x2-kt2-dbuf-fp8"),
    pytest.param((64, 64, 1, 1, 2, 0), "bf16", (200, 136, 512), id="64x64-w1x1-kt2-bf16-edges"),
    pytest.param((128, 256, 2, 2, 1, 1), "fp8", (200, 136, 512), id="128x256-w2x2-kt1-fp8-edges"),
]


@pytest.mark.parametrize("point,dtype,shape", POINTS)
def test_sweep_point_exact(point, dtype, shape):
    BM, BN, WM, WN, KT, DBUF = point
    M, N, K = shape
    mod = _compile(dtype, BM, BN, WM, WN, KT, DBUF)
    A, B, a, b = S.inputs(M, N, K, dtype, seed=0)
    C = np.full((M, N), np.nan, np.float32)
    grid, block = (-(-M // BM) * -(-N // BN),), (64 * WM * WN,)
    mod["gemm_sweep"].on("emulator:gfx950")[grid, block](A, B, C, M, N, K, timeout=300)
    bad = np.argwhere(C != S.reference(a, b))
    assert bad.size == 0, f"{len(bad)} wrong elements, first {bad[:3].tolist()}"


def test_sweep_lds_too_large_is_a_compile_error():
    """2 buffers x 2 K tiles x (256 + 256) rows x 128 B = 256 KiB > gfx950's 160 KiB."""
    with pytest.raises(CompileError, match="does not fit in LDS"):
        _compile("fp8", 256, 256, 2, 4, KT=2, DBUF=1)


def test_sweep_defaults_are_step9():
    """Without -DSWEEP_* the kernel is step 9's (same ISA as gemm_256), on gfx950 fp8."""
    def listing(mod, name):
        return [(i.mnemonic, i.operands) for i in mod[name].isa_for("gfx950")]

    sweep = wb.compile((GEMM / "sweep_tiled.hip").read_text(), "gfx950",
                       defines={"GEMM_FP8": "1"}, include_dirs=[GEMM], filename="sweep_tiled.hip")
    step9 = S.compile_step(S.step(9), "gfx950", "fp8")
    assert listing(sweep, "gemm_sweep") == listing(step9, "gemm_256")
