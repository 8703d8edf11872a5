"""S_FLBIT_I32 / S_FLBIT_I32_I64 (signed leading-bit count) against the CDNA3 ISA pseudocode.

Why: Triton's AMD backend converts an int64 to float with them (a kernel adding a Python int
above 2**31 to a float: tests/triton_front/test_more_kernels.py); RDNA spells them
s_cls_i32 / s_cls_i32_i64. The ISA: "count how many bits in a row (from MSB to LSB) are the
same as the sign bit; return -1 if the input is zero or all 1's"; the result is 32-bit.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from workbench.emu.decoder.operands import parse_operand, split_operands
from workbench.emu.decoder.registry import Decoded, as_exec, lookup
from workbench.emu.engine.decode import ProgramInfo
from workbench.emu.machine.state import Group, State
from workbench.emu.semantics import families  # noqa: F401  (registers every family)

W = 4


def _pseudocode(x: int, bits: int) -> int:
    """The ISA's loop: the first i in 1..bits-1 whose bit (bits-1-i) differs from the sign."""
    sign = (x >> (bits - 1)) & 1
    for i in range(1, bits):
        if (x >> (bits - 1 - i)) & 1 != sign:
            return i
    return -1


def _run(text: str, values: list[int], b64: bool) -> list[int]:
    mnemonic, _, rest = text.partition(" ")
    pos, mods = split_operands(tuple(x.strip() for x in rest.split(",")))
    ins = SimpleNamespace(addr=0x100, mnemonic=mnemonic, text=text, words=(0,),
                          source_line=None, operands=())
    d = Decoded(ins, mnemonic, mnemonic, "", [parse_operand(p) for p in pos], mods,
                ProgramInfo("t", 1, 0))
    run = as_exec(lookup(d.base)(d)).run
    out = []
    for group in (np.arange(W), *(np.array([w]) for w in range(W))):  # numpy and one-wave
        st = State(W, 1, 0, 1, 0, 0)
        for w, v in enumerate(values):
            st.S[2, w], st.S[3, w] = v & 0xFFFFFFFF, (v >> 32) & 0xFFFFFFFF
        run(st, Group(0, group))
        out.append([int(st.S[6, w]) for w in group])
    whole, *single = out
    assert whole == [v for s in single for v in s], text
    return [r - (1 << 32) if r >> 31 else r for r in whole]


CASES32 = [0, 0xFFFFFFFF, 1, 0x7FFFFFFF, 0x80000000, 0x40000000, 0xC0000000, 0xFFFF0000,
           0x0000FFFF, 0xFFFFFFFE, 0xBFFFFFFF, 0x12345678, 0xF0000001]
CASES64 = [0, (1 << 64) - 1, 1, (1 << 63) - 1, 1 << 63, 1 << 40, -(1 << 40) & ((1 << 64) - 1),
           0x00000000FFFFFFFF, 0xFFFFFFFF00000000, 0x8000000000000001, 5 << 33, 2**40 + 7]


@pytest.mark.parametrize("chunk", range(0, len(CASES32), W))
def test_s_flbit_i32(chunk):
    vals = (CASES32[chunk:chunk + W] + [0] * W)[:W]
    assert _run("s_flbit_i32 s6, s2", vals, False) == [_pseudocode(v, 32) for v in vals]


@pytest.mark.parametrize("chunk", range(0, len(CASES64), W))
def test_s_flbit_i32_i64(chunk):
    vals = (CASES64[chunk:chunk + W] + [0] * W)[:W]
    assert _run("s_flbit_i32_i64 s6, s[2:3]", vals, True) == [_pseudocode(v, 64) for v in vals]


def test_spot_values():
    # 0x40000000: bit 30 is the first to differ from the (clear) sign bit -> 1; 0xC0000000 -> 2
    assert _run("s_flbit_i32 s6, s2", [0x40000000, 0xC0000000, 0, 0xFFFFFFFF], False) == \
        [1, 2, -1, -1]
    assert _run("s_flbit_i32_i64 s6, s[2:3]", [2**40, 1, 0, (1 << 64) - 1], True) == \
        [23, 63, -1, -1]
