"""Decoder checks: encoding length from the encoding bits (not from the printed operands), format
vs. mnemonic cross-checks, and float source modifiers on v_cndmask_b32_e64."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import workbench as wb
from workbench.emu.engine.decode import check_length, encoded_words, encoding_format, split_mnemonic
from workbench.emu.errors import EmulatorError
from workbench.isa import Instruction
from workbench.runtime.kernel import Kernel

SRC = (Path(__file__).parents[1] / "kernels" / "emu" / "encodings.hip").read_text()


def _ins(text: str, *words: int) -> Instruction:
    m, _, rest = text.partition(" ")
    ops = tuple(x.strip() for x in rest.split(",")) if rest else ()
    return Instruction(0x100, m, ops, tuple(words), None, text, n_regs=len(ops))


@pytest.mark.parametrize(("text", "words", "fmt"), [
    # the same printed text, inline constant (1 dword) or literal (2 dwords): CDNA3 ISA
    # "Microcode Formats", SSRC0/SSRC1 = 255 means a literal follows
    ("s_addc_u32 s7, s7, -1", (0x8207C107,), "SOP2"),
    ("s_addc_u32 s7, s7, -1", (0x8207FF07, 0xFFFFFFFF), "SOP2"),
    ("s_addc_u32 s5, s5, 0", (0x8205FF05, 0x00000000), "SOP2"),
    ("v_mov_b32_e32 v1, 1", (0x7E020281,), "VOP1"),
    ("v_mov_b32_e32 v1, 1", (0x7E0202FF, 0x00000001), "VOP1"),
    ("s_addc_u32 s7, s7, lit(0xffffffff)", (0x8207FF07, 0xFFFFFFFF), "SOP2"),  # LLVM 22
    ("v_mov_b32_e32 v1, lit(0x1)", (0x7E0202FF, 0x00000001), "VOP1"),
    ("s_mov_b32 s0, 0x800000", (0xBE8000FF, 0x00800000), "SOP1"),
    ("s_cmp_eq_u32 s0, 0x1234", (0xBF06FF00, 0x00001234), "SOPC"),
    ("s_nop 0", (0xBF800000,), "SOPP"),
    ("s_movk_i32 s0, 0x1234", (0xB0001234,), "SOPK"),
    ("v_cndmask_b32_e64 v2, v2, |v1|, vcc", (0xD1000202, 0x01AA0302), "VOP3"),
    ("v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
     (0x7E0002FA, 0xFF00B101), "VOP1"),
    ("v_fmamk_f32 v4, v2, 0x3377d1cf, v4", (0x2E080902, 0x3377D1CF), "VOP2"),
])
def test_length_from_encoding(text, words, fmt):
    ins = _ins(text, *words)
    assert encoding_format(words[0]) == fmt
    assert encoded_words(ins.mnemonic, ins.words) == (fmt, len(words))
    check_length(ins, split_mnemonic(ins.mnemonic)[1])


@pytest.mark.parametrize(("text", "words", "why"), [
    ("s_addc_u32 s7, s7, -1", (0x8207C107, 0xFFFFFFFF), "implies 1"),  # inline + extra word
    ("s_addc_u32 s7, s7, -1", (0x8207FF07,), "implies 2"),  # literal code, word missing
    ("v_add_f32_e64 v0, v1, v2", (0x02000501,), "_e64 mnemonic in a VOP2"),
    ("global_load_dword v0, v[0:1], off", (0xD8D80000, 0x0000007F), "global_\\* mnemonic in a DS"),
    ("v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2]", (0x7E0002F9, 0xFF00B101), "DPP src0"),
])
def test_length_mismatch_is_refused(text, words, why):
    ins = _ins(text, *words)
    with pytest.raises(EmulatorError, match=why):
        check_length(ins, split_mnemonic(ins.mnemonic)[1])


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, "gfx942")


def test_literal_dwords_that_print_as_inline_constants_execute(mod):
    lst = mod["gfx942"].listing("literal_forms")
    texts = {(i.text, len(i.words)) for i in lst}
    # LLVM 19 prints these two-dword encodings like inline constants; LLVM 22 marks the
    # literal dword as ``lit(...)`` (AMDGPUInstPrinter). Either way the decoder must execute
    # the literal value, not the inline constant the text resembles.
    assert ({("s_addc_u32 s7, s7, -1", 2), ("v_mov_b32_e32 v1, 1", 2)} <= texts
            or {("s_addc_u32 s7, s7, lit(0xffffffff)", 2), ("v_mov_b32_e32 v1, lit(0x1)", 2)}
            <= texts), texts
    x = np.arange(64, dtype=np.int32) * 7 - 100
    out = np.zeros(128, np.int32)
    Kernel(mod, "literal_forms", device="emulator")[1, 64](x, out, 12345)
    np.testing.assert_array_equal(out[0::2], 12344)  # k + 0xffffffff + carry 0 = k - 1
    np.testing.assert_array_equal(out[1::2], x + 1)


def test_cndmask_with_abs_and_neg_sources(mod):
    """VOP3 input modifiers on v_cndmask_b32_e64 act on bit 31 of the selected value (LLVM
    folds fabs/fneg into its operands, SIFoldOperands; CDNA3 ISA "Input modifiers"): bit-exact
    for NaN payloads and signed zeros too."""
    assert any("|" in i.text for i in mod["gfx942"].listing("abs_select")
               if i.mnemonic == "v_cndmask_b32_e64")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(64).astype(np.float32) * 2
    b = rng.standard_normal(64).astype(np.float32)
    a[:4] = [-0.0, np.float32(-np.nan), -np.inf, -1e-40]
    b[:4] = [1.0, 0.0, 1.0, 1.0]
    o = np.zeros(128, np.float32)
    Kernel(mod, "abs_select", device="emulator")[1, 64](a, b, o)
    ab = a.view(np.uint32)
    want0 = np.where(a < b, ab & 0x7FFFFFFF, b.view(np.uint32))
    want1 = np.where(np.abs(a) < 1, ab ^ 0x80000000, ab)
    np.testing.assert_array_equal(o[:64].view(np.uint32), want0.astype(np.uint32))
    np.testing.assert_array_equal(o[64:].view(np.uint32), want1.astype(np.uint32))


def test_lit_operands_are_literal_dwords():
    """``lit(...)`` (LLVM 22 printer) is the literal dword even where the value is also an
    inline constant: on a 64-bit float operand a literal supplies the high 32 bits (CDNA3 ISA
    "Literal constants"), an inline 1 would be the integer 1."""
    from workbench.emu.decoder.operands import OperandError, imm_bits, parse_operand

    lit, inl = parse_operand("lit(0x1)"), parse_operand("1")
    assert lit.literal and not inl.literal
    assert imm_bits(lit, 32, False) == imm_bits(inl, 32, False) == 1
    assert imm_bits(lit, 64, True) == 1 << 32 and imm_bits(inl, 64, True) == 1
    assert imm_bits(parse_operand("lit(0xffffffff)"), 32, False) == 0xFFFFFFFF
    assert imm_bits(parse_operand("lit(0xffffffff)"), 64, False) == 0xFFFFFFFF
    assert imm_bits(parse_operand("-1"), 64, False) == (1 << 64) - 1
    with pytest.raises(OperandError, match="lit"):
        parse_operand("lit(v1)")
