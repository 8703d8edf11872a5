"""Number formats the hardware computes in, bit-exact and free of emulator state: f16/bf16
conversions and denormal flushing (``floats``), correctly rounded fma, min/max and the other
float helpers the VALU families share (``vfloat``), gfx942's FNUZ fp8/bf8 value tables
(``fp8``), and gfx950's OCP fp8/bf8/fp6/bf6/fp4 tables, E8M0 scales and the round-to-nearest /
stochastic encoders (``mx``). The bottom floor of the emulator: it imports nothing from it.
"""
