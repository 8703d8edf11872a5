"""gfx950 OCP conversions on the emulator (tests/kernels/emu/cvt_ocp_gfx950.hip): the scaled
v_cvt_scalef32_* family (fp8 / bf8 / fp4 <-> f32 with an E8M0 scale carried in an f32) and the
unscaled v_cvt_f32_fp8 / v_cvt_pk_fp8_f32, which convert OCP E4M3 on gfx950 (FNUZ on gfx942);
and the same decodes on gfx1201 (OCP, GFX12's byte_sel / op_sel select forms).

Expected values come from torch's float8_e4m3fn / float8_e5m2 codecs (round to nearest even;
inputs stay inside the finite range, where torch and AMD's host model agree) and, for fp4 E2M1,
from the OCP MX v1.0 value list with ties to the even code. Every byte/word select of the
builtins is exercised with a non-zero value.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import workbench as wb
from workbench.emu.errors import EmulatorError
from workbench.runtime.kernel import Kernel

SRC = Path(__file__).parents[1] / "kernels" / "emu" / "cvt_ocp_gfx950.hip"
FP4 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6])  # OCP MX v1.0 §5.3.3 E2M1 magnitudes, codes 0..7
TORCH = {"fp8": torch.float8_e4m3fn, "bf8": torch.float8_e5m2}


@pytest.fixture(scope="module")
def kernel():
    return Kernel(wb.compile(SRC.read_text(), "gfx950"), "cvt_ocp", device="emulator:gfx950")


def _dec8(codes: np.ndarray, kind: str) -> np.ndarray:
    t = torch.from_numpy(codes.astype(np.uint8)).view(TORCH[kind])
    return t.to(torch.float64).numpy()


def _enc8(x: np.ndarray, kind: str) -> np.ndarray:
    return torch.from_numpy(x.astype(np.float32)).to(TORCH[kind]).view(torch.uint8).numpy()


def _enc8_nosat(x: np.ndarray) -> np.ndarray:
    """E4M3 without saturation (AMD's host model of v_cvt_pk_fp8_f32 on gfx950, no clamp):
    torch's RNE code, but S.1111.111 (NaN) for what rounds past 448 (beyond the 448/480 tie)."""
    code = _enc8(x, "fp8").astype(np.uint32)
    return np.where(np.abs(x) > 464, 0x7F | np.where(np.signbit(x), 0x80, 0), code)


def _dec4(nib: np.ndarray) -> np.ndarray:
    return np.where(nib & 8, -1.0, 1.0) * FP4[nib & 7]


def _enc4(y: np.ndarray) -> np.ndarray:
    """Nearest E2M1 value, ties to the even code, saturating at 6 (E2M1 has no inf/NaN)."""
    a = np.minimum(np.abs(y), 6.0)
    dist = np.abs(a[:, None] - FP4[None, :])
    best = dist.min(axis=1, keepdims=True)
    cand = np.where(dist == best, np.arange(8), 99)
    code = np.where((cand % 2 == 0) & (cand < 99), cand, 99).min(axis=1)
    code = np.where(code == 99, cand.min(axis=1), code)
    return code | np.where(np.signbit(y), 8, 0)


def _same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    return (got == want) | (np.isnan(got) & np.isnan(want))


def test_ocp_conversions(kernel):
    rng = np.random.default_rng(5)
    n = 64
    codes = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    e = rng.integers(-3, 4, n)
    scale = np.exp2(e).astype(np.float32)
    # x / scale inside E4M3's range (|.| < 400), with exact ties and subnormals among them
    y = rng.choice([-1, 1], 2 * n) * np.exp2(rng.uniform(-11, 8.6, 2 * n))
    y[:8] = [0.5 * (1 + 1 / 16), 3.5 * 2**-9, -2.5, 5.0, 2**-10, -0.0, 7.0, 1.25]
    x = (y * np.repeat(scale, 2)).astype(np.float32)
    out_i = np.zeros(4 * n, np.uint32)
    out_f = np.zeros(8 * n, np.float32)
    kernel[1, n](x, codes, scale, out_i, out_f)
    f, o = out_f.reshape(n, 8), out_i.reshape(n, 4)
    byte = [(codes >> np.uint32(8 * k)) & 0xFF for k in range(4)]
    s = scale.astype(np.float64)
    want_f = np.stack([_dec8(byte[2], "fp8") * s, _dec8(byte[3], "fp8") * s,
                       _dec8(byte[0], "bf8") * s, _dec8(byte[1], "bf8") * s,
                       _dec4(byte[2] & 0xF) * s, _dec4(byte[2] >> 4) * s,
                       _dec8(byte[3], "fp8") * s, _dec8(byte[1], "fp8")], axis=1)
    ok = _same(f, want_f.astype(np.float32))
    assert ok.all(), f"decode: first bad (lane, slot) {np.argwhere(~ok)[:4].tolist()}"
    x0, x1 = x[0::2], x[1::2]
    y0, y1 = x0.astype(np.float64) / s, x1.astype(np.float64) / s
    lo16 = codes & np.uint32(0xFFFF)
    hi16 = codes & np.uint32(0xFFFF0000)
    want_i = np.stack([
        lo16 | ((_enc8(y0, "fp8").astype(np.uint32) | _enc8(y1, "fp8").astype(np.uint32) << 8)
                << 16),
        hi16 | _enc8(y0, "bf8").astype(np.uint32) | _enc8(y1, "bf8").astype(np.uint32) << 8,
        (codes & np.uint32(0xFFFF00FF)) | ((_enc4(y0) | _enc4(y1) << 4).astype(np.uint32) << 8),
        lo16 | ((_enc8_nosat(x0) | _enc8_nosat(x1) << 8) << 16).astype(np.uint32)], axis=1)
    assert (np.abs(x) > 464).any()  # the unscaled encode meets overflow too
    bad = np.argwhere(o != want_i)
    if bad.size:
        at = tuple(bad[0])
        raise AssertionError(f"encode: lane {at[0]} slot {at[1]}: got 0x{int(o[at]):08x}, "
                             f"want 0x{int(want_i[at]):08x}")


def test_fp4_saturates_and_non_power_of_two_scale_is_refused(kernel):
    n = 64
    x = np.tile(np.float32([7.0, -100.0]), n)  # beyond E2M1's 6: the largest magnitude
    scale = np.ones(n, np.float32)
    out_i = np.zeros(4 * n, np.uint32)
    out_f = np.zeros(8 * n, np.float32)
    kernel[1, n](x, np.zeros(n, np.uint32), scale, out_i, out_f)
    assert ((out_i.reshape(n, 4)[:, 2] >> 8) & 0xFF == 0xF7).all()  # +6 low, -6 high nibble
    scale[5] = 3.0
    with pytest.raises(EmulatorError, match=r"scale 0x40400000 \(lane 5\) is not a power of two"):
        kernel[1, n](x, np.zeros(n, np.uint32), scale, out_i, out_f)


def test_stochastic_rounding_encodes_ocp_on_gfx950_and_fnuz_on_gfx942():
    """The same v_cvt_sr_fp8_f32 gives OCP E4M3 on gfx950 and FNUZ on gfx942 (the rounding
    itself is tested in test_emu_gaps_sr.py)."""
    src = """extern "C" __global__ void sr(const float* x, unsigned* o) {
      o[threadIdx.x] = __builtin_amdgcn_cvt_sr_fp8_f32(x[threadIdx.x], 12345u, 0u, 0); }"""
    x, o = np.ones(64, np.float32), np.zeros(64, np.uint32)
    Kernel(wb.compile(src, "gfx950"), "sr", device="emulator:gfx950")[1, 64](x, o)
    assert (o & 0xFF == 0x38).all()  # OCP E4M3 1.0 (bias 7)
    Kernel(wb.compile(src, "gfx942"), "sr", device="emulator")[1, 64](x, o)
    assert (o & 0xFF == 0x40).all()  # FNUZ E4M3 1.0 (bias 8)


@pytest.mark.parametrize("wave64", [False, True])
def test_gfx1201_fp8_decode_with_byte_and_word_select(wave64):
    """RDNA4 converts the OCP formats too; GFX12 has no SDWA, so the builtins' byte/word argument
    is the VOP3 ``byte_sel:n`` (v_cvt_f32_*) or ``op_sel:[1,0]`` (v_cvt_pk_f32_*): all 256 codes
    at every byte position of the corpus kernel fp8_to_f32, against torch's decoders."""
    src = (Path(__file__).parents[1] / "kernels" / "emu" / "fp8cvt.hip").read_text()
    mod = wb.compile(src, "gfx1201", ["-mwavefrontsize64"] if wave64 else [])
    text = [i.text for i in mod.fp8_to_f32.isa_for("gfx1201")]
    assert any("byte_sel:3" in t for t in text) and any("op_sel:[1,0]" in t for t in text)
    codes = np.arange(256, dtype=np.uint32)
    words = codes | np.roll(codes, -1) << 8 | np.roll(codes, -2) << 16 | np.roll(codes, -3) << 24
    out = np.zeros((256, 16), np.float32)
    mod.fp8_to_f32.on("emulator:gfx1201")[4, 64](words, out)
    byte = [(words >> (8 * k)) & 0xFF for k in range(4)]
    for j, kind in ((0, "fp8"), (4, "bf8")):
        for k in range(4):
            np.testing.assert_array_equal(out[:, j + k], _dec8(byte[k], kind), f"{kind} {k}")
    for j, kind in ((8, "fp8"), (12, "bf8")):
        want = np.stack([_dec8(byte[k], kind) for k in range(4)], 1)
        np.testing.assert_array_equal(out[:, j:j + 4], want, f"pk {kind}")
