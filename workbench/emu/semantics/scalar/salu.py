"""SALU: SOP1, SOP2, SOPC, SOPK — one value per wave, ``[w]`` arrays over a group.

Semantics and SCC rules from the AMD CDNA3 ISA guide, chapter "Scalar ALU operations"
(per-opcode descriptions); 64-bit operands are computed as uint64.
"""
from __future__ import annotations

import numpy as np

from ...decoder.common import need_no_mods
from ...decoder.operands import sread32, sread64
from ...decoder.registry import INDIRECT, Decoded, Exec, semantic
from ...errors import UnknownInstruction
from ...machine.memory import CODE_BASE
from ...machine.state import EXEC
from . import salu1

U32, I32, U64, I64 = np.uint32, np.int32, np.uint64, np.int64
M32 = U64(0xFFFFFFFF)


def _w(st, g, op, val, b64: bool) -> None:
    """Write a scalar result (uint32 or uint64 [w] / scalar) to operand ``op``."""
    if op.kind != "s":
        raise ValueError(f"scalar destination {op.text} is not an SGPR")
    v = np.broadcast_to(val, (g.w,))
    if b64:
        v = v.astype(U64)
        st.S[op.idx, g.ix] = (v & M32).astype(U32)
        st.S[op.idx + 1, g.ix] = (v >> U64(32)).astype(U32)
        if op.idx == EXEC:
            st.sync_exec(g.ix)
    else:
        st.swrite(op.idx, g, v.astype(U32))


def _rd(op, b64, isf=False):
    return sread64(op, isf) if b64 else sread32(op, 0, 32, isf)


def _scc(st, g, cond) -> None:
    st.SCC[g.ix] = np.broadcast_to(cond, (g.w,))


def _result(st, g, dst, res, scc, b64: bool) -> None:
    """Write an ALU result to ``dst``, and SCC when the op sets it (``scc`` not None)."""
    _w(st, g, dst, _u(res) if not b64 else res, b64)
    if scc is not None:
        _scc(st, g, scc)


# ---- SOP2 -------------------------------------------------------------------------------------
def _u(x):
    return np.asarray(x).astype(U64)


def _i(x):
    return np.asarray(x).astype(U32).view(I32).astype(I64) if np.asarray(x).dtype != I64 else x


