"""The offline prelude's float math (workbench/include/hipwb/math.h) executed on the gfx942
emulator and compared with numpy in float64.

What runs is the code LLVM emitted for gfx942 (v_exp_f32/v_log_f32/v_sqrt_f32/v_rsq_f32 plus
LLVM's range and denormal fix-ups, the inline algorithms of math_inline.h, the bf16 integer
rounding sequence), so these checks cover the compiler's lowering and the emulator's
instruction semantics together.

Accuracy note: the emulator rounds v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32 and v_sqrt_f32
correctly (to nearest), while the hardware is specified at about 1 ulp for them (LLVM
AMDGPUISelLowering.cpp: "v_exp_f32 is good enough for OpenCL", i.e. the OpenCL 1-3 ulp
budget; CDNA3 ISA guide, transcendental opcodes). So the bounds below are what the *emulator*
must meet; on hardware, functions that end in one of those instructions (rsqrtf, __expf, __logf)
can be about 1 ulp further off, and the others inherit part of that error.
"""
from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from ulp import signed_log_uniform, ulp_error

import workbench
from workbench.runtime.kernel import Kernel


def _load_harness():
    spec = importlib.util.spec_from_file_location(
        "hipwb_emu_harness", Path(__file__).parents[1] / "kernels" / "emu" / "harness.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


launch_image = _load_harness().launch_image

SRC = Path(__file__).parents[1] / "kernels" / "emu" / "prelude_math.hip"
N = 4096
BLOCK = 256
F32_MAX = float(np.finfo(np.float32).max)


@pytest.fixture(scope="module")
def mod() -> workbench.Module:
    return workbench.compile(SRC.read_text(), "gfx942")


# sinf/cosf/tanf read the 2/pi table (a static const array in the code object's .rodata) for
# |x| >= 2^17: they run with the code object's segments mapped (tests/kernels/emu/harness.py).
NEEDS_IMAGE = {"m_sinf", "m_cosf", "m_tanf"}


def _run(mod, name: str, *inputs: np.ndarray, outputs=(np.float32,)) -> list[np.ndarray]:
    n = inputs[0].size
    outs = [np.zeros(n, dt) for dt in outputs]
    grid = ((n + BLOCK - 1) // BLOCK,)
    if name in NEEDS_IMAGE:
        launch_image(mod, name, grid, (BLOCK,), *inputs, *outs, n)
    else:
        Kernel(mod, name, device="emulator")[grid, BLOCK](*inputs, *outs, n)
    return outs


def _inputs(kind: str) -> tuple[np.ndarray, ...]:
    """~N float32 inputs covering each function's interesting range (and a few specials)."""
    rng = np.random.default_rng(sum(map(ord, kind)))  # deterministic per kind
    q = N // 4
    if kind == "exp":  # results from subnormal (x < -87.3) to overflow (x > 88.7)
        x = np.concatenate([rng.uniform(-104, 89, 2 * q), rng.uniform(-2, 2, q),
                            signed_log_uniform(rng, 1e-30, 1e-3, q)])
    elif kind == "exp2":
        x = np.concatenate([rng.uniform(-150, 128.5, 2 * q), rng.uniform(-1, 1, q),
                            signed_log_uniform(rng, 1e-30, 1e-3, q)])
    elif kind == "log":  # subnormal inputs exercise LLVM's 2^32 input scaling
        x = np.concatenate([np.exp(rng.uniform(np.log(1e-45), np.log(3e38), 2 * q)),
                            rng.uniform(0.5, 2.0, q), rng.uniform(1e-44, 1.1e-38, q)])
    elif kind == "trig":
        x = np.concatenate([rng.uniform(-10, 10, q), rng.uniform(-2.0**17, 2.0**17, q),
                            signed_log_uniform(rng, 2.0**17, 3e38, q),
                            np.float32(np.arange(1, q + 1) * (np.pi / 2))])
    elif kind == "tanh":
        x = np.concatenate([rng.uniform(-12, 12, 2 * q), rng.uniform(-0.6, 0.6, q),
                            signed_log_uniform(rng, 1e-30, 1e-2, q)])
    else:
        raise ValueError(kind)
    return (x.astype(np.float32),)


# (kernel, numpy reference, input kind, max ulp on the emulator) — each bound is justified:
ACCURACY = [
    # exp2f: one v_exp_f32 (correctly rounded here); results below 2^-126 come from
    # v_exp(x + 64) * 2^-64 (LLVM lowerFEXP2), a second rounding into the subnormal range.
    ("m_exp2f", np.exp2, "exp2", 1.0),
    # expf: LLVM lowerFEXP splits x*log2(e) into a head and an fma-computed tail, then
    # v_exp_f32(head - rint(head) + tail) and v_ldexp_f32; measured 0.56 ulp.
    ("m_expf", np.exp, "exp", 1.0),
    # log2f: one v_log_f32 (0.5 ulp) for normal inputs; subnormal ones are scaled by 2^32 and
    # 32 is subtracted after (LLVM LowerFLOG2): log2(x*2^32) in [-118, -94] is rounded to
    # 2^-18 (<= 0.25 ulp of the result in [-150, -126]), then the subtraction rounds: 0.75.
    ("m_log2f", np.log2, "log", 0.75),
    # logf: y = v_log_f32(x) rounded (up to 0.5 ulp of y = 0.69 ulp of ln x, since |y| = 1.44
    # |ln x| can lie in the next binade), then y*ln2 by the head/tail fma sequence of LLVM
    # LowerFLOGCommon. Under -ffp-contract=fast the final `R + FMA1` is contracted into
    # fma(Y, C, FMA1), which counts the rounding error of R = Y*C twice (another <= 0.5 ulp);
    # plus the final rounding: 0.69 + 0.5 + 0.5 < 2. Measured 1.55 ulp.
    ("m_logf", np.log, "log", 2.0),
    # sqrtf: LLVM lowerFSQRTF32 refines v_sqrt_f32 with fma residual corrections: correctly
    # rounded (0.5 ulp) given any v_sqrt within 1 ulp.
    ("m_sqrtf", np.sqrt, "log", 0.5),
    # rsqrtf: the bare v_rsq_f32 — 0.5 ulp on the emulator (hardware: ~1 ulp, see module doc).
    ("m_rsqrtf", lambda x: 1.0 / np.sqrt(x), "log", 0.5),
    # the inline algorithms of math_inline.h: their documented bounds (host-measured in
    # tests/prelude/test_prelude.py), which must hold on the emulated device code as well.
    ("m_tanhf", np.tanh, "tanh", 2.0),
    ("m_sinf", np.sin, "trig", 2.0),
    ("m_cosf", np.cos, "trig", 2.0),
    ("m_tanf", np.tan, "trig", 3.0),
]


@pytest.mark.parametrize(("name", "ref", "kind", "max_ulp"), ACCURACY,
                         ids=[a[0] for a in ACCURACY])
def test_accuracy_vs_float64(mod, name, ref, kind, max_ulp):
    (x,) = _inputs(kind)
    (got,) = _run(mod, name, x)
    with np.errstate(all="ignore"):
        r = ref(x.astype(np.float64))
    big = np.abs(r) > F32_MAX * (1 + 2.0**-25)  # rounds to inf in float32
    assert np.isinf(got[big]).all() and (np.sign(got[big]) == np.sign(r[big])).all()
    fin = ~big
    err = ulp_error(got[fin], r[fin])
    worst = int(err.argmax())
    assert err.max() <= max_ulp, (f"{name}: {err.max():.3f} ulp at x={x[fin][worst]!r} "
                                  f"(got {got[fin][worst]!r}, want {r[fin][worst]!r})")
    # not vacuous: most results are the correctly rounded float32
    assert (got[fin] == r[fin].astype(np.float32)).mean() > 0.6


def test_special_values(mod):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-45], np.float32)
    (e,) = _run(mod, "m_expf", x)
    np.testing.assert_array_equal(e[:4], [1, 1, np.inf, 0])
    assert np.isnan(e[4]) and e[5] == np.float32(np.e)
    (lg,) = _run(mod, "m_logf", x)
    np.testing.assert_array_equal(lg[[0, 1, 2, 5]], [-np.inf, -np.inf, np.inf, 0])
    assert np.isnan(lg[[3, 4, 6]]).all()
    assert lg[7] == np.float32(np.log(np.float64(np.float32(1e-45))))
    (s,) = _run(mod, "m_sqrtf", x)
    assert s[0] == 0 and np.signbit(s[1]) and s[2] == np.inf and np.isnan(s[[3, 4, 6]]).all()
    (t,) = _run(mod, "m_tanhf", x)
    np.testing.assert_array_equal(t[[0, 2, 3, 5]], [0, 1, -1, np.float32(np.tanh(1.0))])
    assert np.signbit(t[1]) and np.isnan(t[4])


