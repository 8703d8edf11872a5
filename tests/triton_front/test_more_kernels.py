"""Triton kernels beyond the tutorial (more_kernels.py) on emulator:gfx942 and emulator:gfx950
against CPU torch / numpy.

Why: users bring Triton kernels hipwb has not seen. Each kernel here uses Triton idioms the
tutorial kernels do not (scans, argmax, custom reductions, Philox, atomics, erf/sigmoid,
block pointers, persistent loops, int8 and transposed dots, int64 and fp64 arithmetic); the
ISA Triton's AMD backend emits for them must run on the emulator and compute what torch does:
exactly where the maths is exact (integer results, comparisons, data movement, correctly
rounded IEEE operations, sums of values whose every partial sum is representable), else within
the tolerance stated at the check with why. Each launch's emulated seconds and max error are
reported at the end of the run (conftest.py), never asserted.
"""

from __future__ import annotations

import math
from decimal import Context, Decimal
from fractions import Fraction

import numpy as np
import pytest

triton = pytest.importorskip("triton", reason="the optional triton package is not installed "
                             "(pip install 'hip-workbench[triton]'; make setup installs it)")
torch = pytest.importorskip("torch")

import more_kernels as K  # noqa: E402  (after the importorskip; this folder)

ARCHS = ("gfx942", "gfx950")
_KERNELS: dict = {}
_CTX = Context(prec=40)


def _kern(name, arch):
    if (name, arch) not in _KERNELS:
        _KERNELS[name, arch] = K.kernel(name, arch)
    return _KERNELS[name, arch]


def _launch(name, arch, grid, *args, **meta):
    return _kern(name, arch).on(f"emulator:{arch}")[grid](*args, **meta)


def _report(record_property, arch, label, res, err, allowed):
    record_property("triton_more", f"{arch}  {label:<34} {res.seconds:5.2f} s emulated   "
                    f"max |err| {err:<9.3g} allowed: {allowed}")


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def _gamma_bound(a, b):
    """|C - A @ B| allowed for an fp32 C from 16-bit A, B: each product is exact in fp32, only
    the K - 1 additions round, in whatever order; any order is within
    K * 2**-24 * (|A| @ |B|) of the exact sum (the standard gamma_K bound)."""
    a, b = a.double().abs(), b.double().abs()
    return a.shape[1] * 2.0 ** -24 * (a @ b)