SOP2 = {
    # name: (64-bit?, fn(a, b, scc) -> (result, scc or None))
    "s_add_u32": (False, lambda a, b, c: (_u(a) + _u(b), (_u(a) + _u(b)) > M32)),
    "s_sub_u32": (False, lambda a, b, c: (_u(a) - _u(b), _u(b) > _u(a))),
    "s_addc_u32": (False, lambda a, b, c: (_u(a) + _u(b) + _u(c), (_u(a) + _u(b) + _u(c)) > M32)),
    "s_subb_u32": (False, lambda a, b, c: (_u(a) - _u(b) - _u(c), (_u(b) + _u(c)) > _u(a))),
    "s_add_i32": (False, lambda a, b, c: _addi(_i(a), _i(b))),
    "s_sub_i32": (False, lambda a, b, c: _addi(_i(a), -_i(b))),
    "s_min_i32": (False, lambda a, b, c: (np.minimum(_i(a), _i(b)), _i(a) < _i(b))),
    "s_min_u32": (False, lambda a, b, c: (np.minimum(_u(a), _u(b)), _u(a) < _u(b))),
    "s_max_i32": (False, lambda a, b, c: (np.maximum(_i(a), _i(b)), _i(a) > _i(b))),
    "s_max_u32": (False, lambda a, b, c: (np.maximum(_u(a), _u(b)), _u(a) > _u(b))),
    "s_cselect_b32": (False, lambda a, b, c: (np.where(c, a, b), None)),
    "s_cselect_b64": (True, lambda a, b, c: (np.where(c, a, b), None)),
    "s_and_b32": (False, lambda a, b, c: _nz(_u(a) & _u(b))),
    "s_and_b64": (True, lambda a, b, c: _nz(_u(a) & _u(b))),
    "s_or_b32": (False, lambda a, b, c: _nz(_u(a) | _u(b))),
    "s_or_b64": (True, lambda a, b, c: _nz(_u(a) | _u(b))),
    "s_xor_b32": (False, lambda a, b, c: _nz(_u(a) ^ _u(b))),
    "s_xor_b64": (True, lambda a, b, c: _nz(_u(a) ^ _u(b))),
    "s_andn2_b32": (False, lambda a, b, c: _nz(_u(a) & ~_u(b) & M32)),
    "s_andn2_b64": (True, lambda a, b, c: _nz(_u(a) & ~_u(b))),
    "s_orn2_b32": (False, lambda a, b, c: _nz((_u(a) | ~_u(b)) & M32)),
    "s_orn2_b64": (True, lambda a, b, c: _nz(_u(a) | ~_u(b))),
    "s_nand_b32": (False, lambda a, b, c: _nz(~(_u(a) & _u(b)) & M32)),
    "s_nand_b64": (True, lambda a, b, c: _nz(~(_u(a) & _u(b)))),
    "s_nor_b32": (False, lambda a, b, c: _nz(~(_u(a) | _u(b)) & M32)),
    "s_nor_b64": (True, lambda a, b, c: _nz(~(_u(a) | _u(b)))),
    "s_xnor_b32": (False, lambda a, b, c: _nz(~(_u(a) ^ _u(b)) & M32)),
    "s_xnor_b64": (True, lambda a, b, c: _nz(~(_u(a) ^ _u(b)))),
    "s_lshl_b32": (False, lambda a, b, c: _nz((_u(a) << (_u(b) & U64(31))) & M32)),
    "s_lshl_b64": (True, lambda a, b, c: _nz(_u(a) << (_u(b) & U64(63)))),
    "s_lshr_b32": (False, lambda a, b, c: _nz(_u(a) >> (_u(b) & U64(31)))),
    "s_lshr_b64": (True, lambda a, b, c: _nz(_u(a) >> (_u(b) & U64(63)))),
    "s_ashr_i32": (False, lambda a, b, c: _nz(_i(a) >> (_i(b) & 31))),
    "s_ashr_i64": (True, lambda a, b, c: _nz(_u(a).view(I64) >> (_i(b) & 63))),
    "s_bfm_b32": (False, lambda a, b, c: (((U64(1) << (_u(a) & U64(31))) - U64(1))
                                          << (_u(b) & U64(31)), None)),
    "s_bfm_b64": (True, lambda a, b, c: (((U64(1) << (_u(a) & U64(63))) - U64(1))
                                         << (_u(b) & U64(63)), None)),
    "s_mul_i32": (False, lambda a, b, c: (_i(a) * _i(b), None)),
    "s_mul_hi_u32": (False, lambda a, b, c: ((_u(a) * _u(b)) >> U64(32), None)),
    "s_mul_hi_i32": (False, lambda a, b, c: ((_i(a) * _i(b)) >> 32, None)),
    "s_bfe_u32": (False, lambda a, b, c: _nz(_bfe(_u(a), _u(b), False, 32))),
    "s_bfe_i32": (False, lambda a, b, c: _nz(_bfe(_u(a), _u(b), True, 32))),
    "s_bfe_u64": (True, lambda a, b, c: _nz(_bfe(_u(a), _u(b), False, 64))),
    "s_bfe_i64": (True, lambda a, b, c: _nz(_bfe(_u(a), _u(b), True, 64))),
    "s_absdiff_i32": (False, lambda a, b, c: _nz(np.abs(_i(a) - _i(b)))),
    "s_lshl1_add_u32": (False, lambda a, b, c: _lsa(a, b, 1)),
    "s_lshl2_add_u32": (False, lambda a, b, c: _lsa(a, b, 2)),
    "s_lshl3_add_u32": (False, lambda a, b, c: _lsa(a, b, 3)),
    "s_lshl4_add_u32": (False, lambda a, b, c: _lsa(a, b, 4)),
    "s_pack_ll_b32_b16": (False, lambda a, b, c: ((_u(a) & U64(0xFFFF))
                                                  | ((_u(b) & U64(0xFFFF)) << U64(16)), None)),
    "s_pack_lh_b32_b16": (False, lambda a, b, c: ((_u(a) & U64(0xFFFF))
                                                  | (_u(b) & U64(0xFFFF0000)), None)),
    "s_pack_hh_b32_b16": (False, lambda a, b, c: ((_u(a) >> U64(16))
                                                  | (_u(b) & U64(0xFFFF0000)), None)),
}
# shift amounts and bfe fields are 32-bit sources even for 64-bit ops
_SRC1_32 = {"s_lshl_b64", "s_lshr_b64", "s_ashr_i64", "s_bfm_b64", "s_bfe_u64", "s_bfe_i64"}
_SRC0_32 = {"s_bfm_b64"}


