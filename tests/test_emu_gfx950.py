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
KDIR = Path(__file__).parent / "kernels" / "emu"


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
    with pytest.raises(LaunchError, match="gfx942, gfx950 code objects, not 'gfx1100'"):
        parse_device("emulator:gfx1100")


def test_a_gfx950_module_on_the_gfx942_emulator_says_what_to_do(valu):
    from workbench.errors import LaunchError

    with pytest.raises(LaunchError, match="compiled for gfx950 but emulator runs gfx942"):
        Kernel(valu, "pk_bf16", device="emulator")[1, 64](
            np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.uint32))
