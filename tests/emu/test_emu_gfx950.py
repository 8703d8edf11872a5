"""gfx950 code objects on the emulator: gfx950-only VALU instructions against numpy models
written from their definitions (not from the emulator's code)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

pytestmark = pytest.mark.skipif(find_toolchain().clang_major < 20,
                                reason="gfx950 needs LLVM >= 20")
KDIR = Path(__file__).parents[1] / "kernels" / "emu"


@pytest.fixture(scope="module")
def valu():
    return wb.compile((KDIR / "gfx950_valu.hip").read_text(), "gfx950")


def _lut(x, y, z, ttbl: int, bits: int = 32) -> np.ndarray:
    """Bit by bit: result bit = truth-table bit (x << 2 | y << 1 | z)."""
    out = np.zeros(x.shape, np.uint64)
    for k in range(bits):
        idx = ((x >> k) & 1) << 2 | ((y >> k) & 1) << 1 | ((z >> k) & 1)
        out |= ((ttbl >> idx) & 1) << k
    return out.astype(np.uint32)


def test_bitop3_truth_tables(valu):
    rng = np.random.default_rng(0)
    a, b, c = (rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    out = np.zeros(6 * 64, np.uint32)
    Kernel(valu, "bitops", device="emulator:gfx950")[1, 64](a, b, c, out)
    o = out.reshape(64, 6).astype(np.uint64)
    x, y, z = (v.astype(np.uint64) for v in (a, b, c))
    np.testing.assert_array_equal(o[:, 0], a)  # 0xf0 is S0 itself
    np.testing.assert_array_equal(o[:, 1], a ^ b ^ c)
    np.testing.assert_array_equal(o[:, 2], (a & b) | (a & c) | (b & c))
    np.testing.assert_array_equal(o[:, 3], _lut(x, y, z, 0x48))
    np.testing.assert_array_equal(o[:, 4], _lut(x, np.full_like(x, 7), z, 0x1B))
    # b16: the low 16 bits; gfx9 16-bit VALU results zero the high half
    np.testing.assert_array_equal(o[:, 5], _lut(x & 0xFFFF, y & 0xFFFF, z & 0xFFFF, 0x6A, 16))


def _bf16_rne(x: np.ndarray) -> np.ndarray:
    """f32 -> bf16 bits by the definition of round-to-nearest-even on the sign-magnitude bit
    pattern: keep the top 16 bits, round the magnitude up when the dropped 16 bits exceed half
    an ulp, or equal it and the kept part is odd (carries into the exponent, up to inf)."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.int64)
    keep, rest = bits >> 16, bits & 0xFFFF
    up = (rest > 0x8000) | ((rest == 0x8000) & (keep & 1 == 1))
    return (keep + up).astype(np.uint32)


def test_cvt_pk_bf16_f32_rounds_to_nearest_even(valu):
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(64) * 100).astype(np.float32)
    b = (rng.standard_normal(64) * 1e-3).astype(np.float32)
    # ties: 1 + 2^-8 (even -> down), 1 + 3*2^-8 (odd -> up); a NaN; -0
    a[:4] = [1 + 2**-8, 1 + 3 * 2**-8, np.nan, -0.0]
    b[:2] = [np.float32(-(1 + 2**-8)), np.float32(3.4e38)]  # 2nd rounds up to inf
    out = np.zeros(64, np.uint32)
    Kernel(valu, "pk_bf16", device="emulator:gfx950")[1, 64](a, b, out)
    lo, hi = out & 0xFFFF, out >> 16
    assert lo[0] == 0x3F80 and lo[1] == 0x3F82 and lo[3] == 0x8000 and hi[0] == 0xBF80
    assert hi[1] == 0x7F80
    assert lo[2] & 0x7F80 == 0x7F80 and lo[2] & 0x7F  # NaN stays NaN
    fin = ~np.isnan(a)
    np.testing.assert_array_equal(lo[fin], _bf16_rne(a[fin]))
    np.testing.assert_array_equal(hi, _bf16_rne(b))


