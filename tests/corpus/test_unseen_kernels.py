"""Ordinary HIP kernels written fresh for this test run unchanged on every emulated arch.

tests/kernels/unseen/ (README there) holds everyday idioms — wave and block reductions,
histograms, CAS loops, scans, padded transposes, templates picked by name, fp16/bf16, double
math, runtime integer division, structs by value, vector types, amdgcn builtins, printf,
layernorm/softmax rows, conv2d, SpMV, bitonic sort, and MFMA/WMMA GEMM tiles. Each kernel is
compiled with hipwb's offline prelude and run on the emulator of gfx942, gfx950, gfx1100
(wave32) and gfx1201 (wave32) where the feature exists, and checked against numpy.

Tolerances: integer, bitwise and pure data-movement results are exact. Float results that sum
in a different order than numpy get rtol 1e-5 relative to the sum of magnitudes; transcendental
results are held to the ulp bounds the prelude documents; matrix-core tiles are exact, since
fp16 products are exact in fp32 and the inputs are small integers, so every partial sum is an
exactly representable integer whatever the accumulation order.
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from unseen_harness import kernel, wave_size

import workbench as wb

HERE = Path(__file__).parents[1] / "kernels" / "unseen"
ALL = ("gfx942", "gfx950", "gfx1100", "gfx1201")


# RDNA in wave64 (-mwavefrontsize64), for the kernels whose lane arithmetic depends on warpSize
W64 = ("gfx1100-w64", "gfx1201-w64")


# other optimisation levels select other instructions: -O1 keeps small private arrays in
# VGPRs indexed at run time (gfx9's s_set_gpr_idx_on, RDNA's v_movrels/v_movreld); -O0 makes
# recursion a real call stack (a dynamic stack: HIP's default 1 KiB per thread)
O1 = tuple(f"{a}-O1" for a in ALL)
O0 = tuple(f"{a}-O0" for a in ALL)


_k = functools.partial(kernel, HERE)
_ws = wave_size


def _rng(seed: int = 7) -> np.random.Generator:
    return np.random.default_rng(seed)


def _close_sum(got, terms, axis=None, rtol=1e-5):
    """A float sum against numpy's, within rtol of the sum of magnitudes (order differs)."""
    want = np.sum(terms.astype(np.float64), axis=axis)
    scale = np.sum(np.abs(terms.astype(np.float64)), axis=axis)
    assert np.all(np.abs(got - want) <= rtol * scale + 1e-30), (got, want)


# ---------------------------------------------------------------- wave-level reductions

