"""RDNA3/RDNA4-only scalar instructions: wave32 saveexec (``s_*_saveexec_b32``), scheduling
hints and counter waits, cache invalidates, MODE writes by SOPP (s_round_mode, s_denorm_mode),
GFX12's 64-bit SALU adds/multiply and SALU float ops.

Semantics from the AMD "RDNA3 Instruction Set Architecture" and "RDNA4 Instruction Set
Architecture" guides (per-opcode descriptions). Counter waits and ALU delay hints have no
architectural effect in the emulator (memory is synchronous, each instruction completes before
the next), like gfx9's s_waitcnt in ``scalar.sopp``.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import imm_bits, sread32, sread64
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from ...machine.state import EXEC
from ...numerics.floats import flush, flush_src
from ...numerics.vfloat import fma16, fma32, maximum, maxnum, minimum, minnum
from ..scalar.salu import SAVEEXEC, WREXEC
from ..scalar.smem import clock_now
from ..valu.vcmp import FCMP

U32, U64 = np.uint32, np.uint64
M32 = 0xFFFFFFFF


def _noop(d: Decoded):
    return lambda st, g: None


# waits on GFX11's vscnt / GFX12's split counters, ALU dependency hints, clauses, cache
# invalidates (no cache is modelled), GFX12's barrier signal (the s_barrier_wait that follows
# is the barrier, rdna.RENAMES)
for _n in ("s_delay_alu", "s_clause", "s_waitcnt_depctr", "s_waitcnt_vmcnt",
           "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt", "s_wait_loadcnt", "s_wait_storecnt",
           "s_wait_dscnt", "s_wait_kmcnt", "s_wait_samplecnt", "s_wait_bvhcnt", "s_wait_expcnt",
           "s_wait_alu", "s_wait_loadcnt_dscnt", "s_wait_storecnt_dscnt", "s_wait_idle",
           "buffer_gl0_inv", "buffer_gl1_inv", "global_inv", "global_wb", "s_barrier_signal",
           "s_inst_prefetch", "s_set_inst_prefetch_distance"):
    semantic(_n)(_noop)


@semantic("s_sendmsg")
def _build_sendmsg(d: Decoded):
    """MSG_DEALLOC_VGPRS only: the wave gives its VGPRs back before its s_endpgm (RDNA3 ISA
    "Message Types": DEALLOC_VGPRS), no architectural effect here. LLVM 19 ends gfx11 kernels
    with it; other messages (interrupts, GS, ...) are refused by name."""
    if "MSG_DEALLOC_VGPRS" not in d.inst.text:
        msg = f"{d.mnemonic} at pc 0x{d.addr:x}: message not modelled: `{d.inst.text}`"

        def bad(st, g):
            raise EmulatorError(msg)
        return bad
    return lambda st, g: None


@semantic("s_sendmsg_rtn_b64", "s_sendmsg_rtn_b32")
def _build_sendmsg_rtn(d: Decoded):
    """MSG_RTN_GET_REALTIME only (what wall_clock64() compiles to on GFX11+; RDNA3 ISA
    S_SENDMSG_RTN_B64: the 64-bit "REALTIME" counter): the launch's executed wave-instructions,
    the same monotonic counter as gfx9's s_memrealtime (scalar.smem). Other messages are refused."""
    if "MSG_RTN_GET_REALTIME" not in d.inst.text:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "message not modelled")
    dst = d.ops[0]
    wide = d.base.endswith("_b64")

    def run(st, g):
        t = clock_now(st)
        st.swrite(dst.idx, g, np.uint32(t & M32))
        if wide:
            st.swrite(dst.idx + 1, g, np.uint32(t >> 32))
    return run


# wave32 saveexec: D = EXEC_LO; EXEC_LO = f(S0, EXEC_LO); SCC = EXEC_LO != 0 (RDNA3 ISA
# S_AND_SAVEEXEC_B32); the wrexec forms write D = EXEC_LO = f(S0, EXEC_LO)
SAVEEXEC32 = {k.replace("_b64", "_b32"): f for k, f in SAVEEXEC.items()}
WREXEC32 = {k.replace("_b64", "_b32"): f for k, f in WREXEC.items()}


