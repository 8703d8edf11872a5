"""MFMA (v_mfma_*): D = A·B + C per block, lane layouts from the ``workbench.layouts`` catalog.

The catalog is the one source of lane formulas: ``gather_index`` gives, per operand element
(block, row, col), the lane and register it lives in (with CBSZ/ABID/BLGP applied), and
``scatter_index`` the inverse for D. Operands may be VGPRs or AGPRs (gfx90a+ unified file);
C may be an inline constant.

Arithmetic (AMD CDNA3 ISA, "Matrix Arithmetic Instructions": fp32 accumulation for
f16/bf16/f32 inputs, int32 for i8, f64 for f64): products of f16/bf16 inputs are exact in fp32;
the emulator sums them in fp32 (numpy matmul) and adds C in fp32. The hardware's internal
summation order is not documented, so results may differ from the device in the last bits when
partial sums cancel (tests compare with a tolerance of a few fp32 ulp for that reason). i8
accumulates exactly in int64 and wraps to int32; f64 in f64. MFMA is only defined here with a
full EXEC mask (clang never emits one under divergence); a partial EXEC raises instead of
guessing.

gfx950 f8f6f4 MFMAs (``v_mfma_[scale_]f32_{16x16x128,32x32x64}_f8f6f4``, ``_f8f6f4`` below):
CBSZ / BLGP pick the A / B element formats (``MatrixInstruction.with_formats``), decoded exactly
by the OCP tables of ``emu.mx``; the scaled forms multiply each A (B) element by the E8M0 scale
byte of the lane the catalog's ``scale_lane`` names, the byte chosen by op_sel/op_sel_hi
(A: op_sel[0] + 2*op_sel_hi[0], B: index 1; clang 22 builtin arguments opselA = 2, opselB = 3
print as ``op_sel:[0,1,0] op_sel_hi:[1,1,0]``); the unscaled forms use scale 1 (CDNA4 ISA:
ABID[0] = 0 forces the scale to 1.0). Products of these formats and power-of-two scales are
exact in float64; the emulator sums them in float64 and rounds D once to fp32 (the hardware's
internal order/precision is not documented: results agree bit for bit whenever that sum is
exact in fp32, which the tests arrange). Mixed-width selections (e.g. fp8 A x fp4 B) multiply
elements of equal logical k as each format's catalog layout labels them; CK's tables and its
hardware scale mapping cover the same-width pairs, and this pairing is the only one under which
an A element and the B element it meets share their 32-element scale block (an inference).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from ...decoder.operands import imm_bits, row_of
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from ...numerics import fp8, mx

U32, U64 = np.uint32, np.uint64

# Extra input-element decoders (raw bits, right-aligned -> float32 values, exact), keyed by the
# catalog's type name: gfx942's FNUZ fp8/bf8 (numerics.fp8) and gfx950's OCP fp8/bf8/fp6/bf6/fp4
# (numerics.mx); MFMAs whose A/B types have a decoder run with fp32 accumulation like the
# bf16/f16 ones. The number formats know nothing of the MFMA family: it reads their tables.
INPUT_DECODERS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    **{fmt: fp8.mfma_decoder(fmt) for fmt in fp8.FP8_TABLES},
    **{fmt: mx.mfma_decoder(fmt) for fmt in mx.MX_TABLES},
}


def _xf32(bits: np.ndarray) -> np.ndarray:
    """xf32 (gfx940 "TF32"): fp32 storage carrying 19 bits of data — sign, the 8-bit exponent
    and FP16's 10-bit mantissa (LLVM review D122044, which added v_mfma_*_xf32). Whether the
    hardware truncates or rounds the 13 dropped mantissa bits is not documented in any source
    we have; we truncate (mask 0xFFFFE000). Inputs that are exact in xf32 are unaffected."""
    return (bits.astype(U32, copy=False) & U32(0xFFFFE000)).view(np.float32)


INPUT_DECODERS["xf32"] = _xf32


def _decode32(bits: np.ndarray, t: str) -> np.ndarray:
    """Raw element bits -> float32 (exact for bf16/f16/f32 inputs)."""
    dec = INPUT_DECODERS.get(t)
    if dec is not None:
        return dec(bits)
    if t == "bf16":
        return (bits.astype(U32) << U32(16)).view(np.float32)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float32)
    if t == "f32":
        return bits.astype(U32, copy=False).view(np.float32)
    raise ValueError(t)


def _decode(bits: np.ndarray, t: str) -> np.ndarray:
    """Raw element bits (uint32/uint64) -> float64 (or int64 for i8) values."""
    if t == "bf16":
        return (bits.astype(U32) << U32(16)).view(np.float32).astype(np.float64)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "f32":
        return bits.astype(U32).view(np.float32).astype(np.float64)
    if t == "f64":
        return bits.astype(U64).view(np.float64)
    if t == "i8":
        return bits.astype(np.uint8).view(np.int8).astype(np.int64)
    if t == "i32":
        return bits.astype(U32).view(np.int32).astype(np.int64)
    raise ValueError(t)


def catalog_entry(name: str, arch: str):
    """The layout catalog's entry for MFMA ``name`` as ``arch`` executes it. gfx950's entry of a
    gfx942 MFMA it keeps carries gfx950's element types (its fp8/bf8 are OCP E4M3 / E5M2, not
    gfx942's FNUZ: triton PR 7186; ROCm/rocm-libraries PR 9113, FNUZ-coded f8 GEMMs
    "mismatched the hardware on gfx950"), so the emulator reads the types from the catalog."""
    from ....layouts import get

    return get(name, arch)


@cache
def _tables(name: str, arch: str, cbsz: int, abid: int, blgp: int):
    ins = catalog_entry(name, arch)
    ga = ins.gather_index("A", cbsz=cbsz, abid=abid, blgp=0)
    gb = ins.gather_index("B", blgp=blgp if ins.blgp == "lanes" else 0)
    gc = ins.gather_index("C")
    dtab = ins.scatter_index("D")  # [lanes, regs, elems, 3]
    return ins, ga, gb, gc, dtab


def _reader(st_rows: int, nregs: int, g_index, bits: int):
    """Gather an operand's elements from rows [st_rows, st_rows + nregs) of R."""
    flat = (g_index.reg.astype(np.int64) * 64 + g_index.lane).reshape(-1)
    flat_hi = ((g_index.reg.astype(np.int64) + 1) * 64 + g_index.lane).reshape(-1)
    shape = g_index.reg.shape
    shift = g_index.shift.reshape(-1).astype(U32)
    n = nregs  # the catalog's register count already includes the high dwords of 64-bit data
    # packed 6-bit elements (gfx950 fp6) may continue in the next register of the lane
    spans = bits < 32 and bool((g_index.shift + bits > 32).any())
    flat_next = (np.minimum(g_index.reg.astype(np.int64) + 1, n - 1) * 64
                 + g_index.lane).reshape(-1)

    def rd(st, g):
        x = st.R[st_rows:st_rows + n, g.ix]  # [n, w, 64]
        x2 = np.ascontiguousarray(x.transpose(1, 0, 2)).reshape(g.w, n * 64)
        words = np.take(x2, flat, axis=1)
        if bits == 64:
            v = words.astype(U64) | (np.take(x2, flat_hi, axis=1).astype(U64) << U64(32))
        elif bits == 32:
            v = words
        elif spans:
            v = words.astype(U64) | (np.take(x2, flat_next, axis=1).astype(U64) << U64(32))
            v = ((v >> shift.astype(U64)) & U64((1 << bits) - 1)).astype(U32)
        else:
            v = (words >> shift) & U32((1 << bits) - 1)
        return v.reshape((g.w,) + shape)
    return rd


