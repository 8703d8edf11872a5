"""Unit checks of emulator pieces against hand-computed answers (ISA-guide semantics)."""
from __future__ import annotations

import numpy as np
import pytest

from workbench.emu.decoder.operands import imm_bits, parse_operand, split_operands
from workbench.emu.machine.memory import Memory, serialize_rounds
from workbench.emu.numerics import vfloat
from workbench.emu.numerics.floats import f32_to_bf16_bits
from workbench.emu.semantics.memory.ds import swizzle_lanes
from workbench.emu.semantics.valu import table as valu
from workbench.emu.semantics.valu import vcmp, vcvt, vdiv, vint


def test_operand_parsing():
    o = parse_operand("v[4:7]")
    assert (o.kind, o.idx, o.n) == ("v", 4, 4)
    o = parse_operand("-|s3|")
    assert (o.kind, o.idx, o.neg, o.abs) == ("s", 3, True, True)
    assert parse_operand("vcc").idx == 106 and parse_operand("exec_hi").idx == 127
    assert parse_operand("a[12:15]").kind == "a"
    assert parse_operand("-4").value == -4 and parse_operand("-4.0").kind == "fimm"
    pos, mods = split_operands(("v[18:21]", "v[0:1]", "off offset:-8"))
    assert pos == ["v[18:21]", "v[0:1]", "off"] and mods == {"offset": -8}
    pos, mods = split_operands(("vmcnt(0) lgkmcnt(0)",))
    assert pos == [] and mods == {"vmcnt": 0, "lgkmcnt": 0}
    _, mods = split_operands(("v0", "v1 quad_perm:[3,2,1,0] row_mask:0xf bound_ctrl:0"))
    assert mods["quad_perm"] == [3, 2, 1, 0] and mods["row_mask"] == 15


def test_inline_constants_per_type():
    # AMDGPU inline constants: integers sign-extend, floats use the operand's format
    assert imm_bits(parse_operand("-1"), 32, False) == 0xFFFFFFFF
    assert imm_bits(parse_operand("-1"), 64, False) == 0xFFFFFFFFFFFFFFFF
    assert imm_bits(parse_operand("1.0"), 32, True) == 0x3F800000
    assert imm_bits(parse_operand("1.0"), 16, True) == 0x3C00
    assert imm_bits(parse_operand("-2.0"), 64, True) == 0xC000000000000000
    assert imm_bits(parse_operand("0.15915494"), 32, True) == 0x3E22F983
    assert imm_bits(parse_operand("0.15915494"), 16, True) == 0x3118
    assert imm_bits(parse_operand("0x3ff00000"), 64, True) == 0x3FF0000000000000


def test_dpp_lane_maps():
    src, ok = valu.dpp_lanes(0x1B)  # quad_perm:[3,2,1,0]
    assert list(src[:8]) == [3, 2, 1, 0, 7, 6, 5, 4] and ok.all()
    src, ok = valu.dpp_lanes(0x111)  # row_shr:1
    assert src[5] == 4 and not ok[0] and not ok[16] and ok[17]
    src, ok = valu.dpp_lanes(0x101)  # row_shl:1
    assert src[0] == 1 and not ok[15]
    src, ok = valu.dpp_lanes(0x121)  # row_ror:1
    assert src[0] == 15 and src[17] == 16 and ok.all()
    src, ok = valu.dpp_lanes(0x140)  # row_mirror
    assert src[0] == 15 and src[31] == 16
    src, ok = valu.dpp_lanes(0x142)  # row_bcast:15
    assert src[16] == 15 and src[40] == 31 and not ok[3]
    src, ok = valu.dpp_lanes(0x143)  # row_bcast:31
    assert src[40] == 31 and ok[32] and not ok[31]
    src, ok = valu.dpp_lanes(0x138)  # wave_shr:1
    assert src[10] == 9 and not ok[0]
    with pytest.raises(ValueError):
        valu.dpp_lanes(0x160)


def test_swizzle_lanes():
    assert list(swizzle_lanes(0x8000 | 0b00011011)[:4]) == [3, 2, 1, 0]  # quad permute
    # bit-mask mode: and=0x1f, or=0, xor=1 -> swap neighbours within 32-lane halves
    lanes = swizzle_lanes((1 << 10) | 0x1F)
    assert list(lanes[:4]) == [1, 0, 3, 2] and lanes[33] == 32
    lanes = swizzle_lanes(0x00)  # and=0: broadcast lane 0 of each half
    assert (lanes[:32] == 0).all() and (lanes[32:] == 32).all()


def test_bf16_round_to_nearest_even():
    x = np.array([1.0, 1.0 + 2**-8, 1.0 + 3 * 2**-8, 1.0 + 2**-9, -3.0e38, np.inf, np.nan],
                 np.float32)
    b = f32_to_bf16_bits(x)
    assert b[0] == 0x3F80 and b[1] == 0x3F80  # halfway, even stays
    assert b[2] == 0x3F82  # halfway, odd rounds up
    assert b[3] == 0x3F80  # below half
    assert b[4] == 0xFF62 and b[5] == 0x7F80
    assert (b[6] & 0x7F80) == 0x7F80 and (b[6] & 0x7F) != 0  # NaN stays NaN


