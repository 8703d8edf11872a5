"""SOPP: branches, s_endpgm, s_barrier, s_waitcnt and the no-effect scheduling hints.

Branch target = address of the next instruction + 4 * simm16, simm16 taken from the encoding
word (CDNA3 ISA "SOPP": ``PC = PC + signext(SIMM16 * 4) + 4``). ``s_waitcnt`` has no
functional effect in an emulator where every memory operation completes at issue; it is still
counted per PC. ``s_nop``/``s_sleep``/``s_setprio`` and cache hints are likewise timing-only.
"""
from __future__ import annotations

import numpy as np

from ...decoder.registry import BARRIER, BRANCH, ENDPGM, Decoded, Exec, semantic
from ...errors import KernelFault, UnknownInstruction
from ...machine.state import EXEC, VCC


def _target(d: Decoded) -> int:
    simm = d.inst.words[0] & 0xFFFF
    if simm & 0x8000:
        simm -= 0x10000
    return d.addr + 4 + 4 * simm


@semantic("s_branch")
def _branch(d: Decoded):
    return Exec(lambda st, g: True, BRANCH, _target(d))


def _any(st, r, ix):
    if st.wave == 32:  # vcc_lo / exec_lo only (RDNA3 ISA §3.3)
        return st.S[r, ix] != 0
    if ix.__class__ is slice and ix.stop - ix.start == 1:  # one wave: a Python bool
        return st.S.item(r, ix.start) != 0 or st.S.item(r + 1, ix.start) != 0
    return (st.S[r, ix] | st.S[r + 1, ix]) != 0


def _none(st, r, ix):
    a = _any(st, r, ix)
    return not a if a.__class__ is bool else ~a


_COND = {
    "s_cbranch_scc0": lambda st, g: not st.SCC.item(g.ix.start) if g.w == 1 else ~st.SCC[g.ix],
    "s_cbranch_scc1": lambda st, g: st.SCC.item(g.ix.start) if g.w == 1 else st.SCC[g.ix].copy(),
    "s_cbranch_vccz": lambda st, g: _none(st, VCC, g.ix),
    "s_cbranch_vccnz": lambda st, g: _any(st, VCC, g.ix),
    "s_cbranch_execz": lambda st, g: _none(st, EXEC, g.ix),
    "s_cbranch_execnz": lambda st, g: _any(st, EXEC, g.ix),
}


@semantic(*_COND)
def _cbranch(d: Decoded):
    return Exec(_COND[d.base], BRANCH, _target(d))


@semantic("s_endpgm")
def _endpgm(d: Decoded):
    return Exec(lambda st, g: None, ENDPGM)


@semantic("s_barrier")
def _barrier(d: Decoded):
    return Exec(lambda st, g: None, BARRIER)


def _noop(d: Decoded):
    return lambda st, g: None


for _n in ("s_waitcnt", "s_nop", "s_sleep", "s_setprio", "s_icache_inv", "s_dcache_wb",
           "s_dcache_inv", "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_waitcnt_vscnt",
           "s_buffer_wbinvl1", "buffer_wbinvl1_vol", "buffer_wbl2", "buffer_inv",
           "s_dcache_wb_vol", "s_dcache_inv_vol"):
    semantic(_n)(_noop)


@semantic("s_trap")
def _trap(d: Decoded):
    def run(st, g):
        # a KernelFault naming the first trapping wave's active lanes; a failed assert's
        # message (printed just before) is added by launch.execute from the printf buffer
        em = st.EM[g.ix]
        wv = int(np.argmax(em.any(axis=1)))
        wave = int(g.waves[wv])
        lanes = [int(x) for x in np.flatnonzero(em[wv])]
        wg = tuple(int(x) for x in st.wg_global[wave])
        shown = lanes if len(lanes) <= 8 else lanes[:8] + ["..."]
        line = d.inst.source_line
        src = f" ({d.inst.location()})" if d.inst.location() else ""
        name = st.launch.kernel_name
        raise KernelFault(
            f"kernel {name!r} trapped: `{d.inst.text}` at pc 0x{d.addr:x}{src}, lanes {shown} "
            f"of wave {int(st.wave_in_wg[wave])} in workgroup {wg} (__builtin_trap, abort or "
            "a failed assert)", kernel=name, pc=d.addr, lanes=lanes, source_line=line,
            instruction=d.inst.text, workgroup=wg, wave=int(st.wave_in_wg[wave]),
            reason="trap")
    return run


@semantic("s_sethalt", "s_setkill")
def _unsupported(d: Decoded):
    raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "wave control not emulated")

