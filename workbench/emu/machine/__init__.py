"""What the instructions act on: the register file of a lock-step group of waves (``state``:
``R [regs, W, 64]``, ``S [128, W]``, EXEC, SCC, LDS, MODE), the flat address space of a launch
with its guard gaps and bounds checker (``memory``), and the code object's loadable segments
mapped into it (``elfmap``). Data and address arithmetic only: no instruction semantics.
"""