def warp_sum(arch):
    ws = _ws(arch)
    x = _rng().standard_normal(256).astype(np.float32)
    out = np.zeros(256 // ws, np.float32)
    _k("warp_reduce.hip", "wave_sum_shfl_down", arch)[2, 128](x, out)
    _close_sum(out, x.reshape(-1, ws), axis=1)


def warp_max_xor(arch):
    ws = _ws(arch)
    x = _rng().integers(-10**6, 10**6, 256, dtype=np.int32)
    out = np.zeros_like(x)
    _k("warp_reduce.hip", "wave_max_shfl_xor", arch)[2, 128](x, out)
    np.testing.assert_array_equal(out, np.repeat(x.reshape(-1, ws).max(axis=1), ws))


def ballot(arch):
    ws = _ws(arch)
    x = _rng().standard_normal(256).astype(np.float32)
    counts = np.zeros(256 // ws, np.uint32)
    masks = np.zeros(256 // ws, np.uint64)
    _k("warp_reduce.hip", "ballot_count", arch)[2, 128](x, counts, masks, np.float32(0.25))
    bits = (x > 0.25).reshape(-1, ws)
    np.testing.assert_array_equal(counts, bits.sum(axis=1))
    want = (bits.astype(np.uint64) << np.arange(ws, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    np.testing.assert_array_equal(masks, want)


def activemask(arch):
    ws = _ws(arch)
    x = _rng().integers(0, 1000, 128, dtype=np.int32)
    x[:ws] |= 1  # one wave fully odd (every lane active), the others mixed
    active = np.zeros(128 // ws, np.uint32)
    firsts = np.full(128 // ws, -1, np.int32)
    _k("warp_reduce.hip", "active_lanes", arch)[1, 128](x, active, firsts)
    odd = (x & 1).astype(bool).reshape(-1, ws)
    np.testing.assert_array_equal(active, odd.sum(axis=1))
    want = [row[o][0] if o.any() else -1 for row, o in zip(x.reshape(-1, ws), odd)]
    np.testing.assert_array_equal(firsts, want)


def shfl_up_scan(arch):
    ws = _ws(arch)
    x = _rng().integers(-100, 100, 128, dtype=np.int32)
    out = np.zeros_like(x)
    _k("warp_reduce.hip", "shfl_up_scan", arch)[1, 128](x, out)
    np.testing.assert_array_equal(out, np.cumsum(x.reshape(-1, ws), axis=1).ravel())


def any_all(arch):
    ws = _ws(arch)
    x = _rng().integers(0, 100, 128, dtype=np.int32)
    x[3] = 500       # wave 0: any true
    x[ws + 1] = -1   # wave 1: all false
    out = np.full(2 * (128 // ws), 7, np.int32)
    _k("warp_reduce.hip", "any_all", arch)[1, 128](x, out)
    w = x.reshape(-1, ws)
    want = np.stack([(w > 100).any(axis=1), (w >= 0).all(axis=1)], axis=1).ravel()
    np.testing.assert_array_equal(out != 0, want)


# ---------------------------------------------------------------- block reductions

def block_tree(arch):
    x = _rng().standard_normal(3000).astype(np.float32)
    for name, block in (("block_sum_tree_256", 256), ("block_sum_tree_128", 128)):
        out = np.zeros(3, np.float32)
        _k("block_reduce.hip", name, arch)[3, block](x, out, x.size)
        total = out.astype(np.float64).sum()
        _close_sum(np.array([total]), x[None, :], axis=1)


def block_two_level(arch):
    x = _rng().standard_normal(5000)
    out = np.zeros(1, np.float64)
    _k("block_reduce.hip", "block_sum_two_level", arch)[2, 192](x, out, x.size)
    _close_sum(out, x[None, :], axis=1, rtol=1e-13)


# ---------------------------------------------------------------- atomics

def hist_lds(arch):
    data = _rng().integers(0, 256, 4000, dtype=np.uint8)
    bins = np.zeros(64, np.uint32)
    _k("histogram.hip", "hist_lds", arch)[2, 128](data, bins, data.size)
    np.testing.assert_array_equal(bins, np.bincount(data % 64, minlength=64))


def hist_global(arch):
    keys = _rng().integers(0, 10**6, 1000, dtype=np.int32)
    bins = np.zeros(37, np.int32)
    _k("histogram.hip", "hist_global", arch)[4, 256](keys, bins, keys.size, 37)
    np.testing.assert_array_equal(bins, np.bincount(keys % 37, minlength=37))


def atomics_mix(arch):
    v = _rng().integers(-5000, 5000, 300, dtype=np.int32)
    mx, mn = np.array([-10**9], np.int32), np.array([10**9], np.int32)
    orv, andv = np.zeros(1, np.uint32), np.full(1, 0xFFFFFFFF, np.uint32)
    xch, inc = np.zeros(1, np.int32), np.zeros(1, np.uint32)
    _k("histogram.hip", "atomics_mix", arch)[3, 128](v, mx, mn, orv, andv, xch, inc, v.size)
    bits = np.bitwise_or.reduce(np.uint32(1) << (v & 31).astype(np.uint32))
    assert (mx[0], mn[0]) == (v.max(), v.min())
    assert (orv[0], andv[0]) == (bits, ~bits & 0xFFFFFFFF)
    assert xch[0] == -v.size
    assert inc[0] == v.size % 17  # atomicInc(p, 16): old >= 16 ? 0 : old + 1


def cas_float_max(arch):
    x = _rng().standard_normal(700).astype(np.float32)
    out = np.array([-np.inf], np.float32)
    _k("atomic_cas.hip", "float_max", arch)[3, 256](x, out, x.size)
    assert out[0] == x.max()


def cas_double_sum(arch):
    x = _rng().integers(-1000, 1000, 300).astype(np.float64) / 8  # exact in any order
    out = np.zeros(1, np.float64)
    _k("atomic_cas.hip", "double_sum_cas", arch)[2, 256](x, out, x.size)
    assert out[0] == x.sum()


def cas_lds_max(arch):
    x = _rng().integers(0, 2**32, 256, dtype=np.uint32)
    out = np.zeros(2, np.uint32)
    _k("atomic_cas.hip", "lds_cas_max", arch)[2, 128](x, out)
    np.testing.assert_array_equal(out, x.reshape(2, -1).max(axis=1))


# ---------------------------------------------------------------- scans

def hillis_steele(arch):
    n = 128
    x = _rng().integers(-50, 50, n, dtype=np.int32)
    out = np.zeros_like(x)
    _k("scan.hip", "hillis_steele", arch)[1, n, 2 * n * 4](x, out, n)
    np.testing.assert_array_equal(out, np.cumsum(x))


def blelloch(arch):
    x = _rng().integers(-50, 50, 512).astype(np.float32)  # integers: every sum exact
    out = np.zeros_like(x)
    _k("scan.hip", "blelloch", arch)[1, 256](x, out)
    np.testing.assert_array_equal(out, np.concatenate([[0], np.cumsum(x)[:-1]]))


# ---------------------------------------------------------------- transpose, templates

def transpose(arch):
    h, w = 40, 72  # not multiples of the 32x32 tile: the edge guards matter
    m = _rng().standard_normal((h, w)).astype(np.float32)
    out = np.zeros((w, h), np.float32)
    _k("transpose.hip", "transpose_padded", arch)[(3, 2), (32, 8)](out, m, w, h)
    np.testing.assert_array_equal(out, m.T)


def templates(arch):
    r = _rng()
    for name, dt, block in (("scale_add_64_float", np.float32, 64),
                            ("scale_add_128_double", np.float64, 128),
                            ("scale_add_256_int", np.int32, 256)):
        x = r.integers(-100, 100, 300).astype(dt)
        y = r.integers(-100, 100, 300).astype(dt)
        want = dt(3) * x + y
        _k("templates.hip", name, arch)[(300 + block - 1) // block, block](x, y, dt(3), 300)
        np.testing.assert_array_equal(y, want)
    a = r.integers(-9, 9, (32, 4)).astype(np.float32)
    b = r.integers(-9, 9, (32, 4)).astype(np.float32)
    out = np.zeros(32, np.float32)
    _k("templates.hip", "dot_small<float, 4>", arch)[1, 32](a, b, out)
    np.testing.assert_array_equal(out, (a * b).sum(axis=1))
    ai = r.integers(-9, 9, (32, 3)).astype(np.int32)
    bi = r.integers(-9, 9, (32, 3)).astype(np.int32)
    outi = np.zeros(32, np.int32)
    _k("templates.hip", "dot_small_int_3", arch)[1, 32](ai, bi, outi)
    np.testing.assert_array_equal(outi, (ai * bi).sum(axis=1))
    x = r.standard_normal(64).astype(np.float32)
    y = np.zeros_like(x)
    _k("templates.hip", "apply_Square", arch)[1, 64](x, y, bytes(1))  # empty functor: 1 byte
    np.testing.assert_array_equal(y, x * x)
    _k("templates.hip", "apply<ops::Negate>", arch)[1, 64](x, y, bytes(1))  # empty functor: 1 byte
    np.testing.assert_array_equal(y, -x)


# ---------------------------------------------------------------- fp16 / bf16

def _bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bit patterns, round to nearest even (NaN-free input)."""
    b = x.astype(np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def _bf16_val(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def half_axpy(arch):
    x = _rng().standard_normal(200).astype(np.float16)
    y = _rng(8).standard_normal(200).astype(np.float16)
    # fma in fp16 rounds once: the exact a*x+y (in float64) rounded to fp16
    want = (np.float64(np.float16(1.5)) * x.astype(np.float64) + y).astype(np.float16)
    _k("half_bf16.hip", "half_axpy", arch)[1, 256](x, y, np.float32(1.5), 200)
    np.testing.assert_array_equal(y, want)


def half2(arch):
    a = _rng().standard_normal(128).astype(np.float16)
    b = _rng(8).standard_normal(128).astype(np.float16)
    c = np.zeros_like(a)
    _k("half_bf16.hip", "half2_mul_add", arch)[1, 64](a, b, c, 64)
    # HIP contracts a*b + a into one v_pk_fma_f16 (clang's default -ffp-contract=fast, as with
    # ROCm's headers, whose __hmul2/__hadd2 are plain _Float16 vector operations): one rounding
    # of the exact value, which float64 holds (11-bit significands)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_array_equal(c, (a64 * b64 + a64).astype(np.float16))


def half_dot(arch):
    a = _rng().integers(-8, 8, 500).astype(np.float16)
    b = _rng(8).integers(-8, 8, 500).astype(np.float16)
    out = np.zeros(1, np.float32)
    _k("half_bf16.hip", "half_dot_f32acc", arch)[1, 128](a, b, out, 500)
    assert out[0] == np.dot(a.astype(np.float64), b.astype(np.float64))


def half_compare(arch):
    a = _rng().standard_normal(64).astype(np.float16)
    b = _rng(8).standard_normal(64).astype(np.float16)
    mx, lt = np.zeros_like(a), np.zeros(64, np.int32)
    _k("half_bf16.hip", "half_compare", arch)[1, 64](a, b, mx, lt)
    np.testing.assert_array_equal(mx, np.maximum(a, b))
    np.testing.assert_array_equal(lt, (a < b).astype(np.int32))


def bf16(arch):
    r = _rng()
    a = _bf16_bits(r.standard_normal(100).astype(np.float32))
    b = _bf16_bits(r.standard_normal(100).astype(np.float32))
    s, p = np.zeros_like(a), np.zeros(100, np.float32)
    _k("half_bf16.hip", "bf16_ops", arch)[1, 128](a, b, s, p, 100)
    np.testing.assert_array_equal(s, _bf16_bits(_bf16_val(a) + _bf16_val(b)))
    np.testing.assert_array_equal(p, _bf16_val(a) * _bf16_val(b))
    x = r.standard_normal(100).astype(np.float32)
    y = np.zeros(100, np.uint16)
    _k("half_bf16.hip", "f32_to_bf16_rn", arch)[1, 128](x, y, 100)
    np.testing.assert_array_equal(y, _bf16_bits(x))


# ---------------------------------------------------------------- double and integer math

def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    return np.abs(got - want) / np.spacing(np.abs(want))


def dmath(arch):
    r = _rng()
    x = r.uniform(0.1, 10.0, 64)
    y = r.uniform(-3.0, 3.0, 64)
    out = np.zeros(8 * 64)
    _k("double_math.hip", "dmath", arch)[1, 64](x, y, out, 64)
    o = out.reshape(64, 8)
    np.testing.assert_array_equal(o[:, 0], np.sqrt(x))  # correctly rounded, IEEE
    np.testing.assert_array_equal(o[:, 3], _fma(x, y))  # fma rounds once
    np.testing.assert_array_equal(o[:, 6], x / y)  # IEEE division
    for col, want in ((1, np.exp(y)), (2, np.log(x)), (4, np.power(x, y)), (5, np.sin(y)),
                      (7, 1 / np.sqrt(x))):
        assert _ulps(o[:, col], want).max() <= 2, (col, _ulps(o[:, col], want).max())


def _fma(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Exactly rounded x*y+1 through Python's fractions (numpy has no fma)."""
    from fractions import Fraction
    return np.array([float(Fraction(a) * Fraction(b) + 1) for a, b in zip(x, y)])


def dsincos_large(arch):
    """sin/cos of huge doubles (ocml's Payne-Hanek path through v_trig_preop_f64)."""
    import math
    x = np.array([1e6, 1e22, 2.0**100, 1e300, -3e200, 1.7e308, 123456.789, 2.0**1023 * 1.9])
    s, c = np.zeros_like(x), np.zeros_like(x)
    _k("double_math.hip", "dsincos_large", arch)[1, 32](x, s, c, x.size)
    want_s = np.array([math.sin(v) for v in x])  # glibc: correctly rounded in practice
    want_c = np.array([math.cos(v) for v in x])
    assert _ulps(s, want_s).max() <= 2 and _ulps(c, want_c).max() <= 2, (s, want_s)


def trig_preop_vs_llvm(arch):
    """v_trig_preop_f64 on the emulator equals LLVM's own constant folding of
    __builtin_amdgcn_trig_preop (AMDGPUInstCombineIntrinsic) for every segment and a spread
    of exponents, including those past 1077 (extra shift) and 1968 (rescaled)."""
    xs = [1.0, 0.75, 3.0e5, 2.0**60, 2.0**54 * 1.5, 1e22, 2.0**200, 1e300, 2.0**945,
          2.0**960, 1.7e308, -2.5e250, 5e-324, 0.0]
    segs = [0, 1, 2, 3, 5, 8, 13, 21, 22, 23, 31]
    pairs = [(x, sg) for x in xs for sg in segs]
    body = "\n".join(f"  o[{i}] = __builtin_amdgcn_trig_preop({x!r}, {sg});"
                      for i, (x, sg) in enumerate(pairs))
    folded = wb.compile(f"__global__ void k(double* o) {{\n{body}\n}}", arch)
    want = np.zeros(len(pairs))
    folded["k"].on(f"emulator:{arch}")[1, 1](want)
    assert "v_trig_preop" not in str(folded["k"].isa_for(arch))  # LLVM folded every call
    x = np.array([p[0] for p in pairs])
    seg = np.array([p[1] for p in pairs], np.int32)
    got = np.zeros(len(pairs))
    _k("double_math.hip", "trig_preop_rt", arch)[(len(pairs) + 63) // 64, 64](x, seg, got,
                                                                              len(pairs))
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))


def dkahan(arch):
    x = _rng().standard_normal((32, 100))
    out = np.zeros(32)
    _k("double_math.hip", "dsum_kahan", arch)[1, 32](x, out, 100)
    _close_sum(out, x, axis=1, rtol=1e-15)


def divmod32(arch):
    r = _rng()
    a = r.integers(-2**31, 2**31, 300, dtype=np.int64).astype(np.int32)
    b = r.integers(1, 2**20, 300, dtype=np.int32) * r.choice([-1, 1], 300).astype(np.int32)
    b[:5] = [1, -1, 3, 7, 2**30]
    q, rem = np.zeros_like(a), np.zeros_like(a)
    uq, ur = np.zeros(300, np.uint32), np.zeros(300, np.uint32)
    _k("intmath.hip", "divmod", arch)[3, 128](a, b, q, rem, uq, ur, 300)
    tq = np.trunc(a.astype(np.float64) / b).astype(np.int64)  # C truncates toward zero
    np.testing.assert_array_equal(q, tq)
    np.testing.assert_array_equal(rem, a - tq * b)
    au, bu = a.view(np.uint32), b.view(np.uint32)
    np.testing.assert_array_equal(uq, au // bu)
    np.testing.assert_array_equal(ur, au % bu)


def divmod64(arch):
    r = _rng()
    a = r.integers(-2**62, 2**62, 200, dtype=np.int64)
    b = r.integers(1, 2**40, 200, dtype=np.int64) * r.choice([-1, 1], 200)
    b[:4] = [1, -1, 3, 2**33 + 1]
    q, rem, uq = np.zeros_like(a), np.zeros_like(a), np.zeros(200, np.uint64)
    _k("intmath.hip", "divmod64", arch)[2, 128](a, b, q, rem, uq, 200)
    tq = np.array([abs(int(p)) // abs(int(d)) * (1 if (p < 0) == (d < 0) else -1)
                   for p, d in zip(a, b)], np.int64)
    np.testing.assert_array_equal(q, tq)
    np.testing.assert_array_equal(rem, a - tq * b)
    np.testing.assert_array_equal(uq, a.view(np.uint64) // b.view(np.uint64))


def unflatten(arch):
    d0, d1, d2 = 5, 7, 9
    coords = np.zeros(3 * d0 * d1 * d2, np.int32)
    _k("intmath.hip", "unflatten", arch)[3, 128](coords, d0, d1, d2)
    idx = np.indices((d0, d1, d2)).reshape(3, -1).T
    np.testing.assert_array_equal(coords.reshape(-1, 3), idx)


def index64(arch):
    n = 100
    src = np.arange(n, dtype=np.float32)
    dst = np.zeros(n, np.float32)
    base, stride = 3 * 2**33 + 5, 2**32 + 3
    _k("intmath.hip", "index64", arch)[1, 128](src, dst, base, stride, n)
    want = [(base + i * stride) % n for i in range(n)]
    np.testing.assert_array_equal(dst, np.array(want, np.float32))


def bit_tricks(arch):
    x = _rng().integers(0, 2**32, 100, dtype=np.uint32)
    x[:3] = [0, 1, 0x80000000]
    out = np.zeros(600, np.uint32)
    _k("intmath.hip", "bit_tricks", arch)[1, 128](x, out, 100)
    o = out.reshape(100, 6).astype(np.int64)
    xi = [int(v) for v in x]
    np.testing.assert_array_equal(o[:, 0], [bin(v).count("1") for v in xi])
    np.testing.assert_array_equal(o[:, 1], [32 - v.bit_length() for v in xi])
    np.testing.assert_array_equal(o[:, 2], [(v & -v).bit_length() for v in xi])
    np.testing.assert_array_equal(o[:, 3], [int(f"{v:032b}"[::-1], 2) for v in xi])
    np.testing.assert_array_equal(o[:, 4], [(v * 2654435761) >> 32 for v in xi])
    np.testing.assert_array_equal(o[:, 5], [((v >> 7) | (v << 25)) & 0xFFFFFFFF for v in xi])


# ---------------------------------------------------------------- uniform (SALU) floats

def uniform_f32(arch):
    a, b, c = np.float32(1.37), np.float32(-2.61), np.float32(0.83)
    out = np.zeros((32, 12), np.float32)
    _k("uniform_float.hip", "uniform_f32", arch)[1, 32](a, b, c, out)
    f32 = np.float32
    def fma(x, y, z):  # HIP contracts a*b+c to one fma (clang's default -ffp-contract=fast)
        from fractions import Fraction
        return _round(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), f32, "rn")
    want = [fma(a, b, c), max(a, b), min(a, c), np.rint(a * f32(3)),
            np.floor(b) + np.ceil(c) + np.trunc(a), -1.0, 2.0, 3.0, f32(int(a * f32(100))),
            f32(int(c * f32(7))), fma(a, c, -b), a - b]
    np.testing.assert_array_equal(out, np.tile(np.array(want, np.float32), (32, 1)))


def uniform_f16(arch):
    a, h, g = np.float32(0.3), np.float16(1.5), np.float16(-0.7)
    hout = np.zeros((32, 6), np.float16)
    fout = np.zeros((32, 2), np.float32)
    _k("uniform_float.hip", "uniform_f16", arch)[1, 32](a, h, g, hout, fout)
    h64, g64 = np.float64(h), np.float64(g)
    want = [np.float16(a), h + g, h * g, h - g, max(h, g), np.float16(h64 * g64 + 0.25)]
    np.testing.assert_array_equal(hout, np.tile(np.array(want, np.float16), (32, 1)))
    np.testing.assert_array_equal(fout, np.tile([np.float32(h) * a, 0.0], (32, 1)))


# ---------------------------------------------------------------- bit casts, rounding modes

def _round(q, dt, mode: str):
    """The exact rational q rounded to dt (np.float32/np.float64) in mode rn/rz/rd/ru."""
    from fractions import Fraction
    c = dt(float(q))  # within one ulp of the answer (float64 rounding first for float32)
    cands = [np.nextafter(c, dt(-np.inf)), c, np.nextafter(c, dt(np.inf))]
    cands = [v for v in cands if np.isfinite(v)]
    below = max((v for v in cands if Fraction(float(v)) <= q), key=float)
    above = min((v for v in cands if Fraction(float(v)) >= q), key=float)
    if mode == "rd" or (mode == "rz" and q >= 0):
        return below
    if mode == "ru" or mode == "rz":
        return above
    db, da = q - Fraction(float(below)), Fraction(float(above)) - q
    if db != da:
        return below if db < da else above
    return below if int(np.asarray(below).view(f"u{dt().itemsize}")) % 2 == 0 else above


def _int_round(x: float, mode: str) -> int:
    import math
    return {"rn": round(x), "rz": math.trunc(x), "rd": math.floor(x), "ru": math.ceil(x)}[mode]


MODES = ("rn", "rz", "rd", "ru")


def bitcasts(arch):
    f = _rng().standard_normal(32).astype(np.float32)
    d = _rng().standard_normal(32) * 1e10
    fi, back, hi, lo = (np.zeros(32, t) for t in (np.int32, np.float32, np.int32, np.int32))
    dback, dl = np.zeros(32), np.zeros(32, np.int64)
    _k("conversions.hip", "bitcasts", arch)[1, 32](f, d, fi, back, hi, lo, dback, dl)
    np.testing.assert_array_equal(fi, f.view(np.int32))
    np.testing.assert_array_equal(back, -f)
    np.testing.assert_array_equal(hi, d.view(np.int32)[1::2])
    np.testing.assert_array_equal(lo, d.view(np.int32)[0::2])
    np.testing.assert_array_equal(dback, d)
    np.testing.assert_array_equal(dl, d.view(np.int64))


def round_modes(arch):
    from fractions import Fraction
    r = _rng()
    n = 32
    f = (r.standard_normal(n) * 1000).astype(np.float32)
    f[:6] = [2.5, -2.5, 3.5, -0.5, 7.0, -7.0]  # ties go to even under _rn
    d = r.standard_normal(n) * 1e12
    d[:4] = [1.0 + 2**-30, -(1.0 + 2**-30), 2.5, 1e300]  # not representable as float
    ll = r.integers(-2**62, 2**62, n, dtype=np.int64)
    ll[:4] = [2**62 + 1, -(2**62 + 1), 2**63 - 1, 2**53 + 1]
    iv = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    iv[:3] = [2**24 + 1, -(2**24 + 1), 2**31 - 1]
    outs = [np.zeros(4 * n, t) for t in (np.int32, np.int64, np.float32, np.float32,
                                         np.float32, np.float64)]
    _k("conversions.hip", "round_modes", arch)[1, n](f, d, ll, iv, *outs)
    f2i, d2ll, ll2f, i2f, d2f, ll2d = (o.reshape(n, 4) for o in outs)
    for m, mode in enumerate(MODES):
        np.testing.assert_array_equal(f2i[:, m], [_int_round(float(v), mode) for v in f])
        fits = np.abs(d) < 2**62  # 1e300 has no integer result (undefined, as in C)
        np.testing.assert_array_equal(d2ll[fits, m], [_int_round(float(v), mode)
                                                      for v in d[fits]])
        np.testing.assert_array_equal(ll2f[:, m], [_round(Fraction(int(v)), np.float32, mode)
                                                   for v in ll])
        np.testing.assert_array_equal(i2f[:, m], [_round(Fraction(int(v)), np.float32, mode)
                                                  for v in iv])
        np.testing.assert_array_equal(d2f[:3, m], [_round(Fraction(float(v)), np.float32, mode)
                                                   for v in d[:3]])
        np.testing.assert_array_equal(d2f[4:, m], [_round(Fraction(float(v)), np.float32, mode)
                                                   for v in d[4:]])
        np.testing.assert_array_equal(ll2d[:, m], [_round(Fraction(int(v)), np.float64, mode)
                                                   for v in ll])
    # 1e300 to float: beyond FLT_MAX: inf when rounding up or to nearest, FLT_MAX otherwise
    fmax = np.finfo(np.float32).max
    np.testing.assert_array_equal(d2f[3], [np.inf, fmax, fmax, np.inf])


# ---------------------------------------------------------------- structs, vectors, LDS

PARAMS = np.dtype([("scale", "<f4"), ("offset", "<i4"), ("bias", "<f4", 3), ("n", "<i4")])


def by_value(arch):
    x = _rng().standard_normal(100).astype(np.float32)
    y = np.zeros_like(x)
    bias = np.array([0.5, -1.0, 2.0], np.float32)
    p = np.array((2.0, 1, bias, 100), PARAMS)
    _k("structs_vectors.hip", "by_value", arch)[1, 128](x, y, p)
    np.testing.assert_array_equal(y, np.float32(2) * x + bias[(np.arange(100) + 1) % 3])


def center_of_mass(arch):
    ps = _rng().integers(-8, 8, (200, 4)).astype(np.float32)
    ps[:, 3] = np.abs(ps[:, 3]) + 1
    out = np.zeros(4, np.float32)
    _k("structs_vectors.hip", "center_of_mass", arch)[1, 64](ps, out, 200)
    want = np.concatenate([(ps[:, :3] * ps[:, 3:]).sum(axis=0), [ps[:, 3].sum()]])
    np.testing.assert_array_equal(out, want)  # small integers: exact in any order


def vec4(arch):
    a = _rng().standard_normal((50, 4)).astype(np.float32)
    b = _rng().integers(-1000, 1000, (50, 2), dtype=np.int32)
    c, d = np.zeros_like(a), np.zeros_like(b)
    _k("structs_vectors.hip", "vec4_ops", arch)[1, 128](a, b, c, d, 50)
    np.testing.assert_array_equal(c, np.stack([a[:, 3], a[:, 2] * 2, a[:, 1] + a[:, 0],
                                               a[:, 0] * a[:, 1]], axis=1))
    np.testing.assert_array_equal(d, np.stack([b[:, 0] + b[:, 1], b[:, 0] - b[:, 1]], axis=1))


def dyn_shared(arch):
    n = 300
    x = _rng().standard_normal((2, n)).astype(np.float32)
    out = np.zeros_like(x)
    _k("structs_vectors.hip", "dyn_shared_reverse", arch)[2, 64, n * 4](x, out, n)
    np.testing.assert_array_equal(out, x[:, ::-1])


def uint4_arg(arch):
    a = _rng().integers(0, 2**32, (64, 4), dtype=np.uint32)
    b = np.zeros_like(a)
    key = (0xDEADBEEF, 1, 0xFFFFFFFF, 12345)
    _k("structs_vectors.hip", "uint4_xor", arch)[1, 64](a, b, key)
    np.testing.assert_array_equal(b, a ^ np.array(key, np.uint32))


def small_loads(arch):
    r = _rng()
    c = r.integers(-128, 128, 3, dtype=np.int64).astype(np.int8)
    c[0] = -128
    sh = np.array([-32768, -5, 32767], np.int16)
    us = np.array([65535, 1, 40000], np.uint16)
    uc = np.array([255, 0, 128], np.uint8)
    out = np.zeros(12, np.int32)
    _k("structs_vectors.hip", "uniform_small_loads", arch)[3, 32](c, sh, us, uc, out)
    np.testing.assert_array_equal(out.reshape(3, 4), np.stack([c, sh, us, uc], 1))
    out = np.zeros(5 * 32, np.int32)
    _k("structs_vectors.hip", "small_args", arch)[1, 32](-7, -300, 65000, True, 200, out)
    t = np.arange(32)
    np.testing.assert_array_equal(out.reshape(32, 5),
                                  np.stack([-7 * t, -300 + t, 65000 + t, t, 600 + t], 1))


# ---------------------------------------------------------------- amdgcn builtins

def readfirstlane(arch):
    ws = _ws(arch)
    x = _rng().integers(0, 1000, 128, dtype=np.int32)
    out = np.zeros_like(x)
    _k("amdgcn_builtins.hip", "readfirstlane", arch)[1, 128](x, out)
    np.testing.assert_array_equal(out, np.repeat(x[::ws], ws))


def bpermute(arch):
    ws = _ws(arch)
    x = _rng().integers(0, 1000, 128, dtype=np.int32)
    out = np.zeros_like(x)
    _k("amdgcn_builtins.hip", "bpermute_rotate", arch)[1, 128](x, out, 5)
    np.testing.assert_array_equal(out, np.roll(x.reshape(-1, ws), -5, axis=1).ravel())


def mbcnt_compact(arch):
    ws = _ws(arch)
    x = _rng().integers(-100, 100, ws, dtype=np.int32)
    out = np.zeros(ws, np.int32)
    count = np.zeros(1, np.int32)
    _k("amdgcn_builtins.hip", "mbcnt_compact", arch)[1, ws](x, out, count)
    keep = x[x > 0]
    assert count[0] == keep.size
    np.testing.assert_array_equal(out[:keep.size], keep)


def readlane(arch):
    x = _rng().standard_normal(32).astype(np.float32)
    out = np.zeros_like(x)
    _k("amdgcn_builtins.hip", "readlane_bcast", arch)[1, 32](x, out, 13)
    np.testing.assert_array_equal(out, np.full(32, x[13]))


def fmed3_ubfe(arch):
    x = (_rng().standard_normal(64) * 2).astype(np.float32)
    u = _rng().integers(0, 2**32, 64, dtype=np.uint32)
    med, bf = np.zeros_like(x), np.zeros_like(u)
    _k("amdgcn_builtins.hip", "fmed3_ubfe", arch)[1, 64](x, med, u, bf)
    np.testing.assert_array_equal(med, np.clip(x, -1, 1))
    np.testing.assert_array_equal(bf, (u >> 4) & 0xFFF)


# ---------------------------------------------------------------- printf, grid-stride loops

def printf_(arch, capsys=None):
    res = _k("printf_gridstride.hip", "hello", arch)[2, 64](42, np.float32(2.5))
    want = [f"block {b} thread {t} tag=42 f=2.50 name=hip" for b in range(2) for t in range(2)]
    assert [s.rstrip("\n") for s in res.stats["printed"]] == want


def grid_stride(arch):
    x = _rng().standard_normal(5000).astype(np.float32)
    y = _rng(8).standard_normal(5000).astype(np.float32)
    want = np.float32(0.5) * x + y
    _k("printf_gridstride.hip", "saxpy_grid_stride", arch)[2, 64](5000, np.float32(0.5), x, y)
    np.testing.assert_array_equal(y, want)
    v = _rng().integers(0, 10**6, 3000, dtype=np.int32)
    count = np.zeros(1, np.uint64)
    _k("printf_gridstride.hip", "count_grid_stride", arch)[3, 64](v, v.size, count)
    assert count[0] == (v % 7 == 0).sum()


# ---------------------------------------------------------------- rows: layernorm, softmax

def layernorm(arch):
    r = _rng()
    x = r.standard_normal((3, 300)).astype(np.float32)
    g, b = r.standard_normal(300).astype(np.float32), r.standard_normal(300).astype(np.float32)
    y = np.zeros_like(x)
    _k("rows.hip", "layernorm", arch)[3, 128](x, g, b, y, 300, np.float32(1e-5))
    xd = x.astype(np.float64)
    mu = xd.mean(axis=1, keepdims=True)
    want = (xd - mu) / np.sqrt(((xd - mu) ** 2).mean(axis=1, keepdims=True) + 1e-5) * g + b
    # rsqrtf is v_rsq_f32 (1 ulp); sums of 300 terms in another order: ~1e-6 relative
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


def softmax(arch):
    x = (_rng().standard_normal((4, 333)) * 4).astype(np.float32)
    x[1, 5] = 80.0  # large: the max subtraction matters
    want = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    y = np.zeros_like(x)
    _k("rows.hip", "softmax_rows", arch)[4, 128](x, y, 333)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-9)  # expf: ~1 ulp
    y2 = np.zeros_like(x)
    _k("rows.hip", "softmax_wave", arch)[1, 2 * _ws(arch)](x, y2, 4, 333)
    np.testing.assert_allclose(y2[:2], want[:2], rtol=1e-5, atol=1e-9)  # __expf: v_exp_f32
    assert not y2[2:].any()  # rows past the launched waves untouched


# ---------------------------------------------------------------- conv, spmv, sort

def conv2d(arch):
    r = _rng()
    C, H, W, K, R, S = 3, 10, 12, 2, 3, 3
    x = r.integers(-4, 4, (C, H, W)).astype(np.float32)
    w = r.integers(-4, 4, (K, C, R, S)).astype(np.float32)
    bias = np.array([0.5, -2.0], np.float32)
    out = np.zeros((K, H - R + 1, W - S + 1), np.float32)
    _k("stencil_sparse_sort.hip", "conv2d_naive", arch)[(2, 1, K), (8, 8)](
        x, w, bias, out, C, H, W, K, R, S)
    win = np.lib.stride_tricks.sliding_window_view(x, (R, S), axis=(1, 2))  # C,OH,OW,R,S
    want = np.einsum("chwrs,kcrs->khw", win, w) + bias[:, None, None]
    np.testing.assert_array_equal(out, want)  # small integers: exact


def _csr(rows: int, cols: int, seed: int = 3):
    r = _rng(seed)
    dense = r.integers(-5, 5, (rows, cols)).astype(np.float32)
    dense[r.random((rows, cols)) < 0.8] = 0
    dense[5] = 0  # an empty row
    nz = dense != 0
    row_ptr = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(np.int32)
    col = np.nonzero(nz)[1].astype(np.int32)
    return dense, row_ptr, col, dense[nz]


def spmv(arch):
    dense, row_ptr, col, vals = _csr(70, 90)
    x = _rng().integers(-5, 5, 90).astype(np.float32)
    for name, grid, block in (("spmv_csr", 1, 128), ("spmv_csr_vector", 70 * _ws(arch) // 128 + 1,
                                                     128)):
        y = np.full(70, np.nan, np.float32)
        _k("stencil_sparse_sort.hip", name, arch)[grid, block](70, row_ptr, col, vals, x, y)
        np.testing.assert_array_equal(y, dense @ x)


def bitonic_block(arch):
    keys = _rng().integers(-10**6, 10**6, 512, dtype=np.int32)
    want = np.sort(keys.reshape(2, 256), axis=1)
    _k("stencil_sparse_sort.hip", "bitonic_sort_block", arch)[2, 256](keys)
    np.testing.assert_array_equal(keys.reshape(2, 256), want)


def bitonic_steps(arch):
    a = _rng().standard_normal(256).astype(np.float32)
    want = np.sort(a)
    k = _k("stencil_sparse_sort.hip", "bitonic_step", arch)
    kk = 2
    while kk <= 256:
        j = kk // 2
        while j > 0:
            k[2, 128](a, j, kk)
            j //= 2
        kk *= 2
    np.testing.assert_array_equal(a, want)


# ---------------------------------------------------------------- matrix cores

def _small_int_f16(shape, seed):
    return _rng(seed).integers(-4, 5, shape).astype(np.float16)


def mfma16(arch):
    a, b = _small_int_f16((16, 64), 1), _small_int_f16((64, 16), 2)
    c = np.zeros((16, 16), np.float32)
    _k("mfma_gemm.hip", "mfma16_gemm", arch)[1, 64](a, b, c, 64)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def mfma32(arch):
    a, b = _small_int_f16((32, 32), 1), _small_int_f16((32, 32), 2)
    c = np.zeros((32, 32), np.float32)
    _k("mfma_gemm.hip", "mfma32_gemm", arch)[1, 64](a, b, c, 32)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def wmma11(arch):
    a, b = _small_int_f16((16, 48), 1), _small_int_f16((48, 16), 2)
    c = np.zeros((16, 16), np.float32)
    _k("wmma_gemm.hip", "wmma_gemm", arch)[1, 32](a, b, c, 48)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def wmma12(arch):
    a, b = _small_int_f16((16, 48), 1), _small_int_f16((48, 16), 2)
    c = np.zeros((16, 16), np.float32)
    _k("wmma_gemm_gfx12.hip", "wmma_gemm12", arch)[1, 32](a, b, c, 48)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


# ---------------------------------------------------------------- scratch, calls, switch, 3D

def private_array(arch):
    x = _rng().integers(-5, 5, 64).astype(np.float32)
    idx = _rng().integers(0, 1000, 64, dtype=np.int32)
    out = np.zeros(64, np.float32)
    _k("private_calls.hip", "private_array", arch)[1, 64](idx, x, out)
    a = x[:, None] * np.arange(1, 25, dtype=np.float32)[None, :]
    a[np.arange(64), idx % 24] += 1000
    k = np.arange(24)
    sign = np.where(k & 1, -1, 1).astype(np.float32)
    want = (a[np.arange(64)[:, None], (k[None, :] * 7 + idx[:, None]) % 24] * sign).sum(axis=1)
    np.testing.assert_array_equal(out, want)  # small integers: exact


def calls(arch):
    import math
    v = _rng().integers(1, 10**5, 64, dtype=np.uint32)
    steps = np.zeros(64, np.int32)
    f = np.zeros(64, np.uint64)
    if arch.endswith("-O0"):
        # -O0 keeps fact() recursive with ~64-byte frames: 8 deep fits HIP's default 1 KiB
        # stack (before: no stack at all beyond the fixed frame), 20 deep overruns it, as
        # HIP's own docs warn for -O0 recursion, and the emulator says so
        _k("private_calls.hip", "calls", arch)[1, 8](v, steps, f)
        np.testing.assert_array_equal(f[:8], [math.factorial(max(t, 1)) for t in range(8)])
        with pytest.raises(wb.KernelFault, match=r"call stack overflow.*1024 bytes"):
            _k("private_calls.hip", "calls", arch)[1, 64](v, steps, f)
        return
    _k("private_calls.hip", "calls", arch)[1, 64](v, steps, f)

    def collatz(n):
        c = 0
        while n != 1:
            n, c = (3 * n + 1 if n & 1 else n // 2), c + 1
        return c
    np.testing.assert_array_equal(steps, [collatz(int(n)) for n in v])
    np.testing.assert_array_equal(f, [math.factorial(max(t % 21, 1)) for t in range(64)])


def interpreter(arch):
    r = _rng()
    codes = r.integers(0, 9, 200, dtype=np.int32)
    a, b = r.standard_normal(200).astype(np.float32), r.standard_normal(200).astype(np.float32)
    out = np.zeros(200, np.float32)
    _k("private_calls.hip", "interpreter", arch)[2, 128](codes, a, b, out, 200)
    table = [a + b, a - b, a * b, np.maximum(a, b), np.minimum(a, b), a * np.float32(0.5), -b]
    want = np.where(codes < 7, np.choose(np.minimum(codes, 6), table), 0).astype(np.float32)
    np.testing.assert_array_equal(out, want)


def grid3d(arch):
    nx, ny, nz = 10, 7, 5
    out = np.full((nz, ny, nx), -1, np.int32)
    grid, block = (3, 2, 3), (4, 4, 2)
    _k("private_calls.hip", "grid3d", arch)[grid, block](out, nx, ny, nz)
    z, y, x = np.indices((nz, ny, nx))
    bx, by, bz = x // 4, y // 4, z // 2
    tx, ty, tz = x % 4, y % 4, z % 2
    want = (bx + 3 * (by + 2 * bz)) * 32 + tx + 4 * (ty + 4 * tz)
    np.testing.assert_array_equal(out, want)


def spill(arch):
    x = _rng().integers(-3, 3, 64).astype(np.float32)
    out = np.zeros(64, np.float32)
    k = _k("private_calls.hip", "spill", arch)
    k[1, 64](x, out)
    kk = np.arange(96, dtype=np.float64)
    r = x[:, None].astype(np.float64) * kk + kk
    s = (r * r[:, ::-1]).sum(axis=1)
    want = (r * s[:, None]).sum(axis=1)
    np.testing.assert_allclose(out, want, rtol=1e-5)  # float32 sums of up to ~1e9


# ---------------------------------------------------------------- votes, fences, coop groups

def votes(arch):
    x = _rng().integers(-100, 100, 256, dtype=np.int32)
    x[128:] = np.abs(x[128:])  # block 1: all > -50
    out = np.zeros(6, np.int32)
    _k("sync_coop.hip", "votes", arch)[2, 128](x, out)
    b = x.reshape(2, 128)
    want = np.stack([(b > 0).sum(1), (b > -50).all(1), (b > 90).any(1)], 1).ravel()
    np.testing.assert_array_equal(out != 0, want != 0)
    np.testing.assert_array_equal(out[::3], want[::3])


def last_block(arch):
    x = _rng().integers(-100, 100, 3000).astype(np.float32)
    partial, total = np.zeros(5, np.float32), np.zeros(1, np.float32)
    k = _k("sync_coop.hip", "sum_last_block", arch)
    for _ in range(2):  # the retirement counter resets itself: a second launch works too
        k[5, 128](x, partial, total, x.size)
        assert total[0] == x.sum()


def cg_tiles(arch):
    x = _rng().integers(-100, 100, 64, dtype=np.int32)
    tiles, block = np.zeros(4, np.int32), np.zeros(1, np.int32)
    _k("sync_coop.hip", "cg_tiles", arch)[1, 64](x, tiles, block)
    np.testing.assert_array_equal(tiles, x.reshape(4, 16).sum(1))
    assert block[0] == x.sum()


def cg_coalesced(arch):
    ws = _ws(arch)
    x = _rng().integers(0, 100, 64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    _k("sync_coop.hip", "cg_coalesced", arch)[1, 64](x, out)
    want = np.full(64, -1)
    for w in range(64 // ws):
        lanes = [i for i in range(w * ws, (w + 1) * ws) if x[i] % 3 == 0]
        for rank, i in enumerate(lanes):
            want[i] = rank * 1000 + len(lanes)
    np.testing.assert_array_equal(out, want)


def shfl_width(arch):
    x = _rng().integers(-100, 100, 64, dtype=np.int32)
    s8, bc = np.zeros(64, np.int32), np.zeros(64, np.int32)
    _k("sync_coop.hip", "shfl_width", arch)[1, 64](x, s8, bc)
    np.testing.assert_array_equal(s8, np.repeat(x.reshape(8, 8).sum(1), 8))
    np.testing.assert_array_equal(bc, np.repeat(x.reshape(4, 16)[:, 3], 16))


# ---------------------------------------------------------------- DPP, swizzle, dot products

def dpp_scan(arch):
    x = _rng().integers(-100, 100, 64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    _k("dpp_dot.hip", "dpp_row_scan", arch)[1, 64](x, out)
    np.testing.assert_array_equal(out, np.cumsum(x.reshape(4, 16), axis=1).ravel())


def dpp_perms(arch):
    x = _rng().integers(-100, 100, 64, dtype=np.int32)
    rev4, ror4 = np.zeros(64, np.int32), np.zeros(64, np.int32)
    _k("dpp_dot.hip", "dpp_perms", arch)[1, 64](x, rev4, ror4)
    np.testing.assert_array_equal(rev4, x.reshape(16, 4)[:, ::-1].ravel())
    np.testing.assert_array_equal(ror4, np.roll(x.reshape(4, 16), 4, axis=1).ravel())


def swizzle(arch):
    x = _rng().integers(-100, 100, 64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    _k("dpp_dot.hip", "swizzle_swap", arch)[1, 64](x, out)
    np.testing.assert_array_equal(out, x.reshape(32, 2)[:, ::-1].ravel())


def dots(arch):
    r = _rng()
    a = r.integers(0, 2**32, 64, dtype=np.uint32).view(np.int32)
    b = r.integers(0, 2**32, 64, dtype=np.uint32).view(np.int32)
    s4, u4, mix = np.zeros(64, np.int32), np.zeros(64, np.uint32), np.zeros(64, np.int32)
    _k("dpp_dot.hip", "dots", arch)[1, 64](a, b, s4, u4, mix, 64)
    ai, bi = a.view(np.int8).reshape(64, 4).astype(np.int64), b.view(np.int8).reshape(64, 4)
    au, bu = a.view(np.uint8).reshape(64, 4).astype(np.int64), b.view(np.uint8).reshape(64, 4)
    np.testing.assert_array_equal(s4, (ai * bi).sum(1) + 7)
    np.testing.assert_array_equal(u4, (au * bu).sum(1) + 7)
    np.testing.assert_array_equal(mix, np.maximum((ai * bu).sum(1) - 2147483000, -2**31))


# ---------------------------------------------------------------- 64-bit / LDS / constant

def atomics64(arch):
    r = _rng()
    x = r.integers(-1000, 1000, 300) / 4.0  # exact sums in any order
    v = r.integers(-2**62, 2**62, 300, dtype=np.int64)
    dsum, usum = np.zeros(1), np.zeros(1, np.uint64)
    mn, mx = np.array([2**62], np.int64), np.zeros(1, np.uint64)
    _k("atomics2.hip", "atomics64", arch)[3, 128](x, v, dsum, usum, mn, mx, 300)
    assert dsum[0] == x.sum() and usum[0] == (v & 0xFFFF).sum()
    assert mn[0] == v.min() and mx[0] == v.view(np.uint64).max()


def lds_float_atomics(arch):
    x = _rng().integers(-100, 100, 128).astype(np.float32)
    out, last = np.zeros(4, np.float32), np.zeros(1, np.float32)
    _k("atomics2.hip", "lds_float_atomics", arch)[1, 128](x, out, last)
    np.testing.assert_array_equal(out, x.reshape(32, 4).sum(0))
    assert last[0] == x[77]


def constant_table(arch):
    c = _rng().integers(-4, 4, 8).astype(np.float32)
    x = _rng().integers(-2, 3, 100).astype(np.float32)
    y = np.zeros_like(x)
    k = _k("atomics2.hip", "poly_constant", arch)
    k.globals["coef"] = c
    k[1, 128](x, y, 100)
    np.testing.assert_array_equal(y, np.polyval(c[::-1], x).astype(np.float32))


# ---------------------------------------------------------------- more of the device API

def half2_api(arch):
    r = _rng()
    a = r.standard_normal((40, 2)).astype(np.float16)
    b = r.standard_normal((40, 2)).astype(np.float16)
    b[0] = a[0]
    out = np.zeros((40, 4, 2), np.float16)
    flags = np.zeros((40, 3), np.int32)
    _k("api_more.hip", "half2_api", arch)[1, 64](a, b, out, flags, 40)
    np.testing.assert_array_equal(out[:, 0], np.sqrt(np.abs(a)))  # f16 sqrt: correctly rounded
    np.testing.assert_array_equal(out[:, 1], a[:, ::-1])
    np.testing.assert_array_equal(out[:, 2], np.stack([a[:, 1], b[:, 1]], 1))
    np.testing.assert_array_equal(out[:, 3], (a < b).astype(np.float16))
    np.testing.assert_array_equal(flags[:, 0], 1)
    np.testing.assert_array_equal(flags[:, 1], (a < b).all(1))
    np.testing.assert_array_equal(flags[:, 2], np.rint(a[:, 0] * np.float16(10)))


def bf16x2_api(arch):
    a = _bf16_bits(_rng().standard_normal(80).astype(np.float32)).reshape(40, 2)
    out = np.zeros((40, 2, 2), np.uint16)
    ints = np.zeros((40, 2), np.int32)
    _k("api_more.hip", "bf16x2_api", arch)[1, 64](a, out, ints, 40)
    av = _bf16_val(a)
    np.testing.assert_array_equal(out[:, 0], np.stack([a[:, 0], a[:, 0]], 1))
    np.testing.assert_array_equal(out[:, 1], _bf16_bits(av[:, ::-1] * av))
    np.testing.assert_array_equal(ints[:, 0], np.rint(_bf16_val(_bf16_bits(av[:, 0] * 100))))
    np.testing.assert_array_equal(ints[:, 1], (av >= av[:, ::-1]).all(1))


def int_avg(arch):
    r = _rng()
    a = r.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    b = r.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32)
    a[0], b[0] = 2**31 - 1, 2**31 - 1  # the sum overflows 32 bits
    out = np.zeros((64, 4), np.int32)
    _k("api_more.hip", "int_avg", arch)[1, 64](a, b, out, 64)
    s = a.astype(np.int64) + b
    us = a.view(np.uint32).astype(np.int64) + b.view(np.uint32)
    want = np.stack([s >> 1, (s + 1) >> 1, us >> 1, (us + 1) >> 1], 1)
    np.testing.assert_array_equal(out, want.astype(np.uint32).view(np.int32).reshape(64, 4))


def directed(arch):
    from fractions import Fraction as F
    r = _rng()
    n = 48
    x = (r.standard_normal(n) * 10).astype(np.float32)
    y = (r.standard_normal(n) * 10).astype(np.float32)
    z = (r.standard_normal(n) * 10).astype(np.float32)
    x[:4] = [1.0, 3.0, np.float32(2**-20), 1e30]
    y[:4] = [3.0, 1.0, np.float32(1 + 2**-23), 1e30]  # exact results stay as they are
    out = np.zeros((n, 7, 3), np.float32)
    _k("api_more.hip", "directed", arch)[1, 64](x, y, z, out, n)
    import math
    exact = [lambda a, b, c: F(a) + F(b), lambda a, b, c: F(a) - F(b),
             lambda a, b, c: F(a) * F(b), lambda a, b, c: F(a) / F(b), None,
             lambda a, b, c: 1 / F(b), lambda a, b, c: F(a) * F(b) + F(c)]
    for i in range(n):
        a, b, c = (float(v) for v in (x[i], y[i], z[i]))
        for op in range(7):
            for m, mode in enumerate(("rz", "rd", "ru")):
                if op == 4:  # sqrt of |a|: bracket the exact root with Fractions
                    s = _round(F(math.sqrt(abs(a))), np.float32, "rn")
                    cand = [np.nextafter(s, np.float32(0)), s, np.nextafter(s, np.float32(np.inf))]
                    below = max(v for v in cand if F(float(v)) ** 2 <= F(abs(a)))
                    above = min(v for v in cand if F(float(v)) ** 2 >= F(abs(a)))
                    want = above if mode == "ru" else below
                else:
                    q = exact[op](a, b, c)
                    fmax = F(float(np.finfo(np.float32).max))
                    if abs(q) > fmax:  # beyond FLT_MAX: inf toward it, else the largest float
                        to_inf = (mode == "ru" and q > 0) or (mode == "rd" and q < 0)
                        want = np.float32(math.copysign(np.inf if to_inf else float(fmax),
                                                        float(q > 0) - 0.5))
                    else:
                        want = _round(q, np.float32, mode)
                assert out[i, op, m] == want, (i, op, mode, a, b, c, out[i, op, m], want)


# ---------------------------------------------------------------- clocks and less common ops

def timed_loop(arch):
    """clock64()/wall_clock64() (s_memtime, or RDNA's SHADER_CYCLES register and
    MSG_RTN_GET_REALTIME) give growing counters; the emulator counts executed instructions."""
    x = _rng().standard_normal(64).astype(np.float32)
    y = np.zeros_like(x)
    cyc, ticks = np.zeros(1, np.int64), np.zeros(1, np.int64)
    k = _k("clocks_misc.hip", "timed_loop", arch)
    k[1, 64](x, y, cyc, ticks, 10)
    short = (int(cyc[0]), int(ticks[0]))
    k[1, 64](x, y, cyc, ticks, 200)
    want = x.copy()
    for _ in range(200):
        want = want * np.float32(0.5) + np.float32(1)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert 0 < short[0] < cyc[0] and 0 < short[1] < ticks[0]


def uniform_table(arch):
    out = np.zeros(64, np.int32)
    for s in range(4):
        _k("clocks_misc.hip", "uniform_table", arch)[1, 64](np.array([s], np.int32), out,
                                                             3, 5, 7, 11)
        t = [3, 5, 7, 11]
        np.testing.assert_array_equal(out, t[s] + t[(s + 1) % 4] * 10 + np.arange(64))


def xor3_sad(arch):
    r = _rng()
    a, b, c = (r.integers(0, 2**32, 64, dtype=np.uint32) for _ in range(3))
    out = np.zeros((64, 3), np.uint32)
    _k("clocks_misc.hip", "xor3_sad", arch)[1, 64](a, b, c, out)
    ai, bi = a.astype(np.int64), b.astype(np.int64)
    np.testing.assert_array_equal(out[:, 0], a ^ b ^ c)
    np.testing.assert_array_equal(out[:, 1], (np.abs(ai - bi) + (c & 0xFFFF)) & 0xFFFFFFFF)
    np.testing.assert_array_equal(out[:, 2], (np.abs(ai - bi) + (c >> 8)) & 0xFFFFFFFF)


def short_med3(arch):
    r = _rng()
    a, b = (r.integers(-200, 200, 64).astype(np.int16) for _ in range(2))
    out = np.zeros(64, np.int16)
    _k("clocks_misc.hip", "short_med3", arch)[1, 64](a, b, out)
    np.testing.assert_array_equal(out, np.clip(a + b, -100, 100))


# ---------------------------------------------------------------- lower-level builtins

def buffer_copy(arch):
    """Raw buffer loads/stores through a buffer resource: lanes past num_records read 0 and
    their stores are dropped (range checking), so dst keeps its guard values."""
    x = _rng().standard_normal(100).astype(np.float32)
    dst = np.full(128, 7.0, np.float32)
    _k("lowlevel.hip", "buffer_copy", arch)[1, 128](x, dst[:100], 100)
    np.testing.assert_array_equal(dst[:100], 2 * x)


def nontemporal(arch):
    x = _rng().standard_normal(100).astype(np.float32)
    y = np.zeros_like(x)
    _k("lowlevel.hip", "nontemporal", arch)[1, 128](x, y, 100)
    np.testing.assert_array_equal(y, x + 1)


def scoped_atomics(arch):
    x = _rng().integers(-50, 50, 128).astype(np.float32)
    counter, flags = np.zeros(3, np.int32), np.array([0, 4, 0], np.int32)
    wide, fsum = np.zeros(1, np.uint64), np.zeros(1, np.float32)
    _k("lowlevel.hip", "scoped_atomics", arch)[1, 128](counter, flags, wide, fsum, x)
    np.testing.assert_array_equal(counter, [128, 256, 127])
    np.testing.assert_array_equal(flags, [7, 4, 9])
    assert wide[0] == np.uint64(2**64 - 1) and fsum[0] == x.sum()


def sgemm_tiled(arch):
    M, N, K = 40, 36, 50
    a = _rng().integers(-3, 4, (M, K)).astype(np.float32)
    b = _rng(9).integers(-3, 4, (K, N)).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    _k("lowlevel.hip", "sgemm_tiled", arch)[(3, 3), (16, 16)](a, b, c, M, N, K)
    np.testing.assert_array_equal(c, a @ b)  # small integers: exact


CASES = {
    f.__name__: (f, archs) for f, archs in [
        (warp_sum, ALL + W64), (warp_max_xor, ALL + W64), (ballot, ALL + W64),
        (activemask, ALL + W64), (shfl_up_scan, ALL + W64), (any_all, ALL + W64),
        (block_tree, ALL), (block_two_level, ALL + W64), (hist_lds, ALL + W64), (hist_global, ALL),
        (atomics_mix, ALL), (cas_float_max, ALL), (cas_double_sum, ALL), (cas_lds_max, ALL + W64),
        (hillis_steele, ALL), (blelloch, ALL), (transpose, ALL), (templates, ALL),
        (half_axpy, ALL), (half2, ALL), (half_dot, ALL + W64), (half_compare, ALL), (bf16, ALL),
        (dmath, ALL), (dkahan, ALL), (dsincos_large, ALL), (trig_preop_vs_llvm, ALL),
        (divmod32, ALL), (divmod64, ALL), (unflatten, ALL), (bitcasts, ALL), (round_modes, ALL),
        (uniform_f32, ALL + O1), (uniform_f16, ALL), (index64, ALL), (bit_tricks, ALL),
        (by_value, ALL), (center_of_mass, ALL), (vec4, ALL), (dyn_shared, ALL), (uint4_arg, ALL),
        (small_loads, ALL), (readfirstlane, ALL + W64), (bpermute, ALL + W64),
        (mbcnt_compact, ALL + W64), (readlane, ALL), (fmed3_ubfe, ALL), (printf_, ALL),
        (grid_stride, ALL), (layernorm, ALL + W64), (softmax, ALL + W64), (conv2d, ALL),
        (spmv, ALL + W64), (bitonic_block, ALL), (bitonic_steps, ALL), (private_array, ALL + O1),
        (calls, ALL + O0), (interpreter, ALL), (grid3d, ALL), (spill, ALL), (votes, ALL + W64),
        (last_block, ALL), (cg_tiles, ALL + W64), (cg_coalesced, ALL + W64),
        (shfl_width, ALL + W64), (dpp_scan, ALL + W64), (dpp_perms, ALL + W64),
        (swizzle, ALL + W64), (dots, ALL), (atomics64, ALL), (lds_float_atomics, ALL),
        (constant_table, ALL), (half2_api, ALL), (bf16x2_api, ALL), (int_avg, ALL),
        (directed, ALL), (timed_loop, ALL), (uniform_table, ALL), (xor3_sad, ALL),
        (short_med3, ALL), (mfma16, ("gfx942", "gfx950")),
        (mfma32, ("gfx942", "gfx950", "gfx942-O1", "gfx950-O1")),
        (wmma11, ("gfx1100", "gfx1100-O1")), (wmma12, ("gfx1201", "gfx1201-O1")),
        (buffer_copy, ALL), (nontemporal, ALL), (scoped_atomics, ALL), (sgemm_tiled, ALL),
    ]
}
PARAMS_LIST = [(n, a) for n, (_, archs) in CASES.items() for a in archs]


# make test: every kernel runs, on one arch of its list (the next kernel on the next arch, so every
# arch and variant (w64, -O1, -O0) still runs for its share of the kernels); FULL=1: all pairs.
@pytest.mark.sample(every=4, per=("case",))
@pytest.mark.parametrize("case,arch", PARAMS_LIST, ids=[f"{n}-{a}" for n, a in PARAMS_LIST])
def test_runs_and_matches_numpy(case, arch):
    CASES[case][0](arch)


# ---------------------------------------------------------------- check mode stays quiet

CHECKED = [("block_reduce.hip", "block_sum_tree_256", (3, 256)), ("scan.hip", "blelloch", (1, 256)),
           ("transpose.hip", "transpose_padded", ((3, 2), (32, 8))),
           ("atomics2.hip", "lds_float_atomics", (1, 128)),
           ("atomics2.hip", "lds_exchange_chain", (1, 128))]


@pytest.mark.parametrize("arch", ALL)
def test_check_mode_finds_nothing_in_correct_barrier_kernels(arch):
    """Check mode on correct LDS kernels reports no race on any arch: GFX12's split barrier
    (s_barrier_signal, s_barrier_wait) is a barrier to it, and GFX11's ds_storexchg_rtn (the
    atomic exchange) an atomic (before: dozens of false lds-race findings on gfx1201, and an
    exchange after a barrier counted as a plain store)."""
    r = _rng()
    x = r.integers(-50, 50, 3000).astype(np.float32)
    args = {"block_sum_tree_256": (x, np.zeros(3, np.float32), x.size),
            "blelloch": (x[:512].copy(), np.zeros(512, np.float32)),
            "transpose_padded": (np.zeros((72, 40), np.float32),
                                 x[:2880].reshape(40, 72).copy(), 72, 40),
            "lds_float_atomics": (x[:128].copy(), np.zeros(4, np.float32),
                                  np.zeros(1, np.float32)),
            "lds_exchange_chain": (np.arange(128, dtype=np.int32), np.zeros(128, np.int32),
                                   np.zeros(1, np.int32))}
    for fname, name, (grid, block) in CHECKED:
        rep = _k(fname, name, arch).check[grid, block](*args[name])
        assert not rep.findings, str(rep)
    got, last = args["lds_exchange_chain"][1:]
    _k("atomics2.hip", "lds_exchange_chain", arch)[1, 128](np.arange(128, dtype=np.int32),
                                                          got, last)
    assert sorted([*got, *last]) == [-1, *range(128)]  # a chain of swaps loses nothing
