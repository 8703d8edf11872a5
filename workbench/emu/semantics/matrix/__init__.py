"""Matrix families: CDNA's v_mfma_* (``mfma``, incl. gfx950's f8f6f4 formats and scales), RDNA's
v_wmma_* (``wmma``) and RDNA4's sparse v_swmmac_* (``swmmac``), all reading their lane layouts
from ``workbench.layouts``, the one catalog of lane formulas.
"""