def test_powf(mod):
    rng = np.random.default_rng(3)
    q = N // 4
    x = np.concatenate([np.exp(rng.uniform(np.log(1e-3), np.log(1e3), 2 * q)),
                        rng.uniform(0.5, 2.0, q), -np.exp(rng.uniform(-4, 4, q))])
    y = np.concatenate([rng.uniform(-12, 12, 2 * q), rng.uniform(-1000, 1000, q),
                        np.round(rng.uniform(-20, 20, q))])  # negative x: integer y
    x, y = x.astype(np.float32), y.astype(np.float32)
    (got,) = _run(mod, "m_powf", x, y)
    ref = np.power(x.astype(np.float64), y.astype(np.float64))
    fin = np.abs(ref) <= F32_MAX
    # math_inline.h's bound for powf (2 ulp): exp2f of the float part of f (here 0.5 ulp,
    # one v_exp_f32) times a first-order correction, rounded from double.
    err = ulp_error(got[fin], ref[fin])
    assert err.max() <= 2.0, f"powf: {err.max():.3f} ulp at {x[fin][err.argmax()]!r}"
    assert np.isinf(got[~fin]).all()
    # C99 F.9.4.4 cases, bit for bit against the C library's pow
    vals = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, np.inf, -np.inf, np.nan], np.float32)
    xs, ys = (a.ravel() for a in np.meshgrid(vals, vals))
    (sp,) = _run(mod, "m_powf", xs, ys)
    with np.errstate(all="ignore"):
        want = np.power(xs.astype(np.float64), ys.astype(np.float64)).astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(sp), nan)
    np.testing.assert_array_equal(sp[~nan].view(np.uint32), want[~nan].view(np.uint32))