@semantic(*SAVEEXEC32, *WREXEC32)
def _build_saveexec32(d: Decoded):
    f = SAVEEXEC32.get(d.base) or WREXEC32[d.base]
    wr = d.base in WREXEC32
    if d.mods:
        raise EmulatorError(f"{d.mnemonic}: modifiers {d.mods} at pc 0x{d.addr:x}")
    dst, a = d.ops
    ra = sread32(a)

    def run(st, g):
        old = st.S[EXEC, g.ix].astype(U64)
        new = (f(np.asarray(ra(st, g)).astype(U64), old) & U64(M32)).astype(U32)
        st.swrite(EXEC, g, new)
        st.swrite(dst.idx, g, new if wr else old.astype(U32))
        st.SCC[g.ix] = new != 0
    return run


@semantic("s_round_mode", "s_denorm_mode")
def _build_mode(d: Decoded):
    """MODE[3:0] (round) or MODE[7:4] (denorm) = SIMM16[3:0] (RDNA3 ISA S_ROUND_MODE,
    S_DENORM_MODE); the decoder follows the constant write (scalar.mode.static_effect), the
    emulator models round-to-nearest-even only."""
    v = d.inst.words[0] & 0xF
    if d.base == "s_round_mode" and v:
        msg = (f"{d.mnemonic} at pc 0x{d.addr:x} sets rounding mode {v:#x}; the emulator "
               f"models only round-to-nearest-even: `{d.inst.text}`")

        def bad(st, g):
            raise EmulatorError(msg)
        return bad
    shift = 0 if d.base == "s_round_mode" else 4

    def run(st, g):
        st.MODE[g.ix] = (st.MODE[g.ix] & U32(~(0xF << shift) & M32)) | U32(v << shift)
    return run


# ---- GFX12 SALU: 64-bit integer add/sub/mul (RDNA4 ISA S_ADD_NC_U64, S_SUB_NC_U64,
# S_MUL_U64: no SCC), SALU floats (RDNA4 ISA §"SALU floating point": f32 ops as VALU's)
_SOP2_64 = {"s_add_nc_u64": lambda a, b: a + b, "s_sub_nc_u64": lambda a, b: a - b,
            "s_mul_u64": lambda a, b: a * b}


@semantic(*_SOP2_64)
def _build_sop2_64(d: Decoded):
    dst, a, b = d.ops
    ra, rb, f = sread64(a), sread64(b), _SOP2_64[d.base]

    def run(st, g):
        with np.errstate(over="ignore"):
            r = np.broadcast_to(f(np.asarray(ra(st, g), U64), np.asarray(rb(st, g), U64)),
                                (g.w,))
        st.S[dst.idx, g.ix] = (r & U64(M32)).astype(U32)
        st.S[dst.idx + 1, g.ix] = (r >> U64(32)).astype(U32)
    return run


def _f(x):
    return np.asarray(x, U32).view(np.float32)


_SF32 = {"s_mul_f32": (2, lambda a, b: a * b), "s_add_f32": (2, lambda a, b: a + b),
         "s_sub_f32": (2, lambda a, b: a - b),
         "s_fmac_f32": (3, fma32),
         # K-literal forms, sources in printed order: s_fmamk_f32 D, S0, K, S1 = S0*K + S1 and
         # s_fmaak_f32 D, S0, S1, K = S0*S1 + K (RDNA4 ISA S_FMAMK_F32 / S_FMAAK_F32), one rounding
         "s_fmamk_f32": (3, fma32), "s_fmaak_f32": (3, fma32),
         "s_trunc_f32": (1, np.trunc), "s_floor_f32": (1, np.floor), "s_ceil_f32": (1, np.ceil),
         "s_cvt_f32_u32": (1, None), "s_cvt_f32_i32": (1, None), "s_cvt_u32_f32": (1, None),
         "s_cvt_i32_f32": (1, None)}


def _cvt(base, x):
    if base == "s_cvt_f32_u32":
        return np.asarray(x, U32).astype(np.float32).view(U32)
    if base == "s_cvt_f32_i32":
        return np.asarray(x, U32).view(np.int32).astype(np.float32).view(U32)
    v = np.nan_to_num(_f(x).astype(np.float64), nan=0.0)  # NaN -> 0 (RDNA4 ISA V_CVT_U32_F32)
    if base == "s_cvt_u32_f32":
        return np.clip(np.trunc(v), 0, M32).astype(np.uint64).astype(U32)
    return np.clip(np.trunc(v), -2**31, 2**31 - 1).astype(np.int64).astype(np.int32).view(U32)


