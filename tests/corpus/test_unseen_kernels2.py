"""A second round of HIP kernels written fresh for this test, on ground round 1 did not cover.

tests/kernels/unseen2/ (README there): amdgcn builtins (msad/lerp, alignbyte, perm, sbfe,
frexp, pknorm/pkrtz, ballot-style compares, runtime-lane readlane, permlane*, DPP broadcasts
and row_share, __smid), packed half/short math, image stencils, LDS blur, bf16 transposes,
radix histograms with warp-aggregated atomics, 64-bit atomics, templated functors. Each is
compiled with hipwb's offline prelude and run on the emulator of gfx942, gfx950, gfx1100
(wave32) and gfx1201 (wave32) where the feature exists, and checked against numpy.

Tolerances: integer, bitwise and data-movement results are exact; float results follow the
round-1 rules (tests/corpus/test_unseen_kernels.py's docstring).
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
from unseen_harness import kernel, module, wave_size

HERE = Path(__file__).parents[1] / "kernels" / "unseen2"
ALL = ("gfx942", "gfx950", "gfx1100", "gfx1201")
W64 = ("gfx1100-w64", "gfx1201-w64")


_module = functools.partial(module, HERE)
_k = functools.partial(kernel, HERE)
_ws = wave_size


def _rng(seed: int = 11) -> np.random.Generator:
    return np.random.default_rng(seed)


def _bytes(x):
    return [(x >> (8 * k)) & 0xFF for k in range(4)]


# ---------------------------------------------------------------- byte / bit builtins

def byte_ops(arch):
    r = _rng()
    n = 64
    a, b, c = (r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    outs = [np.zeros(n, np.uint32) for _ in range(4)]
    _k("builtins2.hip", "byte_ops", arch)[1, n](a, b, c, *outs)
    msad, lerp, align, perm = outs
    a64, b64, c64 = (v.astype(np.int64) for v in (a, b, c))
    # v_msad_u8: sum over bytes of |a-b|, skipping bytes where b (the reference) is 0
    want = (c64 & 0xFFFF) + sum(np.where(bb == 0, 0, np.abs(aa - bb))
                               for aa, bb in zip(_bytes(a64), _bytes(b64)))
    np.testing.assert_array_equal(msad, (want & 0xFFFFFFFF).astype(np.uint32))
    # v_lerp_u8: per byte (a + b + (c & 1)) >> 1
    cc = c64 & 0x01010101
    want = sum(((aa + bb + (ci & 1)) >> 1) << (8 * k)
               for k, (aa, bb, ci) in enumerate(zip(_bytes(a64), _bytes(b64), _bytes(cc))))
    np.testing.assert_array_equal(lerp, want.astype(np.uint32))
    # v_alignbyte_b32: ({a, b} >> 8*(c & 3)) low 32 bits
    want = (((a64 << 32) | b64) >> (8 * (c64 & 3))) & 0xFFFFFFFF
    np.testing.assert_array_equal(align, want.astype(np.uint32))
    # v_perm_b32: selector bytes of c pick from the 8 bytes {a, b} (b = bytes 0-3)
    pool = [_bytes(b64)[k] for k in range(4)] + [_bytes(a64)[k] for k in range(4)]
    want = np.zeros(n, np.int64)
    for k in range(4):
        sel = (c64 >> (8 * k)) & 0xFF
        byte = np.zeros(n, np.int64)
        for j in range(n):
            s = int(sel[j])
            if s < 8:
                v = int(pool[s][j])
            elif s < 12:
                src = int(pool[2 * (s - 8) + 1][j])  # sign of byte 1, 3, 5, 7
                v = 0xFF if src & 0x80 else 0
            elif s == 12:
                v = 0
            else:
                v = 0xFF
            byte[j] = v
        want |= byte << (8 * k)
    np.testing.assert_array_equal(perm, want.astype(np.uint32))


def bitfields(arch):
    r = _rng()
    n = 64
    x = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    off = r.integers(0, 32, n).astype(np.int32)
    w = r.integers(0, 33, n).astype(np.int32)
    s, u = np.zeros(n, np.int32), np.zeros(n, np.uint32)
    _k("builtins2.hip", "bitfields", arch)[1, n](x, off, w, s, u)
    # v_bfe: offset and width are taken mod 32; width 0 gives 0
    for i in range(n):
        o, wd = int(off[i]) & 31, int(w[i]) & 31
        field = (int(x[i]) >> o) & ((1 << wd) - 1) if wd else 0
        if o + wd > 32:
            field = int(x[i]) >> o
            wd = 32 - o
        sfield = field - (1 << wd) if wd and field >> (wd - 1) else field
        assert u[i] == field, (i, x[i], o, wd, u[i], field)
        assert s[i] == sfield, (i, x[i], o, wd, s[i], sfield)


def frexp_parts(arch):
    x = np.array([1.0, -3.5, 0.75, 1e-40, 6e37, 0.0, -0.0, np.inf, np.nan, 2.0**-126,
                  123456.0, -1e-3, 3.0, 0.1, 1e30, -7.0], np.float32)
    d = np.array([1.0, -3.5, 0.75, 1e-310, 6e300, 0.0, -0.0, np.inf, np.nan, 2.0**-1022,
                  123456.0, -1e-3, 3.0, 0.1, 1e30, -7.0])
    n = x.size
    mant, ex = np.zeros(n, np.float32), np.zeros(n, np.int32)
    dmant, dex = np.zeros(n), np.zeros(n, np.int32)
    _k("builtins2.hip", "frexp_parts", arch)[1, n](x, mant, ex, d, dmant, dex)
    for got_m, got_e, src in ((mant, ex, x), (dmant, dex, d)):
        fin = np.isfinite(src)
        wm, we = np.frexp(src[fin])
        np.testing.assert_array_equal(got_m[fin], wm)
        np.testing.assert_array_equal(got_e[fin], we)
        # ISA: inf/nan mantissa returns the input, exponent 0
        assert np.isinf(got_m[np.isinf(src)]).all() and np.isnan(got_m[np.isnan(src)]).all()
        np.testing.assert_array_equal(got_e[~fin], 0)


def packs(arch):
    a = np.array([0.5, -1.5, 2.0, 1e5, -1e5, 0.333333, 1.0009765, -0.7, 65519.0, 1.5e-8,
                  0.99999, -1.0, 0.0, 3.14159, -2.0, 0.25], np.float32)
    b = a[::-1].copy() * np.float32(0.6)
    n = a.size
    rtz, ni, nu = (np.zeros(n, np.uint32) for _ in range(3))
    _k("builtins2.hip", "packs", arch)[1, n](a, b, rtz, ni, nu)

    def f2h_rtz(v):
        with np.errstate(over="ignore"):
            h = v.astype(np.float16)  # round to nearest, then step toward zero where it grew
        up = np.abs(h.astype(np.float32)) > np.abs(v)
        bits = h.view(np.uint16).astype(np.int32) - up.astype(np.int32)
        big = np.abs(v) >= 65520  # rtz saturates to max finite, not inf
        bits = np.where(big, (np.sign(v) < 0) * 0x8000 + 0x7BFF, bits)
        return bits.astype(np.uint32)

    np.testing.assert_array_equal(rtz, f2h_rtz(a) | (f2h_rtz(b) << 16))

    def norm(v, lo, scale):
        q = np.rint(np.clip(v.astype(np.float64), lo, 1.0) * scale).astype(np.int64)
        return (q & 0xFFFF).astype(np.uint32)

    np.testing.assert_array_equal(ni, norm(a, -1.0, 32767) | (norm(b, -1.0, 32767) << 16))
    np.testing.assert_array_equal(nu, norm(a, 0.0, 65535) | (norm(b, 0.0, 65535) << 16))


def fmed3_clamp(arch):
    r = _rng()
    n = 64
    x = r.standard_normal(n).astype(np.float32) * 3
    lo = r.standard_normal(n).astype(np.float32)
    hi = lo + np.abs(r.standard_normal(n)).astype(np.float32)
    out = np.zeros(n, np.float32)
    _k("builtins2.hip", "fmed3_clamp", arch)[1, n](x, lo, hi, out)
    np.testing.assert_array_equal(out, np.median(np.stack([x, lo, hi]), axis=0))


def cmp_masks(arch):
    ws = _ws(arch)
    r = _rng()
    n = 128
    a = r.integers(-100, 100, n).astype(np.int32)
    f = r.random(n).astype(np.float32)
    k = 7
    out = np.zeros(3 * (n // ws), np.uint64)
    _k("builtins2.hip", "cmp_masks", arch)[1, n](a, f, out, np.int32(k))

    def mask(bits):
        b = bits.reshape(-1, ws).astype(np.uint64)
        return (b << np.arange(ws, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)

    got = out.reshape(-1, 3)
    np.testing.assert_array_equal(got[:, 0], mask(a > k))
    np.testing.assert_array_equal(got[:, 1], mask(a.view(np.uint32) < k))
    np.testing.assert_array_equal(got[:, 2], mask(f < 0.5))


def lanes_runtime(arch):
    ws = _ws(arch)
    n = 128
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    which = np.array([3, ws - 1, 0, 5][: n // ws], np.int32)
    got = np.zeros(n, np.int32)
    _k("builtins2.hip", "lanes_runtime", arch)[1, n](x, which, got)
    want = np.repeat(x.reshape(-1, ws)[np.arange(n // ws), which], ws)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- cross-lane moves

GFX9 = ("gfx942", "gfx950")
RDNA = ("gfx1100", "gfx1201")


def dpp_bcast(arch):
    x = _rng().integers(-1000, 1000, 64).astype(np.int32)
    b15, b31 = np.zeros(64, np.int32), np.zeros(64, np.int32)
    _k("lanes2.hip", "dpp_bcast", arch)[1, 64](x, b15, b31)
    want15 = np.full(64, -1, np.int32)
    want15[16:32], want15[48:64] = x[15], x[47]  # rows 1 and 3 (row_mask 0xa)
    want31 = np.full(64, -1, np.int32)
    want31[32:64] = x[31]  # rows 2 and 3 (row_mask 0xc)
    np.testing.assert_array_equal(b15, want15)
    np.testing.assert_array_equal(b31, want31)


def dpp_share(arch):
    n = 64
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    share, xmask = np.zeros(n, np.int32), np.zeros(n, np.int32)
    _k("lanes2.hip", "dpp_share", arch)[1, n](x, share, xmask)
    lane = np.arange(n)
    np.testing.assert_array_equal(share, x[(lane & ~15) + 5])
    np.testing.assert_array_equal(xmask, x[lane ^ 6])


def permlanes(arch):
    n = 64
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    sel = _rng(3).permutation(16)
    sel[3] = sel[9]  # a repeated source lane too
    word = sum(int(v) << (4 * k) for k, v in enumerate(sel))
    p16, px16 = np.zeros(n, np.int32), np.zeros(n, np.int32)
    _k("lanes2.hip", "permlanes", arch)[1, n](x, p16, px16, np.uint32(word & 0xFFFFFFFF),
                                             np.uint32(word >> 32))
    lane = np.arange(n)
    src = sel[lane & 15]
    np.testing.assert_array_equal(p16, x[(lane & ~15) + src])
    np.testing.assert_array_equal(px16, x[((lane & ~15) ^ 16) + src])


def permlane64(arch):
    ws = _ws(arch)
    n = 128
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    _k("lanes2.hip", "permlane64", arch)[1, n](x, out)
    lane = np.arange(n)
    np.testing.assert_array_equal(out, x[lane ^ 32] if ws == 64 else x)


def swizzle_quad(arch):
    n = 64
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    _k("lanes2.hip", "swizzle_quad", arch)[1, n](x, out)
    lane = np.arange(n)
    np.testing.assert_array_equal(out, x[(lane & ~3) + np.array([2, 3, 0, 1])[lane & 3]])


def packed16(arch):
    r = _rng()
    n = 64
    a = (r.standard_normal(2 * n) * 4).astype(np.float16)
    b = (r.standard_normal(2 * n) * 4).astype(np.float16)
    p = r.integers(-30000, 30000, 2 * n).astype(np.int16)
    q = r.integers(-30000, 30000, 2 * n).astype(np.int16)
    fma, mn = np.zeros(2 * n, np.float16), np.zeros(2 * n, np.float16)
    sm, prod = np.zeros(2 * n, np.int16), np.zeros(2 * n, np.int16)
    _k("lanes2.hip", "packed16", arch)[1, n](a, b, fma, mn, p, q, sm, prod)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_array_equal(fma, (a64 * b64 + a64).astype(np.float16))
    np.testing.assert_array_equal(mn, np.minimum(a, b))
    p32, q32 = p.astype(np.int32), q.astype(np.int32)
    np.testing.assert_array_equal(sm, (p32 + q32).astype(np.int16))
    np.testing.assert_array_equal(prod, (p32 * q32 - (q32 >> 1)).astype(np.int16))


# ---------------------------------------------------------------- everyday kernels

def _box3(img):
    p = np.pad(img.astype(np.float64), 1, mode="edge")
    h, w = img.shape
    return sum(p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)) / 9


def box3_clamp(arch):
    img = _rng().random((13, 21)).astype(np.float32)
    out = np.zeros_like(img)
    _k("apps2.hip", "box3_clamp", arch)[(3, 2), (8, 8)](img, out, 21, 13)
    np.testing.assert_allclose(out, _box3(img), rtol=1e-6)


def blur_sep(arch):
    img = _rng().random((32, 48)).astype(np.float32)
    out = np.zeros_like(img)
    _k("apps2.hip", "blur_sep", arch)[(3, 2), (16, 16)](img, out, 48, 32)
    t = np.array([1, 4, 6, 4, 1]) / 16
    p = np.pad(img.astype(np.float64), 2, mode="edge")
    rows = sum(t[k] * p[:, k:k + 48] for k in range(5))
    want = sum(t[k] * rows[k:k + 32] for k in range(5))
    np.testing.assert_allclose(out, want, rtol=1e-5)


def transpose_bf16(arch):
    bits = _rng().integers(0, 2**16, (24, 40)).astype(np.uint16)
    out = np.zeros((40, 24), np.uint16)
    _k("apps2.hip", "transpose_bf16_v16", arch)[(1, 3), (5, 8)](bits, out, 24, 40)
    np.testing.assert_array_equal(out, bits.T)


def radix_hist(arch):
    keys = _rng().integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32)
    for shift in (0, 12, 28):
        hist = np.zeros(16, np.uint32)
        _k("apps2.hip", "radix_hist", arch)[4, 256](keys, hist, 1000, shift)
        np.testing.assert_array_equal(hist, np.bincount((keys >> shift) & 15, minlength=16))


def atomics64b(arch):
    r = _rng()
    n = 256
    x = r.integers(-1000, 1000, n).astype(np.float64) / 8  # exact sums in any order
    k = r.integers(0, 2**64, n, dtype=np.uint64)
    s, mn, mx = np.zeros(1), np.full(1, 2**64 - 1, np.uint64), np.zeros(1, np.uint64)
    ctr, tickets = np.zeros(1, np.uint32), np.zeros(n, np.uint32)
    _k("apps2.hip", "atomics64b", arch)[4, 64](x, s, k, mn, mx, ctr, tickets, np.uint32(9))
    assert s[0] == x.sum() and mn[0] == k.min() and mx[0] == k.max()
    # atomicInc: old >= wrap ? 0 : old + 1, so tickets cycle 0..9 and each value is drawn
    # n / 10 times (rounded), and the counter ends at n mod 10
    np.testing.assert_array_equal(np.bincount(tickets, minlength=10),
                                  [n // 10 + (v < n % 10) for v in range(10)])
    assert ctr[0] == n % 10


def seg_sum_sync(arch):
    ws = _ws(arch)
    n = 128
    x = _rng().integers(-50, 50, n).astype(np.float32)
    head = (_rng(5).random(n) < 0.2).astype(np.int32)
    out = np.zeros(n, np.float32)
    _k("apps2.hip", "seg_sum_sync", arch)[2, 64](x, head, out)
    want = np.zeros(n, np.float32)
    for i in range(n):
        j = i
        while j % ws and not head[j]:
            j -= 1
        want[i] = x[j:i + 1].sum()
    np.testing.assert_array_equal(out, want)


def stream_scale(arch):
    x = _rng().standard_normal(64 * 7).astype(np.float32)
    x[5] = np.nan
    out = np.zeros_like(x)
    _k("apps2.hip", "stream_scale", arch)[2, 32](x, out, 7, np.float32(1.5))
    np.testing.assert_array_equal(out, np.where(np.isnan(x), 0, x * np.float32(1.5)))


def bias_gelu(arch):
    import math
    r = _rng()
    acc = (r.standard_normal((8, 32)) * 3).astype(np.float32)
    bias = r.standard_normal(32).astype(np.float32)
    e, t = np.zeros_like(acc), np.zeros_like(acc)
    _k("apps2.hip", "bias_gelu", arch)[2, 128](acc, bias, e, t, 32)
    v = (acc + bias).astype(np.float64)
    we = 0.5 * v * (1 + np.vectorize(math.erf)(v * 0.70710678))
    wt = 0.5 * v * (1 + np.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    np.testing.assert_allclose(e, we, rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(t, wt, rtol=2e-6, atol=1e-6)


def masked_minmax(arch):
    x = _rng().standard_normal(300).astype(np.float32)
    keep = (_rng(2).random(300) < 0.3).astype(np.int32)
    keep[:40] = 0
    mn, mx, imin = np.zeros(1, np.float32), np.zeros(1, np.float32), np.zeros(1, np.int32)
    ws = _ws(arch)
    _k("apps2.hip", "masked_minmax", arch)[1, ws](x, keep, mn, mx, 300, imin)
    assert (mn[0], mx[0], imin[0]) == (x[keep == 1].min(), x[keep == 1].max(),
                                       np.flatnonzero(keep)[0])
    keep[:] = 0  # nothing kept: the identities come back
    _k("apps2.hip", "masked_minmax", arch)[1, ws](x, keep, mn, mx, 300, imin)
    assert mn[0] == np.inf and mx[0] == np.finfo(np.float32).min
    assert imin[0] == np.iinfo(np.int32).max


def functors(arch):
    r = _rng()
    x = r.integers(-20, 20, 64).astype(np.float32)
    y = r.integers(-20, 20, 64).astype(np.float32)
    out = np.zeros(64, np.float32)
    sq = (np.arange(64) % 4) ** 2
    _k("apps2.hip", "zip_apply<Saxpy>", arch)[1, 64](np.float32(2.5).tobytes(), x, y, out)
    np.testing.assert_array_equal(out, 2.5 * x + y + sq)
    _k("apps2.hip", "zip_apply<Hypot>", arch)[1, 64](bytes(1), x, y, out)
    np.testing.assert_array_equal(out, np.sqrt(x * x + y * y) + sq.astype(np.float32))


def linkage(arch):
    x = np.arange(32, dtype=np.float32)
    _k("apps2.hip", "scale_c", arch)[1, 32](x, np.float32(2))
    np.testing.assert_array_equal(x, 2 * np.arange(32))
    _k("apps2.hip", "scale_cpp(float*, float)", arch)[1, 32](x, np.float32(3))
    np.testing.assert_array_equal(x, 6 * np.arange(32))
    d = np.arange(32, dtype=np.float64)
    _k("apps2.hip", "scale_cpp(double*, double)", arch)[1, 32](d, 0.5)
    np.testing.assert_array_equal(d, 0.5 * np.arange(32))
    # overloads sharing a source name each get a Python name (before: the second silently
    # replaced the first), and the bare name is refused naming both
    mod = _module("apps2.hip", arch)
    assert {"scale_cpp_float_ptr_float", "scale_cpp_double_ptr_double"} <= set(mod.kernel_names())
    _k("apps2.hip", "scale_cpp_float_ptr_float", arch)[1, 32](x, np.float32(0.5))
    np.testing.assert_array_equal(x, 3 * np.arange(32))
    with pytest.raises(KeyError, match="overloads"):
        mod["scale_cpp"]


# ---------------------------------------------------------------- dots, clocks, __smid

def dot2_int(arch):
    r = _rng()
    n = 64
    a, b = (r.integers(-2**15, 2**15, 2 * n).astype(np.int16) for _ in range(2))
    ua, ub = (r.integers(0, 2**16, 2 * n).astype(np.uint16) for _ in range(2))
    c = r.integers(-2**20, 2**20, n).astype(np.int32)
    s2, u2 = np.zeros(n, np.int32), np.zeros(n, np.uint32)
    _k("misc2.hip", "dot2_int", arch)[1, n](a, b, ua, ub, c, s2, u2)
    a64, b64 = a.astype(np.int64).reshape(-1, 2), b.astype(np.int64).reshape(-1, 2)
    want = ((a64 * b64).sum(axis=1) + c) & 0xFFFFFFFF
    np.testing.assert_array_equal(s2.view(np.uint32), want.astype(np.uint32))
    ua64, ub64 = ua.astype(np.int64).reshape(-1, 2), ub.astype(np.int64).reshape(-1, 2)
    want = ((ua64 * ub64).sum(axis=1) + c.view(np.uint32)) & 0xFFFFFFFF
    np.testing.assert_array_equal(u2, want.astype(np.uint32))


def dot2_f16(arch):
    r = _rng()
    n = 64
    a = r.integers(-40, 40, 2 * n).astype(np.float16)
    b = r.integers(-40, 40, 2 * n).astype(np.float16)
    c = r.integers(-1000, 1000, n).astype(np.float32)
    out = np.zeros(n, np.float32)
    _k("misc2.hip", "dot2_f16", arch)[1, n](a, b, c, out)
    want = (a.astype(np.float32) * b.astype(np.float32)).reshape(-1, 2).sum(axis=1) + c
    np.testing.assert_array_equal(out, want)  # small integers: exact in any order


def gemm_i8(arch):
    r = _rng()
    M, N, K = 3, 32, 24
    A = r.integers(-128, 128, (M, K)).astype(np.int8)
    B = r.integers(-128, 128, (K, N)).astype(np.int8)
    C = np.zeros((M, N), np.int32)
    A4 = A.view(np.int32)  # 4 consecutive k per dword, lowest k in the low byte
    B4t = np.ascontiguousarray(B.T).view(np.int32)
    _k("misc2.hip", "gemm_i8_dot4", arch)[(1, M), N](A4, B4t, C, N, K // 4)
    np.testing.assert_array_equal(C, A.astype(np.int32) @ B.astype(np.int32))


def realtime(arch):
    t, ok = np.zeros(3, np.uint64), np.zeros(3, np.int32)
    _k("misc2.hip", "realtime", arch)[3, 64](t, ok)
    assert ok.all()


def smid(arch):
    """__smid() is deterministic on the emulator (emu/semantics/scalar/mode.py: block d on CU d mod
    16,
    one SE/XCC) and uniform over a block's waves; before it did not compile (no __smid) and
    s_getreg of HW_ID/HW_ID1/XCC_ID was refused."""
    ids, uni = np.zeros(20, np.uint32), np.zeros(20, np.int32)
    _k("misc2.hip", "smid", arch)[20, 256](ids, uni)
    np.testing.assert_array_equal(ids, np.arange(20) % 16)
    assert uni.all()


# ---------------------------------------------------------------- wave shifts, attention

def wave_shift(arch):
    x = _rng().integers(-1000, 1000, 64).astype(np.int32)
    shr, rol = np.zeros(64, np.int32), np.zeros(64, np.int32)
    _k("wavemask.hip", "wave_shift", arch)[1, 64](x, shr, rol)
    # CDNA3 ISA DPP_CTRL: wave_shr:1 lane l reads l - 1 (lane 0 has none: keeps old = -7),
    # wave_rol:1 lane l reads (l + 1) mod 64
    np.testing.assert_array_equal(shr, np.concatenate([[-7], x[:-1]]))
    np.testing.assert_array_equal(rol, np.roll(x, -1))


def flash_row(arch):
    r = _rng()
    Lq, Lk, D = 5, 37, 16
    Q, K, V = (r.standard_normal((n, D)).astype(np.float32) for n in (Lq, Lk, Lk))
    out = np.zeros((Lq, D), np.float32)
    scale = np.float32(1 / np.sqrt(D))
    _k("attention.hip", "flash_row", arch)[Lq, 16](Q, K, V, out, Lk, scale)
    s = (Q.astype(np.float64) @ K.T.astype(np.float64)) * float(scale)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    want = (p / p.sum(axis=1, keepdims=True)) @ V.astype(np.float64)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)  # __expf: a few ulp



def gemm_i8_matrix_core(arch):
    r = _rng()
    K = 64
    A = r.integers(-128, 128, (16, K)).astype(np.int8)
    B = r.integers(-128, 128, (K, 16)).astype(np.int8)
    C = np.zeros((16, 16), np.int32)
    name = "wmma_i8" if arch.startswith("gfx11") else "mfma_i8"
    _k("gemm_i8_mc.hip", name, arch)[1, _ws(arch)](A, np.ascontiguousarray(B.T), C, K)
    np.testing.assert_array_equal(C, A.astype(np.int32) @ B.astype(np.int32))



# ---------------------------------------------------------------- more builtins

def float_helpers(arch):
    x = np.array([0.25, -1.75, 3.5, np.nan, np.inf, -np.inf, 1e-40, -1e-41, 0.0, -0.0,
                  100.125, -0.3, 7.9, 1e30, -2.5e-3, 0.5], np.float32)
    e = np.array([3, -2, 100, 0, 1, 1, 40, 5, 7, 7, -130, 1, -1, 10, 0, 127], np.int32)
    n = x.size
    cls = np.zeros(n, np.int32)
    fr, ld, sn, cs = (np.zeros(n, np.float32) for _ in range(4))
    _k("builtins3.hip", "float_helpers", arch)[1, n](x, e, cls, fr, ld, sn, cs)
    want = np.isnan(x) * 1 | np.isinf(x) * 2 | ((x != 0) & (np.abs(x) < 2**-126)) * 4
    np.testing.assert_array_equal(cls, want)
    fin = np.isfinite(x)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(fr[fin], np.minimum(x[fin] - np.floor(x[fin]),
                                                          np.nextafter(np.float32(1), 0)))
        np.testing.assert_array_equal(ld, np.ldexp(x, e))
    small = fin & (np.abs(x) < 256)  # v_sin/v_cos take revolutions, valid for |x| < 256
    np.testing.assert_allclose(sn[small], np.sin(2 * np.pi * x[small].astype(np.float64)),
                               atol=3e-6)
    np.testing.assert_allclose(cs[small], np.cos(2 * np.pi * x[small].astype(np.float64)),
                               atol=3e-6)


def cube(arch):
    r = _rng()
    d = r.standard_normal((32, 3)).astype(np.float32)
    d[:4] = [[1, 1, 1], [-2, 2, 0.5], [0.5, -3, 3], [-1, 0.25, -0.5]]  # ties pick z, then y
    out = [np.zeros(32, np.float32) for _ in range(4)]
    _k("builtins3.hip", "cube", arch)[1, 32](d, *out)
    x, y, z = d.T
    ax, ay, az = np.abs(d).T
    zm = (az >= ax) & (az >= ay)
    ym = ~zm & (ay >= ax)
    xm = ~zm & ~ym
    # RDNA3 ISA V_CUBEID/MA/SC/TC_F32 (the OpenGL / D3D cube-face table)
    fid = np.where(zm, np.where(z < 0, 5, 4), np.where(ym, np.where(y < 0, 3, 2),
                                                       np.where(x < 0, 1, 0)))
    ma = 2 * np.where(zm, z, np.where(ym, y, x))
    sc = np.where(zm, np.where(z < 0, -x, x), np.where(ym, x, np.where(x < 0, z, -z)))
    tc = np.where(zm, -y, np.where(ym, np.where(y < 0, -z, z), -y))
    for got, want in zip(out, (fid, ma, sc, tc)):
        np.testing.assert_array_equal(got, want.astype(np.float32))
    assert xm.any() and ym.any() and zm.any()


def append_compact(arch):
    x = _rng().integers(-50, 50, 256).astype(np.int32)
    out, cnt = np.full(256, -999, np.int32), np.zeros(1, np.int32)
    _k("builtins3.hip", "append_compact", arch)[1, 256](x, out, cnt)
    k = int((x > 0).sum())
    assert cnt[0] == k
    np.testing.assert_array_equal(np.sort(out[:k]), np.sort(x[x > 0]))
    assert (out[k:] == -999).all()


def consume_count(arch):
    ws = _ws(arch)
    seen, left = np.zeros(128 // ws, np.int32), np.zeros(1, np.int32)
    _k("builtins3.hip", "consume_count", arch)[1, 128](np.int32(1000), seen, left)
    per_wave = [sum(1 for t in range(w * ws, (w + 1) * ws) if t % 3) for w in range(128 // ws)]
    assert left[0] == 1000 - sum(per_wave)
    # the waves consumed one after another in some order: each saw the counter as the
    # earlier ones left it
    order = np.argsort(-seen)
    want = 1000 - np.concatenate([[0], np.cumsum(np.array(per_wave)[order])[:-1]])
    np.testing.assert_array_equal(seen[order], want)


def sizes(arch):
    out = np.zeros(4, np.uint32)
    _k("builtins3.hip", "sizes", arch)[(5, 3), (32, 2)](out)
    np.testing.assert_array_equal(out, [32, 5 * 32, 2, 3 * 2])



def dpp8_reverse(arch):
    x = _rng().integers(-1000, 1000, 64).astype(np.int32)
    out = np.zeros(64, np.int32)
    _k("builtins4.hip", "dpp8_reverse", arch)[1, 64](x, out)
    lane = np.arange(64)
    np.testing.assert_array_equal(out, x[(lane & ~7) + 7 - (lane & 7)])


def permlane16_var(arch):
    n = 64
    x = _rng().integers(-1000, 1000, n).astype(np.int32)
    sel = _rng(4).integers(0, 16, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    _k("builtins4.hip", "permlane16_var", arch)[1, n](x, sel, out)
    lane = np.arange(n)
    np.testing.assert_array_equal(out, x[(lane & ~15) + sel])


def bitop3(arch):
    r = _rng()
    a, b, c = (r.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    maj, x3 = np.zeros(64, np.uint32), np.zeros(64, np.uint32)
    _k("builtins4.hip", "bitop3", arch)[1, 64](a, b, c, maj, x3)
    np.testing.assert_array_equal(maj, (a & b) | (a & c) | (b & c))
    np.testing.assert_array_equal(x3, a ^ b ^ c)


def ashr_pk(arch):
    r = _rng()
    x, y = (r.integers(-2**20, 2**20, 64).astype(np.int32) for _ in range(2))
    sh = r.integers(0, 40, 64).astype(np.uint32)  # only bits 4:0 count
    si, su = np.zeros(64, np.uint16), np.zeros(64, np.uint16)
    _k("builtins4.hip", "ashr_pk", arch)[1, 64](x, y, sh, si, su)
    s = (sh & 31).astype(np.int64)

    def pack(lo, hi):
        a = np.clip(x.astype(np.int64) >> s, lo, hi) & 0xFF
        b = np.clip(y.astype(np.int64) >> s, lo, hi) & 0xFF
        return (a | b << 8).astype(np.uint16)

    np.testing.assert_array_equal(si, pack(-128, 127))
    np.testing.assert_array_equal(su, pack(0, 255))


def pk_add_f16(arch):
    x = _rng().integers(-8, 8, 128).astype(np.float16)  # small integers: exact sums
    acc = np.zeros(8, np.float16)
    _k("builtins4.hip", "pk_add_f16", arch)[1, 64](acc, x)
    want = x.reshape(16, 4, 2).astype(np.float32).sum(axis=0).reshape(-1)
    np.testing.assert_array_equal(acc, want.astype(np.float16))
    xb = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)  # exact in bf16
    accb = np.zeros(8, np.uint16)
    _k("builtins4.hip", "pk_add_bf16", arch)[1, 64](accb, xb)
    got = (accb.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(got, want)



def quals(arch):
    """`__align__(16)` on `extern __shared__` compiles (before: the offline prelude lacked HIP's
    __align__ and clang rejected the declaration); enum-class template instances are picked by
    their demangled name (`binop<(Op)0>`), a __device__ counter is read back."""
    y = np.arange(64, dtype=np.float32)
    _k("quals.hip", "dyn_reverse", arch)[1, 64, 256](y)
    np.testing.assert_array_equal(y, np.arange(64)[::-1])
    a = np.arange(64, dtype=np.float32)
    b, c = a + 1, np.zeros(64, np.float32)
    _k("quals.hip", "binop<(Op)0>", arch)[1, 64](a, b, c)
    np.testing.assert_array_equal(c, a + b)
    _k("quals.hip", "binop<(Op)1>", arch)[1, 64](a, b, c)
    np.testing.assert_array_equal(c, a * b)
    x = np.arange(64, dtype=np.int32) - 10
    k = _k("quals.hip", "count_hits", arch)
    k.globals["hits"] = 0
    k[1, 64](x)
    assert k.globals["hits"] == 53


CASES = {
    f.__name__: (f, archs) for f, archs in [
        (byte_ops, ALL), (bitfields, ALL), (frexp_parts, ALL), (packs, ALL),
        (fmed3_clamp, ALL), (cmp_masks, ALL + W64), (lanes_runtime, ALL + W64),
        (dpp_bcast, GFX9), (dpp_share, RDNA + W64), (permlanes, RDNA + W64),
        (permlane64, RDNA + W64), (swizzle_quad, ALL + W64), (packed16, ALL),
        (box3_clamp, ALL), (blur_sep, ALL), (transpose_bf16, ALL), (radix_hist, ALL + W64),
        (atomics64b, ALL), (seg_sum_sync, ALL + W64), (stream_scale, ALL), (bias_gelu, ALL),
        (masked_minmax, ALL + W64), (functors, ALL), (linkage, ALL),
        (dot2_int, GFX9), (dot2_f16, ALL), (gemm_i8, ALL), (realtime, ALL), (smid, ALL + W64),
        (wave_shift, GFX9), (flash_row, ALL),
        (gemm_i8_matrix_core, ("gfx942", "gfx950", "gfx1100")),
        (float_helpers, ALL), (cube, ALL), (append_compact, ALL + W64), (consume_count, ALL + W64),
        (sizes, ALL), (dpp8_reverse, RDNA + W64), (permlane16_var, ("gfx1201", "gfx1201-w64")),
        (bitop3, ("gfx950",)), (ashr_pk, ("gfx950",)),
        (pk_add_f16, ("gfx942", "gfx950", "gfx1201")), (quals, ALL),
    ]
}
PARAMS_LIST = [(n, a) for n, (_, archs) in CASES.items() for a in archs]


# make test: every kernel runs, on one arch of its list (the next kernel on the next arch, so every
# arch and variant (w64, -O1, -O0) still runs for its share of the kernels); FULL=1: all pairs.
@pytest.mark.sample(every=4, per=("case",))
@pytest.mark.parametrize("case,arch", PARAMS_LIST, ids=[f"{n}-{a}" for n, a in PARAMS_LIST])
def test_runs_and_matches_numpy(case, arch):
    CASES[case][0](arch)
