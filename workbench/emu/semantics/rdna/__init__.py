"""RDNA3/RDNA4-only families: wave32 saveexec, counter waits, GFX12's 64-bit and float SALU
ops and v_permlane16/x16 (``scalar``), and VOPD dual issue (``vopd``). Everything else RDNA
runs is the gfx9 table under ``decoder.rdna``'s renames.
"""
