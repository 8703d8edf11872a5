"""Vector ALU families: the one VOP1/VOP2/VOP3 opcode table and its generic builder
(modifiers, DPP, SDWA; ``table``) with its rows by kind (``vint``, ``vf32``, ``vf64``,
``vf16``, ``vtrans``, ``vcvt``, ``vdiv``), compares (``vcmp``), lane reads/writes (``vlane``),
VGPR indexing (``vindex``), packed math (``vop3p``), dot products (``dot``), fp8/bf8
conversions (``fp8cvt``) and gfx950's scaled and stochastic conversions (``cvtscale``).
"""
