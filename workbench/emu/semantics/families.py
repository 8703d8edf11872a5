"""Imports every instruction family so that its semantics register in ``decoder.registry``.

Add a new family module here (see the ``workbench.emu`` docstring, "How to add an instruction
family"); ``semantics.GENERATIONS`` says which ISA generation each family serves.
"""
from __future__ import annotations

from .matrix import mfma, swmmac, wmma  # noqa: F401
from .memory import buffer, ds, dstr, ldsdma, vmem  # noqa: F401
from .rdna import scalar, vopd  # noqa: F401
from .scalar import mode, salu, smem, sopp  # noqa: F401
from .valu import (  # noqa: F401
    cvtscale,
    dot,
    fp8cvt,
    vcmp,
    vcvt,
    vdiv,
    vf16,
    vf32,
    vf64,
    vindex,
    vint,
    vlane,
    vop3p,
    vtrans,
)
