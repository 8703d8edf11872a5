"""CPU emulator for gfx942 (CDNA3) and gfx950 (CDNA4) wave64 code objects and RDNA3 (gfx1100,
gfx1102, gfx1151) / RDNA4 (gfx1201) wave32 and wave64 code objects: every lane, every LDS
access.

The emulator executes the very code object the GPU would run (docs/architecture.md "Emulator
executes ISA, not source"), batched over *all* waves that stand at the same PC: one numpy operation
per instruction for a whole lock-step group of waves.

Floors
------
The sub-packages import one way, bottom to top (``tests/test_layers.py`` forbids cycles):

* ``errors``     — what the emulator raises; each error names the kernel, pc, lanes, address.
* ``numerics/``  — number formats, bit-exact: ``floats`` (f16/bf16, denormal flushing),
  ``vfloat`` (correctly rounded fma, IEEE min/max, med3), ``fp8`` (gfx942's FNUZ tables), ``mx``
  (gfx950's OCP fp8/bf8/fp6/bf6/fp4 tables, E8M0 scales, RNE and stochastic encoders).
* ``machine/``   — what instructions act on: ``state`` (``R [regs, W, 64]``, ``S [128, W]``,
  EXEC, SCC, LDS, MODE), ``memory`` (the flat address space of a launch: buffers at distinct
  bases with guard gaps, the code object's segments at ``CODE_BASE``, the bounds checker),
  ``elfmap`` (PT_LOAD segments and dynamic relocations: ``static const`` tables,
  ``__constant__``/``__device__`` data reached through s_getpc_b64).
* ``decoder/``   — ``registry`` (the semantic table mnemonic -> builder, handler kinds,
  ``split_mnemonic``), ``operands`` (operand text -> typed, pre-resolved accessors), ``rdna``
  (GFX11/GFX12 formats, lengths and the mnemonic renames onto the gfx9 semantics), ``common``
  (typed reads and fault messages the families share).
* ``semantics/`` — the instruction families, one module each, in ``scalar/``, ``valu/``,
  ``memory/``, ``matrix/`` and ``rdna/``; ``semantics.GENERATIONS`` says which ISA generation
  each serves, ``semantics.families`` imports them all.
* ``observers/`` — ``trace`` (DS records as numpy columns, dynamic counts, bytes moved),
  ``check`` (check mode: LDS races by barrier epochs, uninitialised LDS/scratch reads, registers
  read before their s_waitcnt, barrier mismatches, spin-wait livelocks), ``stream`` (instruction
  streams for ``workbench.timing``), ``coverage`` (executed opcodes vs. the semantic table;
  ``python tests/emu_corpus.py`` runs the HIP corpus and prints it). Nothing runs when off.
* ``engine/``    — ``decode`` (listing -> ``Program``: one compiled handler per instruction,
  cached per kernel; encoding length and format checked against the encoding bits), ``abi``
  (initial wave state from the kernel descriptor: user/system SGPRs, packed work-item ids,
  EXEC, dispatch packet, kernarg preload; hidden args are packed by
  ``workbench.runtime.marshal``), ``scheduler`` (lock-step groups, divergence and rejoin,
  barriers, budget, wall-clock watchdog, Ctrl-C), ``launch`` (one launch: memory map, batches
  of workgroups, copy-back; program cache), ``printf`` (the device printf buffer).

* wave32 (``State.wave``): rows keep 64 lanes, lanes 32..63 are never enabled; a lane mask is
  one SGPR (vcc_lo, exec_lo, s[n]).
* one-wave fast paths: a group of one wave64 wave with all lanes in EXEC (``State.full``) and
  no observer (``state.solo``) takes shortcuts in the hottest handlers — dword global/flat/LDS
  accesses (``memops.solo_dwords``/``solo_lds``), VALU row stores, v_cmp masks, branch
  conditions, SALU on Python ints (``scalar.salu1``) — each falling back to the general path for
  anything it does not cover; tests/emu/test_emu_one_wave.py holds them to the general path.

Entry points: ``workbench.runtime.emulator.EmulatorDevice`` (the Device; ``Kernel`` launches
go through it) and ``workbench.emu.engine.launch.execute`` (numpy buffers + a kernarg builder).

How to add an instruction family
--------------------------------
1. Create ``workbench/emu/semantics/<group>/<name>.py``. For each group of mnemonics write a
   *builder*::

       from ...decoder.registry import semantic, Decoded
       from ...decoder.operands import vread32, row_of

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
   module with ``op = table("valu.<name>")`` (``semantics.valu.table``) and
   ``op("v_foo_f32", "f32", "f32 f32", fn)`` (result type, source types, a numpy function;
   ``table.build_generic`` handles modifiers, DPP and SDWA).
2. Handlers operate on *groups*: ``g.ix`` selects the waves (slice or index array), ``g.w`` is
   their count; ``st.R[row, g.ix]`` is ``[w, 64] uint32``; ``st.S[slot, g.ix]`` is ``[w]``;
   ``st.EM[g.ix]`` is the EXEC mask. No per-lane or per-wave Python loops.
3. Control flow returns ``Exec(run, kind=BRANCH, target=...)`` etc. (see ``registry``).
4. Add the module to ``semantics/families.py`` and its generations to
   ``semantics.GENERATIONS``; add HIP kernels that exercise it to ``tests/kernels/emu``;
   the coverage report (``python tests/emu_corpus.py``) shows what the corpus executed.
5. Matrix lane layouts come only from ``workbench.layouts`` (the one catalog of lane formulas).

Float semantics follow the hardware, not numpy: denormal modes from the descriptor (and from
constant MODE writes), RNE bit-pattern conversions, single-rounding fma, fp32 accumulation for
MFMA (each choice cited where implemented). Known deviation: v_exp/v_log/v_rcp/v_rsq/v_sqrt
are correctly rounded here, while the hardware is specified at about 1 ulp.

Coverage: ``python tests/emu_corpus.py`` runs the HIP corpus of tests/kernels/emu and prints,
per family (``valu.vint``, ``memory.ds``, ...), how many of the semantic table's entries it
executed; ``observers.coverage.report()`` gives the same for whatever ran in this process.
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
