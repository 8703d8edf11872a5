"""VOPD (RDNA3/RDNA4 dual issue): ``v_dual_X ... :: v_dual_Y ...`` runs two VALU ops of the
VALU table as one instruction.

Semantics (RDNA3 ISA §"VOPD" / "Dual issue VALU"): both halves read their sources before either
writes; the destinations differ (one even, one odd VGPR). Each half is compiled by the generic
VALU builder (``valu``) from its own operands; when X's destination is one of Y's sources, Y
sees X's destination as it was before the instruction.
"""
from __future__ import annotations

from ...decoder.operands import parse_operand, row_of, split_operands
from ...decoder.rdna import rename
from ...decoder.registry import Decoded, as_exec, lookup, semantic
from ...errors import UnknownInstruction

# VOPD opcodes whose VOP2 name differs (RDNA3 ISA "VOPD" opcode table): DOT2ACC is gfx9's
# v_dot2c, MUL_DX9_ZERO is v_mul_legacy (0 * anything = 0)
_VOPD_NAME = {"v_dot2acc_f32_f16": "v_dot2c_f32_f16", "v_dot2acc_f32_bf16": "v_dot2c_f32_bf16",
              "v_mul_dx9_zero_f32": "v_mul_legacy_f32"}


def _half(d: Decoded, mnemonic: str, operands: tuple):
    """(compiled handler, destination row, source rows) of one VOPD half."""
    if not mnemonic.startswith("v_dual_"):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"VOPD half {mnemonic!r}")
    name = "v_" + mnemonic[len("v_dual_"):]
    base = rename(_VOPD_NAME.get(name, name))
    pos, mods = split_operands(tuple(operands))
    ops = [parse_operand(p) for p in pos]
    if base == "v_cndmask_b32" and len(ops) == 3:
        ops.append(parse_operand("vcc_lo"))  # VOPD CNDMASK reads VCC_LO implicitly
    b = lookup(base)
    if b is None:
        raise UnknownInstruction(mnemonic, d.addr, d.inst.text)
    h = Decoded(d.inst, base + "_e32", base, "e32", ops, mods, d.kernel)
    nv = d.kernel.n_vgpr
    reads = {row_of(o, nv, k) for o in ops[1:] if o.kind == "v" for k in range(o.n)}
    if base in ("v_fmac_f32", "v_dot2c_f32_f16", "v_dot2c_f32_bf16"):
        reads.add(row_of(ops[0], nv))  # accumulators read their destination
    return as_exec(b(h)).run, row_of(ops[0], nv), reads


@semantic(prefix="v_dual_")
def _build_vopd(d: Decoded):
    if d.inst.dual is None:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "VOPD without its Y half")
    run_x, dst_x, _ = _half(d, d.mnemonic, d.inst.operands)
    run_y, _dst_y, reads_y = _half(d, *d.inst.dual)
    if dst_x not in reads_y:
        def run(st, g):
            run_x(st, g)
            run_y(st, g)
        return run

    def run_ordered(st, g):
        old = st.R[dst_x, g.ix].copy()
        run_x(st, g)
        new = st.R[dst_x, g.ix].copy()
        st.R[dst_x, g.ix] = old
        run_y(st, g)
        st.R[dst_x, g.ix] = new
    return run_ordered
