"""A second round of HIP kernels written fresh for this test, on ground round 1 did not cover.

tests/kernels/unseen2/ (README there): amdgcn builtins (msad/lerp, alignbyte, perm, sbfe,
frexp, pknorm/pkrtz, ballot-style compares, runtime-lane readlane, permlane*, DPP broadcasts
and row_share, __smid), packed half/short math, image stencils, LDS blur, bf16 transposes,
radix histograms with warp-aggregated atomics, 64-bit atomics, templated functors. Each is
compiled with hipwb's offline prelude and run on the emulator of gfx942, gfx950, gfx1100
(wave32) and gfx1201 (wave32) where the feature exists, and checked against numpy.

Tolerances: integer, bitwise and data-movement results are exact; float results follow the
round-1 rules (tests/test_unseen_kernels.py's docstring).
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import workbench as wb

HERE = Path(__file__).parent / "kernels" / "unseen2"
ALL = ("gfx942", "gfx950", "gfx1100", "gfx1201")
W64 = ("gfx1100-w64", "gfx1201-w64")


def _split(arch: str) -> tuple[str, list[str]]:
    """("gfx1100", ["-mwavefrontsize64"]) for "gfx1100-w64"; (arch, []) otherwise."""
    if arch.endswith("-w64"):
        return arch[:-4], ["-mwavefrontsize64"]
    return arch, []


@functools.cache
def _module(fname: str, arch: str):
    real, opts = _split(arch)
    return wb.compile((HERE / fname).read_text(), real, opts, filename=fname)


def _k(fname: str, name: str, arch: str):
    return _module(fname, arch)[name].on(f"emulator:{_split(arch)[0]}")


def _ws(arch: str) -> int:
    real, opts = _split(arch)
    return 64 if opts else wb.get_arch(real).default_wave_size


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


CASES = {
    f.__name__: (f, archs) for f, archs in [
        (byte_ops, ALL), (bitfields, ALL), (frexp_parts, ALL), (packs, ALL),
        (fmed3_clamp, ALL), (cmp_masks, ALL + W64), (lanes_runtime, ALL + W64),
    ]
}
PARAMS_LIST = [(n, a) for n, (_, archs) in CASES.items() for a in archs]


@pytest.mark.parametrize("case,arch", PARAMS_LIST, ids=[f"{n}-{a}" for n, a in PARAMS_LIST])
def test_runs_and_matches_numpy(case, arch):
    CASES[case][0](arch)
