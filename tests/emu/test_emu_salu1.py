"""The one-wave SALU path (workbench.emu.semantics.scalar.salu1, Python ints) agrees with the numpy
path of scalar.salu on every op it covers, for random and edge operands, SGPR pairs, inline
constants and
literals: each op runs once on a group of 4 waves (numpy) and once per wave alone (ints)."""
from __future__ import annotations

import zlib
from types import SimpleNamespace

import numpy as np
import pytest

from workbench.emu.decoder.operands import parse_operand, split_operands
from workbench.emu.decoder.registry import Decoded, as_exec, lookup
from workbench.emu.engine.decode import ProgramInfo
from workbench.emu.machine.state import EXEC, Group, State
from workbench.emu.semantics import families  # noqa: F401  (registers every family)
from workbench.emu.semantics.scalar import salu1

EDGE = [0, 1, 2, 31, 32, 63, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE]
W = 4


def _decoded(text: str) -> Decoded:
    mnemonic, _, rest = text.partition(" ")
    pos, mods = split_operands(tuple(x.strip() for x in rest.split(",")) if rest else ())
    ins = SimpleNamespace(addr=0x100, mnemonic=mnemonic, text=text, words=(0,),
                          source_line=None, operands=())
    return Decoded(ins, mnemonic, mnemonic, "", [parse_operand(p) for p in pos], mods,
                   ProgramInfo("t", 1, 0))


def _state(rng) -> State:
    st = State(W, 1, 0, 1, 0, 0)
    st.S[:] = rng.choice(EDGE + list(rng.integers(0, 2**32, 8)), size=st.S.shape).astype(
        np.uint32)
    st.SCC[:] = rng.integers(0, 2, W).astype(bool)
    st.sync_exec(slice(0, W))
    return st


def _check(text: str, rng) -> None:
    d = _decoded(text)
    run = as_exec(lookup(d.base)(d)).run
    for _ in range(6):
        st = _state(rng)
        ref = State(W, 1, 0, 1, 0, 0)
        ref.S[:], ref.SCC[:] = st.S, st.SCC
        ref.sync_exec(slice(0, W))
        run(ref, Group(0, np.arange(W)))  # numpy path
        for w in range(W):
            run(st, Group(0, np.array([w])))  # one-wave path
        np.testing.assert_array_equal(st.S, ref.S, err_msg=text)
        np.testing.assert_array_equal(st.SCC, ref.SCC, err_msg=text)
        np.testing.assert_array_equal(st.EM, ref.EM, err_msg=text)


def _sop2_cases():
    for name, (b64, _fn) in salu1.SOP2.items():
        d, a = ("s[6:7]", "s[0:1]") if b64 else ("s6", "s0")
        bs = ["s2"] if name in salu1._SRC1_32 else (["s[2:3]"] if b64 else ["s2"])
        for b in [*bs, "-3", "0x1234"]:
            yield f"{name} {d}, {a}, {b}"
    yield "s_and_b64 exec, exec, s[0:1]"
    yield "s_andn2_b64 exec, exec, s[4:5]"
    yield "s_or_b32 exec_lo, exec_lo, s3"


@pytest.mark.parametrize("text", list(_sop2_cases()))
def test_sop2_one_wave_matches_numpy(text):
    _check(text, np.random.default_rng(zlib.crc32(text.encode())))


@pytest.mark.parametrize("text", [
    *(f"s_cmp_{r}_{t} s0, s1" for r in ("eq", "lg", "gt", "ge", "lt", "le")
      for t in ("i32", "u32")),
    "s_cmp_eq_u64 s[0:1], s[2:3]", "s_cmp_lg_u64 s[0:1], 0",
    *(f"s_cmpk_{r}_{t} s0, 0x{k:x}" for r in ("eq", "lt", "gt") for t in ("i32", "u32")
      for k in (5, 0x8001)),
    "s_movk_i32 s4, 0x8000", "s_addk_i32 s4, 0x7fff", "s_addk_i32 s4, 0xffff",
    "s_mov_b32 s4, s0", "s_mov_b64 s[4:5], s[0:1]", "s_mov_b64 exec, s[0:1]",
    "s_mov_b32 s4, -16", "s_mov_b64 s[4:5], -1", "s_not_b32 s4, s0", "s_not_b64 s[4:5], s[0:1]",
    "s_and_saveexec_b64 s[4:5], s[0:1]", "s_or_saveexec_b64 s[4:5], s[0:1]",
    "s_andn2_saveexec_b64 s[4:5], s[0:1]", "s_xor_saveexec_b64 s[4:5], vcc",
    "s_andn1_wrexec_b64 s[4:5], s[0:1]", "s_andn2_wrexec_b64 s[4:5], s[0:1]",
])
def test_other_salu_one_wave_matches_numpy(text):
    _check(text, np.random.default_rng(zlib.crc32(text.encode())))


def test_one_wave_path_is_used():
    assert salu1.sop2(_decoded("s_add_u32 s0, s1, s2")) is not None
    assert salu1.sop2(_decoded("s_add_u32 s0, src_scc, s2")) is None  # keeps the numpy path
    assert EXEC == 126