# -- reductions and scans --------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_layer_norm_forward(arch, record_property):
    M, N = 7, 300  # 300 columns in BLOCK=128 chunks: three loop trips, the last one masked
    g = _gen(1)
    x = torch.randn(M, N, generator=g)
    w, b = torch.randn(N, generator=g), torch.randn(N, generator=g)
    y, mean, rstd = torch.full_like(x, float("nan")), torch.empty(M), torch.empty(M)
    eps = 1e-5
    res = _launch("layer_norm", arch, (M,), x, y, w, b, mean, rstd, x.stride(0), N, eps,
                  BLOCK=128)
    xd = x.double()
    ref_mean, ref_var = xd.mean(1), xd.var(1, unbiased=False)
    ref_rstd = 1 / torch.sqrt(ref_var + eps)
    ref = torch.nn.functional.layer_norm(xd, (N,), w.double(), b.double(), eps)
    # fp32 sums of 300 terms in another order than the float64 reference: within a few
    # hundred ulp of the row's scale, so atol=rtol=1e-5 (tutorial 05 checks fp16 at 1e-2)
    err = (y.double() - ref).abs().max().item()
    _report(record_property, arch, "layer_norm 7x300 fp32", res, err, "atol=rtol=1e-5")
    torch.testing.assert_close(y.double(), ref, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(mean.double(), ref_mean, atol=1e-6, rtol=0)
    torch.testing.assert_close(rstd.double(), ref_rstd, atol=0, rtol=1e-5)


@pytest.mark.parametrize("arch", ARCHS)
def test_cumsum_rows(arch, record_property):
    g = _gen(2)
    rows, cols = 10, 200  # 4 rows per program, 200 of 256 columns: the last program is ragged
    xi = torch.randint(-1000, 1000, (rows, cols), dtype=torch.int32, generator=g)
    for dtype, reverse in ((torch.int32, False), (torch.int32, True), (torch.float32, False)):
        x = xi.to(dtype)
        out = torch.full_like(x, -7)
        res = _launch("cumsum", arch, (triton.cdiv(rows, 4),), x, out, rows, cols, x.stride(0),
                      ROWS=4, BLOCK=256, REVERSE=reverse)
        ref = x.flip(1).cumsum(1).flip(1) if reverse else x.cumsum(1)
        # integers, and fp32 holding integers whose partial sums stay below 2**24: exact
        err = (out.double() - ref.double()).abs().max().item()
        label = f"cumsum 10x200 {str(dtype)[6:]}{' reverse' if reverse else ''}"
        _report(record_property, arch, label, res, err, "exact")
        assert torch.equal(out, ref.to(dtype)), label


@pytest.mark.parametrize("arch", ARCHS)
def test_max_with_indices_and_argmin(arch, record_property):
    g = _gen(3)
    rows, cols = 9, 150
    cases = (("fp32", torch.randn(rows, cols, generator=g), float("-inf"), float("inf")),
             # 8 distinct values over 150 columns: ties everywhere, the first index must win
             ("int32 ties", torch.randint(0, 8, (rows, cols), dtype=torch.int32, generator=g),
              -2 ** 31, 2 ** 31 - 1))
    for label, x, low, high in cases:
        mx, idx, amin = torch.empty(rows, dtype=x.dtype), torch.empty(rows, dtype=torch.int32), \
            torch.empty(rows, dtype=torch.int32)
        res = _launch("argmax", arch, (rows,), x, mx, idx, amin, cols, x.stride(0), LOW=low,
                      HIGH=high, BLOCK=256)
        _report(record_property, arch, f"max/argmax/argmin 9x150 {label}", res, 0.0, "exact")
        # torch.argmax/argmin: "the indices of the first maximal value are returned", as
        # Triton's tie_break_left=True (the default) picks
        assert torch.equal(mx, x.max(1).values), label
        assert torch.equal(idx.long(), x.argmax(1)), label
        assert torch.equal(amin.long(), x.argmin(1)), label


@pytest.mark.parametrize("arch", ARCHS)
def test_reduce_with_custom_combine(arch, record_property):
    g = _gen(4)
    rows, cols = 6, 100
    x = torch.randint(-50, 51, (rows, cols), dtype=torch.int32, generator=g)
    x[0] = torch.randint(-2 ** 31, 2 ** 31 - 1, (cols,), dtype=torch.int32, generator=g)
    xr, mn, where = (torch.empty(rows, dtype=torch.int32) for _ in range(3))
    res = _launch("custom_reduce", arch, (rows,), x, xr, mn, where, cols, x.stride(0), BLOCK=128)
    _report(record_property, arch, "tl.reduce xor, (min|x|, idx) 6x100", res, 0.0, "exact")
    xn = x.numpy()
    assert np.array_equal(xr.numpy(), np.bitwise_xor.reduce(xn, axis=1))
    absx = np.abs(xn.astype(np.int64))
    assert np.array_equal(mn.numpy(), absx.min(1))
    assert np.array_equal(where.numpy(), absx.argmin(1))  # numpy: the first occurrence


# -- random numbers, atomics, elementwise ----------------------------------------------------

_PHILOX = (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85)  # round A, round B, key A, key B


def _philox_rand(seed: int, offsets: np.ndarray) -> np.ndarray:
    """tl.rand(seed, offsets) for int32 offsets, from triton/language/random.py's definition:
    10 rounds of Philox-4x32 on the counter (offset, 0, 0, 0) with the key (seed's low and
    high words); the first word, as int32, folded to x >= 0 (~x for x < 0) and scaled by
    4.6566127342e-10 in fp32."""
    ra, rb, ka, kb = (np.uint64(v) for v in _PHILOX)
    m32 = np.uint64(0xFFFFFFFF)
    c0 = offsets.astype(np.int64).astype(np.uint64) & m32
    c1 = c2 = c3 = np.zeros_like(c0)
    k0, k1 = np.uint64(seed & 0xFFFFFFFF), np.uint64((seed >> 32) & 0xFFFFFFFF)
    for _ in range(10):
        p0, p2 = ra * c0, rb * c2  # < 2**64: exact in uint64
        c0, c1, c2, c3 = ((p2 >> np.uint64(32)) ^ c1 ^ k0, p2 & m32,
                          (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & m32)
        k0, k1 = (k0 + ka) & m32, (k1 + kb) & m32
    x = c0.astype(np.uint32).view(np.int32)
    x = np.where(x < 0, ~x, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


@pytest.mark.parametrize("arch", ARCHS)
def test_dropout_matches_philox(arch, record_property):
    n, p = 3000, 0.3
    scale = float(np.float32(1 / (1 - p)))
    x = torch.randn(n, generator=_gen(5))
    for seed in (123, 2 ** 40 + 7):  # the second is an i64 argument: both key words non-zero
        out, r = torch.full_like(x, float("nan")), torch.full_like(x, float("nan"))
        res = _launch("dropout", arch, (triton.cdiv(n, 1024),), x, out, r, n, p, scale, seed,
                      BLOCK=1024)
        ref_r = _philox_rand(seed, np.arange(n))
        ref_out = np.where(ref_r > np.float32(p), x.numpy() * np.float32(scale), np.float32(0))
        err = float(np.abs(r.numpy() - ref_r).max())
        _report(record_property, arch, f"dropout tl.rand n=3000 seed={seed}", res, err, "exact")
        # integer Philox, an exact int -> fp32 conversion and one fp32 multiply: bit for bit
        assert np.array_equal(r.numpy(), ref_r)
        assert np.array_equal(out.numpy(), ref_out)
        kept = float((out != 0).float().mean())
        assert abs(kept - (1 - p)) < 0.03 and 0 <= r.min() and r.max() < 1


@pytest.mark.parametrize("arch", ARCHS)
def test_atomic_histogram(arch, record_property):
    g = _gen(6)
    n, n_bins, width = 5000, 64, 16
    x = torch.randint(0, 1100, (n,), dtype=torch.int32, generator=g)  # bins 64..68 dropped
    w = torch.randint(-16, 17, (n,), generator=g).float() / 4  # quarters: sums are exact
    count, wsum = torch.zeros(n_bins, dtype=torch.int32), torch.zeros(n_bins)
    res = _launch("histogram", arch, (triton.cdiv(n, 512),), x, w, count, wsum, n, n_bins,
                  BIN_WIDTH=width, BLOCK=512)
    b = (x // width).long()
    keep = b < n_bins
    ref_count = torch.bincount(b[keep], minlength=n_bins).int()
    ref_wsum = torch.zeros(n_bins).index_add_(0, b[keep], w[keep])
    err = (wsum - ref_wsum).abs().max().item()
    _report(record_property, arch, "atomic histogram n=5000 int32+fp32", res, err, "exact")
    # every partial sum of quarters below 2**22 is an fp32: any order of atomics is exact
    assert torch.equal(count, ref_count) and torch.equal(wsum, ref_wsum)


@pytest.mark.parametrize("arch", ARCHS)
def test_activations(arch, record_property):
    n = 2000
    x = torch.cat([torch.linspace(-12, 30, 500), torch.randn(n - 500, generator=_gen(7)) * 3])
    out = torch.full((6 * n,), float("nan"))
    res = _launch("activations", arch, (triton.cdiv(n, 512),), x, out, n, BLOCK=512)
    xd = x.double()
    ref = torch.stack([
        0.5 * xd * (1 + torch.erf(xd * 0.7071067811865476)),
        xd * torch.sigmoid(xd),
        torch.where(xd > 0, xd, torch.expm1(xd)),
        torch.where(xd >= 0, xd, 0.01 * xd),
        torch.where(xd > 20, xd, torch.log1p(torch.exp(xd))),
        xd.clamp(-1.5, 2.5)])
    got = out.view(6, n).double()
    # fp32 maths from libdevice/OCML and v_exp_f32/v_log_f32 (about 1 ulp each, docs of the
    # AMD ISA: "1 ULP accuracy"), chained two or three deep, plus exp(x) - 1 cancelling near 0:
    # rtol 1e-5 with atol 1e-6 for the values near zero (elu, gelu's tail)
    err = (got - ref).abs().max().item()
    _report(record_property, arch, "gelu/silu/elu/leaky/softplus/clamp", res, err,
            "atol 1e-6, rtol 1e-5")
    torch.testing.assert_close(got, ref, atol=1e-6, rtol=1e-5)
    assert torch.equal(out.view(6, n)[5], x.clamp(-1.5, 2.5))  # min/max: exact


def _trunc_div(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return q, a - q * b


@pytest.mark.parametrize("arch", ARCHS)
def test_int64_arithmetic(arch, record_property):
    g = _gen(8)
    n, shift = 700, 7
    a = torch.randint(-2 ** 62, 2 ** 62, (n,), dtype=torch.int64, generator=g)
    a[::3] = torch.randint(-1000, 1000, (len(a[::3]),), dtype=torch.int64, generator=g)
    b = torch.randint(-2 ** 40, 2 ** 40, (n,), dtype=torch.int64, generator=g)
    b[::2] = torch.randint(1, 100, (len(b[::2]),), dtype=torch.int64, generator=g)
    b[1::4] = -b[1::4]
    b[b == 0] = 3
    out = torch.zeros(9 * n, dtype=torch.int64)
    res = _launch("int64_ops", arch, (triton.cdiv(n, 256),), a, b, out, n, SHIFT=shift,
                  BLOCK=256)
    _report(record_property, arch, "int64 // % << >> min max * ^", res, 0.0, "exact")
    got = out.view(9, n).tolist()
    m64 = (1 << 64) - 1

    def s64(v):
        v &= m64
        return v - (1 << 64) if v >> 63 else v

    for i, (ai, bi) in enumerate(zip(a.tolist(), b.tolist())):
        q, r = _trunc_div(ai, bi)
        want = [q, r, s64(ai << shift), ai >> shift, s64((ai & m64) >> (bi & 63)),
                min(ai, bi), max(ai, bi), s64(ai * bi), s64((ai ^ bi) | (ai & 255))]
        assert [got[k][i] for k in range(9)] == want, (i, ai, bi)


def _ulps(got: torch.Tensor, exact: list) -> float:
    """max |got - exact| in units of the last place of the correctly rounded result."""
    ref = torch.tensor([float(v) for v in exact], dtype=torch.float64)
    err = [abs(Fraction(g) - v) for g, v in zip(got.tolist(), exact)]
    _, e = torch.frexp(ref.abs())
    ulp = torch.ldexp(torch.ones_like(ref), e - 53).tolist()
    return float(max(d / Fraction(u) for d, u in zip(err, ulp)))


@pytest.mark.parametrize("arch", ARCHS)
def test_fp64_elementwise(arch, record_property):
    g = _gen(9)
    n = 300
    x = torch.randn(n, dtype=torch.float64, generator=g) * 10
    y = torch.randn(n, dtype=torch.float64, generator=g) * 5
    x[x == 0], y[y == 0] = 1.0, 1.0
    out = torch.full((7 * n,), float("nan"), dtype=torch.float64)
    res = _launch("fp64", arch, (triton.cdiv(n, 128),), x, y, out, n, BLOCK=128)
    got = out.view(7, n)
    xs, ys = x.tolist(), y.tolist()
    # references from Python's exact arithmetic, not torch: torch's CPU float64 sqrt is not
    # correctly rounded (4 of these 300 square roots are 1 ulp off math.sqrt)
    exact = {
        "div": [Fraction(a) / Fraction(b) for a, b in zip(xs, ys)],
        "fma": [Fraction(a) * Fraction(b) + Fraction(a) for a, b in zip(xs, ys)],
        # 40 digits: the exactly rounded exp/ln within 1e-40 relative
        "exp": [Fraction(Decimal(b).exp(_CTX)) for b in ys],
        "log": [Fraction(Decimal(abs(a)).ln(_CTX)) for a in xs],
    }
    exp_ulps, log_ulps = _ulps(got[3], exact["exp"]), _ulps(got[4], exact["log"])
    _report(record_property, arch, "fp64 /,sqrt,fma,exp,log,cvt (ulp)", res,
            max(exp_ulps, log_ulps), "exact; exp/log 2 ulp")
    # IEEE division, square root and fma are correctly rounded (float(Fraction) rounds to
    # nearest even; math.sqrt is IEEE's), the fp32 round trip and the select are exact
    assert got[0].tolist() == [float(v) for v in exact["div"]]
    assert got[1].tolist() == [math.sqrt(abs(a)) for a in xs]
    assert got[2].tolist() == [float(v) for v in exact["fma"]]
    assert torch.equal(got[5], x.float().double())
    assert torch.equal(got[6], torch.where(x > y, x - y, y * 0.5))
    # OCML's exp and log (ocml/src/expD_base.h, logD_base.h) work in double-double and are
    # correctly rounded but for rare cases when compiled as written; Triton's default
    # enable_fp_fusion=True lets LLVM contract their "a * b + lo" steps into single fmas, which
    # costs the last bit: 45 of these 300 logs end 1.01 ulp away (1 of 300 with fusion off,
    # checked by hand). 2 ulp bounds both.
    assert exp_ulps <= 2 and log_ulps <= 2, (exp_ulps, log_ulps)


@pytest.mark.parametrize("arch", ARCHS)
def test_masked_transpose(arch, record_property):
    M, N = 70, 45  # 3 x 2 tiles of 32 x 32, ragged both ways
    x = torch.randn(M, N, generator=_gen(10)).half()
    for trans in (False, True):
        y = torch.full((N, M), float("nan"), dtype=torch.float16)
        res = _launch("transpose", arch, (triton.cdiv(M, 32), triton.cdiv(N, 32)), x, y, M, N,
                      x.stride(0), y.stride(0), BLOCK_M=32, BLOCK_N=32, TRANS=trans)
        _report(record_property, arch, f"transpose 70x45 fp16{' tl.trans' if trans else ''}",
                res, 0.0, "exact")
        assert torch.equal(y, x.t())


# -- matmuls ---------------------------------------------------------------------------------


def _mfmas(name, arch):
    return sorted({i.mnemonic for i in _kern(name, arch).isa_for(arch)
                   if i.mnemonic.startswith("v_mfma")})


@pytest.mark.parametrize("arch", ARCHS)
def test_tensor_descriptor_matmul(arch, record_property):
    g = _gen(11)
    # no dimension a multiple of the 32 x 32 x 32 tile; rows of 16-byte multiples, as tensor
    # descriptors require (K=104 fp16: 208 bytes, N=56 fp16: 112 bytes, C: 224 bytes)
    M, N, Kd = 70, 56, 104
    a = torch.randn(M, Kd, generator=g).half()
    b = torch.randn(Kd, N, generator=g).half()
    c = torch.full((M, N), float("nan"))
    res = _launch("descriptor_matmul", arch, (triton.cdiv(M, 32), triton.cdiv(N, 32)), a, b, c,
                  M, N, Kd, a.stride(0), b.stride(0), c.stride(0), BLOCK_M=32, BLOCK_N=32,
                  BLOCK_K=32)
    ref = a.double() @ b.double()
    err = (c.double() - ref).abs()
    _report(record_property, arch, "tensor-descriptor matmul 70x56x104", res, err.max().item(),
            "K*2^-24*(|A|@|B|)")
    assert bool((err <= _gamma_bound(a, b)).all())
    assert _mfmas("descriptor_matmul", arch)


@pytest.mark.parametrize("arch", ARCHS)
def test_persistent_matmul(arch, record_property):
    g = _gen(12)
    M, N, Kd = 90, 72, 80  # 3 x 3 tiles of 32 x 32 over 4 programs: 3, 2, 2, 2 tiles each
    a = torch.randn(M, Kd, generator=g).bfloat16()
    b = torch.randn(Kd, N, generator=g).bfloat16()
    c = torch.full((M, N), float("nan"))
    res = _launch("persistent_matmul", arch, (4,), a, b, c, M, N, Kd, *a.stride(), *b.stride(),
                  *c.stride(), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, NUM_PROGS=4)
    ref = a.double() @ b.double()
    err = (c.double() - ref).abs()
    _report(record_property, arch, "persistent matmul 90x72x80 bf16", res, err.max().item(),
            "K*2^-24*(|A|@|B|)")
    assert bool((err <= _gamma_bound(a, b)).all())


# the int8 MFMA Triton 3.9 picks per (arch, tile): gfx950 has K-doubled int8 shapes
INT8_MFMA = {("gfx942", 32): "v_mfma_i32_32x32x16_i8", ("gfx942", 16): "v_mfma_i32_16x16x32_i8",
             ("gfx950", 32): "v_mfma_i32_32x32x32_i8", ("gfx950", 16): "v_mfma_i32_16x16x64_i8"}


@pytest.mark.parametrize("arch", ARCHS)
def test_int8_matmul_is_exact(arch, record_property):
    g = _gen(13)
    M, N, Kd = 50, 40, 96
    a = torch.randint(-128, 128, (M, Kd), dtype=torch.int8, generator=g)
    b = torch.randint(-128, 128, (Kd, N), dtype=torch.int8, generator=g)
    ref = (a.long() @ b.long()).int()
    for tile in (32, 16):  # 32 x 32 and 16 x 16 tiles: both MFMA shapes
        c = torch.full((M, N), -1, dtype=torch.int32)
        res = _launch("int8_matmul", arch, (triton.cdiv(M, tile), triton.cdiv(N, tile)), a, b, c,
                      M, N, Kd, a.stride(0), b.stride(0), c.stride(0), BLOCK_M=tile,
                      BLOCK_N=tile, BLOCK_K=64)
        err = (c.long() - ref.long()).abs().max().item()
        _report(record_property, arch, f"int8 matmul 50x40x96 {tile}x{tile} tiles", res, err,
                "exact")
        # int8 products summed in int32 (no overflow at K = 96): exact in any order
        assert torch.equal(c, ref), tile
        assert _mfmas("int8_matmul", arch) == [INT8_MFMA[arch, tile]]


@pytest.mark.parametrize("arch", ARCHS)
def test_matmul_with_transposed_operand(arch, record_property):
    g = _gen(14)
    M, N, Kd = 48, 40, 64
    a = torch.randn(M, Kd, generator=g).half()
    bt = torch.randn(N, Kd, generator=g).half()  # a linear layer's weight: [out, in]
    c = torch.full((M, N), float("nan"))
    res = _launch("matmul_bt", arch, (triton.cdiv(M, 32), triton.cdiv(N, 32)), a, bt, c,
                  M, N, Kd, a.stride(0), bt.stride(0), c.stride(0), BLOCK_M=32, BLOCK_N=32,
                  BLOCK_K=32)
    ref = a.double() @ bt.double().t()
    err = (c.double() - ref).abs()
    _report(record_property, arch, "A @ tl.trans(Bt) 48x40x64 fp16", res, err.max().item(),
            "K*2^-24*(|A|@|B|)")
    assert bool((err <= _gamma_bound(a, bt.t())).all())


@pytest.mark.parametrize("arch", ARCHS)
def test_programs_take_a_lock_in_turn(arch, record_property):
    n, P = 1000, 8
    x = torch.randint(-50, 51, (n,), generator=_gen(15)).float()  # integers: any order is exact
    out, lock = torch.zeros(1), torch.zeros(1, dtype=torch.int32)
    order = torch.full((65,), -1, dtype=torch.int32)
    order[64] = 0
    # each program spins until the lock holds its pid: the scheduler must let the holder run
    # past the waiting programs' loop (it ran the lowest-PC group only, and timed out)
    res = _launch("ordered_sum", arch, (P,), x, out, lock, order, n, BLOCK=128)
    _report(record_property, arch, "ordered sum, tl.atomic_cas lock", res, 0.0, "exact")
    assert order[:P].tolist() == list(range(P)) and lock.item() == P
    assert out.item() == x.sum().item()


@pytest.mark.parametrize("arch", ARCHS)
def test_scalar_arguments(arch, record_property):
    out = torch.full((64,), float("nan"))
    # d = 2**40 + 1 is an i64 argument: the kernel converts it to fp32 with s_flbit_i32 (the
    # signed leading-bit count), which the emulator lacked; RNE gives 2**40
    res = _launch("scalar_args", arch, (1,), out, 2.5, 7, 1.25, 2 ** 40 + 1, True, BLOCK=64)
    want = float(np.float32(np.float32(2.5 * 3 + 7) + np.float32(2 ** 40 + 1)))
    _report(record_property, arch, "scalar args fp32/i32/i64/u1", res, 0.0, "exact")
    assert torch.equal(out, torch.full((64,), want))
    assert "s_flbit_i32" in {i.mnemonic for i in _kern("scalar_args", arch).isa_for(arch)}
    _launch("scalar_args", arch, (1,), out, 2.5, 7, 1.25, -3, False, BLOCK=64)
    assert torch.equal(out, torch.full((64,), 1.25 - 3))


def test_device_print_says_the_emulator_has_no_hostcall_service():
    from workbench.errors import KernelFault

    with pytest.raises(KernelFault, match=r"hostcall service .* tl\.device_print"):
        _launch("print", "gfx942", (1,), torch.zeros(64), BLOCK=64)