@semantic(*_SF32)
def _build_sf32(d: Decoded):
    """One SALU float op; the fma forms round once (vfloat.fma32, as v_fmac_f32)."""
    n, f = _SF32[d.base]
    if d.mods:
        raise EmulatorError(f"{d.mnemonic}: modifiers {d.mods} at pc 0x{d.addr:x}")
    dst = d.ops[0]
    srcs = list(d.ops[1:]) + ([dst] if d.base == "s_fmac_f32" else [])
    rs = [sread32(s, 0, 32, True) for s in srcs]

    def run(st, g):
        xs = [np.broadcast_to(r(st, g), (g.w,)) for r in rs]
        if f is None:
            out = _cvt(d.base, xs[0])
        else:
            out = np.asarray(f(*[_f(x) for x in xs]), np.float32).view(U32)
        st.swrite(dst.idx, g, out)
    return run


# SALU float compares (RDNA4 ISA SOPC S_CMP_LT_F32 ... S_CMP_NLT_F16; also gfx1150+): SCC =
# S0 <rel> S1 with VOPC's predicates (valu.vcmp.FCMP: "lg" is ordered not-equal, "o"/"u" ordered
# and unordered, "n*" the negations, true for NaN); f16 reads the SGPR's low half. Sources are
# flushed like VOPC's when the kernel's denorm mode flushes inputs.
SCMPF = {f"s_cmp_{c}_{t}": (t, f) for t in ("f32", "f16") for c, f in FCMP.items()
         if c not in ("f", "tru")}


@semantic(*SCMPF)
def _build_scmp_f(d: Decoded):
    t, f = SCMPF[d.base]
    if d.mods:
        raise EmulatorError(f"{d.mnemonic}: modifiers {d.mods} at pc 0x{d.addr:x}")
    ft = np.float16 if t == "f16" else np.float32
    fl = flush_src(d.kernel.denorm16_64 if t == "f16" else d.kernel.denorm32)

    def reader(op):
        if t == "f16" and op.kind in ("imm", "fimm", "const"):
            c = np.uint16(imm_bits(op, 16, True))
            return lambda st, g: c
        r = sread32(op, 0, 32, True)
        if t == "f16":
            return lambda st, g: (np.asarray(r(st, g), U32) & U32(0xFFFF)).astype(np.uint16)
        return r

    ra, rb = (reader(o) for o in d.ops)

    def val(r, st, g):
        x = np.asarray(np.broadcast_to(r(st, g), (g.w,))).view(ft)
        return flush(x) if fl else x

    def run(st, g):
        st.SCC[g.ix] = f(val(ra, st, g), val(rb, st, g))
    return run


# ---- the rest of GFX11.5+/GFX12 SALU float (RDNA4 ISA §"SALU floating point"; LLVM
# SOPInstructions.td, "SALU float" under isGFX1150Plus): f16 arithmetic on the low 16 bits,
# f16 <-> f32 conversions, IEEE-754-2019 min/max and round-to-even, all with the VALU op's
# numerics. A 16-bit result is written to bits 15:0 with bits 31:16 cleared (the guide's
# pseudocode writes D0.f16 only; LLVM never reads those bits back, an assumption here).
_F16 = np.float16
_SFX = {  # name -> (dst type, source types, fn)
    "s_add_f16": ("f16", "f16 f16", lambda a, b: a + b),
    "s_sub_f16": ("f16", "f16 f16", lambda a, b: a - b),
    "s_mul_f16": ("f16", "f16 f16", lambda a, b: a * b),
    "s_fmac_f16": ("f16", "f16 f16 f16", fma16),  # D = S0 * S1 + D, one rounding
    # S_MIN_NUM_* / S_MAX_NUM_* (GFX12) and S_MIN_F32 / S_MAX_F32 (GFX11.5): V_MIN_F32's
    # minNum on SGPRs -- a quiet NaN gives the other operand, -0 < +0 (vfloat.minnum); LLVM
    # selects s_min_num_f32 for llvm.minnum (wave.reduce.fmin lowering, AMDGPU CodeGen tests)
    "s_max_num_f16": ("f16", "f16 f16", maxnum), "s_min_num_f16": ("f16", "f16 f16", minnum),
    "s_max_num_f32": ("f32", "f32 f32", maxnum), "s_min_num_f32": ("f32", "f32 f32", minnum),
    "s_max_f32": ("f32", "f32 f32", maxnum), "s_min_f32": ("f32", "f32 f32", minnum),
    # GFX12 S_MINIMUM_F32/F16, S_MAXIMUM_F32/F16 (RDNA4 ISA SOP2 opcodes 79-82): IEEE minimum()
    "s_minimum_f32": ("f32", "f32 f32", minimum), "s_maximum_f32": ("f32", "f32 f32", maximum),
    "s_minimum_f16": ("f16", "f16 f16", minimum), "s_maximum_f16": ("f16", "f16 f16", maximum),
    "s_rndne_f32": ("f32", "f32", np.rint), "s_rndne_f16": ("f16", "f16", np.rint),
    "s_trunc_f16": ("f16", "f16", np.trunc), "s_floor_f16": ("f16", "f16", np.floor),
    "s_ceil_f16": ("f16", "f16", np.ceil),
    "s_cvt_f16_f32": ("f16", "f32", lambda a: a.astype(_F16)),
    "s_cvt_f32_f16": ("f32", "f16", lambda a: a.astype(np.float32)),
    # S_CVT_HI_F32_F16: the f16 in bits 31:16 of S0 (the reader below takes the high half)
    "s_cvt_hi_f32_f16": ("f32", "f16", lambda a: a.astype(np.float32)),
}