def _build_mfma(d: Decoded):
    arch = d.kernel.arch
    try:
        ins = catalog_entry(d.base, arch)
    except ValueError as e:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, str(e)) from None
    if ins.formats:
        return _build_f8f6f4(d, ins)
    for k in d.mods:
        if k not in ("cbsz", "abid", "blgp", "neg"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    cbsz, abid, blgp = (int(d.mods.get(k, 0)) for k in ("cbsz", "abid", "blgp"))
    if "neg" in d.mods:
        # gfx940+ f64 MFMAs: LLVM prints the BLGP field as neg:[a,b,c] (negate A, B, C;
        # llvm/test/MC/AMDGPU/mai-gfx940.s), i.e. blgp = a | b << 1 | c << 2
        nl = d.mods["neg"] if isinstance(d.mods["neg"], list) else [d.mods["neg"]]
        blgp |= sum(int(bool(x)) << i for i, x in enumerate(nl))
    for t in (ins.a_type, ins.b_type):
        if t not in ("f32", "f16", "bf16", "i8", "f64") and t not in INPUT_DECODERS:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                     f"{t} MFMA inputs are not emulated yet")
    try:
        ins, ga, gb, gc, dtab = _tables(ins.name, arch, cbsz, abid, blgp)
    except ValueError as e:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, str(e)) from None
    nv = d.kernel.n_vgpr
    dst, a, b, c = d.ops
    for o in (dst, a, b):
        if o.kind not in ("v", "a"):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"operand {o.text}")
    regs = ins.vgprs
    ra = _reader(row_of(a, nv), regs["A"], ga, ga.bits)
    rb = _reader(row_of(b, nv), regs["B"], gb, gb.bits)
    if c.kind in ("v", "a"):
        rc = _reader(row_of(c, nv), regs["C"], gc, gc.bits)
    elif c.kind in ("imm", "fimm"):
        cbits = gc.bits
        cval = imm_bits(c, cbits, ins.c_type[0] == "f")
        cshape = gc.reg.shape

        def rc(st, g):
            return np.full((g.w,) + cshape, cval, U64 if cbits == 64 else U32)
    else:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"C operand {c.text}")
    neg = ins.negate_mask(blgp) if ins.blgp == "negate" else (False, False, False)
    at, bt, ct, dt = ins.a_type, ins.b_type, ins.c_type, ins.d_type
    # D scatter: for each (reg, lane) slot, the flat element index (or -1)
    blocks, m, n = ins.shape("D")
    tab = dtab[:, :, 0, :]  # [lanes, regs, 3]
    flat = np.where(tab[..., 0] >= 0, tab[..., 0] * m * n + tab[..., 1] * n + tab[..., 2], -1)
    flat = flat.T  # [regs, lanes]
    if (flat < 0).any():
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "D layout has holes")
    drow = row_of(dst, nv)
    wide = dt == "f64"
    # for 64-bit D the catalog lists an element under both of its registers: the second one
    # (same element as the register before it, in the same lane) holds the high dword
    hi_half = np.zeros(flat.shape, bool)
    hi_half[1:] = flat[1:] == flat[:-1]
    # Fast path (32-bit C/D with C laid out like D, as on every CDNA MFMA): work in register
    # slot order — D_slots = C_slots + (A·B)[slot element] — so C needs no gather and D no
    # scatter; only the product is permuted into slots with one fancy index.
    nreg_d = flat.shape[0]
    same_cd = (not wide and gc.bits == 32 and
               np.array_equal(flat[gc.reg.reshape(-1), gc.lane.reshape(-1)],
                              np.arange(flat.size)))
    crow = row_of(c, nv) if c.kind in ("v", "a") else None
    cconst = None if crow is not None else (_decode32 if dt == "f32" else _decode)(
        np.asarray(imm_bits(c, 32, ct[0] == "f"), U32), ct)

    f32acc = dt == "f32"
    dec = _decode32 if f32acc else _decode

    def inputs(st, g, decode):
        """A and B decoded by ``decode``; refuses a partial EXEC."""
        if not st.EM[g.ix].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; MFMA under divergence is not modelled")
        return decode(ra(st, g), at), decode(rb(st, g), bt)

    def run_fast(st, g):
        A, B = inputs(st, g, dec)
        P = np.take(np.matmul(A, B).reshape(g.w, -1), flat, axis=1)  # [w, regs, 64]
        P = P.transpose(1, 0, 2)  # [regs, w, 64]
        if crow is not None:
            P = P + dec(st.R[crow:crow + nreg_d, g.ix], ct)
        elif cconst != 0:
            P = P + cconst
        out = P.view(U32) if f32acc else P.astype(np.int64).astype(U32)
        if isinstance(g.ix, slice):
            st.R[drow:drow + nreg_d, g.ix] = out
        else:
            for k in range(nreg_d):
                st.vwrite(drow + k, g, out[k])

    if same_cd and not any(neg):
        return run_fast


    def run(st, g):
        A, B = inputs(st, g, _decode)
        C = _decode(rc(st, g), ct)
        if neg[0]:
            A = -A
        if neg[1]:
            B = -B
        if neg[2]:
            C = -C
        D = np.matmul(A, B) + C  # exact products; one rounding below
        if dt == "f32":
            out = D.astype(np.float32).view(U32)
        elif dt == "i32":
            out = D.astype(np.int64).astype(U32)
        else:
            out = D.astype(np.float64).view(U64)
        out = out.reshape(g.w, -1)
        for k in range(flat.shape[0]):
            v = out[:, flat[k]]
            if wide:  # a 64-bit element spans registers k (low dword) and k+1 (high dword)
                v = np.where(hi_half[k], v >> U64(32), v & U64(0xFFFFFFFF)).astype(U32)
            st.vwrite(drow + k, g, v)
    return run