def test_gfx950_workgroups_get_160_kib_of_lds(valu):
    """workbench.arch gives gfx950 163840 bytes of LDS per workgroup (gfx942: 65536)."""
    from workbench import arch
    from workbench.errors import LaunchError

    assert arch.get("gfx950").lds_bytes_per_workgroup == 163840
    k = Kernel(valu, "big_lds", device="emulator:gfx950")
    out = np.zeros(64, np.int32)
    k[1, 64, 163840](out, 163840 - 256)
    np.testing.assert_array_equal(out, (np.arange(64) ^ 1) * 3 + 1)
    with pytest.raises(LaunchError, match="gfx950 allows 163840"):
        k[1, 64, 163840 + 1024](out, 0)
    with pytest.raises(Exception, match="LDS address 163840"):
        k[1, 64, 163840](out, 163840)


def test_emulator_device_per_arch():
    from workbench.errors import LaunchError
    from workbench.runtime.devices import parse_device

    d = parse_device("emulator:gfx950")
    assert (d.name, d.kind, d.arch) == ("emulator:gfx950", "emulator", "gfx950")
    assert parse_device("emulator:gfx950") is d  # one device object per target
    assert parse_device("emulator:gfx942") is parse_device("emulator")
    assert parse_device("emulator:gfx1100").arch == "gfx1100"  # RDNA3 (workbench.emu.decoder.rdna)
    with pytest.raises(LaunchError, match="gfx942, gfx950, .*gfx1201 code objects, not 'gfx1030'"):
        parse_device("emulator:gfx1030")


def test_a_gfx950_module_on_the_gfx942_emulator_says_what_to_do(valu):
    from workbench.errors import LaunchError

    with pytest.raises(LaunchError, match="compiled for gfx950 but emulator runs gfx942"):
        Kernel(valu, "pk_bf16", device="emulator")[1, 64](
            np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.uint32))


def test_permlane_swaps_and_prng(valu):
    """CDNA4 ISA pseudocode: permlane16_swap trades VDST's odd 16-lane rows with SRC0's even
    rows, permlane32_swap VDST's upper half with SRC0's lower half; V_PRNG_B32 is one LFSR step
    (S0 << 1) ^ (S0[31] ? 197 : 0)."""
    seen = {i.mnemonic for i in valu["gfx950"].listing("lanes950")}
    assert {"v_permlane16_swap_b32_e32", "v_permlane32_swap_b32_e32", "v_prng_b32_e32"} <= seen
    rng = np.random.default_rng(5)
    a = rng.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(384, np.uint32)
    Kernel(valu, "lanes950", device="emulator:gfx950")[1, 64](a, out)
    x, y = a[:64].copy(), a[64:].copy()
    x16, y16 = x.copy(), y.copy()
    for p in range(2):
        for lane in range(16):
            y16[32 * p + lane], x16[32 * p + lane + 16] = x[32 * p + lane + 16], y[32 * p + lane]
    x32, y32 = x.copy(), y.copy()
    x32[32:], y32[:32] = y[:32], x[32:]
    np.testing.assert_array_equal(out[:64], x16)
    np.testing.assert_array_equal(out[64:128], y16)
    np.testing.assert_array_equal(out[128:192], x32)
    np.testing.assert_array_equal(out[192:256], y32)
    want = [((int(v) << 1) & 0xFFFFFFFF) ^ (197 if v >> 31 else 0) for v in x]
    np.testing.assert_array_equal(out[256:320], np.array(want, np.uint32))
    np.testing.assert_array_equal(out[320:], x.reshape(2, 2, 16)[:, ::-1].reshape(64))