def _sfx_reader(op, t: str, hi: bool = False):
    """[w] float32/float16 values of one SALU float source."""
    if t == "f16" and op.kind in ("imm", "fimm", "const"):
        c = np.uint16(imm_bits(op, 16, True))
        return lambda st, g: np.broadcast_to(c, (g.w,)).view(_F16)
    r = sread32(op, 0, 32, True)
    if t == "f32":
        return lambda st, g: _f(np.broadcast_to(r(st, g), (g.w,)))
    sh = U32(16 if hi else 0)
    return lambda st, g: ((np.broadcast_to(np.asarray(r(st, g), U32), (g.w,)) >> sh)
                          & U32(0xFFFF)).astype(np.uint16).view(_F16)


@semantic(*_SFX)
def _build_sfx(d: Decoded):
    """One SALU float op of ``_SFX`` (s_fmac_f16 reads its destination as the addend)."""
    t_dst, t_src, f = _SFX[d.base]
    if d.mods:
        raise EmulatorError(f"{d.mnemonic}: modifiers {d.mods} at pc 0x{d.addr:x}")
    dst = d.ops[0]
    srcs = list(d.ops[1:]) + ([dst] if d.base == "s_fmac_f16" else [])
    rs = [_sfx_reader(s, t, d.base == "s_cvt_hi_f32_f16") for s, t in zip(srcs, t_src.split())]

    def run(st, g):
        with np.errstate(all="ignore"):
            out = np.asarray(f(*[r(st, g) for r in rs]))
        if t_dst == "f16":
            st.swrite(dst.idx, g, out.astype(_F16).view(np.uint16).astype(U32))
        else:
            st.swrite(dst.idx, g, out.astype(np.float32).view(U32))
    return run


# ---- GFX12 VALU transcendentals with an SGPR result (RDNA4 ISA V_S_RCP_F32 etc.: the VALU op
# of the same name on a uniform value, written to an SGPR); rows of the VALU table
_VS = {"v_s_rcp_f32": "v_rcp_f32", "v_s_rsq_f32": "v_rsq_f32", "v_s_sqrt_f32": "v_sqrt_f32",
       "v_s_exp_f32": "v_exp_f32", "v_s_log_f32": "v_log_f32"}


@semantic(*_VS)
def _build_vs(d: Decoded):
    from ..valu.table import OPS

    if d.mods or any(o.neg or o.abs for o in d.ops):
        raise EmulatorError(f"{d.mnemonic}: modifiers at pc 0x{d.addr:x}: `{d.inst.text}`")
    fn = OPS[_VS[d.base]].fn
    dst, a = d.ops
    ra = sread32(a, 0, 32, True)

    def run(st, g):
        with np.errstate(all="ignore"):
            x = _f(np.broadcast_to(ra(st, g), (g.w,)))
            st.swrite(dst.idx, g, np.asarray(fn(x), np.float32).view(U32))
    return run


def _permlane_fi(d: Decoded) -> bool:
    """FI (op_sel[0]: fetch from lanes disabled in EXEC) of a permlane16 form; other
    modifiers are refused."""
    for k in d.mods:
        if k != "op_sel":
            raise EmulatorError(f"{d.mnemonic}: modifier {k} at pc 0x{d.addr:x}")
    opsel = d.mods.get("op_sel", [0, 0])
    opsel = opsel if isinstance(opsel, list) else [opsel]
    return bool(opsel[0]) if opsel else False


def _permlane_gather(st, g, d: Decoded, rd: int, rs: int, src_lane: np.ndarray, fi: bool):
    """Write lane i of VGPR row ``rs``'s lane ``src_lane[:, i]`` into row ``rd``; reading a
    lane disabled in EXEC without FI is not modelled and raises."""
    em = st.EM[g.ix]
    if not fi and (em & ~np.take_along_axis(em, src_lane, 1)).any():
        raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} reads a lane disabled in "
                            "EXEC without FI; not modelled")
    st.vwrite(rd, g, np.take_along_axis(st.R[rs, g.ix], src_lane, 1))


