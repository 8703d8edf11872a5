"""SWMMAC (RDNA4 v_swmmac_*): D += A·B with a 2:4 structured-sparse A, every operand placed by
the ``workbench.layouts`` catalog (the stored A, B, the compression index, C/D).

What the instruction does (AMD Matrix Instruction Calculator README, "Example of Using the OPSEL
Modifier to Change the Compression Index Set in the AMD RDNA 4 Architecture"; the RDNA4 ISA
guide's V_SWMMAC_* instructions): of every 4 consecutive k of a row of A, 2 values are stored (A is
M x K/2 in registers); Src2 is not C but a VGPR of 2-bit compression indices -- stored element
c of row i holds logical A[i][4*floor(c/2) + idx[i][c]] -- and the destination is accumulated in
place (C is the destination's old value). OPSEL (printed ``index_key:N``) picks which index set
of the VGPR is read. The emulator computes

    D[i][j] = C[i][j] + sum_c A[i][c] * B[4*floor(c/2) + idx[i][c]][j]

i.e. each stored value meets the B row its index names: with the two indices of a group
distinct (the 2:4 format) this is the product with the expanded A. For equal indices the result
is not documented; the emulator then adds both products rather than guessing otherwise.

Arithmetic as matrix.wmma: f16/bf16/fp8/bf8 products are exact; they are summed in float64 and
rounded once to the output type (the hardware's summation order is undocumented: results agree
bit for bit whenever the sum is exact, which the tests arrange); iu8/iu4 accumulate exactly and
wrap to int32 (``clamp`` saturates), ``neg_lo:[a,b,0]`` marks A / B as signed (LLVM prints the
builtin's sign flags so: llvm/test/MC/AMDGPU/gfx12_asm_wmma_w32.s). Full EXEC only, as WMMA.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import row_of
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from .mfma import _decode32, _reader
from .wmma import _INT, _as_int, d_writer, float_bits, int_bits

_MODS = ("index_key", "neg_lo", "neg_hi", "clamp")


def _flags(v) -> list[int]:
    return [int(x) for x in (v if isinstance(v, list) else [v])]


@semantic(prefix="v_swmmac_")
def _build_swmmac(d: Decoded):
    from ....layouts import get

    def refuse(why: str):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, why)

    try:
        ins = get(d.base, d.kernel.arch, wave_size=d.kernel.wave)
    except ValueError as e:
        refuse(str(e))
    for k in d.mods:
        if k not in _MODS:
            refuse(f"modifier {k}")
    integer = ins.a_type in _INT
    neg_lo, neg_hi = (_flags(d.mods.get(k, [0, 0, 0])) for k in ("neg_lo", "neg_hi"))
    if any(neg_hi) or (not integer and any(neg_lo)) or sum(neg_lo[2:]):
        refuse("neg_lo/neg_hi (only the A/B sign flags of the integer forms are modelled)")
    clamp = bool(d.mods.get("clamp"))
    if clamp and not integer:
        refuse("clamp on a float SWMMAC")
    try:
        gi = ins.gather_index("I", index_key=int(d.mods.get("index_key", 0)))
    except ValueError as e:
        refuse(str(e))
    if len(d.ops) != 4:
        refuse(f"{len(d.ops)} operands")
    nv, wave, regs = d.kernel.n_vgpr, d.kernel.wave, ins.vgprs
    dst, a, b, idx = d.ops
    for o, op in ((dst, "D"), (a, "A"), (b, "B"), (idx, "I")):
        if o.kind != "v" or o.n != regs[op] or o.neg or o.abs:
            refuse(f"operand {op} = {o.text}: needs {regs[op]} VGPRs")
    ga, gb, gc = (ins.gather_index(op) for op in "ABC")
    ra = _reader(row_of(a, nv), regs["A"], ga, ga.bits)
    rb = _reader(row_of(b, nv), regs["B"], gb, gb.bits)
    rc = _reader(row_of(dst, nv), regs["C"], gc, gc.bits)  # C is the destination's old value
    ri = _reader(row_of(idx, nv), 1, gi, gi.bits)
    write = d_writer(ins, row_of(dst, nv), wave)
    group = 4 * (np.arange(ins.shape("A")[2]) // 2)  # first k of each stored element's group
    at, bt, ct, dt = ins.a_type, ins.b_type, ins.c_type, ins.d_type
    signed = (bool(neg_lo[0]), bool(neg_lo[1])) if integer else (False, False)

    def run(st, g):
        if not st.EM[g.ix, :wave].all():
            raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x} executed with a partial "
                                "EXEC mask; SWMMAC under divergence is not modelled")
        rows = group + ri(st, g)[:, 0].astype(np.intp)  # [w, M, K/2]: B row of each value
        A, B, C = ra(st, g)[:, 0], rb(st, g)[:, 0], rc(st, g)
        if integer:
            A, B = _as_int(A, at, signed[0]), _as_int(B, bt, signed[1])
            C = C.astype(np.uint32).view(np.int32).astype(np.int64)
        else:
            A, B = _decode32(A, at).astype(np.float64), _decode32(B, bt).astype(np.float64)
            C = _decode32(C, ct).astype(np.float64)
        picked = B[np.arange(g.w)[:, None, None], rows]  # [w, M, K/2, N]
        acc = np.einsum("wmc,wmcn->wmn", A, picked)[:, None] + C
        write(st, g, int_bits(acc, clamp) if integer else float_bits(acc, dt))
    return run