def _nz(r):
    return r, np.asarray(r) != 0


def _addi(a, b):
    s = a + b
    return s, (s > 2147483647) | (s < -2147483648)


def _lsa(a, b, n):
    s = (_u(a) << U64(n)) + _u(b)
    return s, s > M32


def _bfe(a, b, signed, bits):
    """S_BFE: offset = S1[5:0] (64-bit) / [4:0], width = S1[22:16] (CDNA3 ISA S_BFE_U32).

    The signed forms shift S0 arithmetically before masking (ISA pseudo-code
    `(S0.i32 >> S1[4:0].u32) & ...`; LLVM's constantFoldBFE gives `Src0 >> Offset` with a
    signed Src0 when offset + width reaches the top bit), so a field running past bit 31/63
    takes the sign of S0."""
    off = b & U64(bits - 1)
    w = (b >> U64(16)) & U64(0x7F)
    w = np.minimum(w, U64(bits))
    if signed:
        sa = a.astype(np.int64) if bits == 64 else (a & M32).astype(np.uint32).view(np.int32)
        v = (sa.astype(np.int64) >> off.astype(np.int64)).astype(U64)
    else:
        v = a >> off
    m = np.where(w >= U64(64), ~U64(0), (U64(1) << (w & U64(63))) - U64(1))
    v = v & m
    if bits == 32:
        v &= M32
    if signed:
        sb = np.where(w > 0, (v >> np.maximum(w, U64(1)) - U64(1)) & U64(1), U64(0))
        ext = np.where(sb == 1, ~m, U64(0))
        v = v | ext
        if bits == 32:
            v &= M32
    return v


def _build_sop2(d: Decoded):
    b64, fn = SOP2[d.base]
    need_no_mods(d, set())
    dst, a, b = d.ops
    ra = _rd(a, b64 and d.base not in _SRC0_32)
    rb = _rd(b, b64 and d.base not in _SRC1_32)
    one = salu1.sop2(d)

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        res, scc = fn(ra(st, g), rb(st, g), st.SCC[g.ix])
        _result(st, g, dst, res, scc, b64)
    return run


for _n in SOP2:
    semantic(_n)(_build_sop2)


# ---- SOPC -------------------------------------------------------------------------------------
_CMP = {"eq": np.equal, "lg": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
        "lt": np.less, "le": np.less_equal}
SOPC = {}
for _c, _f in _CMP.items():
    SOPC[f"s_cmp_{_c}_i32"] = ("i32", _f)
    SOPC[f"s_cmp_{_c}_u32"] = ("u32", _f)
SOPC["s_cmp_eq_u64"] = ("u64", np.equal)
SOPC["s_cmp_lg_u64"] = ("u64", np.not_equal)


@semantic(*SOPC)
def _build_sopc(d: Decoded):
    t, f = SOPC[d.base]
    need_no_mods(d, set())
    a, b = d.ops
    ra, rb = _rd(a, t == "u64"), _rd(b, t == "u64")
    conv = _i if t == "i32" else _u
    one = salu1.sopc(d, t == "i32", t == "u64", d.base.split("_")[2])

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        _scc(st, g, f(conv(ra(st, g)), conv(rb(st, g))))
    return run


