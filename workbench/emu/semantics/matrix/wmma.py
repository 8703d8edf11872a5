"""WMMA (RDNA3/RDNA4 v_wmma_*): D = A·B + C, lane layouts from the ``workbench.layouts``
catalog (RDNA3's replicated A/B halves and OPSEL-selected 16-bit C/D, RDNA4's packed layouts).

Arithmetic (RDNA3 ISA §7.9 "WMMA", RDNA4 ISA "WMMA"): f16/bf16 products are exact in fp32 and
summed in fp32 (numpy matmul; the hardware's summation order is undocumented, so a result may
differ in the last bits when partial sums cancel); f16/bf16 outputs round once to nearest even;
iu8/iu4 accumulate exactly and wrap to int32 (``clamp`` saturates); ``neg_lo:[a,b,0]`` on the
integer forms marks A / B as signed (LLVM prints the builtin's signedness flags that way,
llvm/test/MC/AMDGPU/gfx11_asm_wmma*.s). RDNA3 A/B elements live in several lanes (lanes i and
i+16): the hardware requires the copies to agree, so a launch whose copies differ raises rather
than guessing which copy the hardware reads. Defined only with a full EXEC (as MFMA).
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import imm_bits, row_of
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from .mfma import _decode32, _reader

U32 = np.uint32
_INT = {"iu8": 8, "iu4": 4}


def _as_int(bits: np.ndarray, t: str, signed: bool) -> np.ndarray:
    b = _INT[t]
    v = bits.astype(np.int64)
    return np.where(v >= (1 << (b - 1)), v - (1 << b), v) if signed else v


def float_bits(acc: np.ndarray, dt: str) -> np.ndarray:
    """A float accumulator -> the raw bits of output type ``dt`` (f32, f16, or bf16 rounded to
    nearest even), right-aligned in uint32."""
    if dt == "f32":
        return acc.astype(np.float32).view(U32)
    if dt == "f16":
        return acc.astype(np.float16).view(np.uint16).astype(U32)
    x = acc.astype(np.float32).view(U32).astype(np.uint64)  # bf16, round to nearest even
    out = ((x + 0x7FFF + ((x >> 16) & 1)) >> 16).astype(U32)
    return np.where(np.isnan(acc), U32(0x7FC0), out)


def int_bits(acc: np.ndarray, clamp: bool) -> np.ndarray:
    """An exact int64 accumulator -> i32 bits: wrapped, or saturated with ``clamp``."""
    if clamp:
        acc = np.clip(acc, -2**31, 2**31 - 1)
    return acc.astype(np.int64).astype(U32)


def d_writer(ins, row: int, wave: int, opsel: int = 0):
    """``write(st, g, out)``: D's element bits ``out`` [w, blocks, M, N] into its registers from
    VGPR ``row`` through the catalog's D layout (one fancy index for 32-bit elements; 16-bit ones
    merged into their register halves)."""
    tab = ins.scatter_index("D", opsel=opsel)
    _blocks, m, n = ins.shape("D")
    nreg = ins.vgprs["D"]
    dflat = None
    if tab.shape[2] == 1:  # one 32-bit element per register slot
        t = tab[:, :, 0, :]
        if (t[..., 0] < 0).any():
            raise ValueError("D layout has holes")
        dflat = (t[..., 0] * m * n + t[..., 1] * n + t[..., 2]).T  # [regs, lanes]

    def write(st, g, out):
        full = np.zeros((g.w, 64), U32)
        if dflat is not None:
            slots = np.take(out.reshape(g.w, -1), dflat, axis=1)  # [w, regs, lanes]
        else:  # 16-bit D: the other half of each register is kept
            slots = np.ascontiguousarray(
                st.R[row:row + nreg, g.ix, :wave].transpose(1, 0, 2))
            ins.scatter_bits(slots, "D", out, opsel=opsel)
        for k in range(nreg):
            full[:, :wave] = slots[:, k]
            st.vwrite(row + k, g, full)
    return write


@semantic(prefix="v_wmma_")
def _build_wmma(d: Decoded):
    from ....layouts import get

    try:
        ins = get(d.base, d.kernel.arch, wave_size=d.kernel.wave)
    except ValueError as e:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, str(e)) from None
    for k in d.mods:
        if k not in ("op_sel", "neg_lo", "neg_hi", "clamp", "op_sel_hi"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    at, bt, ct, dt = ins.a_type, ins.b_type, ins.c_type, ins.d_type
    integer = at in _INT

    def lst(v):
        return v if isinstance(v, list) else [v]
    neg_lo = lst(d.mods.get("neg_lo", [0, 0, 0]))
    neg_hi = lst(d.mods.get("neg_hi", [0, 0, 0]))
    opsel = lst(d.mods.get("op_sel", [0, 0, 0]))
    signed = (bool(neg_lo[0]), bool(neg_lo[1])) if integer else (False, False)
    if not integer and (any(neg_lo) or any(neg_hi)):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg_lo/neg_hi on floats")
    if integer and any(neg_hi):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg_hi on an integer WMMA")
    sel = 4 if (len(opsel) > 2 and opsel[2]) else 0
    if sel and not ins.cd_opsel:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on this WMMA")
    clamp = bool(d.mods.get("clamp"))
    if clamp and not integer:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "clamp on a float WMMA")
    nv, wave = d.kernel.n_vgpr, d.kernel.wave
    dst, a, b, c = d.ops
    for o in (dst, a, b):
        if o.kind != "v":
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"operand {o.text}")
    regs = ins.vgprs
    rows = {"A": row_of(a, nv), "B": row_of(b, nv), "D": row_of(dst, nv)}
    copies = ins.wave_size // 16 if ins.layout("A").shape and _replicated(ins) else 1
    if c.kind == "v":
        rows["C"] = row_of(c, nv)
    elif c.kind in ("imm", "fimm"):
        cconst = imm_bits(c, 32, ct[0] == "f")
    else:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"C operand {c.text}")

    # one fancy index per operand copy (the catalog's gather tables, as matrix.mfma reads MFMA
    # operands); D with 32-bit elements: the element index of every (register, lane) slot
    readers = {op: [_reader(rows[op], regs[op], gi, gi.bits) for gi in
                    (ins.gather_index(op, replica=r) for r in range(copies))] for op in "AB"}
    if "C" in rows:
        gc = ins.gather_index("C", opsel=sel)
        readers["C"] = [_reader(rows["C"], regs["C"], gc, gc.bits)]
    try:
        write = d_writer(ins, rows["D"], wave, opsel=sel)
    except ValueError as e:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, str(e)) from None

    def source(st, g, op):
        rd = readers[op]
        bits = rd[0](st, g)
        for rep in range(1, copies):
            other = rd[rep](st, g)
            if not np.array_equal(bits, other):
                raise EmulatorError(
                    f"`{d.inst.text}` at pc 0x{d.addr:x}: the lane copies of {op} differ "
                    f"(RDNA3 WMMA reads A/B replicated in lanes i and i+16; the kernel must "
                    f"fill every copy)")
        return bits

    def run(st, g):
        if not st.EM[g.ix, :wave].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; WMMA under divergence is not modelled")
        A, B = source(st, g, "A"), source(st, g, "B")
        if "C" in rows:
            C = readers["C"][0](st, g)
        else:
            C = np.full(ins.shape("C") and (g.w,) + tuple(ins.shape("C")), cconst, U32)
        if integer:
            acc = np.matmul(_as_int(A, at, signed[0]), _as_int(B, bt, signed[1])) + \
                C.astype(U32).view(np.int32).astype(np.int64)
            out = int_bits(acc, clamp)
        else:  # A and B each decoded with its own type (fp8 x bf8 mixes)
            out = float_bits(np.matmul(_decode32(A, at), _decode32(B, bt)) + _decode32(C, ct),
                             dt)
        write(st, g, out)
    return run


def _replicated(ins) -> bool:
    """Whether the catalog stores A/B elements in more than one lane (RDNA3)."""
    return len(ins.layout("A").location(0, 0, 0)) > 1
