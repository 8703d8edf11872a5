"""VALU machinery: the one table of VOP1/VOP2/VOP3 opcodes and the generic builder that runs
a row over all lanes of a group (with its DPP/SDWA forms and modifiers).

Why separate: the opcode rows live in small per-family modules (``valu.vint``, ``valu.vf32``,
``valu.vf64``, ``valu.vf16``, ``valu.vtrans``, ``valu.vcvt``, ``valu.vdiv``); each adds its rows to
``OPS`` through ``table(family)``, and this module turns any row into a handler.

Semantics follow the AMD "CDNA3 Instruction Set Architecture" guide (chapter "Vector ALU
operations" and the per-opcode descriptions). Every op is a row of ``OPS``: result type,
source types, a numpy function over typed arrays and an operand *form* (where carries and
masks sit in the operand list).

Modifiers: ``-x``/``|x|`` (float sources only), ``clamp`` (floats: [0, 1], NaN -> 0 under
DX10_CLAMP; integer add/sub: saturate), ``mul:2``/``mul:4``/``div:2`` (omod), ``op_sel`` for
16-bit VOP3 sources/dst, DPP (quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror, row_mirror,
row_half_mirror, row_bcast:15/31, row_mask, bank_mask, bound_ctrl — decoded from the DPP word),
SDWA (src*_sel, sext, dst_sel, dst_unused — decoded from the SDWA word). Anything else raises.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...decoder.common import T16, T64, from_typed, to_typed
from ...decoder.operands import Operand, imm_bits, row_of, vread32, vread64
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...machine.state import VCC
from ...numerics.floats import flush, flush_dst, flush_src

F32, F64, F16 = np.float32, np.float64, np.float16
U32, I32, U64 = np.uint32, np.int32, np.uint64


@dataclass
class Op:
    dst: str
    srcs: tuple
    fn: Callable
    form: str = "std"  # std | co | cin | cnd | vccin | acc  (see build_generic)
    sat: Callable | None = None  # int clamp variant (computes in int64, saturated by type)
    ieee: Callable | None = None  # variant under MODE.IEEE (gfx9..gfx11: sNaN inputs quieted)
    g12: Callable | None = None  # GFX12 variant (no IEEE mode; *_num_* min/max quiet NaN pairs)


OPS: dict[str, Op] = {}  # every VOP1/VOP2/VOP3 row, whichever family module added it


def table(family: str) -> Callable:
    """``op(names, dst, srcs, fn, form="std", sat=None, ieee=None, g12=None)`` that adds rows to
    ``OPS`` and registers them under ``family`` (the name the coverage report groups by)."""

    def op(names, dst, srcs, fn, form="std", sat=None, ieee=None, g12=None):
        for n in names.split():
            if n in OPS:
                raise ValueError(f"VALU op {n!r} defined twice")
            OPS[n] = Op(dst, tuple(srcs.split()), fn, form, sat, ieee, g12)
            semantic(n, family=family)(_build_valu)

    return op


# ---------------------------------------------------------------------------------------------
# DPP / SDWA decoding from the encoding word (CDNA3 ISA "VOP_DPP" / "VOP_SDWA" formats)
def dpp_lanes(ctrl: int, gen: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """(source lane per lane, source-in-range per lane) for a DPP_CTRL value of ISA generation
    ``gen`` (9: gfx9; 11/12: RDNA adds row_xmask)."""
    lane = np.arange(64)
    row, r16 = lane // 16, lane % 16
    valid = np.ones(64, bool)
    if ctrl <= 0xFF:  # quad_perm
        sel = [(ctrl >> (2 * i)) & 3 for i in range(4)]
        src = (lane & ~3) + np.array(sel)[lane & 3]
    elif 0x101 <= ctrl <= 0x10F:  # row_shl: lane reads lane + n within its row
        n = ctrl & 0xF
        src = lane + n
        valid = r16 + n < 16
    elif 0x111 <= ctrl <= 0x11F:  # row_shr: reads lane - n
        n = ctrl & 0xF
        src = lane - n
        valid = r16 - n >= 0
    elif 0x121 <= ctrl <= 0x12F:  # row_ror
        n = ctrl & 0xF
        src = row * 16 + (r16 - n) % 16
    elif ctrl == 0x130:  # wave_shl:1
        src, valid = lane + 1, lane < 63
    elif ctrl == 0x134:  # wave_rol:1
        src = (lane + 1) % 64
    elif ctrl == 0x138:  # wave_shr:1
        src, valid = lane - 1, lane > 0
    elif ctrl == 0x13C:  # wave_ror:1
        src = (lane - 1) % 64
    elif ctrl == 0x140:  # row_mirror
        src = row * 16 + 15 - r16
    elif ctrl == 0x141:  # row_half_mirror
        src = (lane & ~7) + 7 - (lane & 7)
    elif ctrl == 0x142:  # row_bcast:15 — lane 15 of each row feeds the next row
        src, valid = row * 16 - 1, row > 0
    elif ctrl == 0x143:  # row_bcast:31 — lane 31 feeds rows 2 and 3
        src, valid = np.full(64, 31), row >= 2
    elif 0x150 <= ctrl <= 0x15F:  # row_newbcast:n (gfx90a+) = GFX10+ row_share:n: lane n of
        src = row * 16 + (ctrl & 0xF)  # the row to the whole row (RDNA3 ISA DPP_ROW_SHARE)
    elif gen >= 10 and 0x160 <= ctrl <= 0x16F:  # GFX10+ row_xmask:n: lane reads lane ^ n
        src = row * 16 + (r16 ^ (ctrl & 0xF))  # within its row (RDNA3 ISA DPP_ROW_XMASK)
    else:
        raise ValueError(f"DPP control 0x{ctrl:x} is not defined on gfx9")
    src = np.where(valid, src, lane)
    return src.astype(np.int64), np.asarray(valid)


SDWA_SEL = {"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5,
            "DWORD": 6}


def sdwa_extract(x, sel: int, sext: bool):
    if sel == 6:
        return x
    if sel <= 3:
        v = (x >> U32(8 * sel)) & U32(0xFF)
        return ((v ^ U32(0x80)) - U32(0x80)) if sext else v
    v = (x >> U32(16 * (sel - 4))) & U32(0xFFFF)
    return ((v ^ U32(0x8000)) - U32(0x8000)) if sext else v


# ---------------------------------------------------------------------------------------------
def _float_t(t: str) -> bool:
    return t[0] == "f" or t == "bf16"


def build_generic(d: Decoded, o: Op):
    nv = d.kernel.n_vgpr
    ops = list(d.ops)
    enc = d.encoding
    mods = dict(d.mods)
    allowed = {"clamp", "mul", "div", "op_sel"}
    dpp = enc == "dpp"
    sdwa = enc == "sdwa"
    if dpp:
        allowed |= {"quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol",
                    "wave_shr", "wave_ror", "row_mirror", "row_half_mirror", "row_bcast",
                    "row_newbcast", "row_mask", "bank_mask", "bound_ctrl", "fi", "row_share",
                    "row_xmask", "dpp8"}
    if sdwa:
        allowed |= {"dst_sel", "dst_unused", "src0_sel", "src1_sel"}
    for k in mods:
        if k not in allowed:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k!r}")
    # operand layout
    dst = ops.pop(0)
    sdst = None
    cin = None
    if o.form in ("co", "cin"):
        if enc == "e32" or enc in ("dpp", "sdwa"):
            sdst = ops.pop(0)  # printed vcc
        else:
            sdst = ops.pop(0)
    if o.form in ("cin", "cnd"):
        cin = ops.pop()  # trailing lane mask (vcc or s[n:n+1])
    srcs = ops
    if o.form == "acc":
        if len(srcs) == 2:
            srcs = srcs + [dst]  # v_fmac: D = S0 * S1 + D
    if len(srcs) != len(o.srcs):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 f"expected {len(o.srcs)} sources, got {len(srcs)}")
    opsel = mods.get("op_sel", [0, 0, 0, 0])
    if not isinstance(opsel, list):
        opsel = [opsel]
    n = len(srcs)
    dst_hi = bool(opsel[n]) if len(opsel) > n else False
    # GFX11+ true16 operands (v0.l / v0.h) name a 16-bit half: .h reads/writes bits 31:16, a
    # .l destination keeps bits 31:16 (they are another register; RDNA3 ISA §"16-bit VGPRs")
    if any(s.half for s in srcs) or dst.half:
        if any(s.half and t not in T16 for s, t in zip(srcs, o.srcs)) or \
                (dst.half and o.dst not in T16):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     "a 16-bit register half on a 32/64-bit operand")
        opsel = [int(bool(i < len(opsel) and opsel[i]) or s.half == "h")
                 for i, s in enumerate(srcs)]
        dst_hi = dst_hi or dst.half == "h"
        opsel.append(int(dst_hi))
    keep_hi = dst.half == "l"
    for i, t in enumerate(o.srcs):
        if i < len(opsel) and opsel[i] and t not in T16:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     "op_sel on a 32/64-bit operand")
    if dst_hi and o.dst not in T16:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a 32-bit dst")
    # SDWA fields from the SDWA dword (VOP_SDWA: dst_sel[10:8], dst_unused[12:11], clamp[13],
    # omod[15:14], src0_sel[18:16], src0_sext[19], src1_sel[26:24], src1_sext[27])
    sdw = d.inst.words[1] if sdwa else 0
    src_sel = [6, 6]
    src_sext = [False, False]
    if sdwa:
        src_sel = [(sdw >> 16) & 7, (sdw >> 24) & 7]
        src_sext = [bool((sdw >> 19) & 1), bool((sdw >> 27) & 1)]
        dst_sel, dst_unused = (sdw >> 8) & 7, (sdw >> 11) & 3
    readers = []
    den_src = [flush_src(d.kernel.denorm16_64 if t in ("f16", "f64") else d.kernel.denorm32)
               and _float_t(t) for t in o.srcs]
    for i, (s, t) in enumerate(zip(srcs, o.srcs)):
        readers.append(src_reader(d, s, t, nv, hi=bool(i < len(opsel) and opsel[i]),
                                   sel=src_sel[i] if (sdwa and i < 2) else 6,
                                   sext=src_sext[i] if i < 2 else False,
                                   flush_in=den_src[i]))
    if dpp:
        readers[0] = _dpp_reader(d, srcs[0], o.srcs[0], nv, readers[0])
    # MODE.IEEE as compiled for this instruction (scalar.mode); GFX12 has no IEEE mode bit
    fn = o.fn
    if d.kernel.gen >= 12 and o.g12 is not None:
        fn = o.g12
    elif d.kernel.gen < 12 and d.kernel.ieee_mode and o.ieee is not None:
        fn = o.ieee
    clamp = bool(mods.get("clamp"))
    if sdwa and (sdw >> 13) & 1:
        clamp = True
    omod = 1.0
    if "mul" in mods:
        omod = float(mods["mul"])
    if "div" in mods:
        omod = 1.0 / float(mods["div"])
    if sdwa and (sdw >> 14) & 3:
        omod = {1: 2.0, 2: 4.0, 3: 0.5}[(sdw >> 14) & 3]
    if clamp and not _float_t(o.dst):
        if o.sat is None:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "integer clamp")
        fn = o.sat
        info = np.iinfo({"u32": U32, "i32": I32, "u16": np.uint16, "i16": np.int16}[o.dst])
        sat_fn = fn
        fn = lambda *a: np.clip(sat_fn(*a), info.min, info.max)  # noqa: E731
        clamp = False
    if omod != 1.0 and not _float_t(o.dst):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "omod on an integer result")
    dt = o.dst
    fdst = _float_t(dt) and flush_dst(d.kernel.denorm16_64 if dt in ("f16", "f64")
                                      else d.kernel.denorm32)
    ftype = {"f32": F32, "f64": F64, "f16": F16}.get(dt)
    rows = [row_of(dst, nv, k) for k in range(dst.n)]
    mask_src = None
    if o.form in ("cin", "cnd"):
        mask_src = _mask_reader(cin)
    elif o.form == "vccin":
        mask_src = lambda st, g: st.lanemask(VCC, g.ix)  # noqa: E731
    sdst_slot = sdst.idx if sdst is not None else None
    if sdst is not None and sdst.kind != "s":
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "carry-out to a non-SGPR")
    has_carry = o.form in ("co", "cin")
    rmask = _dpp_write_mask(d) if dpp else None
    dst16 = dt in T16

    def compute(st, g):
        args = [r(st, g) for r in readers]
        if mask_src is not None:
            args.append(mask_src(st, g))
        res = fn(*args)
        carry = None
        if has_carry:
            res, carry = res
        if ftype is not None:
            if omod != 1.0:
                res = (np.asarray(res, ftype) * ftype(omod)).astype(ftype)
            if clamp:
                res = np.where(np.isnan(res), ftype(0), np.clip(res, 0, 1)).astype(ftype)
            if fdst:
                res = flush(np.asarray(res, ftype))
        return res, carry

    def run(st, g):
        res, carry = compute(st, g)
        bits = from_typed(res, dt)
        mask = st.EM[g.ix]
        if rmask is not None:
            mask = mask & rmask(st, g)
        if carry is not None:
            # The carry-out mask is written whole: lanes outside EXEC read 0, as for VOPC, whose
            # result the ISA guides define masked by EXEC (valu.vcmp). For carry-outs the guides'
            # pseudocode (RDNA3/RDNA4/CDNA3 ISA V_ADD_CO_U32: "VCC.u64[laneId] = carry") names
            # only active lanes; LLVM defines the mask without reading its old value and relies
            # on the zeros: its uniform add/sub-with-carry lowering (SIISelLowering.cpp,
            # S_ADD_CO_PSEUDO) turns a VALU carry mask into SCC with `s_cmp_lg_u32 mask, 0`
            # (wave64: _u64), which LLVM 19 emits for gfx1201's 64-bit remainder under a
            # divergent branch. DPP-suppressed active lanes keep their old bit (no source says
            # otherwise).
            keep = False
            if rmask is not None:
                keep = st.lanemask(sdst_slot, g.ix) & ~mask & st.EM[g.ix]
            st.write_lanemask(sdst_slot, g, np.broadcast_to(carry, mask.shape) & mask | keep)
        if len(rows) == 2:
            b64 = np.asarray(bits, U64)
            st.vwrite_masked(rows[0], g, (b64 & U64(0xFFFFFFFF)).astype(U32), mask)
            st.vwrite_masked(rows[1], g, (b64 >> U64(32)).astype(U32), mask)
            return
        if sdwa:
            old = st.R[rows[0], g.ix]
            bits = _sdwa_place(np.asarray(bits, U32), old, dst_sel, dst_unused)
        elif dst16:
            if dst_hi:
                old = st.R[rows[0], g.ix]
                bits = (old & U32(0xFFFF)) | (np.asarray(bits, U32) << U32(16))
            elif keep_hi:
                old = st.R[rows[0], g.ix]
                bits = (old & U32(0xFFFF0000)) | (np.asarray(bits, U32) & U32(0xFFFF))
            # gfx9: 16-bit VALU results without op_sel zero the high half
        st.vwrite_masked(rows[0], g, bits, mask)

    plain = (not sdwa and not dpp and not clamp and omod == 1.0 and not fdst
             and o.form != "vccin" and not has_carry and len(rows) == 1 and dt in _TYPED
             and all(_plain_src(s, t, i, opsel, den_src) for i, (s, t) in
                     enumerate(zip(srcs, o.srcs))))
    if plain:
        readers = [_typed_reader(s, t, nv) for s, t in zip(srcs, o.srcs)]
        if mask_src is not None:  # v_cndmask: the lane mask is the last argument
            readers.append(mask_src)
        return _plain_run(fn, readers, rows[0], dt, run)
    return run


# ---- the plain 32-bit fast path ------------------------------------------------------------
# Most VALU instructions of compiled kernels are plain: 32-bit types, sources without
# modifiers, one destination, no flushing, carry or lane mask. Their sources are read through
# typed views of the register files (no per-call bit casts) and the result goes straight into
# the destination row under EXEC with one ufunc-level copy; results of another dtype (a numpy
# promotion) take the general path above, so the semantics are the same instruction table's.
_TYPED = {"f32": "R32f", "i32": "R32i", "u32": "R", "b32": "R"}
_DT = {"f32": np.dtype(np.float32), "i32": np.dtype(np.int32), "u32": np.dtype(np.uint32),
       "b32": np.dtype(np.uint32)}
_SVIEW = {"f32": "S32f", "i32": "S32i", "u32": "S", "b32": "S"}


def _plain_src(s: Operand, t: str, i: int, opsel, den_src) -> bool:
    return (t in _TYPED and not (s.neg or s.abs or s.sext or s.half) and not den_src[i]
            and not (i < len(opsel) and opsel[i]) and s.kind in ("v", "a", "s", "imm", "fimm",
                                                                  "const"))


def _typed_reader(s: Operand, t: str, nv: int):
    # one closure per view: a plain attribute load is cheaper than getattr(st, name)
    if s.kind in ("v", "a"):
        r, view = row_of(s, nv), _TYPED[t]
        if view == "R32f":
            return lambda st, g: st.R32f[r, g.ix]
        if view == "R32i":
            return lambda st, g: st.R32i[r, g.ix]
        return lambda st, g: st.R[r, g.ix]
    if s.kind == "s":
        i, view = s.idx, _SVIEW[t]
        if view == "S32f":
            return lambda st, g: st.S32f[i, g.ix][:, None]
        if view == "S32i":
            return lambda st, g: st.S32i[i, g.ix][:, None]
        return lambda st, g: st.S[i, g.ix][:, None]
    c = np.uint32(imm_bits(s, 32, _float_t(t))).view(_DT[t])
    return lambda st, g: c


def _plain_run(fn, readers, row: int, dt: str, general):
    view, want = _TYPED[dt], _DT[dt]

    def store(st, g, res):
        """The result into row ``row`` of the typed view, lanes under EXEC only (one wave with
        every lane in EXEC: a plain row assignment)."""
        ix = g.ix
        if g.w == 1 and st.full[ix.start]:
            getattr(st, view)[row, ix] = res
        elif type(ix) is slice:
            np.copyto(getattr(st, view)[row, ix], res, where=st.EM[ix])
        else:
            cur = getattr(st, view)[row, ix]
            np.copyto(cur, res, where=st.EM[ix])
            getattr(st, view)[row, ix] = cur

    if len(readers) == 1:  # moves and one-source conversions, without the argument list
        (ra,) = readers

        def run1(st, g):
            res = fn(ra(st, g))
            if getattr(res, "dtype", None) != want:
                return general(st, g)
            store(st, g, res)
        return run1
    if len(readers) == 2:  # the common two-source form, likewise
        ra, rb = readers

        def run2(st, g):
            res = fn(ra(st, g), rb(st, g))
            if getattr(res, "dtype", None) != want:
                return general(st, g)
            store(st, g, res)
        return run2
    if len(readers) == 3:  # fma/mad/cndmask forms, likewise
        ra, rb, rc = readers

        def run3(st, g):
            res = fn(ra(st, g), rb(st, g), rc(st, g))
            if getattr(res, "dtype", None) != want:
                return general(st, g)
            store(st, g, res)
        return run3

    def run(st, g):
        res = fn(*[r(st, g) for r in readers])
        if getattr(res, "dtype", None) != want:
            return general(st, g)
        store(st, g, res)
    return run


def _sdwa_place(bits, old, sel, unused):
    """SDWA destination: put the selected field; other bits zero (PAD), sign-extended (SEXT) or
    kept (PRESERVE) (CDNA3 ISA SDWA dst_unused)."""
    if sel == 6:
        return bits
    if sel <= 3:
        sh, w = 8 * sel, 8
    else:
        sh, w = 16 * (sel - 4), 16
    fmask = U32(((1 << w) - 1) << sh)
    field = (bits << U32(sh)) & fmask
    if unused == 2:
        return (old & ~fmask) | field
    if unused == 1:
        top = U32(0xFFFFFFFF) << U32(sh + w) if sh + w < 32 else U32(0)
        neg = ((bits >> U32(w - 1)) & U32(1)) != 0
        return field | np.where(neg, top, U32(0))
    return field


_SIGN_MOD_OK = {"v_cndmask_b32", "v_mov_b32"}
# f16 halves moved as bits whose VOP3 neg/abs still act on the half's sign (bit 15): LLVM folds
# an fneg of a bf16/f16 element into v_pack_b32_f16's source modifiers (seen in llvm-objdump
# of gfx950 code building a (b, -b) bf16 pair: ``v_pack_b32_f16 v12, v11, -v11``); CDNA3 ISA
# V_PACK_B32_F16 "D[31:16].f16 = S1.f16; D[15:0].f16 = S0.f16" takes f16 operands
_SIGN16_MOD_OK = {"v_pack_b32_f16"}


def src_reader(d, s: Operand, t: str, nv: int, hi=False, sel=6, sext=False, flush_in=False):
    isf = _float_t(t)
    if t in T64:
        raw = vread64(s, nv, isf)
    else:
        raw = vread32(s, nv, 0, 16 if t in T16 else 32, isf)
    sign_bits = False
    if s.neg or s.abs:
        if (t in ("u32", "b32") and d.base in _SIGN_MOD_OK) or \
                (t == "b16" and d.base in _SIGN16_MOD_OK):
            # VOP3 float modifiers on a bitwise select act on the sign bit (LLVM folds fneg/fabs
            # into v_cndmask_b32_e64 operands; CDNA3 ISA "input modifiers")
            sign_bits = True
        elif not isf:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     f"neg/abs on integer operand {s.text}")
    if s.sext and sel == 6:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "sext without SDWA select")
    neg, ab = s.neg, s.abs

    def rd(st, g):
        x = raw(st, g)
        if hi:
            x = x >> U32(16)
        if sel != 6:
            x = sdwa_extract(x, sel, sext)
        v = to_typed(x, t)
        if sign_bits:
            top = v.dtype.type(0x8000 if t == "b16" else 0x80000000)
            if ab:
                v = v & ~top
            if neg:
                v = v ^ top
            return v
        if ab:
            v = np.abs(v)
        if neg:
            v = -v
        if flush_in:
            v = flush(v)
        return v

    return rd


def _mask_reader(op: Operand):
    if op.kind != "s":
        raise ValueError(f"lane-mask operand {op.text} must be an SGPR pair")
    r = op.idx
    return lambda st, g: st.lanemask(r, g.ix)


def _dpp_info(d):
    """(source lane [64], source-in-range [64], bound_ctrl, row&bank write mask [64]) from the
    DPP dword: dpp_ctrl[16:8], bound_ctrl[19], bank_mask[27:24], row_mask[31:28]."""
    lane = np.arange(64)
    if "dpp8" in d.mods:
        # GFX10+ DPP8: lane reads lane sel[lane % 8] of its group of 8 (RDNA3 ISA "DPP8"); no
        # masks, every source in range
        sel = d.mods["dpp8"]
        if not isinstance(sel, list) or len(sel) != 8:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"dpp8 {sel!r}")
        src = (lane & ~7) + np.array(sel, np.int64)[lane & 7]
        return src.astype(np.int64), np.ones(64, bool), False, np.ones(64, bool)
    # the DPP dword follows the instruction's first dword (VOP1/2/C) or its two (GFX11+ VOP3)
    w = d.inst.words[2] if len(d.inst.words) == 3 else d.inst.words[1]
    src_lane, valid = dpp_lanes((w >> 8) & 0x1FF, d.kernel.gen)
    bound = bool((w >> 19) & 1)
    row_mask, bank_mask = (w >> 28) & 0xF, (w >> 24) & 0xF
    rb = (((row_mask >> (lane // 16)) & 1) & ((bank_mask >> ((lane % 16) // 4)) & 1)) == 1
    return src_lane, valid, bound, rb


def _dpp_invalid(st, g, src_lane, valid):
    """Lanes whose DPP source is out of range or disabled in EXEC (CDNA3/GCN3 ISA "DPP":
    such a source is 'invalid'; with BOUND_CTRL it reads 0, otherwise the lane does not
    write; LLVM GCNDPPCombine relies on the same rule)."""
    return ~valid[None, :] | ~st.EM[g.ix][:, src_lane]


def _dpp_reader(d, s: Operand, t: str, nv: int, base_reader):
    """DPP src0: each lane reads another lane's value."""
    src_lane, valid, bound, _rb = _dpp_info(d)
    if s.kind not in ("v", "a"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "DPP src0 must be a VGPR")
    r = row_of(s, nv)
    isf = _float_t(t)
    neg, ab = s.neg, s.abs
    wide = t in T64

    dpp8_fi = "dpp8" in d.mods and (d.inst.words[0] & 0x1FF) == 234  # DPP8 FI=1 (src0 234)
    dpp8 = "dpp8" in d.mods

    def rd(st, g):
        if dpp8 and not dpp8_fi:
            em = st.EM[g.ix]
            if (em & ~em[:, src_lane]).any():
                raise UnknownInstruction(
                    d.mnemonic, d.addr, d.inst.text,
                    "DPP8 reading a lane disabled in EXEC without FI (not modelled)")
        x = st.R[r, g.ix][:, src_lane]
        if wide:
            x = x.astype(U64) | (st.R[r + 1, g.ix][:, src_lane].astype(U64) << U64(32))
        if bound:
            x = np.where(_dpp_invalid(st, g, src_lane, valid), x.dtype.type(0), x)
        v = to_typed(x, t)
        if isf and ab:
            v = np.abs(v)
        if isf and neg:
            v = -v
        return v

    return rd


def _dpp_write_mask(d):
    """Lanes that write: row_mask/bank_mask and, without BOUND_CTRL, valid-source lanes."""
    src_lane, valid, bound, rb = _dpp_info(d)
    if "dpp8" in d.mods:  # every lane writes (inactive sources are refused in _dpp_reader)
        return lambda st, g: np.broadcast_to(rb, (g.w, 64))

    def m(st, g):
        if bound:
            return np.broadcast_to(rb, (g.w, 64))
        return rb[None, :] & ~_dpp_invalid(st, g, src_lane, valid)
    return m



# ---------------------------------------------------------------------------------------------
def _build_valu(d: Decoded):
    o = OPS.get(d.base)
    if o is None:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text)
    return build_generic(d, o)

