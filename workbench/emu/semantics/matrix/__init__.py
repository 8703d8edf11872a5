"""Matrix families: CDNA's v_mfma_* (``mfma``, incl. gfx950's f8f6f4 formats and scales) and
RDNA's v_wmma_* (``wmma``), both reading their lane layouts from ``workbench.layouts``, the one
catalog of lane formulas.
"""
