"""fp8/bf8 (FNUZ) conversion instructions on the emulator, against an independent table-based
reference (nearest representable value, ties to the even code)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.numerics.fp8 import FP8_TABLES
from workbench.runtime.kernel import Kernel

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "fp8cvt.hip").read_text()
TAB = {"fp8": FP8_TABLES["float8_e4m3fnuz"], "bf8": FP8_TABLES["float8_e5m2fnuz"]}
N = 256


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def ref_encode(x: np.ndarray, kind: str) -> np.ndarray:
    """Nearest FNUZ code by brute force over the 128 non-negative codes, ties to the even code;
    |x| at or beyond the midpoint above the largest value (whose neighbour would be the next,
    even, code) -> 0x80, as are NaN/inf; results of magnitude 0 -> 0x00 (no negative zero)."""
    pos = TAB[kind][:128]
    ax = np.abs(x.astype(np.float64))
    dist = np.abs(pos[None, :] - ax[:, None])
    best = dist.min(1, keepdims=True)
    cand = np.where(dist == best, np.arange(128)[None, :], 999)
    even = np.where(cand % 2 == 0, cand, 999).min(1)
    code = np.where(even < 999, even, cand.min(1))
    top = pos[127] + (pos[127] - pos[126]) / 2
    code = np.where(ax >= top, 0x80, code)
    code = np.where((code != 0) & (code != 0x80) & np.signbit(x), code | 0x80, code)
    return np.where(~np.isfinite(x), 0x80, code).astype(np.uint32)


def _f32_inputs(rng, n):
    x = np.concatenate([
        rng.standard_normal(n // 2) * np.exp2(rng.integers(-20, 18, n // 2)),
        rng.uniform(-300, 300, n // 4),
        rng.uniform(-7e4, 7e4, n // 8),
        [0.0, -0.0, np.inf, -np.inf, np.nan, 240.0, 247.99, 248.0, 256.0, -248.0, 57344.0,
         61439.0, 61440.0, 2.0**-10, 2.0**-11, -2.0**-11, 2.0**-17, 2.0**-18, 1.0625, 1.1875],
    ]).astype(np.float32)
    return x[:n] if len(x) >= n else np.resize(x, n)


def test_decode_every_code(mod):
    """v_cvt_f32_{fp8,bf8} for all 256 codes at every byte position, and the packed forms."""
    codes = np.arange(256, dtype=np.uint32)
    words = np.stack([np.roll(codes, -k) for k in range(4)], 1)  # word i has bytes i..i+3
    w = (words[:, 0] | words[:, 1] << 8 | words[:, 2] << 16 | words[:, 3] << 24).astype(np.uint32)
    out = np.zeros(16 * 256, np.float32)
    Kernel(mod, "fp8_to_f32", device="emulator")[4, 64](w, out)
    o = out.reshape(256, 16)
    for j, kind in enumerate(("fp8", "bf8")):
        for byte in range(4):
            want = TAB[kind][words[:, byte]].astype(np.float32)
            np.testing.assert_array_equal(o[:, 4 * j + byte], want, err_msg=f"{kind} byte {byte}")
        for word in range(2):
            for e in range(2):
                want = TAB[kind][words[:, 2 * word + e]].astype(np.float32)
                np.testing.assert_array_equal(o[:, 8 + 4 * j + 2 * word + e], want)
    assert np.isnan(o[0x80, 0]) and np.isnan(o[0x80, 4])  # FNUZ NaN


def test_encode_round_to_nearest_even(mod):
    rng = np.random.default_rng(0)
    x = _f32_inputs(rng, 2 * N)
    old = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(4 * N, np.uint32)
    Kernel(mod, "f32_to_fp8", device="emulator")[N // 64, 64](x, old, out)
    o = out.reshape(N, 4)
    a, b = x[0::2], x[1::2]
    f8 = ref_encode(a, "fp8") | ref_encode(b, "fp8") << 8
    b8 = ref_encode(a, "bf8") | ref_encode(b, "bf8") << 8
    nb8 = ref_encode(-a, "bf8") | ref_encode(b, "bf8") << 8  # source negation modifier
    np.testing.assert_array_equal(o[:, 0], (old & 0xFFFF0000) | f8)
    np.testing.assert_array_equal(o[:, 1], (old & 0x0000FFFF) | f8 << 16)
    np.testing.assert_array_equal(o[:, 2], (old & 0xFFFF0000) | b8)
    np.testing.assert_array_equal(o[:, 3], (old & 0x0000FFFF) | nb8 << 16)
    # the specials really are in the tested set: ties, overflow edge, NaN, zeros, subnormals
    assert {0x00, 0x80, 0x7F, 0xFF, 0x01} <= set(ref_encode(x, "fp8").tolist())


def test_stochastic_rounding(mod):
    """v_cvt_sr_*: always one of the two neighbours of x; seed 0 truncates toward zero; the
    high seed rounds any inexact value away from zero; unbiased on average (SR's purpose)."""
    rng = np.random.default_rng(1)
    n = 1024
    x = np.concatenate([rng.uniform(-200, 200, n // 2), rng.standard_normal(n // 2) * 1e-2])
    x = x.astype(np.float32)
    reps = 32
    xs = np.tile(x, reps)
    seeds = rng.integers(0, 2**32, xs.size, dtype=np.uint64).astype(np.uint32)
    seeds[:n] = 0
    seeds[n:2 * n] = 0xFFFFFFFF
    old = rng.integers(0, 2**32, xs.size, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(8 * xs.size, np.uint32)
    Kernel(mod, "f32_to_fp8_sr", device="emulator")[xs.size // 256, 256](xs, seeds, old, out)
    o = out.reshape(-1, 8)
    for j, kind in enumerate(("fp8", "bf8")):
        codes = []
        for byte in range(4):
            w = o[:, 4 * j + byte]
            mask = np.uint32(0xFF << (8 * byte))
            np.testing.assert_array_equal(w & ~mask, old & ~mask)  # other bytes kept
            codes.append((w >> np.uint32(8 * byte)) & 0xFF)
        for c in codes[1:]:
            np.testing.assert_array_equal(c, codes[0])  # same seed, same byte value
        v = TAB[kind][codes[0]]
        pos = TAB[kind][:128]
        ax = np.abs(xs.astype(np.float64))
        i = np.searchsorted(pos, ax, side="right") - 1
        lo, hi = pos[i], pos[np.minimum(i + 1, 127)]
        av = np.abs(v)
        assert ((av == lo) | (av == hi)).all(), kind
        assert (np.sign(v[av > 0]) == np.sign(xs[av > 0])).all()
        exact = ax == lo
        np.testing.assert_array_equal(av[:n], lo[:n])  # seed 0: truncation
        np.testing.assert_array_equal(av[n:2 * n][~exact[n:2 * n]], hi[n:2 * n][~exact[n:2 * n]])
        mean = v[2 * n:].reshape(reps - 2, n).mean(0)
        spread = (hi - lo)[:n]
        assert np.abs(mean - x).max() <= 0.5 * spread.max()
        assert np.abs(mean - x).mean() < 0.1 * spread.mean()  # unbiased within noise


def test_quantize_roundtrip(mod):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(4 * N) * 3).astype(np.float32)
    scale = np.float32(240 / 8.0)
    q = np.zeros(N, np.uint32)
    y = np.zeros(4 * N, np.float32)
    Kernel(mod, "quantize_roundtrip", device="emulator")[N // 64, 64](x, scale, q, y)
    s = np.clip((x * scale).astype(np.float32), -240, 240)
    codes = ref_encode(s, "fp8").reshape(N, 4)
    np.testing.assert_array_equal(q, codes[:, 0] | codes[:, 1] << 8 | codes[:, 2] << 16
                                  | codes[:, 3] << 24)
    np.testing.assert_array_equal(y, (TAB["fp8"][codes.reshape(-1)].astype(np.float32) / scale)
                                  .astype(np.float32))