@semantic("s_bitcmp0_b32", "s_bitcmp1_b32", "s_bitcmp0_b64", "s_bitcmp1_b64")
def _build_bitcmp(d: Decoded):
    b64 = d.base.endswith("64")
    want = 1 if "bitcmp1" in d.base else 0
    a, b = d.ops
    ra, rb = _rd(a, b64), _rd(b, False)
    m = U64(63 if b64 else 31)
    return lambda st, g: _scc(st, g, ((_u(ra(st, g)) >> (_u(rb(st, g)) & m)) & U64(1)) == want)


# ---- SOPK -------------------------------------------------------------------------------------
def _simm16(op) -> int:
    v = int(op.value) & 0xFFFF
    return v - 0x10000 if v & 0x8000 else v


@semantic("s_movk_i32", "s_cmovk_i32", "s_addk_i32", "s_mulk_i32")
def _build_sopk(d: Decoded):
    dst, k = d.ops
    imm = _simm16(k)
    rd = sread32(dst)
    base = d.base
    one = salu1.sopk(d, imm)

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        if base == "s_movk_i32":
            _w(st, g, dst, U32(imm & 0xFFFFFFFF), False)
        elif base == "s_cmovk_i32":
            cur = np.broadcast_to(rd(st, g), (g.w,))
            _w(st, g, dst, np.where(st.SCC[g.ix], U32(imm & 0xFFFFFFFF), cur), False)
        elif base == "s_addk_i32":
            r, ovf = _addi(_i(rd(st, g)), I64(imm))
            _w(st, g, dst, r, False)
            _scc(st, g, ovf)
        else:
            _w(st, g, dst, _i(rd(st, g)) * I64(imm), False)
    return run


SOPK_CMP = {}
for _c, _f in _CMP.items():
    SOPK_CMP[f"s_cmpk_{_c}_i32"] = ("i32", _f)
    SOPK_CMP[f"s_cmpk_{_c}_u32"] = ("u32", _f)


@semantic(*SOPK_CMP)
def _build_cmpk(d: Decoded):
    t, f = SOPK_CMP[d.base]
    a, k = d.ops
    imm = _simm16(k) if t == "i32" else int(k.value) & 0xFFFF
    ra = sread32(a)
    conv = _i if t == "i32" else _u
    one = salu1.sopk(d, imm)

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        _scc(st, g, f(conv(ra(st, g)), imm))
    return run


# ---- SOP1 -------------------------------------------------------------------------------------
def _popc64(x):
    return np.bitwise_count(_u(x)).astype(I64)


def _ff1(x, bits):
    x = _u(x)
    low = x & (~x + U64(1))
    r = np.where(x == 0, -1, np.log2(np.maximum(low, U64(1)).astype(np.float64)).astype(I64))
    return r


def _flbit(x, bits):
    x = _u(x)
    if bits == 32:
        x = x & M32
    nz = x != 0
    hb = np.where(nz, np.floor(np.log2(np.maximum(x, U64(1)).astype(np.float64))), 0)
    # log2 in float64 is exact for the leading-bit position only below 2^53; fix up above
    hb = hb.astype(I64)
    hb = np.where((U64(1) << hb.astype(U64)) > x, hb - 1, hb)
    hb = np.where(nz & (hb < 63) & ((U64(1) << (hb + 1).astype(U64)) <= x), hb + 1, hb)
    return np.where(nz, bits - 1 - hb, -1)


def _flbit_signed(x, bits):
    """S_FLBIT_I32 / S_FLBIT_I32_I64 (CDNA3 ISA, SOP1 opcodes: "count how many bits in a row
    (from MSB to LSB) are the same as the sign bit", -1 when all are, i.e. for 0 and -1): the
    leading-zero count of x with every bit flipped when the sign bit is set."""
    m = M32 if bits == 32 else U64(0xFFFFFFFFFFFFFFFF)
    x = _u(x) & m
    neg = ((x >> U64(bits - 1)) & U64(1)) == U64(1)
    return _flbit(np.where(neg, ~x & m, x), bits)