def test_fast_intrinsics_follow_their_instruction_sequence(mod):
    """__expf = v_exp_f32(x * f32(log2 e)), __logf = v_log_f32(x) * f32(ln 2): with the emulator's
    correctly rounded v_exp/v_log the result is exactly that sequence in float32 arithmetic
    (hardware: up to ~1 ulp more). Inputs keep results normal: v_exp_f32/v_log_f32 do not
    handle denormals (LLVM AMDGPUISelLowering.cpp lowerFEXP2/LowerFLOG2 comments)."""
    rng = np.random.default_rng(4)
    x = rng.uniform(-87, 88, N).astype(np.float32)
    (got,) = _run(mod, "m_fast_expf", x)
    t = (x * np.float32(1.4426950408889634)).astype(np.float32)
    np.testing.assert_array_equal(got, np.exp2(t.astype(np.float64)).astype(np.float32))
    # and within the budget one ulp per rounding (product, exp2) gives: |t| * 2^-24 * ln2
    # relative from the product plus 0.5 ulp: < 70 ulp at |x| = 88
    assert ulp_error(got, np.exp(x.astype(np.float64))).max() < 70
    xl = np.exp(rng.uniform(np.log(1.2e-38), np.log(3e38), N)).astype(np.float32)
    (gl,) = _run(mod, "m_fast_logf", xl)
    y = np.log2(xl.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(gl, (y * np.float32(0.6931471805599453)).astype(np.float32))


def test_exact_operations(mod):
    """fabsf/floorf/ceilf/fmaxf/fminf are exact: bit-for-bit (signed zeros compared equal)."""
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.standard_normal(N - 8) * 100,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 1e-40]]).astype(np.float32)
    y = np.concatenate([rng.standard_normal(N - 8) * 100,
                        [np.nan, 1.0, -np.inf, 3.0, 2.0, np.nan, -0.5, -1e-40]]).astype(np.float32)
    for name, ref in (("m_fabsf", np.abs), ("m_floorf", np.floor), ("m_ceilf", np.ceil)):
        (got,) = _run(mod, name, x)
        np.testing.assert_array_equal(got, ref(x), err_msg=name)
    (fabs_got,) = _run(mod, "m_fabsf", x)
    assert not np.signbit(fabs_got).any()
    # IEEE maxNum/minNum: a NaN operand yields the other operand (numpy fmax/fmin)
    for name, ref in (("m_fmaxf", np.fmax), ("m_fminf", np.fmin)):
        (got,) = _run(mod, name, x, y)
        np.testing.assert_array_equal(got, ref(x, y), err_msg=name)


def _round_f32(v: Fraction) -> np.float32:
    """The float32 nearest to an exact rational (ties to even), without double rounding."""
    f = np.float32(float(v))
    cands = [np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))]
    cands = [c for c in cands if np.isfinite(c)]
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - v),
                                     int(np.array(c).view(np.uint32)) & 1))
    return np.float32(best)


