"""wb.wave's errors: a launch with another block than the kernel requires, arrays of the wrong
shape, dtype or kind named by the Wave parameter, Wave compile failures naming what failed,
options hipwb owns, and (whether or not wave-lang is installed: the import is made to fail)
the install hint when the optional package is missing."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import workbench as wb
from workbench.errors import ArgumentTypeError, ArgumentValueError, HipwbError, LaunchError
from workbench.wave_front import WaveNotInstalled

# One xdist worker runs every Wave test, so no two processes write the same kernel into Wave's
# on-disk cache (~/.wave) at once (its lock is a thread lock: wave_lang/kernel/wave/cache.py).
pytestmark = pytest.mark.xdist_group("wave_front")


@pytest.fixture(scope="module")
def gemm():
    pytest.importorskip("wave_lang", reason="the optional wave-lang package is not installed "
                        "(pip install 'hip-workbench[wave]'; make setup installs it)")
    from wave_lang.kernel.wave.constraints import MMAType
    from wave_lang.kernel.wave.templates.gemm import get_gemm_kernel

    fn, hyper, _ = get_gemm_kernel((64, 64, 64), False, MMAType.F32_16x16x16_F16)
    return wb.wave(fn, hyper), fn, hyper


def _operands(m=64, n=64, k=64):
    rng = np.random.default_rng(0)
    return (rng.standard_normal((m, k)).astype(np.float16),
            rng.standard_normal((n, k)).astype(np.float16), np.zeros((m, n), np.float32))


# -- launches ------------------------------------------------------------------------------
def test_a_block_other_than_the_required_one_is_refused(gemm):
    kern, _, _ = gemm
    a, b, c = _operands()
    assert kern.kernel.info().reqd_workgroup_size == (128, 2, 1)
    for launch in (kern.kernel[kern.grid, (256, 1, 1)], kern.kernel.trace[kern.grid, 64],
                   kern.kernel.check[kern.grid, (128, 1, 1)]):
        with pytest.raises(LaunchError, match=r"gemm requires block \(128, 2, 1\), got"):
            launch(a, b, c)
    with pytest.raises(LaunchError, match=r"requires block \(128, 2, 1\)"):
        kern.kernel.timing[kern.grid, (64, 4, 1)](a, b, c, chip="mi300x")
    assert not c.any()  # nothing ran


def test_a_wrong_shape_names_the_argument(gemm):
    kern, _, _ = gemm
    a, b, c = _operands()
    with pytest.raises(LaunchError, match=r"argument b \(Memory\[N, K\]\.of\(f16\)\) must have "
                                          r"shape \(64, 64\) \(N=64, K=64; .*got \(64, 32\)"):
        kern(a, b[:, :32].copy(), c)
    with pytest.raises(LaunchError, match=r"argument c .* must have shape \(64, 64\).*got "
                                          r"\(64, 64, 1\)"):
        kern(a, b, c[..., None])


def test_a_wrong_dtype_names_the_argument(gemm):
    kern, _, _ = gemm
    a, b, c = _operands()
    with pytest.raises(LaunchError, match=r"argument a \(Memory\[M, K\]\.of\(f16\)\) holds "
                                          r"float16 elements, got a float32 ndarray"):
        kern(a.astype(np.float32), b, c)
    torch = pytest.importorskip("torch")
    with pytest.raises(LaunchError, match=r"argument c .* holds float32 elements, got a "
                                          r"float16 Tensor"):
        kern(torch.from_numpy(a), torch.from_numpy(b), torch.zeros(64, 64, dtype=torch.float16))


def test_wrong_count_and_kind_are_named(gemm):
    kern, _, _ = gemm
    a, b, c = _operands()
    with pytest.raises(LaunchError, match=r"gemm\(a, b, c\) takes 3 argument\(s\) but 2"):
        kern(a, b)
    with pytest.raises(LaunchError, match=r"argument b .* is a buffer but got int"):
        kern(a, 3, c)
    with pytest.raises(LaunchError, match=r"argument c .* is written by the kernel, so it must "
                                          r"be contiguous in memory \(Wave would write a "
                                          r"contiguous copy and drop it\)"):
        kern(a, b, np.zeros((64, 128), np.float32)[:, ::2])


def test_what_waves_launchers_take_an_input_may_be(gemm):
    """As Wave's launchers (wave_lang/runtime/launch.py; run_utils.invoke_with_wave_runtime):
    a strided input runs as a contiguous copy (its decode attention test passes v.permute()),
    and an input may be longer in its first dimension, which no address depends on (its paged
    decode attention passes S + 1 offsets for Memory[S]); an output may be neither, and a float
    buffer takes no other element type of its width."""
    kern, _, _ = gemm
    a, b, c = _operands()
    wide = np.zeros((64, 128), np.float16)
    wide[:, ::2] = a
    longer = np.concatenate([b, np.full((16, 64), np.nan, np.float16)])
    kern(wide[:, ::2], longer, c)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32).T, atol=2e-4,
                               rtol=1e-5)
    assert wide[:, 1::2].sum() == 0  # the copy was read, the caller's array left alone
    with pytest.raises(LaunchError, match=r"argument c .* must have shape \(64, 64\).*got "
                                          r"\(80, 64\)"):
        kern(a, b, np.zeros((80, 64), np.float32))
    with pytest.raises(LaunchError, match=r"argument b .* must have shape \(64, 64\).*got "
                                          r"\(48, 64\)"):
        kern(a, b[:48].copy(), c)
    with pytest.raises(LaunchError, match=r"argument c .* holds float32 elements, got a int32"):
        kern(a, b, np.zeros((64, 64), np.int32))


# -- wb.wave's arguments and Wave's compile errors -----------------------------------------
def test_a_manual_schedule_goes_with_schedule_manual(gemm):
    from wave_lang.kernel.wave.scheduling.schedule_enums import SchedulingType

    _, fn, hyper = gemm
    with pytest.raises(ArgumentValueError, match=r"schedule=SchedulingType.MANUAL needs the "
                                                 r"manual schedule: give it as wave_schedule="):
        wb.wave(fn, hyper, schedule=SchedulingType.MANUAL)
    with pytest.raises(ArgumentValueError, match=r"wave_schedule must be a manual schedule .*"
                                                 r"got function"):
        wb.wave(fn, hyper, wave_schedule=lambda: None, schedule=SchedulingType.MANUAL)
    from wave_lang.kernel.wave.wave_schedule import wave_schedule

    @wave_schedule()
    def nothing():
        pass

    with pytest.raises(ArgumentValueError, match=r"runs a wave_schedule only with "
                                                 r"schedule=SchedulingType.MANUAL"):
        wb.wave(fn, hyper, wave_schedule=nothing)

def test_a_missing_hyperparameter_is_named(gemm):
    _, fn, hyper = gemm
    h = {k: v for k, v in hyper.items() if str(k) != "BLOCK_M"}
    with pytest.raises(HipwbError, match=r"Wave could not compile gemm for gfx942: .*BLOCK_M has "
                                         r"no value: give it in hyperparams"):
        wb.wave(fn, h)


def test_an_iree_failure_says_what_failed(gemm):
    _, fn, hyper = gemm
    from workbench.wave_front import WaveCompileError

    with pytest.raises(WaveCompileError, match=r"(?s)Wave could not compile gemm for gfx1100: "
                                               r"IREE's compiler \(iree-compile\) failed:.*MFMA "
                                               r"only supported on gfx908\+") as e:
        wb.wave(fn, hyper, arch="gfx1100")  # an MFMA kernel for an RDNA3 target
    assert e.value.arch == "gfx1100"
    assert str(e.value).count("MFMA only supported") == 1  # IREE's repeats shown once


def test_options_and_kernel_are_checked(gemm):
    kern, fn, hyper = gemm
    with pytest.raises(ArgumentValueError, match=r"unknown Wave option\(s\) wavez_per_eu; "
                                                 r"WaveCompileOptions takes: .*waves_per_eu"):
        wb.wave(fn, hyper, wavez_per_eu=2)
    with pytest.raises(ArgumentValueError, match=r"target= is set by arch="):
        wb.wave(fn, hyper, target="gfx950")
    with pytest.raises(ArgumentValueError, match=r"wave_runtime=True: hipwb compiles with "
                                                 r"wave_runtime=False"):
        wb.wave(fn, hyper, wave_runtime=True)
    with pytest.raises(ArgumentTypeError, match=r"kernel must be a @tkw.wave kernel, got "
                                                r"function \(decorate"):
        wb.wave(lambda a, b, c: None, hyper)
    with pytest.raises(ArgumentTypeError, match=r"wb.wave.*hyperparams"):
        wb.wave(fn, [1, 2])
    with pytest.raises(ArgumentValueError, match=r"arch 'gfx9999'"):
        wb.wave(fn, hyper, arch="gfx942,gfx9999")


# -- without the optional package ----------------------------------------------------------
@pytest.fixture
def no_wave(monkeypatch):
    monkeypatch.setitem(sys.modules, "wave_lang", None)  # `import wave_lang` raises ImportError


def test_wb_wave_says_how_to_install(no_wave):
    with pytest.raises(WaveNotInstalled, match=r"wb.wave needs the optional package wave-lang "
                                               r"\(hipwb is tested with wave-lang==3.9.1, "
                                               r"iree-base-compiler==3.9.0, iree-base-runtime=="
                                               r"3.9.0\).*pip install 'hip-workbench\[wave\]'"):
        wb.wave(lambda: None, {})
    assert issubclass(WaveNotInstalled, ImportError) and issubclass(WaveNotInstalled, HipwbError)


def test_doctor_reports_wave():
    from workbench.wave_front import version

    checks = {c.name: c.value for c in wb.doctor().sections["Python"]}
    v = version()
    assert checks["wave-lang"].startswith(v if v else "not installed")