def _mod_bit(v, i: int) -> int:
    """Bit ``i`` of an op_sel-style modifier printed as ``[a,b,c]`` (absent -> 0)."""
    if v is None:
        return 0
    v = v if isinstance(v, list) else [v]
    return int(v[i]) if i < len(v) else 0


def _decoding_reader(st_row: int, ins, operand: str):
    """Reader of an f8f6f4 operand's values (float64 [w, blocks, rows, cols], exact).

    4- and 8-bit formats go through the lane-major byte view of the operand's registers: one
    gather of bytes and one lookup in a 256-entry table (fp4: 512 entries, low / high nibble),
    instead of shifting every element out of its word; packed 6-bit ones (which may straddle
    registers) through ``_reader``."""

    g = ins.gather_index(operand)
    n = ins.vgprs[operand]
    table = mx.MX_TABLES[ins.dtype(operand)]
    shape = g.reg.shape
    if g.bits == 6:
        rd6 = _reader(st_row, n, g, 6)
        return lambda st, grp: np.take(table, rd6(st, grp).astype(np.intp))
    pos = (g.lane.astype(np.intp) * (4 * n) + g.reg * 4 + g.shift // 8).reshape(-1)
    if g.bits == 8:
        tab, nib = table, None
    else:  # byte -> low nibble (entries 0..255) or high nibble (256..511)
        b = np.arange(256)
        tab = np.concatenate([table[b & 15], table[b >> 4]])
        nib = (((g.shift % 8) // 4).reshape(-1) << 8).astype(np.uint16)

    def rd(st, grp):
        x = st.R[st_row:st_row + n, grp.ix]  # [n, w, 64] uint32 (little-endian bytes)
        lanes = np.ascontiguousarray(x.transpose(1, 2, 0)).view(np.uint8).reshape(grp.w, -1)
        codes = np.take(lanes, pos, axis=1)
        if nib is not None:
            codes = codes.astype(np.uint16) | nib
        return np.take(tab, codes).reshape((grp.w,) + shape)
    return rd


def _build_f8f6f4(d: Decoded, base):
    """gfx950 ``v_mfma_[scale_]f32_*_f8f6f4``: formats from CBSZ/BLGP, optional E8M0 scales."""

    def refuse(why: str):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, why)

    for k in d.mods:
        if k not in ("cbsz", "blgp") + (("op_sel", "op_sel_hi") if base.scaled else ()):
            refuse(f"modifier {k}")
    try:
        ins = base.with_formats(int(d.mods.get("cbsz", 0)), int(d.mods.get("blgp", 0)))
    except ValueError as e:
        refuse(str(e))
    if len(d.ops) != (6 if ins.scaled else 4):
        refuse(f"{len(d.ops)} operands")
    dst, a, b, c = d.ops[:4]
    nv = d.kernel.n_vgpr
    if any(o.neg or o.abs for o in d.ops):
        refuse("neg/abs source modifier")
    for o, op in ((dst, "D"), (a, "A"), (b, "B")):
        if o.kind not in ("v", "a") or o.n != ins.vgprs[op]:
            refuse(f"operand {op} = {o.text}: {ins.dtype(op)} needs {ins.vgprs[op]} registers")
    ra = _decoding_reader(row_of(a, nv), ins, "A")
    rb = _decoding_reader(row_of(b, nv), ins, "B")
    blocks, m, n = ins.shape("D")
    tab = ins.scatter_index("D")[:, :, 0, :]  # [lanes, regs, 3]
    flat = (tab[..., 1] * n + tab[..., 2]).T  # [regs, lanes] element of each D slot
    nreg = flat.shape[0]
    drow = row_of(dst, nv)
    if c.kind in ("v", "a"):
        if c.n != nreg:
            refuse(f"operand C = {c.text}: needs {nreg} registers")
        crow, cconst = row_of(c, nv), 0.0
    elif c.kind in ("imm", "fimm"):
        crow = None
        cconst = float(np.asarray(imm_bits(c, 32, True), U32).view(np.float32))
    else:
        refuse(f"C operand {c.text}")
    scales = None
    if ins.scaled:
        sa, sb = d.ops[4:6]
        for o in (sa, sb):
            if o.kind != "v" or o.n != 1:
                # LLVM allows only VGPRs here: with inline/SGPR constants the hardware reads
                # bits [30:23] as the scale (llvm-project PR 158117), which is not modelled
                refuse(f"scale operand {o.text} (only a VGPR)")
        shift = [8 * (_mod_bit(d.mods.get("op_sel"), i)
                      + 2 * _mod_bit(d.mods.get("op_sel_hi"), i)) for i in (0, 1)]
        scales = ((row_of(sa, nv), U32(shift[0]), ins.scale_lane("A")[0]),
                  (row_of(sb, nv), U32(shift[1]), ins.scale_lane("B")[0]))

    def run(st, g):
        if not st.EM[g.ix].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; MFMA under divergence is not modelled")
        A = ra(st, g)[:, 0]  # [w, M, K] float64
        B = rb(st, g)[:, 0]  # [w, K, N]
        if scales is not None:
            (row_a, sh_a, lane_a), (row_b, sh_b, lane_b) = scales
            A = A * np.take(mx.e8m0_to_f64(st.R[row_a, g.ix] >> sh_a), lane_a, axis=1)
            B = B * np.take(mx.e8m0_to_f64(st.R[row_b, g.ix] >> sh_b), lane_b, axis=1)
        P = np.take(np.matmul(A, B).reshape(g.w, -1), flat, axis=1).transpose(1, 0, 2)
        if crow is not None:
            P = P + st.R[crow:crow + nreg, g.ix].view(np.float32)
        elif cconst != 0:
            P = P + cconst
        out = P.astype(np.float32).view(U32)
        if isinstance(g.ix, slice):
            st.R[drow:drow + nreg, g.ix] = out
        else:
            for k in range(nreg):
                st.vwrite(drow + k, g, out[k])
    return run


semantic(prefix="v_mfma_", family="matrix.mfma")(_build_mfma)
