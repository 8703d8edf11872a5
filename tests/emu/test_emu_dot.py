"""gfx942 dot instructions (valu.dot) through the clang builtins, against numpy / exact
rationals."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "dot.hip").read_text()
N = 256


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def _elems(x: np.ndarray, bits: int, signed: bool) -> list[np.ndarray]:
    n = 32 // bits
    out = []
    for k in range(n):
        v = (x.astype(np.int64) >> (bits * k)) & ((1 << bits) - 1)
        if signed:
            v = np.where(v >= 1 << (bits - 1), v - (1 << bits), v)
        out.append(v)
    return out


def _int_dot(a, b, c, bits, signed, clamp):
    s = c.view(np.int32).astype(np.int64) if signed else c.astype(np.int64)
    for x, y in zip(_elems(a, bits, signed), _elems(b, bits, signed)):
        s = s + x * y
    if clamp:
        s = np.clip(s, -(2**31), 2**31 - 1) if signed else np.clip(s, 0, 2**32 - 1)
    return (s & 0xFFFFFFFF).astype(np.uint32)


def _f16_pairs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = x.view(np.uint16).reshape(-1, 2).view(np.float16)
    return h[:, 0], h[:, 1]


def _exact_f32(terms: list[float]) -> np.float32:
    """float32 nearest to the exact sum of finite float terms, ties to even (no double rounding)."""
    v = sum((Fraction(t) for t in terms), Fraction(0))
    f = np.float32(float(v))
    cands = [c for c in (np.nextafter(f, np.float32(-np.inf)), f,
                         np.nextafter(f, np.float32(np.inf))) if np.isfinite(c)]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - v),
                                     int(np.array(c).view(np.uint32)) & 1))


def _fdot_ref(a, b, c, neg=(1, 1, 1, 1, 1), clamp=False):
    """v_dot2_f32_f16: one rounding of a0*b0 + a1*b1 + c (neg: signs of a0, a1, b0, b1, c)."""
    a0, a1 = _f16_pairs(a)
    b0, b1 = _f16_pairs(b)
    cf = c.view(np.float32)
    out = np.empty(len(a), np.float32)
    for i in range(len(a)):
        terms = [neg[0] * neg[2] * float(a0[i]) * float(b0[i]),
                 neg[1] * neg[3] * float(a1[i]) * float(b1[i]), neg[4] * float(cf[i])]
        out[i] = _exact_f32(terms) if all(np.isfinite(terms)) else np.float32(sum(terms))
    if clamp:
        out = np.where(np.isnan(out), 0, np.clip(out, 0, 1)).astype(np.float32)
    return out


def _inputs(rng):
    a = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    c = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    c[10:40] = 0x7FFFFFFF - rng.integers(0, 100, 30)  # accumulators at the saturation edges
    c[40:70] = 0x80000000 + rng.integers(0, 100, 30)
    c[70:100] = 0xFFFFFFFF - rng.integers(0, 100, 30)
    # f16 halves: moderate values (plus a few specials) so that the f16 dots are mostly finite
    h = (rng.standard_normal((3, N, 2)) * np.exp2(rng.integers(-8, 8, (3, N, 2))))
    fa, fb = (x.astype(np.float16).view(np.uint32).reshape(N) for x in h[:2])
    fa[:4] = np.array([[np.inf, 1.0], [np.nan, 2.0], [0.0, -0.0], [65504.0, 65504.0]],
                      np.float16).view(np.uint32).reshape(4)
    fc = (h[2, :, 0] * 1e3).astype(np.float32).view(np.uint32)
    return a, b, c, fa, fb, fc


def test_builtins(mod):
    rng = np.random.default_rng(0)
    a, b, c, fa, fb, fc = _inputs(rng)
    k = Kernel(mod, "dots", device="emulator")
    out = np.zeros(14 * N, np.uint32)
    k[N // 64, 64](a, b, c, out)  # integer dots on random words
    o = out.reshape(N, 14)
    for col, (bits, signed) in enumerate([(16, True), (16, False), (8, True), (8, False),
                                          (4, True), (4, False)]):
        for clamp in (False, True):
            got = o[:, 2 + 2 * col + clamp]
            np.testing.assert_array_equal(got, _int_dot(a, b, c, bits, signed, clamp),
                                          err_msg=f"{bits}-bit signed={signed} clamp={clamp}")
    # the clamped signed dots really saturate somewhere in these inputs
    assert [k for k in range(2, 14, 2) if not (o[:, k + 1] != o[:, k]).any()] == []
    out[:] = 0
    k[N // 64, 64](fa, fb, fc, out)  # f16 dots on f16 pairs
    o = out.reshape(N, 14)
    for col, clamp in ((0, False), (1, True)):
        got = o[:, col].view(np.float32)
        want = _fdot_ref(fa, fb, fc, clamp=clamp)
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
    assert np.isinf(o[0, 0].view(np.float32)) and np.isnan(o[1, 0].view(np.float32))


def test_dot_modifiers(mod):
    """neg_lo/neg_hi per f16 element and neg_lo on the f32 accumulator (VOP3P NEG fields)."""
    rng = np.random.default_rng(1)
    _a, _b, _c, fa, fb, fc = _inputs(rng)
    fa, fb = fa[8:72], fb[8:72]
    cf = fc[8:72].view(np.float32)
    out = np.zeros(128, np.float32)
    Kernel(mod, "fdot_mods", device="emulator")[1, 64](fa, fb, cf, out)
    np.testing.assert_array_equal(out[0::2], _fdot_ref(fa, fb, cf.view(np.uint32),
                                                       neg=(-1, 1, 1, 1, -1)))
    np.testing.assert_array_equal(out[1::2], _fdot_ref(fa, fb, cf.view(np.uint32),
                                                       neg=(1, -1, 1, -1, 1)))


def test_int8_gemv_accumulates_with_dot4c(mod):
    assert any(i.mnemonic == "v_dot4c_i32_i8_e32" for i in mod["gfx942"].listing("gemv_i8"))
    rng = np.random.default_rng(2)
    rows, kw = 128, 16
    A8 = rng.integers(-128, 128, (rows, 4 * kw)).astype(np.int8)
    x8 = rng.integers(-128, 128, 4 * kw).astype(np.int8)
    y = np.zeros(rows, np.int32)
    Kernel(mod, "gemv_i8", device="emulator")[rows // 64, 64](A8.view(np.int32), x8.view(np.int32),
                                                              y, kw)
    np.testing.assert_array_equal(y, A8.astype(np.int64) @ x8.astype(np.int64))


def test_fdot2c_with_shuffled_halves(mod):
    rng = np.random.default_rng(3)
    h = (rng.standard_normal((2, 64, 2)) * 4).astype(np.float16)
    a, b = (x.view(np.uint32).reshape(64) for x in h)
    out = np.zeros(64, np.float32)
    Kernel(mod, "fdot_swapped", device="emulator")[1, 64](a, b, out)
    # (-a.x) * b.y + a.y * b.x + 0.5, one rounding
    swapped = h[1][:, ::-1].copy().view(np.uint32).reshape(64)
    half = np.full(64, np.float32(0.5)).view(np.uint32)
    np.testing.assert_array_equal(out, _fdot_ref(a, swapped, half, neg=(-1, 1, 1, 1, 1)))


def test_dot4c_formed_from_plain_code(mod):
    assert any(i.mnemonic == "v_dot4c_i32_i8_e32" for i in mod["gfx942"].listing("char4_dot"))
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (N, 4)).astype(np.int8)
    b = rng.integers(-128, 128, (N, 4)).astype(np.int8)
    o = rng.integers(-2**20, 2**20, N).astype(np.int32)
    want = (a.astype(np.int64) * b).sum(1) + o
    Kernel(mod, "char4_dot", device="emulator")[N // 64, 64](a, b, o)
    np.testing.assert_array_equal(o, want)


def test_dot2c_dpp(mod):
    rng = np.random.default_rng(5)
    h = (rng.standard_normal((2, 64, 2)) * 4).astype(np.float16)
    a, b = (x.view(np.uint32).reshape(64) for x in h)
    acc = rng.standard_normal(64).astype(np.float32)
    want = _fdot_ref(a[np.arange(64) ^ 1], b, acc.view(np.uint32))
    Kernel(mod, "dot2c_dpp", device="emulator")[1, 64](a, b, acc)
    np.testing.assert_array_equal(acc, want)