# ---- v_permlane16_b32 / v_permlanex16_b32 (RDNA3 ISA): within each row of 16 lanes, lane i
# reads lane sel(i) of its own row (permlane16) or of the other row of its 32-lane half
# (permlanex16); sel(i) is nibble i of {S2, S1} (S1 holds lanes 0..7). op_sel[0] = FI (fetch
# from lanes disabled in EXEC), op_sel[1] = BOUND_CTRL. Reading a disabled lane without FI is
# not modelled here and raises.
@semantic("v_permlane16_b32", "v_permlanex16_b32")
def _build_permlane(d: Decoded):
    from ...decoder.operands import row_of, sread32

    fi = _permlane_fi(d)
    dst, src, s1, s2 = d.ops
    if src.kind != "v" or dst.kind != "v":
        raise EmulatorError(f"{d.mnemonic}: operands at pc 0x{d.addr:x}: `{d.inst.text}`")
    nv = d.kernel.n_vgpr
    rd, rs = row_of(dst, nv), row_of(src, nv)
    r1, r2 = sread32(s1), sread32(s2)
    cross = d.base == "v_permlanex16_b32"
    lane = np.arange(64)

    def run(st, g):
        sel = (np.broadcast_to(np.asarray(r1(st, g), U64), (g.w,))
               | (np.broadcast_to(np.asarray(r2(st, g), U64), (g.w,)) << U64(32)))
        nib = ((sel[:, None] >> (U64(4) * (lane % 16).astype(U64))) & U64(0xF)).astype(np.int64)
        row = lane // 16
        src_row = (row ^ 1) if cross else row
        src_lane = src_row[None, :] * 16 + nib  # [w, 64]
        _permlane_gather(st, g, d, rd, rs, src_lane, fi)
    return run


# ---- v_permlane64_b32 (GFX11+ VOP1, __builtin_amdgcn_permlane64): lane i reads lane i ^ 32,
# swapping the halves of a wave64; in wave32 it does nothing (LLVM AMDGPUUsage / IntrinsicsAMDGPU
# int_amdgcn_permlane64: "upper half and lower half of a wave64 are swapped ... no operation in
# wave32 mode"). Like v_readlane it reads the source lane whatever its EXEC bit.
@semantic("v_permlane64_b32")
def _build_permlane64(d: Decoded):
    from ...decoder.operands import row_of

    if d.mods:
        raise EmulatorError(f"{d.mnemonic}: modifiers {sorted(d.mods)} at pc 0x{d.addr:x}")
    dst, src = d.ops
    if src.kind != "v" or dst.kind != "v":
        raise EmulatorError(f"{d.mnemonic}: operands at pc 0x{d.addr:x}: `{d.inst.text}`")
    nv = d.kernel.n_vgpr
    rd, rs = row_of(dst, nv), row_of(src, nv)
    swap = np.arange(64) ^ 32 if d.kernel.wave == 64 else np.arange(64)

    def run(st, g):
        st.vwrite(rd, g, st.R[rs, g.ix][:, swap])
    return run


# ---- v_permlane16_var_b32 / v_permlanex16_var_b32 (GFX12 VOP3, RDNA4 ISA): as permlane16 /
# permlanex16, with lane i's selector in its own VGPR S1 (bits 3:0) instead of SGPR nibbles.
@semantic("v_permlane16_var_b32", "v_permlanex16_var_b32")
def _build_permlane_var(d: Decoded):
    from ...decoder.operands import row_of

    fi = _permlane_fi(d)
    dst, src, sel = d.ops
    if src.kind != "v" or dst.kind != "v" or sel.kind != "v":
        raise EmulatorError(f"{d.mnemonic}: operands at pc 0x{d.addr:x}: `{d.inst.text}`")
    nv = d.kernel.n_vgpr
    rd, rs, rsel = row_of(dst, nv), row_of(src, nv), row_of(sel, nv)
    cross = d.base == "v_permlanex16_var_b32"
    row = np.arange(64) // 16
    src_row = (row ^ 1) if cross else row

    def run(st, g):
        src_lane = src_row[None, :] * 16 + (st.R[rsel, g.ix] & U32(15)).astype(np.int64)
        _permlane_gather(st, g, d, rd, rs, src_lane, fi)
    return run
