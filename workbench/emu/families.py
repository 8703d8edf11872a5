"""Imports every instruction family so that its semantics register in ``registry``.

Add a new family module here (see ``workbench.emu`` docstring, "How to add an instruction
family").
"""
from __future__ import annotations

from . import (  # noqa: F401
    fam_buffer,
    fam_cvtscale,
    fam_dot,
    fam_ds,
    fam_dstr,
    fam_fp8,
    fam_ldsdma,
    fam_mfma,
    fam_mode,
    fam_rdna,
    fam_salu,
    fam_smem,
    fam_sopp,
    fam_vcmp,
    fam_vcvt,
    fam_vdiv,
    fam_vf16,
    fam_vf32,
    fam_vf64,
    fam_vindex,
    fam_vint,
    fam_vlane,
    fam_vmem,
    fam_vop3p,
    fam_vopd,
    fam_vtrans,
    fam_wmma,
    fp8,  # registers the fp8/bf8 MFMA input decoders
    mx,  # registers the gfx950 OCP fp8/fp6/fp4 MFMA input decoders
)