def test_fmaf_is_correctly_rounded(mod):
    """fmaf = v_fma_f32 (or v_fmac): one rounding of the exact a*b+c (CDNA3 ISA V_FMA_F32,
    "fused"), checked against exact rational arithmetic — including a case that rounding the
    sum to float64 first would get wrong (exact value just below a float32 midpoint that
    float64 rounds onto it)."""
    rng = np.random.default_rng(6)
    n = 1024
    a = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    b = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    c = (-(a.astype(np.float64) * b) * (1 + rng.standard_normal(n) * 1e-6)).astype(np.float32)
    c[::2] = (rng.standard_normal(n // 2) * 1e3).astype(np.float32)
    u = np.float32(2.0**-12)
    a[0], b[0], c[0] = u * np.float32(1 + 2.0**-23), u * np.float32(1 - 2.0**-23), \
        np.float32(1 + 2.0**-23)
    (got,) = _run(mod, "m_fmaf", a, b, c)
    want = np.array([_round_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(a, b, c)], np.float32)
    assert want[0] == np.float32(1 + 2.0**-23)  # the double-rounding trap
    np.testing.assert_array_equal(got, want)


def _special_floats(rng) -> np.ndarray:
    halfway = np.float32(1 + 2.0**-11) * np.arange(1, 9, dtype=np.float32)  # f16 ties
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65520.0, 65519.0,
                         6e-8, 3e-8, 2.98e-8, 1e-40, -1e-40, 3.4e38, 1.0 + 2.0**-8,
                         1.0 + 3 * 2.0**-8], np.float32)
    bits = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    bits = bits[np.isfinite(bits)]
    return np.concatenate([specials, halfway, -halfway, bits, rng.standard_normal(N) * 1e3,
                           rng.standard_normal(N) * 1e-5]).astype(np.float32)


def test_half_and_bfloat16_conversions(mod):
    """__float2half (v_cvt_f16_f32, RNE), __float2half_rz (v_cvt_pkrtz_f16_f32), and
    __float2bfloat16 (LLVM's integer RNE expansion, NaN kept quiet) bit-for-bit; and back."""
    rng = np.random.default_rng(7)
    x = _special_floats(rng)
    rn, rz, bf = _run(mod, "m_to_half", x, outputs=(np.uint16,) * 3)
    nan = np.isnan(x)
    with np.errstate(over="ignore"):  # numpy warns on the (correct) overflow to inf
        h = x.astype(np.float16)
    want_rn = h.view(np.uint16)
    np.testing.assert_array_equal(rn[~nan], want_rn[~nan])
    assert ((rn[nan] & 0x7C00) == 0x7C00).all() and ((rn[nan] & 0x3FF) != 0).all()
    # round toward zero: the float16 of largest magnitude not beyond |x| (inf only for inf)
    over = np.abs(h.astype(np.float64)) > np.abs(x.astype(np.float64))
    want_rz = np.where(over & ~nan, want_rn.astype(np.int32) - 1, want_rn).astype(np.uint16)
    want_rz[np.isinf(x)] = want_rn[np.isinf(x)]
    np.testing.assert_array_equal(rz[~nan], want_rz[~nan])
    # bfloat16: round to nearest even on the top 16 bits; NaN -> a quiet NaN
    xb = x.view(np.uint32).astype(np.uint64)
    want_bf = ((xb + 0x7FFF + ((xb >> 16) & 1)) >> 16).astype(np.uint16)
    np.testing.assert_array_equal(bf[~nan], want_bf[~nan])
    assert ((bf[nan] & 0x7F80) == 0x7F80).all() and ((bf[nan] & 0x40) != 0).all()
    # back to float: exact widening of every 16-bit pattern
    codes = np.arange(65536, dtype=np.uint16)
    hf, bff = _run(mod, "m_from_half", codes, codes, outputs=(np.float32, np.float32))
    wh = codes.view(np.float16).astype(np.float32)
    wb = (codes.astype(np.uint32) << 16).view(np.float32)
    hn, bn = np.isnan(wh), np.isnan(wb)
    np.testing.assert_array_equal(hf.view(np.uint32)[~hn], wh.view(np.uint32)[~hn])
    np.testing.assert_array_equal(bff.view(np.uint32)[~bn], wb.view(np.uint32)[~bn])
    assert np.isnan(hf[hn]).all() and np.isnan(bff[bn]).all()
