"""The MODE register on the emulator (scalar.mode): s_getreg reads the descriptor's float modes,
constant s_setreg writes switch the denormal mode of the code that follows, and anything the
emulator cannot follow (run-time values it was not compiled for, rounding modes, branches
between differently compiled code, other hardware registers) raises."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.errors import EmulatorError, UnknownInstruction
from workbench.emu.semantics.scalar.mode import mode_from_descriptor
from workbench.runtime.kernel import Kernel

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "mode.hip").read_text()
F32_TINY = np.float32(2.0**-126)


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


@pytest.fixture(scope="module")
def mod_ftz():
    return wb.compile(SRC, "gfx942", options=("-fgpu-flush-denormals-to-zero",))


def _flush(x: np.ndarray) -> np.ndarray:
    return np.where(np.abs(x) < F32_TINY, np.copysign(np.float32(0), x), x).astype(np.float32)


def test_getreg_reads_the_descriptor_modes(mod, mod_ftz):
    for m, want in ((mod, 0x3F0), (mod_ftz, 0x3C0)):
        # HIP defaults: f32 and f64/f16 denormals kept (3, 3) -> 0xF0, DX10_CLAMP and IEEE on
        # -> 0x300; -fgpu-flush-denormals-to-zero sets the f32 field to 0 (flush in and out)
        desc = m["gfx942"].kernel("read_mode").descriptor
        assert mode_from_descriptor(desc) == want
        out = np.zeros(64, np.uint32)
        Kernel(m, "read_mode", device="emulator")[1, 64](out)
        assert (out == want).all()


def test_flush_window_switches_denormal_handling(mod):
    x = np.array([1e-40, -3e-39, 1.0, 2.0**-126, -2.0**-149] * 13, np.float32)[:64]
    o = np.zeros(128, np.float32)
    m = np.zeros(64, np.uint32)
    Kernel(mod, "flush_window", device="emulator")[1, 64](x, o, m)
    np.testing.assert_array_equal(o[0::2].view(np.uint32), _flush(x).view(np.uint32))
    np.testing.assert_array_equal(o[1::2], x)
    assert (m == 0xC).all()  # MODE[7:4] inside the window: f32 0 (flush), f64/f16 3


def test_division_with_flushed_denormals(mod_ftz):
    """-fgpu-flush-denormals-to-zero: LLVM turns f32 denormals on around the Newton-Raphson
    core of a/b (s_setreg_imm32_b32 ... 3 / ... 0); the result is the correctly rounded
    quotient of the flushed inputs, flushed."""
    lst = mod_ftz["gfx942"].listing("fdiv_kernel")
    assert sum(i.mnemonic == "s_setreg_imm32_b32" for i in lst) == 2
    rng = np.random.default_rng(0)
    n = 1024
    a = (rng.standard_normal(n) * np.exp2(rng.integers(-140, 120, n))).astype(np.float32)
    b = (rng.standard_normal(n) * np.exp2(rng.integers(-140, 120, n))).astype(np.float32)
    a[:8] = [1e-40, 1.0, 3.0, 1e-38, 0.0, np.inf, 2.0**-100, 1.5e-38]
    b[:8] = [1.0, 1e-40, 7.0, 3.0, 5.0, 2.0, 2.0**30, 1.0 + 2.0**-23]
    o = np.zeros(n, np.float32)
    Kernel(mod_ftz, "fdiv_kernel", device="emulator")[n // 64, 64](a, b, o)
    with np.errstate(all="ignore"):
        want = _flush((_flush(a).astype(np.float64) / _flush(b)).astype(np.float32))
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(o), nan)
    np.testing.assert_array_equal(o[~nan].view(np.uint32), want[~nan].view(np.uint32))
    # flushed results and flushed inputs really occur in the sample
    assert ((want == 0) & (a != 0) & np.isfinite(b)).sum() > 10 and want[0] == 0


def test_division_full_range_is_correctly_rounded(mod):
    """The default-mode f32 division sequence (v_div_scale, v_rcp, fma steps, v_div_fmas,
    v_div_fixup) gives the correctly rounded quotient over the whole f32 range — subnormal
    operands and results, overflow to inf, underflow to 0, specials."""
    rng = np.random.default_rng(1)
    n = 16384
    with np.errstate(over="ignore"):
        a = (rng.standard_normal(n) * np.exp2(rng.integers(-149, 128, n))).astype(np.float32)
        b = (rng.standard_normal(n) * np.exp2(rng.integers(-149, 128, n))).astype(np.float32)
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, 1.0], np.float32)
    a[:64], b[:64] = np.repeat(sp, 8), np.tile(sp, 8)
    o = np.zeros(n, np.float32)
    Kernel(mod, "fdiv_kernel", device="emulator")[n // 256, 256](a, b, o)
    # f64 quotient, then f32: no double-rounding issue (53 >= 2*24 + 2 bits)
    with np.errstate(all="ignore"):
        want = (a.astype(np.float64) / b).astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(o), nan)
    np.testing.assert_array_equal(o[~nan].view(np.uint32), want[~nan].view(np.uint32))


def test_setreg_from_an_sgpr(mod):
    out = np.zeros(64, np.uint32)
    Kernel(mod, "set_from_sgpr", device="emulator")[1, 64](3, out)  # the mode in force
    assert (out == 3).all()
    with pytest.raises(EmulatorError, match="compiled for"):
        Kernel(mod, "set_from_sgpr", device="emulator")[1, 64](0, out)


def test_rounding_mode_change_is_refused(mod):
    with pytest.raises(EmulatorError, match="toward zero"):
        Kernel(mod, "round_toward_zero", device="emulator")[1, 64](
            np.zeros(64, np.float32), np.zeros(64, np.float32))


def test_branch_into_differently_compiled_code(mod):
    o = np.zeros(64, np.float32)
    Kernel(mod, "skip_restore", device="emulator")[1, 64](0, o)  # falls through the restore
    assert (o == 1).all()
    with pytest.raises(EmulatorError, match="compiled for MODE"):
        Kernel(mod, "skip_restore", device="emulator")[1, 64](1, o)


def test_hw_id_reads_the_modelled_placement(mod):
    """HW_ID (CDNA3 ISA: WAVE_ID 3:0, SIMD_ID 5:4, CU_ID 11:8): block d on CU d mod 16, wave
    k of a block on SIMD k mod 4, slot k // 4 (scalar.mode's documented model)."""
    o = np.zeros(18 * 128, np.uint32)
    Kernel(mod, "read_hw_id", device="emulator")[18, 128](o)
    d, k = np.arange(18)[:, None], np.arange(2)[None, :]
    want = (k // 4) | (k % 4) << 4 | (d % 16) << 8
    np.testing.assert_array_equal(o.reshape(18, 2, 64), np.repeat(want[:, :, None], 64, 2))


def test_other_hardware_registers_are_refused(mod):
    with pytest.raises(UnknownInstruction, match="HW_REG_GPR_ALLOC"):
        Kernel(mod, "read_gpr_alloc", device="emulator")[1, 64](np.zeros(64, np.uint32))