SOP1 = {
    "s_mov_b32": (False, lambda a, c: (a, None)),
    "s_mov_b64": (True, lambda a, c: (a, None)),
    "s_not_b32": (False, lambda a, c: _nz(~_u(a) & M32)),
    "s_not_b64": (True, lambda a, c: _nz(~_u(a))),
    "s_brev_b32": (False, lambda a, c: (_brev32(a), None)),
    "s_bcnt0_i32_b32": (False, lambda a, c: _nz(32 - _popc64(_u(a) & M32))),
    "s_bcnt0_i32_b64": (True, lambda a, c: _nz(64 - _popc64(a))),
    "s_bcnt1_i32_b32": (False, lambda a, c: _nz(_popc64(_u(a) & M32))),
    "s_bcnt1_i32_b64": (True, lambda a, c: _nz(_popc64(a))),
    "s_ff1_i32_b32": (False, lambda a, c: (_ff1(_u(a) & M32, 32), None)),
    "s_ff1_i32_b64": (True, lambda a, c: (_ff1(a, 64), None)),
    "s_ff0_i32_b32": (False, lambda a, c: (_ff1(~_u(a) & M32, 32), None)),
    "s_ff0_i32_b64": (True, lambda a, c: (_ff1(~_u(a), 64), None)),
    "s_flbit_i32_b32": (False, lambda a, c: (_flbit(a, 32), None)),
    "s_flbit_i32_b64": (True, lambda a, c: (_flbit(a, 64), None)),
    "s_flbit_i32": (False, lambda a, c: (_flbit_signed(a, 32), None)),
    "s_flbit_i32_i64": (True, lambda a, c: (_flbit_signed(a, 64), None)),
    "s_sext_i32_i8": (False, lambda a, c: ((_u(a) & U64(0xFF)).astype(np.uint8).view(np.int8)
                                           .astype(I64), None)),
    "s_sext_i32_i16": (False, lambda a, c: ((_u(a) & U64(0xFFFF)).astype(np.uint16)
                                            .view(np.int16).astype(I64), None)),
    "s_abs_i32": (False, lambda a, c: _nz(np.abs(_i(a)))),
}
# 32-bit results of 64-bit-source ops
_RES32 = {"s_bcnt0_i32_b64", "s_bcnt1_i32_b64", "s_ff1_i32_b64", "s_ff0_i32_b64",
          "s_flbit_i32_b64", "s_flbit_i32_i64"}


def _brev32(a):
    x = (_u(a) & M32).astype(U32)
    b = np.unpackbits(x.reshape(-1, 1).view(np.uint8), axis=-1, bitorder="little")[:, ::-1]
    return np.packbits(b, axis=-1, bitorder="little").view(U32)[:, 0].reshape(np.shape(x))


@semantic("s_cmov_b32", "s_cmov_b64")
def _build_cmov(d: Decoded):
    b64 = d.base.endswith("64")
    dst, a = d.ops
    ra, rd = _rd(a, b64), _rd(dst, b64)

    def run(st, g):
        _w(st, g, dst, np.where(st.SCC[g.ix], ra(st, g), rd(st, g)), b64)
    return run


def _build_sop1(d: Decoded):
    b64, fn = SOP1[d.base]
    need_no_mods(d, set())
    dst, a = d.ops
    ra = _rd(a, b64)
    out64 = b64 and d.base not in _RES32
    one = salu1.sop1(d)

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        res, scc = fn(ra(st, g), None)
        _result(st, g, dst, res, scc, out64)
    return run


for _n in SOP1:
    semantic(_n)(_build_sop1)

