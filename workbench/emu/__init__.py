"""CPU emulator for gfx942 (CDNA3) and gfx950 (CDNA4) wave64 code objects and RDNA3 (gfx1100,
gfx1102, gfx1151) / RDNA4 (gfx1201) wave32 and wave64 code objects: every lane, every LDS
access.

The emulator executes the very code object the GPU would run (DESIGN.md "Emulator executes
ISA, not source"), batched over *all* waves that stand at the same PC: one numpy operation per
instruction for a whole lock-step group of waves.

Modules
-------
* ``registry``  — the semantic table (mnemonic -> builder) and the handler kinds.
* ``operands``  — operand text -> typed, pre-resolved register/constant accessors.
* ``decode``    — listing -> ``Program``: one compiled handler per instruction, cached per
  kernel (why text, not binary: see ``decode``'s docstring); the encoding length and format
  are checked against the encoding bits of every instruction.
* ``state``     — register file layout (``R [regs, W, 64]``, ``S [128, W]``, EXEC, SCC, LDS).
* ``memory``    — the flat address space of a launch (buffers at distinct bases with guard
  gaps, the code object's segments at ``CODE_BASE``) and its bounds checker; ``memops`` —
  vectorised gathers/scatters/atomics on it, LDS and scratch.
* ``elfmap``    — the code object's PT_LOAD segments and dynamic relocations (``static const``
  tables, ``__constant__``/``__device__`` data reached through s_getpc_b64), mapped when
  ``launch.execute`` gets ``elf=``.
* ``abi``       — initial wave state from the kernel descriptor (user/system SGPRs, packed
  work-item ids, EXEC, dispatch packet, kernarg preload; hidden args are packed by
  ``workbench.runtime.marshal``).
* ``engine``    — lock-step scheduler (groups, divergence and rejoin, barriers, budget,
  wall-clock watchdog, Ctrl-C).
* ``launch``    — one launch: memory map, batches of workgroups, copy-back; program cache.
* ``trace``     — per-launch trace: DS records as numpy columns, dynamic counts, bytes moved.
* ``check``     — check mode (``kernel.check[grid, block]``): LDS races by barrier epochs,
  uninitialised LDS/scratch reads, registers read before their s_waitcnt, barrier mismatches,
  spin-wait livelocks; an observer like ``trace``/``stream`` (nothing runs when off).
* ``coverage``  — executed opcodes vs. the semantic table; ``python tests/emu_corpus.py``
  runs the HIP corpus and prints it.
* ``floats``    — bit-exact f16/bf16 conversions and denormal flushing; ``fp8`` — the FNUZ
  fp8/bf8 value tables; ``mx`` — gfx950's OCP fp8/bf8/fp6/bf6/fp4 tables, E8M0 scales and the
  round-to-nearest-even encoder.
* families: ``fam_salu`` (SOP1/SOP2/SOPC/SOPK), ``fam_sopp`` (branches, barrier, waitcnt...),
  the VALU: ``valu`` (the one VOP1/VOP2/VOP3 opcode table ``OPS`` and its generic builder:
  modifiers, DPP, SDWA) with its rows in ``fam_vint`` (integer, bitwise, moves), ``fam_vf32``,
  ``fam_vf64``, ``fam_vf16`` (float arithmetic), ``fam_vtrans`` (rcp/rsq/sqrt/exp/log/sin/cos),
  ``fam_vcvt`` (conversions, packs), ``fam_vdiv`` (IEEE division steps); ``vfloat`` (correctly
  rounded fma and other float helpers), ``fam_vcmp`` (VOPC), ``fam_vlane`` (readlane/writelane),
  ``fam_vop3p`` (packed math, fma_mix), ``fam_dot`` (v_dot2/4/8 and the v_dot*c forms),
  ``fam_fp8`` (fp8/bf8 <-> f32 conversions, RNE and stochastic; OCP on gfx950),
  ``fam_cvtscale`` (gfx950 v_cvt_scalef32_* fp8/bf8/fp4 <-> f32, and the stochastic-rounding
  sr_* forms to fp8/bf8/fp4/fp6/bf6 from f32/f16/bf16), ``fam_smem``, ``fam_vmem``
  (global/flat/scratch, atomics), ``fam_buffer`` (MUBUF through V# resources, range-checked),
  ``fam_ds`` (LDS, permutes, swizzle), ``fam_dstr`` (gfx950 transposing LDS reads),
  ``fam_ldsdma`` (global/buffer -> LDS DMA), ``fam_mfma`` (v_mfma_* via ``workbench.layouts``,
  incl. gfx950's f8f6f4 formats and scales; v_accvgpr_* are VALU moves), ``fam_mode``
  (s_getreg/s_setreg on MODE; per-instruction float modes). RDNA: ``rdna`` (GFX11/GFX12
  formats, lengths and the mnemonic renames onto the gfx9 semantics), ``fam_rdna`` (wave32
  saveexec, counter waits, GFX12 SALU ops, v_permlane16/x16), ``fam_vopd`` (dual issue),
  ``fam_wmma`` (WMMA via ``workbench.layouts``). ``families`` imports them all.
* wave32 (``State.wave``): rows keep 64 lanes, lanes 32..63 are never enabled; a lane mask is
  one SGPR (vcc_lo, exec_lo, s[n]).
* one-wave fast paths: a group of one wave64 wave with all lanes in EXEC (``State.full``) and
  no observer (``state.solo``) takes shortcuts in the hottest handlers — dword global/flat/LDS
  accesses (``memops.solo_dwords``/``solo_lds``), VALU row stores, v_cmp masks, branch
  conditions, SALU on Python ints (``salu1``) — each falling back to the general path for
  anything it does not cover; tests/test_emu_one_wave.py holds them to the general path.

Entry points: ``workbench.runtime.emulator.EmulatorDevice`` (the Device; ``Kernel`` launches
go through it) and ``workbench.emu.launch.execute`` (numpy buffers + a kernarg builder).

How to add an instruction family
--------------------------------
1. Create ``workbench/emu/fam_<name>.py``. For each group of mnemonics write a *builder*::

       from .registry import semantic, Decoded
       from .operands import vread32, row_of

       @semantic("v_foo_f32", "v_bar_f32")          # base mnemonics (no _e32/_e64 suffix)
       def _build_foo(d: Decoded):                   # runs once per instruction per kernel
           nv = d.kernel.n_vgpr                      # AGPR rows start after the VGPRs
           dst, a, b = d.ops                         # Operand objects, parsed once
           ra, rb = vread32(a, nv), vread32(b, nv)   # pre-resolved readers
           r = row_of(dst, nv)
           def run(st, g):                           # runs per execution, for a whole group
               x = ra(st, g).view(np.float32)        # [w, 64] (or [w, 1] / scalar)
               st.vwrite(r, g, (x * 2).view(np.uint32))   # EXEC-masked write
           return run

   ``semantic(prefix="v_mfma_")`` registers a whole prefix. A builder must raise
   ``UnknownInstruction`` (``d.mnemonic``, ``d.addr``) for any modifier it does not implement —
   never ignore one; ``d.mods`` holds them (``"cbsz": 1``, ``"op_sel": [0, 1]``, ``"glc": True``).
   A plain VALU op needs no builder: it is one row of the VALU table, added from its family
   module with ``op = valu.table("fam_<name>")`` and ``op("v_foo_f32", "f32", "f32 f32", fn)``
   (result type, source types, a numpy function; ``valu.build_generic`` handles modifiers,
   DPP and SDWA).
2. Handlers operate on *groups*: ``g.ix`` selects the waves (slice or index array), ``g.w`` is
   their count; ``st.R[row, g.ix]`` is ``[w, 64] uint32``; ``st.S[slot, g.ix]`` is ``[w]``;
   ``st.EM[g.ix]`` is the EXEC mask. No per-lane or per-wave Python loops.
3. Control flow returns ``Exec(run, kind=BRANCH, target=...)`` etc. (see ``registry``).
4. Add the module to ``families.py``; add HIP kernels that exercise it to ``tests/kernels/emu``;
   the coverage report (``python tests/emu_corpus.py``) shows what the corpus executed.
5. Matrix lane layouts come only from ``workbench.layouts`` (the one catalog of lane formulas).

Float semantics follow the hardware, not numpy: denormal modes from the descriptor (and from
constant MODE writes), RNE bit-pattern conversions, single-rounding fma, fp32 accumulation for
MFMA (each choice cited where implemented). Known deviation: v_exp/v_log/v_rcp/v_rsq/v_sqrt
are correctly rounded here, while the hardware is specified at about 1 ulp.

Coverage (``python tests/emu_corpus.py``: the 33-case HIP corpus of tests/kernels/emu,
compiled by LLVM 22) executes 169 distinct mnemonics of a semantic table of 905 entries
(fam_buffer 1/54, fam_dot 1/11, fam_fp8 2/8, fam_mode 2/3; the VALU families together 83/406:
fam_vint 37/84, fam_vf32 13/26, fam_vcmp 16/210, fam_vcvt 7/25, fam_vtrans 4/16, fam_vdiv 3/7,
fam_vlane 2/5, fam_vf16 1/19, fam_vf64 0/14). Measured earlier with LLVM 19: all
tests/test_emu_*.py plus tests/test_prelude_math_emu.py together execute 270 (every fam_dot,
fam_fp8 and fam_mode entry, fam_buffer 9/54, the VALU families 121/406).
"""
from __future__ import annotations

from .errors import (
    BarrierDeadlock,
    BudgetExceeded,
    EmulationInterrupted,
    EmulatorError,
    KernelFault,
    TimeLimitExceeded,
    UnknownInstruction,
)

__all__ = ["EmulatorError", "KernelFault", "BudgetExceeded", "TimeLimitExceeded",
           "EmulationInterrupted", "BarrierDeadlock", "UnknownInstruction"]
