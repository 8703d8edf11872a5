"""Which integer arguments only decide which lanes run: the size ``n`` of ``if (i < n)``.

Why: the launch guard keys a verdict on every argument that can move an access
(``argument_flow``), so a size that changes every call costs a pre-flight per call. When the
ISA shows that an argument reaches nothing but lane gates, a larger value (for ``i < n``; a
smaller one for ``n < i``) runs the same lanes and more, each doing exactly what it did, at
the same addresses: a launch checked at ``n0`` covers every ``n`` on the same side of ``n0``.

Rules, read from the code the GPU runs; all must hold, else the argument is no gate:

1. **Gate compares.** Every compare that reads the argument is a VOPC ``v_cmp_{lt,le,gt,ge}``
   on ``i32/u32`` (a 4-byte argument) or ``i64/u64`` (8 bytes), with the argument's own
   registers, as its ``s_load`` of the kernarg segment left them, on one side and nothing
   derived from it on the other, before the kernel's first branch. Its mask is read by one
   ``s_and_saveexec`` (EXEC &= mask) and by nothing else before it is written again. Every
   gate of the argument agrees on the direction and the signedness.
2. **Nothing else.** With those compares cut, the argument reaches no sink of
   ``argument_flow``: no address, branch, EXEC or M0 write, nor memory.
3. **EXEC only narrows after a gate.** From each gate's ``s_and_saveexec`` on, a must-analysis
   keeps the masks that lie within it (a compare's result, EXEC saved after the gate, ANDs
   with those); every EXEC write must keep within (``s_and*`` with one of them; ``s_or``,
   ``s_xor``, ``s_mov`` of them only; ``s_andn2`` of one). The mask saved by the gate itself
   may only be restored, and after that restore the kernel ends.
4. **Lanes stay independent after a gate**, so a lane that runs at ``n`` does what it does at
   ``n0``: no cross-lane operation (DPP, permutes, ``readlane``, ``mbcnt``), no LDS and no
   barrier, no atomic that returns a value, no scalar memory but the kernarg segment, no
   scalar instruction reading a mask (popcounts, ballots) but the mask operations of rule 3,
   and no branch on VCC or on an SCC a mask operation set. Branches on EXEC (``execz``,
   ``execnz``) are LLVM's skips and loop exits around per-lane code, and are followed.

Sources: AMD Instinct MI300 ISA reference guide (VOPC compares write 0 for inactive lanes;
S_AND_SAVEEXEC_B64 saves EXEC then ANDs it); LLVM AMDGPUUsage (kernarg segment pointer SGPRs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .argument_flow import (
    _carry_out,
    _kernarg_sgpr,
    _ops,
    _reads,
    argument_flow,
    read_operands,
)
from .branches import branch_target

_CMP = re.compile(r"v_cmp(x?)_(lt|le|gt|ge)_([iu])(32|64)(?:_e32|_e64)?$")
_TRIVIAL = ("s_endpgm", "s_waitcnt", "s_nop", "s_code_end", "s_wait_", "s_delay_alu",
            "s_sendmsg", "s_dcache", "s_icache")
_CROSS_LANE = ("readfirstlane", "readlane", "writelane", "permlane", "mbcnt", "_dpp",
               "ds_", "s_barrier", "s_bcnt", "s_ff0", "s_ff1", "s_flbit", "s_bitcmp",
               "s_quadmask", "s_wqm", "swizzle", "s_setpc", "s_swappc", "s_call")
_LANE_LOCAL_MASK_READERS = ("v_cndmask", "v_addc", "v_subb", "v_add_co_ci", "v_sub_co_ci",
                            "v_subrev_co_ci", "v_subbrev", "v_div_fmas")
EXEC = ("EXEC",)


@dataclass(frozen=True)
class Gate:
    """An argument that only gates lanes: a verdict checked at value v0 holds for every v with
    v <= v0 (``increasing``: more lanes run as it grows) or v >= v0, compared as signed or
    unsigned ``bits``-bit integers."""

    increasing: bool
    signed: bool
    bits: int

    def covers(self, checked: int, value: int) -> bool:
        """Whether a launch checked with ``checked`` covers one with ``value``."""
        a, b = self.canonical(checked), self.canonical(value)
        return b <= a if self.increasing else b >= a

    def limits(self) -> tuple[int, int]:
        """The smallest and largest value of the compared type."""
        if self.signed:
            return -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        return 0, (1 << self.bits) - 1

    def widest(self) -> int:
        """The value that lets every lane through (the largest for ``increasing``, else the
        smallest): a launch checked with it covers every value."""
        return self.limits()[1 if self.increasing else 0]

    def accepts(self, checked: int, exact: bool = False) -> tuple[int, int]:
        """The argument values (as given, in the parameter's range) that a launch checked
        with ``checked`` covers, as (lo, hi): one range test per launch on the fast path.
        ``exact``: that value alone (a verdict other than "checked")."""
        c = self.canonical(checked)
        if exact:
            return c, c
        lo, hi = self.limits()
        return (lo, c) if self.increasing else (c, hi)

    def canonical(self, value: int) -> int:
        """``value`` as the compare reads it: two's complement or unsigned."""
        v = int(value) & ((1 << self.bits) - 1)
        if self.signed and v >> (self.bits - 1):
            v -= 1 << self.bits
        return v


def lane_gates(info: Any, listing: Any) -> dict[int, Gate]:
    """The explicit arguments (by index in ``info.args``) that are lane gates under the rules
    of the module docstring, with their direction; the others are absent. A listing the rules
    cannot read (an operand shape they do not expect) has none: every size stays in the key."""
    try:
        return _lane_gates(info, listing)
    except (IndexError, KeyError, ValueError, TypeError, AttributeError):
        return {}


def _lane_gates(info: Any, listing: Any) -> dict[int, Gate]:
    insts = list(listing.instructions)
    if not insts or getattr(listing, "callees", None):
        return {}
    desc = info.descriptor
    if desc.kernarg_preload_length or not desc.enable_sgpr_kernarg_segment_ptr:
        return {}
    kptr = (("s", _kernarg_sgpr(desc)), ("s", _kernarg_sgpr(desc) + 1))
    ops_of = [_ops(ins) for ins in insts]
    probe: dict = {}
    if argument_flow(info, listing, probe=probe).all_relevant:
        return {}
    out: dict[int, Gate] = {}
    for idx, a in enumerate(info.args):
        if a.is_pointer or a.size not in (4, 8) or a.offset % 4:
            continue
        dwords = frozenset(range(a.offset // 4, a.offset // 4 + a.size // 4))
        readers = [i for i, taints in probe.items() if _CMP_ANY.match(insts[i].mnemonic)
                   and any(t & dwords for t in taints[_first_src(insts[i]):])]
        if not readers:
            continue
        gates = [_gate(insts, ops_of, i, probe[i], dwords, a, kptr) for i in readers]
        if any(g is None for g in gates) or len({g[0] for g in gates}) != 1:
            continue
        flow = argument_flow(info, listing, cut=frozenset(readers))
        if flow.all_relevant or flow.relevant(a.offset, a.size):
            continue
        if all(_region_ok(insts, ops_of, g[1], g[2], kptr) for g in gates):
            out[idx] = gates[0][0]
    return out


def _first_src(ins: Any) -> int:
    """Where a compare's sources start: v_cmpx (GFX10+) writes EXEC alone, no mask operand."""
    return 0 if ins.mnemonic.startswith("v_cmpx") else 1


def _gate(insts: list, ops_of: list, i: int, taints: list, dwords: frozenset, arg: Any,
          kptr: tuple) -> tuple[Gate, int, frozenset] | None:
    """(the gate, the index of the instruction that narrows EXEC by it, the registers that
    hold EXEC as it was before) when instruction ``i`` is a gate compare of the argument
    (rule 1), else None. GFX9 compares into VCC and ``s_and_saveexec``s it; GFX10+ often
    copies EXEC (``s_mov_b32 s2, exec_lo``) and narrows it with ``v_cmpx``."""
    ins, ops = insts[i], ops_of[i]
    m = _CMP.match(ins.mnemonic)
    f = _first_src(ins)
    if m is None or len(ops) != f + 2 or int(m.group(4)) != 8 * arg.size:
        return None
    side = [k for k in (f, f + 1) if taints[k] & dwords]
    if len(side) != 1 or taints[2 * f + 1 - side[0]] & dwords or taints[side[0]] != dwords:
        return None
    if not _loaded_as_is(insts, ops_of, i, ops[side[0]], arg, kptr):
        return None
    gate = Gate((m.group(2) in ("gt", "ge")) == (side[0] == f), m.group(3) == "i",
                8 * arg.size)
    if m.group(1):  # v_cmpx: the copy of EXEC made just before, if any, is the saved mask
        saved: frozenset = frozenset()
        for j in range(i - 1, -1, -1):
            o = ops_of[j]
            if insts[j].mnemonic.startswith("s_mov_b") and len(o) == 2 and o[1] == [EXEC]:
                saved = frozenset(o[0])
                break
            if EXEC in _dests(insts[j], o):
                break
        return gate, i, saved
    mask = ops[0]
    saveexec = None
    for j in range(i + 1, len(insts)):
        nxt, o = insts[j], ops_of[j]
        if nxt.mnemonic.startswith("s_and_saveexec") and len(o) == 2 and o[1] == mask \
                and saveexec is None:
            saveexec = j
        elif any(r in mask for r in _reads(nxt, o)) or (nxt.mnemonic.startswith(
                "s_cbranch_vcc") and ("VCC",) in mask):
            return None
        if j != saveexec and any(r in mask for r in _dests(nxt, o)):
            break  # the mask is written again: no later reads of this one
        if nxt.mnemonic.startswith("s_endpgm"):
            break
    if saveexec is None:
        return None
    return gate, saveexec, frozenset(ops_of[saveexec][0])


def _loaded_as_is(insts: list, ops_of: list, i: int, regs: list, arg: Any,
                  kptr: tuple) -> bool:
    """Whether ``regs`` hold the argument exactly as an ``s_load`` of the kernarg segment
    put it there: on the straight line from the kernel's entry (no branch before ``i``), the
    last write of each is that load, at the argument's dword."""
    want = {r: arg.offset // 4 + k for k, r in enumerate(regs)}
    last: dict = {}
    for j in range(i):
        ins, o = insts[j], ops_of[j]
        if ins.mnemonic.startswith(("s_branch", "s_cbranch", "s_setpc")):
            return False
        for r in (o[0] if o else []):
            if r in want:
                last[r] = j
    for r, dword in want.items():
        j = last.get(r)
        if j is None or r[0] != "s":
            return False
        ins, o = insts[j], ops_of[j]
        if not ins.mnemonic.startswith("s_load") or len(o) < 2 or tuple(o[1]) != kptr:
            return False
        if any(r2 in kptr for k in range(j) for r2 in (ops_of[k][0] if ops_of[k] else [])):
            return False
        try:
            off = int(ins.operands[2], 0)
        except (IndexError, ValueError):
            return False
        if off % 4 or off // 4 + o[0].index(r) != dword:
            return False
    return True


def _dests(ins: Any, ops: list) -> list[tuple]:
    """The registers an instruction writes (stores, compares and branches write none)."""
    m = ins.mnemonic
    if not ops or m.startswith(("s_cmp", "s_bitcmp", "s_cbranch", "s_setpc", "s_swappc")) or (
            ("_store" in m or "_write" in m or "atomic" in m) and not m.startswith("v_")):
        return []
    if m.startswith("v_cmpx"):  # EXEC, and on GFX9 a mask operand too
        return [EXEC] + (list(ops[0]) if len(ops) == 3 else [])
    return list(ops[0]) + (list(ops[1]) if _carry_out(m, ops) else [])


def _succs(insts: list, i: int, index: dict) -> list[int]:
    ins = insts[i]
    m = ins.mnemonic
    out = []
    t = branch_target(ins)
    if t is not None:
        if t not in index:
            return [-1]
        out.append(index[t])
    if not m.startswith(("s_branch", "s_endpgm", "s_setpc", "s_code_end")) and \
            i + 1 < len(insts):
        out.append(i + 1)
    return out


def _region_ok(insts: list, ops_of: list, g: int, saved: frozenset, kptr: tuple) -> bool:
    """Rules 3 and 4 for the gate that narrows EXEC at instruction ``g``, the mask before
    it held in ``saved``."""
    index = {ins.addr: k for k, ins in enumerate(insts)}
    kp = not any(r in kptr for k in range(g + 1) for r in _dests(insts[k], ops_of[k]))
    # per instruction: (masks within the gate [must], SCC may come from a mask op [may],
    # registers that may still hold the mask the gate saved [may], kernarg pointer intact
    # [must])
    start = g + 1
    state: dict[int, tuple] = {start: (frozenset(), True, saved, kp)}
    work = [start] if start < len(insts) else []
    while work:
        i = work.pop()
        res = _step(insts[i], ops_of[i], state[i], kptr)
        if res is None:
            return False
        if res == "restore":
            if not _ends(insts, i, index):
                return False
            continue
        for n in _succs(insts, i, index):
            if n < 0:
                return False
            old = state.get(n)
            new = res if old is None else (old[0] & res[0], old[1] or res[1],
                                           old[2] | res[2], old[3] and res[3])
            if new != old:
                state[n] = new
                work.append(n)
    return True


def _ends(insts: list, i: int, index: dict) -> bool:
    """Whether only trivial instructions are reachable after instruction ``i``."""
    seen, work = set(), [n for n in _succs(insts, i, index)]
    while work:
        n = work.pop()
        if n < 0:
            return False
        if n in seen:
            continue
        seen.add(n)
        m = insts[n].mnemonic
        if not (m.startswith(_TRIVIAL) or m.startswith("s_branch")):
            return False
        work += _succs(insts, n, index)
    return True


def _step(ins: Any, ops: list, cur: tuple, kptr: tuple):
    """One instruction of a gate's region: its new state, "restore" for the gate's own
    restore, or None when it breaks rule 3 or 4."""
    sub, scc_mask, saved, kp = cur
    m = ins.mnemonic
    dests = _dests(ins, ops)
    srcs = read_operands(ins, ops)
    flat = [r for g in srcs for r in g]
    d = set(dests)
    after = (frozenset(sub - d), scc_mask, frozenset(saved - d),
             kp and not any(r in d for r in kptr))  # the state once dests are written
    if m.startswith(_CROSS_LANE) or any(x in m for x in _CROSS_LANE[:6]):
        return None
    if any(str(o).startswith(("dpp", "row_", "quad_perm", "bank_mask")) for o in
           ins.operands[ins.n_regs:]):
        return None
    if "atomic" in m and ("_rtn" in m or any(x in ("glc", "sc0") for x in
                                             ins.operands[ins.n_regs:])):
        return None
    if m.startswith(("s_load", "s_buffer", "s_store", "s_atomic", "s_scratch")):
        if not (kp and m.startswith("s_load") and len(ops) >= 2 and tuple(ops[1]) == kptr):
            return None
    if m.startswith("s_cbranch"):
        if "vcc" in m or ("scc" in m and scc_mask):
            return None
        return cur
    within = sub | {EXEC}

    def inside(group: list) -> bool:
        return bool(group) and all(r in within for r in group)

    if any(r in saved for r in flat):
        writes_exec = EXEC in dests or "saveexec" in m
        if not writes_exec or m.startswith("s_and_saveexec"):
            return None
        return "restore"
    reads_mask = any(r in within for r in flat) or "saveexec" in m
    if _CMP_ANY.match(m):  # VOPC: 0 for inactive lanes, so within EXEC (v_cmpx: EXEC &=)
        return after[0] | set(dests), *after[1:]
    if "saveexec" in m:
        kind = m.split("_saveexec")[0]
        ok = kind == "s_and" or (kind in ("s_or", "s_andn2", "s_xor") and inside(srcs[0]))
        if not ok:
            return None
        return after[0] | set(dests), True, *after[2:]
    if m.startswith(("s_and_b", "s_or_b", "s_xor_b", "s_andn2_b", "s_mov_b")) and (
            reads_mask or EXEC in dests):
        if m.startswith("s_and_b"):
            ok = any(inside(g) for g in srcs)
        elif m.startswith("s_andn2_b"):
            ok = bool(srcs) and inside(srcs[0])
        else:
            ok = all(inside(g) for g in srcs)
        if EXEC in dests and not ok:
            return None
        scc = True if not m.startswith("s_mov") else scc_mask
        return (after[0] | set(dests) if ok else after[0]) - {EXEC}, scc, *after[2:]
    if EXEC in dests or (reads_mask and not m.startswith(_LANE_LOCAL_MASK_READERS)):
        return None
    writes_scc = m.startswith("s_") and not m.startswith(("s_mov", "s_cselect", "s_cmov"))
    return after[0], (False if writes_scc else scc_mask), *after[2:]


_CMP_ANY = re.compile(r"v_cmpx?_")
