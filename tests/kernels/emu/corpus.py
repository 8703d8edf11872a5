"""The emulator's HIP corpus: each case = kernel file, launch shape, inputs and a numpy check.

Used by tests/emu/test_emu_corpus.py and by ``python tests/emu_corpus.py`` (which runs every
case and reports the opcodes executed against the semantic table). Checks are bit-exact where
the math is exact; each tolerance says why.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent


@dataclass
class Case:
    name: str
    file: str
    kernel: str
    grid: tuple
    block: tuple
    make: Callable[[np.random.Generator], list]  # -> launch args (arrays and scalars)
    check: Callable[[list], None]  # asserts on the args after the launch (outputs in place)
    dynamic_lds: int = 0
    # what the kernel assumes beyond HIP: "cdna" (MFMA / dot / fp8 builtins, DPP row_bcast or
    # gfx9 buffer asm: not RDNA code), "wave64" (lane math written for 64-lane waves: on RDNA it
    # runs compiled with -mwavefrontsize64 only); "" = arch-neutral
    needs: str = ""


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    b = x.astype(np.float32).view(np.uint32)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def _bf16_val(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


# ---- cases ------------------------------------------------------------------------------------
def _shfl_make(rng):
    n = 1000
    x = rng.integers(-1000, 1000, n).astype(np.float32)  # integers: sums exact in any order
    return [x, np.zeros((n + 63) // 64, np.float32), n]


def _shfl_check(a):
    x, out, n = a
    xp = np.zeros(len(out) * 64, np.float32)
    xp[:n] = x
    np.testing.assert_array_equal(out, xp.reshape(-1, 64).sum(1))


def _ballot_make(rng):
    n = 300
    x = rng.integers(-100, 100, n).astype(np.int32)
    k = 2 * 192 // 64  # one entry per launched wave (the last one sees no valid element)
    return [x, np.zeros(k, np.int32), np.zeros(k, np.int32), n]


def _ballot_check(a):
    x, mx, cnt, n = a
    for w in range(len(mx)):
        seg = x[64 * w:64 * w + 64]
        assert mx[w] == (seg.max() if len(seg) else -2**31), (w, mx[w])
        assert cnt[w] == (seg > 0).sum()


def _dpp_make(rng):
    x = rng.integers(-50, 50, 128).astype(np.int32)
    return [x] + [np.zeros(128, np.int32) for _ in range(4)]


def _dpp_check(a):
    x, scan16, mirror, quad, total = a
    xr = x.reshape(-1, 16)
    np.testing.assert_array_equal(scan16, np.cumsum(xr, 1).reshape(-1))
    np.testing.assert_array_equal(mirror, xr[:, ::-1].reshape(-1))
    np.testing.assert_array_equal(quad, x.reshape(-1, 4)[:, ::-1].reshape(-1))
    np.testing.assert_array_equal(total, np.repeat(x.reshape(-1, 64).sum(1), 64))


def _scan_make(rng):
    n = 700
    return [rng.integers(-9, 10, n).astype(np.int32), np.zeros(n, np.int32), n]


def _scan_check(a):
    x, y, n = a
    ref = np.concatenate([np.cumsum(x[i:i + 256]) for i in range(0, n, 256)])
    np.testing.assert_array_equal(y, ref)


def _transpose_make(rng):
    rows, cols = 70, 45
    x = rng.random((rows, cols), dtype=np.float32)
    return [x, np.zeros((cols, rows), np.float32), rows, cols]


def _transpose_check(a):
    np.testing.assert_array_equal(a[1], a[0].T)


def _hist_make(rng):
    n = 2000
    return [rng.integers(0, 1 << 30, n).astype(np.uint32), np.zeros(64, np.uint32),
            np.zeros(1, np.float32), np.zeros(n, np.int32), np.zeros(1, np.int32), n]


def _hist_check(a):
    x, hist, fsum, slots, counter, n = a
    np.testing.assert_array_equal(hist, np.bincount(x & 63, minlength=64))
    assert fsum[0] == n and counter[0] == n
    np.testing.assert_array_equal(np.sort(slots), np.arange(n))


def _lds_atom_make(rng):
    return [rng.integers(-10**6, 10**6, 256).astype(np.int32), np.zeros(3, np.int32)]


def _lds_atom_check(a):
    x, out = a
    assert out[0] == x.min() and out[1] == x.max() and out[2] == -1


def _collatz_make(rng):
    n = 500
    return [rng.integers(1, 5000, n).astype(np.uint32), np.zeros(n, np.int32), n]


def _collatz_ref(v):
    s = 0
    while v != 1 and s < 1000:
        v = 3 * v + 1 if v & 1 else v // 2
        s += 1
    return s


def _collatz_check(a):
    x, steps, n = a
    np.testing.assert_array_equal(steps, [_collatz_ref(int(v)) for v in x])


def _branchy_make(rng):
    return [rng.integers(-1000, 1000, 256).astype(np.int32), np.zeros(256, np.int32)]


def _cmod(a, b):
    return int(np.fmod(a, b))


def _branchy_check(a):
    x, y = a
    ref = np.zeros(256, np.int64)
    for blk in range(2):
        v = np.array([_branchy_v(int(t)) for t in x[blk * 128:(blk + 1) * 128]])
        ref[blk * 128:(blk + 1) * 128] = v[::-1] + v
    np.testing.assert_array_equal(y, ref.astype(np.int32))


def _branchy_v(v):
    m = _cmod(v, 3)
    if m == 0:
        v = v * 2
        v = v + 7 if _cmod(v, 4) == 0 else v - 1
    elif m == 1:
        k = 0
        while k < (v & 7):  # the bound is re-read after each update of v, as in the C loop
            v ^= k * 13
            k += 1
    else:
        v = -v
    return v


GRID3, BLOCK3 = (3, 2, 2), (8, 4, 3)  # 96 threads per block: one full and one partial wave


def _coords_make(rng):
    nx, ny, nz = (GRID3[i] * BLOCK3[i] for i in range(3))
    return [np.zeros(nx * ny * nz * 8, np.int32), nx, ny]


def _coords_check(a):
    out, nx, ny = a
    o = out.reshape(-1, 8)
    z, y, x = np.meshgrid(*(np.arange(GRID3[i] * BLOCK3[i]) for i in (2, 1, 0)), indexing="ij")
    x, y, z = x.ravel(), y.ravel(), z.ravel()
    np.testing.assert_array_equal(o[:, 0], x % BLOCK3[0])
    np.testing.assert_array_equal(o[:, 1], y % BLOCK3[1])
    np.testing.assert_array_equal(o[:, 2], z % BLOCK3[2])
    np.testing.assert_array_equal(o[:, 3], x // BLOCK3[0] + 100 * (y // BLOCK3[1])
                                  + 10000 * (z // BLOCK3[2]))
    assert (o[:, 4:7] == BLOCK3).all()
    assert (o[:, 7] == GRID3[0] + 100 * GRID3[1] + 10000 * GRID3[2]).all()


def _idx64_make(rng):
    n = 333
    return [rng.integers(-2**62, 2**62, n, dtype=np.int64), np.zeros(n, np.int64),
            (1 << 33) + 7, n]


def _idx64_check(a):
    arr, out, stride, n = a
    i = np.arange(n, dtype=np.int64)
    j = np.array([(int(k) * stride) % n for k in range(n)])
    v = arr[j]
    with np.errstate(over="ignore"):
        ref = (v * np.int64(0x100000001)) ^ (v >> 7) ^ (v.view(np.uint64) << np.uint64(13)).view(
            np.int64) ^ (i << 40)
    np.testing.assert_array_equal(out, ref)


def _intdiv_make(rng):
    n = 400
    a = rng.integers(-2**31 + 1, 2**31 - 1, n).astype(np.int32)
    b = rng.integers(1, 70000, n).astype(np.int32) * rng.choice([-1, 1], n).astype(np.int32)
    b[:20] = rng.integers(1, 9, 20)  # small divisors
    ua = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ub = rng.integers(1, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ub[:50] = rng.integers(1, 100, 50)
    return [a, b, ua, ub, np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.uint32),
            np.zeros(n, np.uint32), np.zeros(n, np.int64), n]


def _intdiv_check(args):
    a, b, ua, ub, q, r, uq, ur, q64, n = args
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    qt = np.array([int(x) // int(y) if (x >= 0) == (y > 0) else -(abs(int(x)) // abs(int(y)))
                   for x, y in zip(a, b)])
    np.testing.assert_array_equal(q, qt)
    np.testing.assert_array_equal(r, a64 - qt * b64)
    np.testing.assert_array_equal(uq, ua // ub)
    np.testing.assert_array_equal(ur, ua % ub)
    num = a64 * 1000003
    ref = np.array([int(x) // int(y) if (x >= 0) == (y > 0) else -(abs(int(x)) // abs(int(y)))
                    for x, y in zip(num, b64)])
    np.testing.assert_array_equal(q64, ref)


def _conv_make(rng):
    n = 512
    x = np.concatenate([rng.standard_normal(n - 12).astype(np.float32) * 100,
                        np.array([0.0, -0.0, 1e-8, 65504.0, 65520.0, 1e5, -1e-30, 3.0e38,
                                  np.inf, -np.inf, 1.0 + 2**-11, 1.0 + 3 * 2**-11],
                                 np.float32)])
    return [x, np.zeros(n, np.float16), np.zeros(n, np.uint16), np.zeros(n, np.float32),
            np.zeros(n, np.float32), np.zeros(n, np.float16), n]


def _conv_check(a):
    x, h, bf, back_h, back_bf, hsum, n = a
    ref_h = x.astype(np.float16)  # numpy's f32->f16 cast is round-to-nearest-even
    np.testing.assert_array_equal(h.view(np.uint16), ref_h.view(np.uint16))
    np.testing.assert_array_equal(bf, _bf16_bits(x))
    np.testing.assert_array_equal(back_h, ref_h.astype(np.float32))
    np.testing.assert_array_equal(back_bf, _bf16_val(_bf16_bits(x)))
    # clang contracts a + a*a into v_fma_f16 (HIP's default -ffp-contract=fast): one rounding
    h64 = ref_h.astype(np.float64)
    ref_sum = (h64 * h64 + h64).astype(np.float16)  # exact in f64, then one RNE to f16
    np.testing.assert_array_equal(hsum.view(np.uint16), ref_sum.view(np.uint16))


def _spill_make(rng):
    n = 200
    return [rng.integers(0, 1000, n).astype(np.int32), rng.integers(-50, 50, n).astype(np.int32),
            np.zeros(n, np.int32), n]


def _spill_check(a):
    idx, vals, out, n = a
    ref = []
    for i in range(n):
        buf = [int(vals[i]) * k for k in range(40)]
        buf[int(idx[i]) % 40] += 1000
        ref.append(sum(buf[(int(idx[i]) + k) % 40] for k in range(0, 40, 3)))
    np.testing.assert_array_equal(out, ref)


def _softmax_make(rng):
    rows = 5
    return [rng.standard_normal((rows, 64)).astype(np.float32), np.zeros((rows, 64), np.float32),
            np.zeros(rows, np.float32)]


def _softmax_check(a):
    x, y, norms = a
    e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
    # expf is a multi-instruction approximation and the sums run in shuffle order: compare to
    # the float64 reference within a few fp32 ulp.
    np.testing.assert_allclose(y, e / e.sum(1, keepdims=True), rtol=2e-6, atol=1e-9)
    np.testing.assert_allclose(norms, np.sqrt((x.astype(np.float64) ** 2).sum(1)), rtol=1e-6)


def _fops_make(rng):
    n = 256
    a = (rng.standard_normal(n) * 10).astype(np.float32)
    b = (rng.standard_normal(n) * 10).astype(np.float32)
    b[:4] = [1e-30, 3.0, -7.0, 1e30]
    return [a, b, np.zeros(n * 8, np.float32), n]


def _fops_check(args):
    a, b, out, n = args
    o = out.reshape(-1, 8)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(o[:, 0], a / b)  # IEEE division is correctly rounded
        np.testing.assert_array_equal(o[:, 1], np.sqrt(np.abs(a)))
        fma = (a.astype(np.float64) * b + 1.0).astype(np.float32)
        np.testing.assert_array_equal(o[:, 2], fma)
        np.testing.assert_array_equal(o[:, 3], np.trunc(a * np.float32(100)))
        np.testing.assert_array_equal(o[:, 4], np.fmin(a, b))
        np.testing.assert_array_equal(o[:, 5], np.floor(a * np.float32(3)))
        # float->unsigned saturates on the hardware (V_CVT_U32_F32); C leaves it undefined
        u = np.clip(np.trunc((np.abs(b) * np.float32(1000)).astype(np.float64)), 0, 2**32 - 1)
        np.testing.assert_array_equal(o[:, 6].view(np.uint32), u.astype(np.uint32))
        assert o[3, 6].view(np.uint32) == 0xFFFFFFFF  # 1e33 saturates
        # x*y - y may be contracted to fma(x, y, -y) by clang: accept either rounding
        mul = (a * b - b)
        fm = (a.astype(np.float64) * b - b).astype(np.float32)
        assert ((o[:, 7] == mul) | (o[:, 7] == fm)).all()


def _mfma_f16_make(rng):
    A = rng.integers(-8, 8, (32, 8)).astype(np.float16)
    B = rng.integers(-8, 8, (8, 32)).astype(np.float16)
    return [A, B, np.zeros((32, 32), np.float32)]


def _mfma_f16_check(a):
    A, B, D = a
    # small integers: every product and sum is exact, so the result is exact
    np.testing.assert_array_equal(D, A.astype(np.float32) @ B.astype(np.float32))


def _mfma_bf16_make(rng):
    A = _bf16_bits(rng.standard_normal((16, 16)).astype(np.float32))
    B = _bf16_bits(rng.standard_normal((16, 16)).astype(np.float32))
    C = rng.standard_normal((16, 16)).astype(np.float32)
    return [A.view(np.int16), B.view(np.int16), C, np.zeros((16, 16), np.float32)]


def _mfma_bf16_check(a):
    A, B, C, D = a
    ref = _bf16_val(A.view(np.uint16)).astype(np.float64) @ _bf16_val(B.view(np.uint16)) + C
    # fp32 accumulation in an undocumented order: within a few ulp of the exact sum
    np.testing.assert_allclose(D, ref, rtol=0, atol=4 * np.spacing(np.float32(np.abs(ref).max())))


def _mfma_f32_make(rng):
    return [rng.integers(-16, 16, (16, 4)).astype(np.float32),
            rng.integers(-16, 16, (4, 16)).astype(np.float32), np.zeros((16, 16), np.float32)]


def _mfma_f32_check(a):
    np.testing.assert_array_equal(a[2], a[0] @ a[1])  # small integers: exact


def _gemm_make(rng):
    n = 128
    A = _bf16_bits(rng.standard_normal((n, n)).astype(np.float32)).view(np.int16)
    B = _bf16_bits(rng.standard_normal((n, n)).astype(np.float32)).view(np.int16)
    return [A, B, np.zeros((n, n), np.float32), n, n, n]


def _gemm_check(a):
    A, B, C, M, N, K = a
    ref = _bf16_val(A.view(np.uint16)).astype(np.float64) @ _bf16_val(B.view(np.uint16)).T
    # fp32 accumulation across K=128 in 16-wide MFMA steps: allow accumulated fp32 rounding
    np.testing.assert_allclose(C, ref, rtol=0, atol=32 * np.spacing(np.float32(np.abs(ref).max())))


def _packed_make(rng):
    a = rng.standard_normal((64, 2)).astype(np.float32)
    b = rng.standard_normal((64, 2)).astype(np.float32)
    ha = rng.standard_normal((64, 2)).astype(np.float16)
    hb = rng.standard_normal((64, 2)).astype(np.float16)
    return [a, b, np.zeros((128, 2), np.float32), np.float32(0.25).item(), ha, hb,
            np.zeros((64, 2), np.float16)]


def _packed_check(args):
    a, b, c, s, ha, hb, hc = args
    # clang contracts x*y+s into fma (v_pk_fma_f32): one rounding, exact via f64 here
    np.testing.assert_array_equal(c[:64], (a.astype(np.float64) * b + s).astype(np.float32))
    np.testing.assert_array_equal(c[64:], (a.astype(np.float64) * 2 + 1).astype(np.float32))
    np.testing.assert_array_equal(hc.view(np.uint16), (ha * hb[:, ::-1]).view(np.uint16))


# ---- dot, fp8, buffer, MODE, prelude math (valu.dot, valu.fp8cvt, memory.buffer, scalar.mode)
# -----------
def _gemv_make(rng):
    a = rng.integers(-128, 128, (128, 64)).astype(np.int8)
    x = rng.integers(-128, 128, 64).astype(np.int8)
    return [a.view(np.int32), x.view(np.int32), np.zeros(128, np.int32), 16]


def _gemv_check(a):
    A, x, y, _kw = a
    np.testing.assert_array_equal(y, A.view(np.int8).astype(np.int64) @ x.view(np.int8))


def _fp8_table(arch: str = "gfx942"):
    """The fp8 value table the target converts: gfx942 FNUZ E4M3, gfx950 OCP E4M3 (exact)."""
    if arch == "gfx950":
        from workbench.emu.numerics.mx import MX_TABLES
        return MX_TABLES["float8_e4m3fn"]
    from workbench.emu.numerics.fp8 import FP8_TABLES
    return FP8_TABLES["float8_e4m3fnuz"]


def _quant_make(rng):
    return [(rng.standard_normal(256) * 3).astype(np.float32), np.float32(30.0),
            np.zeros(64, np.uint32), np.zeros(256, np.float32)]


def _quant_check(a, arch="gfx942"):
    x, scale, q, y = a
    table = _fp8_table(arch)
    pos = table[:128][np.isfinite(table[:128])]  # non-negative finite codes (OCP 0x7f: NaN)
    s = np.clip(x * scale, -240, 240).astype(np.float64)
    # nearest value (ties to the even code); FNUZ drops the sign of a zero code, OCP keeps it
    i = np.abs(np.abs(s)[:, None] - pos[None, :]).argmin(1)
    d = np.abs(np.abs(s) - pos[i])
    tie = np.isclose(np.abs(np.abs(s) - pos[np.minimum(i + 1, len(pos) - 1)]), d) & (i % 2 == 1)
    i = np.where(tie & (d > 0), i + 1, i)
    neg = (s < 0) & ((i != 0) | (arch == "gfx950"))
    code = np.where(neg, i | 0x80, i).astype(np.uint32)
    np.testing.assert_array_equal(q, code[0::4] | code[1::4] << 8 | code[2::4] << 16
                                  | code[3::4] << 24)
    np.testing.assert_array_equal(y, (table[code].astype(np.float32) / scale))


def _bgather_make(rng):
    return [rng.standard_normal(300).astype(np.float32),
            rng.integers(-20, 320, 256).astype(np.int32), np.zeros(256, np.float32), 200]


def _bgather_check(a):
    src, idx, out, valid = a
    ok = (idx >= 0) & (idx < valid)
    np.testing.assert_array_equal(out, np.where(ok, src[np.clip(idx, 0, 299)], 0))


def _flushwin_make(rng):
    x = (rng.standard_normal(64) * 1e-38).astype(np.float32)
    return [x, np.zeros(128, np.float32), np.zeros(64, np.uint32)]


def _flushwin_check(a):
    x, o, m = a
    tiny = np.float32(2.0**-126)
    np.testing.assert_array_equal(o[0::2], np.where(np.abs(x) < tiny, 0, x).astype(np.float32))
    np.testing.assert_array_equal(o[1::2], x)
    assert (m == 0xC).all()


def _expf_make(rng):
    return [rng.uniform(-80, 80, 512).astype(np.float32), np.zeros(512, np.float32), 512]


def _expf_check(a):
    # expf on the emulator is within 1 ulp (tests/prelude/test_prelude_math_emu.py justifies the
    # bound)
    x, y, _n = a
    ref = np.exp(x.astype(np.float64))
    ulp = np.spacing(ref.astype(np.float32)).astype(np.float64)
    assert (np.abs(y - ref) / ulp).max() <= 1.0


CASES = [
    Case("shfl_xor_sum", "reduce_shfl.hip", "wave_sum_shfl", (4,), (256,), _shfl_make,
         _shfl_check, needs="wave64"),
    Case("shfl_down_ballot", "reduce_shfl.hip", "wave_max_ballot", (2,), (192,), _ballot_make,
         _ballot_check, needs="wave64"),
    Case("dpp", "reduce_dpp.hip", "dpp_ops", (2,), (64,), _dpp_make, _dpp_check, needs="cdna"),
    Case("block_scan", "scan.hip", "block_scan", (3,), (256,), _scan_make, _scan_check),
    Case("lds_transpose", "transpose.hip", "transpose32", (2, 3), (32, 8), _transpose_make,
         _transpose_check),
    Case("histogram_atomics", "histogram.hip", "histogram", (8,), (256,), _hist_make,
         _hist_check),
    Case("lds_atomics", "histogram.hip", "lds_atomics", (1,), (256,), _lds_atom_make,
         _lds_atom_check),
    Case("divergent_loop", "divergent.hip", "collatz", (4,), (128,), _collatz_make,
         _collatz_check),
    Case("divergent_branches", "divergent.hip", "branchy", (2,), (128,), _branchy_make,
         _branchy_check),
    Case("grid3d_partial_wave", "grid3d.hip", "coords3d", GRID3, BLOCK3, _coords_make,
         _coords_check),
    Case("index64", "index64.hip", "index64", (2,), (192,), _idx64_make, _idx64_check),
    Case("intdiv", "intdiv.hip", "intdiv", (4,), (100,), _intdiv_make, _intdiv_check),
    Case("f16_bf16_convert", "convert.hip", "convert", (2,), (256,), _conv_make, _conv_check),
    Case("scratch_private_array", "spill.hip", "private_array", (4,), (64,), _spill_make,
         _spill_check),
    Case("softmax", "floatmath.hip", "softmax64", (5,), (64,), _softmax_make, _softmax_check,
         needs="wave64"),
    Case("float_ops", "floatmath.hip", "fops", (4,), (64,), _fops_make, _fops_check),
    Case("mfma_32x32x8_f16", "mfma_tiles.hip", "mfma32x32x8_f16", (1,), (64,), _mfma_f16_make,
         _mfma_f16_check, needs="cdna"),
    Case("mfma_16x16x16_bf16", "mfma_tiles.hip", "mfma16x16x16_bf16", (1,), (64,),
         _mfma_bf16_make, _mfma_bf16_check, needs="cdna"),
    Case("mfma_16x16x4_f32", "mfma_tiles.hip", "mfma16x16x4_f32", (1,), (64,), _mfma_f32_make,
         _mfma_f32_check, needs="cdna"),
    Case("packed_math", "packed.hip", "packed", (1,), (64,), _packed_make, _packed_check),
    Case("gemm_bf16_128", "gemm_bf16_mfma.hip", "gemm_bf16", (2, 2), (256,), _gemm_make,
         _gemm_check, needs="cdna"),
    Case("dot4c_i8_gemv", "dot.hip", "gemv_i8", (2,), (64,), _gemv_make, _gemv_check,
         needs="cdna"),
    Case("fp8_quantize", "fp8cvt.hip", "quantize_roundtrip", (1,), (64,), _quant_make,
         _quant_check, needs="cdna"),
    Case("buffer_gather_oob", "buffer.hip", "buffer_gather", (4,), (64,), _bgather_make,
         _bgather_check, needs="cdna"),
    Case("mode_flush_window", "mode.hip", "flush_window", (1,), (64,), _flushwin_make,
         _flushwin_check),
    Case("prelude_expf", "prelude_math.hip", "m_expf", (2,), (256,), _expf_make, _expf_check),
]