def test_bit_ops():
    assert vint.bfrev(np.uint32(1)) == 0x80000000
    assert vint.bfrev(np.uint32(0xF0)) == 0x0F000000
    assert vint.ffbh_u32(np.uint32(1)) == 31 and vint.ffbh_u32(np.uint32(0)) == 0xFFFFFFFF
    assert vint.ffbl_b32(np.uint32(8)) == 3 and vint.ffbl_b32(np.uint32(0)) == 0xFFFFFFFF
    assert vint.ffbh_i32(np.int32(-1)) == 0xFFFFFFFF and vint.ffbh_i32(np.int32(1)) == 31
    assert vint.bfe_u(np.uint32(0xABCD), 4, 8) == 0xBC
    assert vint.bfe_i(np.uint32(0xF0), 4, 4) == -1
    # v_perm_b32: selector bytes 0..3 pick S1's bytes, 4..7 S0's, 12 zero, 13+ 0xff
    assert vint.perm(np.uint32(0x11223344), np.uint32(0x55667788), np.uint32(0x07060504)) \
        == 0x11223344
    assert vint.perm(np.uint32(0), np.uint32(0x55667788), np.uint32(0x0C0D0001)) == 0x00FF8877


def test_conversions_saturate():
    x = np.array([1e10, -1e10, np.nan, -0.7, 3.99], np.float32)
    np.testing.assert_array_equal(vcvt.cvt_f2i(x, -2**31, 2**31 - 1, np.int32),
                                  [2**31 - 1, -2**31, 0, 0, 3])
    np.testing.assert_array_equal(vcvt.cvt_f2i(x, 0, 2**32 - 1, np.uint32),
                                  [2**32 - 1, 0, 0, 0, 3])
    h = vcvt.f32_to_f16_rtz(
        np.array([1.0 + 2**-11 + 2**-12, 70000.0, -1.0 - 2**-11], np.float32))
    np.testing.assert_array_equal(h.view(np.uint16), [0x3C00, 0x7BFF, 0xBC00])


def test_div_helpers_normal_range():
    a = np.array([3.0, -7.5, 1e-3], np.float32)
    b = np.array([7.0, 2.0, 3e4], np.float32)
    r, vcc = vdiv.div_scale(b, b, a, np.float32)
    np.testing.assert_array_equal(r, b)
    assert not vcc.any()  # no scaling needed in the normal range
    np.testing.assert_array_equal(vdiv.div_fixup(np.float32(2.5), np.float32(0), np.float32(1),
                                              np.float32), np.float32(np.inf))
    assert np.isnan(vdiv.div_fixup(np.float32(1), np.float32(0), np.float32(0), np.float32))


def test_class_mask():
    x = np.array([np.nan, -np.inf, -1.0, -1e-40, -0.0, 0.0, 1e-40, 1.0, np.inf], np.float32)
    bits = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    for v, bit in zip(x, bits):
        assert vcmp.cls(np.float32(v), np.uint32(1 << bit)), (v, bit)
        assert not vcmp.cls(np.float32(v), np.uint32(0x3FF & ~(1 << bit))), (v, bit)


def test_serialize_rounds_preserves_lane_order():
    keys = np.array([5, 3, 5, 5, 3, 9])
    rounds = serialize_rounds(keys)
    # key 5 is hit by lanes 0, 2, 3 (in that order), key 3 by lanes 1, 4
    assert [sorted(r) for r in rounds] == [[0, 1, 5], [2, 4], [3]]
    for r in rounds:
        assert len(set(keys[r])) == len(r)


def test_memory_map_guards_and_describe():
    m = Memory()
    a = m.add("a", 100)
    b = m.add("b", 8)
    m.finalize()
    assert b.base - (a.base + a.size) >= 4096  # guard gap
    assert m.region_at(a.base + 99) is a and m.region_at(a.base + 100) is None
    assert "past the end of buffer 'a'" in m.describe(a.base + 104, 4)
    assert "before the start of buffer 'b'" in m.describe(b.base - 8, 4)


def test_fma_single_rounding():
    """fma32/fma64 round the exact a*b+c once (round-to-odd inner sums), checked against exact
    rationals on cancellation-heavy inputs and the double-rounding trap for f32."""
    from fractions import Fraction

    rng = np.random.default_rng(0)
    a = rng.standard_normal(400) * np.exp2(rng.integers(-30, 30, 400))
    b = rng.standard_normal(400) * np.exp2(rng.integers(-30, 30, 400))
    c = -(a * b) * (1 + rng.standard_normal(400) * 2.0**-40)
    r = vfloat.fma64(a, b, c)
    for x, y, z, got in zip(a, b, c, r):
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        want = float(exact)  # Fraction -> float rounds correctly (ties to even)
        assert got == want, (x, y, z, got, want)
    u = np.float32(2.0**-12)
    got32 = vfloat.fma32(u * np.float32(1 + 2.0**-23), u * np.float32(1 - 2.0**-23),
                    np.float32(1 + 2.0**-23))
    assert got32 == np.float32(1 + 2.0**-23)  # f64-then-f32 rounding would give 1 + 2^-22


def test_div_fixup_special_rules():
    f = np.float32
    fix = lambda q, d, n: vdiv.div_fixup(f(q), f(d), f(n), f)  # noqa: E731
    assert fix(np.nan, 3.0, 0.0) == 0 and not np.signbit(fix(np.nan, 3.0, 0.0))  # 0/y
    assert np.signbit(fix(np.nan, -3.0, 0.0))
    assert fix(np.nan, 1e-30, 1e30) == np.inf  # NaN estimate from finite operands: overflow
    assert fix(5.0, 1e30, 1e-30) == 0  # exponent difference < -150: underflow
    assert fix(5.0, -2.0, 1.0) == -5.0
