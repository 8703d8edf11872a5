"""Matrix-core register layouts: the catalog of MFMA (CDNA) and WMMA (RDNA) instructions.

This package is the one source of lane formulas in hipwb. It is a pure model (numpy only).

Lookup::

    from workbench import layouts
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", "gfx942")   # MatrixInstruction
    layouts.get("v_mfma_f32_16x16x16bf16_1k", "gfx942")       # LLVM alias spelling -> same entry
    layouts.get("v_wmma_f32_16x16x16_f16", "gfx1100", wave_size=64)
    layouts.list("gfx942"); layouts.names("gfx1201", wave_size=64); layouts.archs()

Unknown names/archs raise ValueError with close matches (difflib). Archs: gfx90a, gfx942 (all
dense MFMA), gfx950 (the new 16x16x32 / 32x32x16 f16/bf16 and the f8f6f4 MFMAs, whose
CBSZ/BLGP pick the A/B formats: ``ins.with_formats(cbsz, blgp)``, plus every gfx942 MFMA but the
two xf32 ones, with OCP fp8), gfx1100/gfx1102/gfx1151 (RDNA3 WMMA) and gfx1201 (RDNA4 WMMA and
the sparse SWMMAC: ``ins.sparse``, A stored 2:4-compressed as M x K/2, the compression index as
operand ``"I"``: ``ins.layout("I", index_key=0)``); RDNA entries exist for wave32 (default) and
wave64.

A `MatrixInstruction` carries name, m/n/k/blocks, a_type/b_type/c_type/d_type, wave_size,
`vgprs` per operand, cycles/passes (+ `timing_source`), the clang `builtin` and its argument
types (`builtin_types` = result, A, B, C), `aliases`, modifier support (`cbsz_abid`, `blgp` =
None | "lanes" | "negate", `cd_opsel`) and one `Layout` per operand: ``ins.A``, ``ins.B``,
``ins.C``, ``ins.D`` or ``ins.layout("D", opsel=4)``.

Layout (coordinates ``(block, row, col)``; A is [blocks, M, K], B [blocks, K, N], C/D
[blocks, M, N]; a register slot is ``(lane, reg, elem)`` with ``reg`` the VGPR offset from the
operand's base register and ``elem`` the sub-element of the 32-bit value: 0..1 for 16-bit,
0..3 for 8-bit, 0..7 for 4-bit types; a 64-bit element uses registers ``reg`` and ``reg+1``)::

    lay = ins.A
    lay.location(0, 5, 13)   # [Location(lane=53, reg=0, bit_lo=16, bit_hi=31)]  (list: RDNA3
                             #  A/B are replicated in several lanes)
    lay.coords(53, 0, 1)     # (0, 5, 13); None for an unused slot
    lay.lane_table(), lay.reg_table(), lay.elem_table()   # [blocks, rows, cols]
    lay.element_table()      # [lanes, regs, elems_per_reg, 3] -> (block,row,col) or -1
    print(lay)               # the matrix of lane.reg[.elem]

Modifiers (CDNA): ``ins.source_block(b, cbsz, abid)``, ``blgp_lane(lane, blgp)``,
``ins.negate_mask(blgp)`` (CDNA3 f64), ``ins.effective_source(op, b, r, c, cbsz=, abid=,
blgp=)``. OPSEL (RDNA3 16-bit C/D): ``ins.layout("C", opsel=4)``. gfx950 f8f6f4:
``ins.with_formats(cbsz, blgp)`` (A/B format codes 0..4 = fp8, bf8, fp6, bf6, fp4; packed 6-bit
elements may run past bit 31 into the next register), ``ins.scale_lane("A")`` (the lane whose
E8M0 scale byte scales each element of the ``v_mfma_scale_*`` forms).

For an emulator -- vectorised and cached (``functools.cache``)::

    g = ins.gather_index("A", cbsz=0, abid=0, blgp=0)   # GatherIndex: int32 [blocks, rows, cols]
    #   (opsel= for RDNA3 16-bit C/D; replica= picks which RDNA3 A/B copy to read)
    # g.lane, g.reg, g.elem, g.shift (= elem*bits), g.bits
    # with vgprs = uint32 [W, regs, lanes] (the operand's registers from its base VGPR):
    words = vgprs[:, g.reg, g.lane]                      # ONE fancy index -> [W, blocks, M, K]
    a_bits = (words >> g.shift) & ((1 << g.bits) - 1)    # 16/8/4-bit values, right-aligned
    # or simply: ins.gather_bits(vgprs, "A"); ins.scatter_bits(vgprs_d, "D", d_bits)
    ins.scatter_index("D")                               # inverse: element_table of D

Probe kernels (`workbench.layouts.probes`): ``probe_source(ins)`` calls the builtin;
``probes.emitted(arch)`` compiles them all and lists what LLVM emits.
"""

from __future__ import annotations

from .catalog import archs, get, instructions, names
from .instruction import GatherIndex, MatrixInstruction, blgp_lane
from .layout import Layout, Location

list = instructions  # noqa: A001 -- `layouts.list(arch)` is the documented lookup API

__all__ = ["GatherIndex", "Layout", "Location", "MatrixInstruction", "archs", "blgp_lane", "get",
           "instructions", "list", "names"]
