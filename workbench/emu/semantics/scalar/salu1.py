"""One-wave SALU: the hot scalar ops on Python ints, for groups of a single wave.

Why: a scalar op of one wave is one value; as a ``[1]`` numpy array it costs ten or more numpy
calls (reads, widening, SCC, masked writes), as Python ints a few hundred nanoseconds. Single-
wave kernels, and waves split off by divergence, spend most of their SALU time here. The
semantics are the tables of ``scalar.salu`` (CDNA3 ISA guide, "Scalar ALU operations") written
for unbounded ints: every result is masked to its width, signed ops sign-convert explicitly;
tests/emu/test_emu_salu1.py runs every entry against the numpy path on random operands.
Ops not listed here (and operands such as src_scc) keep the numpy path.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...decoder.operands import imm_bits
from ...machine.state import EXEC

M = 0xFFFFFFFF
M64 = (1 << 64) - 1


def _s32(x: int) -> int:
    return x - (1 << 32) if x & 0x80000000 else x


def _nz(r: int) -> tuple[int, bool]:
    return r, r != 0


def _addi(a: int, b: int) -> tuple[int, bool]:
    s = _s32(a) + _s32(b)
    return s & M, not -(1 << 31) <= s < (1 << 31)


def _subi(a: int, b: int) -> tuple[int, bool]:
    s = _s32(a) - _s32(b)
    return s & M, not -(1 << 31) <= s < (1 << 31)


# name: (64-bit operands?, fn(a, b, scc) -> (result, scc or None)); shift amounts are 32-bit
SOP2: dict[str, tuple[bool, Callable[[int, int, bool], tuple[int, Any]]]] = {
    "s_add_u32": (False, lambda a, b, c: ((a + b) & M, a + b > M)),
    "s_sub_u32": (False, lambda a, b, c: ((a - b) & M, b > a)),
    "s_addc_u32": (False, lambda a, b, c: ((a + b + c) & M, a + b + c > M)),
    "s_subb_u32": (False, lambda a, b, c: ((a - b - c) & M, b + c > a)),
    "s_add_i32": (False, lambda a, b, c: _addi(a, b)),
    "s_sub_i32": (False, lambda a, b, c: _subi(a, b)),
    "s_min_i32": (False, lambda a, b, c: (min(_s32(a), _s32(b)) & M, _s32(a) < _s32(b))),
    "s_min_u32": (False, lambda a, b, c: (min(a, b), a < b)),
    "s_max_i32": (False, lambda a, b, c: (max(_s32(a), _s32(b)) & M, _s32(a) > _s32(b))),
    "s_max_u32": (False, lambda a, b, c: (max(a, b), a > b)),
    "s_cselect_b32": (False, lambda a, b, c: (a if c else b, None)),
    "s_cselect_b64": (True, lambda a, b, c: (a if c else b, None)),
    "s_and_b32": (False, lambda a, b, c: _nz(a & b)),
    "s_and_b64": (True, lambda a, b, c: _nz(a & b)),
    "s_or_b32": (False, lambda a, b, c: _nz(a | b)),
    "s_or_b64": (True, lambda a, b, c: _nz(a | b)),
    "s_xor_b32": (False, lambda a, b, c: _nz(a ^ b)),
    "s_xor_b64": (True, lambda a, b, c: _nz(a ^ b)),
    "s_andn2_b32": (False, lambda a, b, c: _nz(a & ~b & M)),
    "s_andn2_b64": (True, lambda a, b, c: _nz(a & ~b & M64)),
    "s_orn2_b32": (False, lambda a, b, c: _nz((a | ~b) & M)),
    "s_orn2_b64": (True, lambda a, b, c: _nz((a | ~b) & M64)),
    "s_lshl_b32": (False, lambda a, b, c: _nz((a << (b & 31)) & M)),
    "s_lshl_b64": (True, lambda a, b, c: _nz((a << (b & 63)) & M64)),
    "s_lshr_b32": (False, lambda a, b, c: _nz(a >> (b & 31))),
    "s_lshr_b64": (True, lambda a, b, c: _nz(a >> (b & 63))),
    "s_ashr_i32": (False, lambda a, b, c: _nz((_s32(a) >> (b & 31)) & M)),
    "s_mul_i32": (False, lambda a, b, c: ((_s32(a) * _s32(b)) & M, None)),
    "s_mul_hi_u32": (False, lambda a, b, c: ((a * b) >> 32, None)),
    "s_lshl1_add_u32": (False, lambda a, b, c: (((a << 1) + b) & M, (a << 1) + b > M)),
    "s_lshl2_add_u32": (False, lambda a, b, c: (((a << 2) + b) & M, (a << 2) + b > M)),
    "s_lshl3_add_u32": (False, lambda a, b, c: (((a << 3) + b) & M, (a << 3) + b > M)),
    "s_lshl4_add_u32": (False, lambda a, b, c: (((a << 4) + b) & M, (a << 4) + b > M)),
}
_SCC_IN = {"s_addc_u32", "s_subb_u32", "s_cselect_b32", "s_cselect_b64"}
_SRC1_32 = {"s_lshl_b64", "s_lshr_b64"}

SOP1: dict[str, tuple[bool, Callable[[int], tuple[int, Any]]]] = {
    "s_mov_b32": (False, lambda a: (a, None)),
    "s_mov_b64": (True, lambda a: (a, None)),
    "s_not_b32": (False, lambda a: _nz(~a & M)),
    "s_not_b64": (True, lambda a: _nz(~a & M64)),
}

_CMP: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
}

SAVEEXEC: dict[str, Callable[[int, int], int]] = {
    "s_and_saveexec_b64": lambda s, e: s & e,
    "s_or_saveexec_b64": lambda s, e: s | e,
    "s_xor_saveexec_b64": lambda s, e: s ^ e,
    "s_andn2_saveexec_b64": lambda s, e: s & ~e & M64,
    "s_orn2_saveexec_b64": lambda s, e: (s | ~e) & M64,
    "s_nand_saveexec_b64": lambda s, e: ~(s & e) & M64,
    "s_nor_saveexec_b64": lambda s, e: ~(s | e) & M64,
    "s_xnor_saveexec_b64": lambda s, e: ~(s ^ e) & M64,
    "s_andn1_saveexec_b64": lambda s, e: ~s & e,
    "s_orn1_saveexec_b64": lambda s, e: (~s | e) & M64,
}
WREXEC: dict[str, Callable[[int, int], int]] = {
    "s_andn1_wrexec_b64": lambda s, e: ~s & e,
    "s_andn2_wrexec_b64": lambda s, e: s & ~e & M64,
}


# ---- operand access ---------------------------------------------------------------------------
def reader(op: Any, b64: bool) -> Callable | None:
    """``f(S, j) -> int`` for an SGPR (pair) or constant operand of wave ``j``; None for the
    operands the numpy path keeps (src_scc, execz, ...)."""
    if op.kind == "s":
        i = op.idx
        if b64:
            return lambda S, j: S.item(i, j) | (S.item(i + 1, j) << 32)
        return lambda S, j: S.item(i, j)
    if op.kind in ("imm", "fimm", "const"):
        c = imm_bits(op, 64, False) if b64 else imm_bits(op, 32, False)
        return lambda S, j: c
    return None


def writer(op: Any, b64: bool) -> Callable | None:
    """``f(st, g, j, value)`` writing an SGPR (pair) of wave ``j`` (EXEC kept in sync)."""
    if op.kind != "s":
        return None
    i = op.idx
    touches_exec = i in (EXEC, EXEC + 1) or (b64 and i + 1 == EXEC)
    if b64 and i == EXEC:
        return lambda st, g, j, v: st.set_exec_int(j, v & M64)
    if b64:
        def w64(st, g, j, v):
            S = st.S
            S[i, j] = v & M
            S[i + 1, j] = (v >> 32) & M
            if touches_exec:
                st.sync_exec(g.ix)
        return w64

    def w32(st, g, j, v):
        st.S[i, j] = v & M
        if touches_exec:
            st.sync_exec(g.ix)
    return w32


# ---- one-wave runners -------------------------------------------------------------------------
def sop2(d: Any) -> Callable | None:
    hit = SOP2.get(d.base)
    if hit is None or d.mods:
        return None
    b64, fn = hit
    dst, a, b = d.ops
    ra, rb, w = reader(a, b64), reader(b, b64 and d.base not in _SRC1_32), writer(dst, b64)
    if ra is None or rb is None or w is None:
        return None
    scc_in = d.base in _SCC_IN

    def run(st, g):
        j = g.ix.start
        S = st.S
        res, scc = fn(ra(S, j), rb(S, j), st.SCC.item(j) if scc_in else False)
        w(st, g, j, res)
        if scc is not None:
            st.SCC[j] = scc
    return run


def sop1(d: Any) -> Callable | None:
    hit = SOP1.get(d.base)
    if hit is None or d.mods:
        return None
    b64, fn = hit
    dst, a = d.ops
    ra, w = reader(a, b64), writer(dst, b64)
    if ra is None or w is None:
        return None

    def run(st, g):
        j = g.ix.start
        res, scc = fn(ra(st.S, j))
        w(st, g, j, res)
        if scc is not None:
            st.SCC[j] = scc
    return run


def sopc(d: Any, signed: bool, b64: bool, rel: str) -> Callable | None:
    """s_cmp_<rel>_{i32,u32,u64}: SCC = a <rel> b."""
    if d.mods:
        return None
    a, b = d.ops
    ra, rb = reader(a, b64), reader(b, b64)
    if ra is None or rb is None:
        return None
    f = _CMP[rel]
    if signed:
        def run_s(st, g):
            j = g.ix.start
            st.SCC[j] = f(_s32(ra(st.S, j)), _s32(rb(st.S, j)))
        return run_s

    def run(st, g):
        j = g.ix.start
        st.SCC[j] = f(ra(st.S, j), rb(st.S, j))
    return run


def sopk(d: Any, imm: int) -> Callable | None:
    """s_movk_i32, s_addk_i32, s_cmpk_<rel>_{i32,u32} (``imm``: the sign/zero-extended K)."""
    base = d.base
    if base == "s_movk_i32":
        w = writer(d.ops[0], False)
        if w is None:
            return None
        v = imm & M
        return lambda st, g: w(st, g, g.ix.start, v)
    if base == "s_addk_i32":
        r, w = reader(d.ops[0], False), writer(d.ops[0], False)
        if r is None or w is None:
            return None

        def addk(st, g):
            j = g.ix.start
            res, ovf = _addi(r(st.S, j), imm & M)
            w(st, g, j, res)
            st.SCC[j] = ovf
        return addk
    if base.startswith("s_cmpk_"):
        rel, t = base[len("s_cmpk_"):].split("_")
        r = reader(d.ops[0], False)
        if r is None:
            return None
        f = _CMP[rel]
        if t == "i32":
            return lambda st, g: st.SCC.__setitem__(g.ix.start, f(_s32(r(st.S, g.ix.start)),
                                                                  imm))
        return lambda st, g: st.SCC.__setitem__(g.ix.start, f(r(st.S, g.ix.start), imm))
    return None


def saveexec(d: Any) -> Callable | None:
    """s_*_saveexec_b64 / s_*_wrexec_b64 of one wave."""
    f = SAVEEXEC.get(d.base) or WREXEC.get(d.base)
    wr = d.base in WREXEC
    dst, a = d.ops
    ra, w = reader(a, True), writer(dst, True)
    if f is None or ra is None or w is None or d.mods:
        return None

    def run(st, g):
        j = g.ix.start
        S = st.S
        old = S.item(EXEC, j) | (S.item(EXEC + 1, j) << 32)
        new = f(ra(S, j), old)
        st.set_exec_int(j, new)
        w(st, g, j, new if wr else old)
        st.SCC[j] = new != 0
    return run
