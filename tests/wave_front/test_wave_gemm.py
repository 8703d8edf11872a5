"""wb.wave on Wave's own GEMM template (wave_lang/kernel/wave/templates/gemm.py): fp16 inputs,
fp32 accumulation through MMAType.F32_16x16x16_F16, 1024^3, compiled for gfx942 by Wave and
run on emulator:gfx942 against torch; the resources, ISA, MLIR and modelled timing of the very
code object; dynamic dimensions read from the arrays as Wave reads them."""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("wave_lang", reason="the optional wave-lang package is not installed "
                    "(pip install 'hip-workbench[wave]'; make setup installs it)")
torch = pytest.importorskip("torch")

from wave_lang.kernel.wave.constraints import MMAType  # noqa: E402
from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel  # noqa: E402

import workbench as wb  # noqa: E402
from workbench.wave_front import WaveKernel, WaveModule  # noqa: E402

# One xdist worker runs every Wave test, so no two processes write the same kernel into Wave's
# on-disk cache (~/.wave) at once (its lock is a thread lock: wave_lang/kernel/wave/cache.py).
pytestmark = pytest.mark.xdist_group("wave_front")

SIZE = 1024
# Wave's test of this GEMM form (fp16 x fp16 -> fp32 through MFMA) compares with a reference
# matmul at atol=2e-4, rtol=1e-5: iree-org/wave tests/kernel/wave/wave_gemm_test.py line 433
# (testGemmSmallTiles, tag v3.9.1). Its testPureGemm uses torch's default float32 tolerance
# against IREE's GPU matmul, which sums in a similar order; torch's CPU matmul sums in another,
# which at K=1024 moves the result by up to ~8e-5 (fp32 rounding), inside atol=2e-4.
ATOL, RTOL = 2e-4, 1e-5


@pytest.fixture(scope="module")
def gemm():
    fn, hyper, _ = get_gemm_kernel((SIZE, SIZE, SIZE), False, MMAType.F32_16x16x16_F16)
    t0 = time.perf_counter()
    kern = wb.wave(fn, hyper, arch="gfx942")
    kern.compile_seconds = time.perf_counter() - t0
    return kern, fn, hyper


@pytest.fixture(scope="module")
def operands():
    torch.manual_seed(0)
    a = torch.randn(SIZE, SIZE, dtype=torch.float16)
    b = torch.randn(SIZE, SIZE, dtype=torch.float16)
    return a, b


def test_gemm_1024_matches_torch_on_the_emulator(gemm, operands, capsys):
    kern, _, _ = gemm
    a, b = operands
    c = torch.full((SIZE, SIZE), float("nan"))
    t0 = time.perf_counter()
    res = kern.on("emulator:gfx942")(a, b, c)
    seconds = time.perf_counter() - t0
    ref = a.float() @ b.float().T
    torch.testing.assert_close(c, ref, atol=ATOL, rtol=RTOL)
    assert res.grid == (16, 16, 1) and res.block == (128, 2, 1)  # Wave's launch info
    with capsys.disabled():
        print(f"\nwave gemm {SIZE}^3: compile {kern.compile_seconds:.2f} s "
              f"({kern.module.origin['gfx942']}), emulation {seconds:.2f} s, "
              f"max |c - torch| {float((c - ref).abs().max()):.2e}")


def test_numpy_arrays_launch_the_same(gemm, operands):
    kern, _, _ = gemm
    a, b = (x.numpy() for x in operands)
    c = np.zeros((SIZE, SIZE), np.float32)
    kern(a, b, c)  # the default device: the emulator here
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    np.testing.assert_allclose(c, ref, atol=ATOL, rtol=RTOL)


def test_resources_are_the_code_objects(gemm):
    kern, _, _ = gemm
    info = kern.kernel.info("gfx942")
    r = kern.resources
    assert (r.vgprs, r.lds_bytes) == (52, 9216)
    assert r == info.resources  # read from the code object's metadata
    assert kern.module.launch_info.shared_memory_bytes == r.lds_bytes  # Wave's own count
    assert info.reqd_workgroup_size == (128, 2, 1) == kern.block
    # the arguments carry the Wave function's names; the written buffer is not const
    assert info.signature == "gemm(const _Float16 *a, const _Float16 *b, float *c)"
    occ = kern.occupancy()
    assert occ.waves_per_simd >= 1