# saveexec family: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0 (CDNA3 ISA S_AND_SAVEEXEC_B64)
SAVEEXEC = {
    "s_and_saveexec_b64": lambda s, e: s & e,
    "s_or_saveexec_b64": lambda s, e: s | e,
    "s_xor_saveexec_b64": lambda s, e: s ^ e,
    "s_andn2_saveexec_b64": lambda s, e: s & ~e,
    "s_orn2_saveexec_b64": lambda s, e: s | ~e,
    "s_nand_saveexec_b64": lambda s, e: ~(s & e),
    "s_nor_saveexec_b64": lambda s, e: ~(s | e),
    "s_xnor_saveexec_b64": lambda s, e: ~(s ^ e),
    "s_andn1_saveexec_b64": lambda s, e: ~s & e,
    "s_orn1_saveexec_b64": lambda s, e: ~s | e,
}
WREXEC = {  # EXEC = D = f(S0, EXEC)  (CDNA3 ISA S_ANDN1_WREXEC_B64)
    "s_andn1_wrexec_b64": lambda s, e: ~s & e,
    "s_andn2_wrexec_b64": lambda s, e: s & ~e,
}


@semantic(*SAVEEXEC, *WREXEC)
def _build_saveexec(d: Decoded):
    f = SAVEEXEC.get(d.base) or WREXEC[d.base]
    wr = d.base in WREXEC
    dst, a = d.ops
    ra = sread64(a)
    ex = sread64(_EXEC_OP)
    one = salu1.saveexec(d)

    def run(st, g):
        if one is not None and g.w == 1:
            return one(st, g)
        old = np.broadcast_to(ex(st, g), (g.w,)).copy()
        new = f(_u(ra(st, g)), old)
        _w(st, g, _EXEC_OP, new, True)
        _w(st, g, dst, new if wr else old, True)
        _scc(st, g, new != 0)
    return run


class _ExecOp:
    kind, idx, n, text = "s", EXEC, 2, "exec"


_EXEC_OP = _ExecOp()


# Program counters seen by the program are load addresses: the code object is mapped at
# memory.CODE_BASE (elfmap), so PC-relative data addressing (s_getpc_b64 + offset) reaches its
# .rodata/.data; jumps subtract the base again to find the instruction.
@semantic("s_getpc_b64")
def _build_getpc(d: Decoded):
    (dst,) = d.ops
    nxt = CODE_BASE + d.addr + 4 * len(d.inst.words)  # the next instruction (CDNA3 ISA)
    return lambda st, g: _w(st, g, dst, U64(nxt), True)


@semantic("s_setpc_b64", "s_swappc_b64")
def _build_setpc(d: Decoded):
    if d.base == "s_setpc_b64":
        (src,) = d.ops
        dst = None
    else:
        dst, src = d.ops
    rs = sread64(src)
    nxt = CODE_BASE + d.addr + 4 * len(d.inst.words)

    def run(st, g):
        tgt = (np.broadcast_to(rs(st, g), (g.w,)) - U64(CODE_BASE)).astype(I64)
        if dst is not None:
            _w(st, g, dst, U64(nxt), True)
        return tgt
    return Exec(run, INDIRECT)


@semantic("s_call_b64")
def _build_call(d: Decoded):
    dst, _k = d.ops
    simm = d.inst.words[0] & 0xFFFF
    simm = simm - 0x10000 if simm & 0x8000 else simm
    nxt = CODE_BASE + d.addr + 4 * len(d.inst.words)
    tgt = d.addr + 4 + 4 * simm

    def run(st, g):
        _w(st, g, dst, U64(nxt), True)
        return np.full(g.w, tgt, I64)
    return Exec(run, INDIRECT)


@semantic("s_bitset0_b32", "s_bitset1_b32", "s_bitset0_b64", "s_bitset1_b64")
def _build_bitset(d: Decoded):
    b64 = d.base.endswith("64")
    one = "bitset1" in d.base
    dst, a = d.ops
    ra, rd = _rd(a, False), _rd(dst, b64)
    m = U64(63 if b64 else 31)

    def run(st, g):
        bit = U64(1) << (_u(ra(st, g)) & m)
        cur = _u(rd(st, g))
        _w(st, g, dst, (cur | bit) if one else (cur & ~bit), b64)
    return run


def _unknown(d: Decoded, why: str):
    raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, why)
