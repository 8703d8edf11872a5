"""Instruction semantics, one small module per family, grouped by what the instructions act
on: ``scalar`` (SALU, SOPP, SMEM, MODE), ``valu`` (the VOP1/VOP2/VOP3 table and its rows,
compares, packed math, dot, conversions), ``memory`` (global/flat/scratch, buffer, LDS, DMA),
``matrix`` (MFMA, WMMA, SWMMAC) and ``rdna`` (what only RDNA3/RDNA4 have). Each family registers its
builders in ``decoder.registry`` on import (``families`` imports them all); RDNA code runs on the
same gfx9 table through ``decoder.rdna``'s renames. ``GENERATIONS`` below says which ISA
generation each family serves; its sources are the CDNA3, CDNA4, RDNA3 and RDNA4 ISA guides'
opcode tables, and each module's docstring names the sections it implements.
"""
from __future__ import annotations

CDNA3, CDNA4, RDNA3, RDNA4 = "CDNA3", "CDNA4", "RDNA3", "RDNA4"
ALL = (CDNA3, CDNA4, RDNA3, RDNA4)

# family (module path under semantics) -> the generations whose code objects use it.
# CDNA3 = gfx942, CDNA4 = gfx950, RDNA3 = gfx1100/gfx1102/gfx1151, RDNA4 = gfx1201.
GENERATIONS: dict[str, tuple[str, ...]] = {
    "scalar.salu": ALL, "scalar.salu1": ALL, "scalar.sopp": ALL, "scalar.smem": ALL,
    "scalar.mode": ALL,
    "valu.table": ALL, "valu.vint": ALL, "valu.vf32": ALL, "valu.vf64": ALL, "valu.vf16": ALL,
    "valu.vtrans": ALL, "valu.vcvt": ALL, "valu.vdiv": ALL, "valu.vcmp": ALL, "valu.vlane": ALL,
    "valu.vindex": ALL,  # gfx9 s_set_gpr_idx_* mode; v_movrel* on all
    "valu.vop3p": ALL, "valu.dot": ALL,
    "valu.fp8cvt": (CDNA3, CDNA4, RDNA4),  # FNUZ on gfx942, OCP on gfx950 / gfx1201
    "valu.cvtscale": (CDNA4,),  # v_cvt_scalef32_* (CDNA4 ISA)
    "memory.memops": ALL, "memory.vmem": ALL, "memory.buffer": ALL, "memory.ds": ALL,
    "memory.buffer_address": ALL,  # V# fields, buffer addressing and range checks per gen
    "memory.dstr": (CDNA4,),  # ds_read_b64_tr_* (CDNA4 ISA)
    "memory.ldsdma": (CDNA3, CDNA4),  # global/buffer_load ... lds
    "matrix.mfma": (CDNA3, CDNA4),  # gfx950 adds the f8f6f4 formats and scales
    "matrix.wmma": (RDNA3, RDNA4),
    "matrix.swmmac": (RDNA4,),  # sparse WMMA, 2:4 structured A (RDNA4 ISA)
    "rdna.scalar": (RDNA3, RDNA4), "rdna.vopd": (RDNA3, RDNA4),
}


def families_of(generation: str) -> list[str]:
    """The families a generation's code objects run on (``"CDNA4"`` -> [...])."""
    if generation not in ALL:
        raise ValueError(f"unknown ISA generation {generation!r}; known: {', '.join(ALL)}")
    return sorted(f for f, gens in GENERATIONS.items() if generation in gens)