def test_isa_and_mlir(gemm):
    kern, _, _ = gemm
    mnemonics = {i.mnemonic for i in kern.isa}
    assert "v_mfma_f32_16x16x16_f16" in mnemonics
    assert "func.func @gemm" in kern.mlir and kern.mlir == kern.module.mlir_for("gfx942")
    assert isinstance(kern.module, WaveModule) and kern.archs == ("gfx942",)


def test_timing_on_mi300x_is_modelled(gemm, operands):
    kern, _, _ = gemm
    a, b = operands
    rep = kern.timing(a, b, torch.zeros(SIZE, SIZE), chip="mi300x")
    assert rep.chip.name == "mi300x" and rep.seconds > 0
    assert "modelled" in rep.summary()


def test_compiles_once_per_kernel_hyperparams_arch_and_options(gemm):
    kern, fn, hyper = gemm
    assert wb.wave(fn, hyper, arch="gfx942") is kern
    assert isinstance(kern, WaveKernel) and kern.signature == "gemm(a, b, c)"
    assert kern.grid == (16, 16, 1)


def test_dynamic_dimensions_come_from_the_arrays():
    """M and N dynamic: one code object serves several shapes; the grid is Wave's grid
    function at the arrays' sizes, the sizes reach the kernel as Wave's runtime passes them."""
    fn, hyper, dyn = get_gemm_kernel((128, 128, 64), (True, True, False),
                                     MMAType.F32_16x16x16_F16)
    kern = wb.wave(fn, hyper, dynamic_symbols=dyn)
    assert [a.name for a in kern.kernel.info().args][3:] == ["M_lo", "M_hi", "N_lo", "N_hi"]
    torch.manual_seed(1)
    for m, n in ((128, 192), (64, 128)):
        a = torch.randn(m, 64, dtype=torch.float16)
        b = torch.randn(n, 64, dtype=torch.float16)
        c = torch.zeros(m, n)
        assert kern.grid_for(a, b, c) == (m // 64, n // 64, 1)
        kern(a, b, c)
        assert kern.grid == (m // 64, n // 64, 1)
        torch.testing.assert_close(c, a.float() @ b.float().T, atol=ATOL, rtol=RTOL)


def test_one_code_object_per_arch():
    fn, hyper, _ = get_gemm_kernel((128, 128, 64), False, MMAType.F32_16x16x16_F16)
    kern = wb.wave(fn, hyper, arch="gfx942,gfx950")
    assert kern.archs == ("gfx942", "gfx950")
    assert kern.module["gfx950"].elf != kern.module["gfx942"].elf
    # both stage A and B through LDS: Wave's promotion rewrites the kernel's memory types in
    # place, and a second compile of the same kernel must not see that (build.py)
    for arch in kern.archs:
        assert kern.kernel.info(arch).resources.lds_bytes > 0
        assert kern.module.mlir_for(arch).count("memref.alloc") >= 1
        assert "s_barrier" in {i.mnemonic for i in kern.isa_for(arch)}
    again = wb.wave(fn, hyper, arch="gfx950", waves_per_eu=2)  # a third compile of fn
    assert again.resources.lds_bytes == kern.kernel.info("gfx950").resources.lds_bytes
    torch.manual_seed(2)
    a = torch.randn(128, 64, dtype=torch.float16)
    b = torch.randn(128, 64, dtype=torch.float16)
    for arch in kern.archs:
        c = torch.zeros(128, 128)
        kern.on(f"emulator:{arch}")(a, b, c)
        torch.testing.assert_close(c, a.float() @ b.float().T, atol=ATOL, rtol=RTOL)
        assert "v_mfma_f32_16x16x16_f16" in {i.mnemonic for i in kern.isa_for(arch)}


def test_trace_and_check_run_the_same_code_object():
    fn, hyper, _ = get_gemm_kernel((128, 128, 64), False, MMAType.F32_16x16x16_F16)
    kern = wb.wave(fn, hyper)
    torch.manual_seed(3)
    a = torch.randn(128, 64, dtype=torch.float16)
    b = torch.randn(128, 64, dtype=torch.float16)
    c = torch.zeros(128, 128)
    trace = kern.trace(a, b, c)
    assert isinstance(trace, wb.Trace)
    torch.testing.assert_close(c, a.float() @ b.float().T, atol=ATOL, rtol=RTOL)
    conflicts = wb.trace_conflicts(trace, source=kern.kernel)
    assert conflicts.instructions  # Wave's LDS reads and writes, per instruction
    report = kern.check(a, b, c.zero_())
    assert not report and report.completed, report.text()
    torch.testing.assert_close(c, a.float() @ b.float().T, atol=ATOL, rtol=RTOL)
