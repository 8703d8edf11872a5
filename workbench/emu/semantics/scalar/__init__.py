"""Scalar instruction families (all generations): SOP1/SOP2/SOPC/SOPK (``salu``) and its
one-wave Python-int fast path (``salu1``), SOPP branches, barriers and waits (``sopp``),
scalar memory (``smem``), and s_getreg/s_setreg on MODE and the HW_ID registers (``mode``).
"""