def test_pk_f16_and_nan_propagating_maximum3_minimum3(valu):
    seen = {i.mnemonic for i in valu["gfx950"].listing("floats950")}
    assert {"v_cvt_pk_f16_f32", "v_maximum3_f32", "v_minimum3_f32"} <= seen
    rng = np.random.default_rng(6)
    a, b, c = ((rng.standard_normal(64) * 1000).astype(np.float32) for _ in range(3))
    a[:6] = [np.nan, 0.0, -0.0, 1.0, 70000.0, 2.0**-20]
    b[:6] = [1.0, -0.0, 0.0, np.nan, -1.0, 1.0 + 2.0**-11]  # 2nd/3rd lanes: signed zeros
    c[:6] = [2.0, -0.0, -0.0, -1.0, 3.0, 0.5]
    ph = np.zeros(128, np.float16)
    mx, mn = np.zeros(64, np.float32), np.zeros(64, np.float32)
    Kernel(valu, "floats950", device="emulator:gfx950")[1, 64](a, b, c, ph.view(np.int32),
                                                                mx, mn)
    with np.errstate(over="ignore"):  # 70000 overflows f16 to inf on purpose
        np.testing.assert_array_equal(ph[0::2][1:], a[1:].astype(np.float16))  # RNE cast
        np.testing.assert_array_equal(ph[1::2], b.astype(np.float16))
    assert np.isnan(ph[0]) and ph[8] == np.inf
    assert np.isnan(mx[0]) and np.isnan(mn[0]) and np.isnan(mx[3]) and np.isnan(mn[3])
    assert mx.view(np.uint32)[1] == 0 and mn.view(np.uint32)[1] == 0x80000000  # +0 > -0
    assert mx.view(np.uint32)[2] == 0 and mn.view(np.uint32)[2] == 0x80000000
    ok = ~np.isnan(a + b + c)
    ok[1:3] = False
    np.testing.assert_array_equal(mx[ok], np.maximum(np.maximum(a, b), c)[ok])
    np.testing.assert_array_equal(mn[ok], np.minimum(np.minimum(a, b), c)[ok])


def _bf16_pairs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return ((x & 0xFFFF) << 16).view(np.float32), (x & 0xFFFF0000).view(np.float32)


def test_bf16_dots(valu):
    """D = a0*b0 + a1*b1 + c with exact bf16 products and one rounding to f32 (as the f16 dot;
    valu.dot): values chosen so that the f64 reference is exact."""
    assert "v_dot2c_f32_bf16_e32" in {i.mnemonic for i in valu["gfx950"].listing("dot_bf16")}
    rng = np.random.default_rng(7)
    ab = (rng.integers(-256, 256, (2, 64, 2)).astype(np.float32).view(np.uint32) >> 16)
    a = (ab[0, :, 0] | (ab[0, :, 1] << 16)).astype(np.uint32)
    b = (ab[1, :, 0] | (ab[1, :, 1] << 16)).astype(np.uint32)
    acc = rng.integers(-1000, 1000, 64).astype(np.float32)
    o = rng.integers(-1000, 1000, 64).astype(np.float32)
    (a0, a1), (b0, b1) = _bf16_pairs(a), _bf16_pairs(b)
    want_acc = (a0.astype(np.float64) * b0 + a1.astype(np.float64) * b1 + acc).astype(np.float32)
    want_o = (-a0.astype(np.float64) * b0 + a1.astype(np.float64) * -b1 + o).astype(np.float32)
    Kernel(valu, "dot_bf16", device="emulator:gfx950")[1, 64](a, b, acc, o)
    np.testing.assert_array_equal(acc, want_acc)
    np.testing.assert_array_equal(o, want_o)


def test_bf16_dot_rounds_once(valu):
    """Random bf16 and f32 values in [2^-4, 2^4]: the exact sum fits a float64 (under 40
    significant bits), so float64 arithmetic then one cast is the single-rounding reference."""
    rng = np.random.default_rng(8)

    def vals(n, bits16):
        v = np.exp2(rng.uniform(-4, 4, n)) * rng.choice([-1, 1], n)
        f = v.astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint32) if bits16 else f

    a = vals(64, True) | (vals(64, True) << 16)
    b = vals(64, True) | (vals(64, True) << 16)
    acc = vals(64, False)
    (a0, a1), (b0, b1) = _bf16_pairs(a), _bf16_pairs(b)
    exact = a0.astype(np.float64) * b0 + a1.astype(np.float64) * b1 + acc
    o = np.zeros(64, np.float32)
    Kernel(valu, "dot_bf16", device="emulator:gfx950")[1, 64](a, b, acc, o)
    np.testing.assert_array_equal(acc, exact.astype(np.float32))
