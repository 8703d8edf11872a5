"""Which bytes of a kernel's arguments can change where it accesses memory or which way it
branches: a taint analysis of its ISA listing.

Why: the launch guard (``runtime.guard``) keeps a verdict per launch signature. A scalar that
never reaches an address, a branch or the exec mask cannot move an access, so its value can be
left out of the signature: ``y[i] = a * x[i]`` with a new ``a`` every call reuses the verdict.
This is a fact read from the code the GPU runs, not a guess from the argument's type.

Rules (flow-insensitive, iterated to a fixed point, so loops and branches are covered):
- sources: the explicit arguments' kernarg dwords, read by ``s_load*`` whose base is the
  kernarg-segment-pointer user SGPR pair (its place: AMDGPUUsage "Initial Kernel Execution
  State": private segment buffer 4, dispatch ptr 2, queue ptr 2, then kernarg segment ptr),
  at an immediate offset, before the first instruction that overwrites that pair; and the
  preloaded kernarg SGPRs (gfx940+ "kernarg preload", descriptor bits 470:464 and 479:471);
- propagation: every register an instruction writes takes the union of what it reads (SALU
  also through SCC, VOPC/carry-out through VCC or their SGPR pair); a value stored to global,
  LDS or scratch memory taints every load from that memory (a kernel could read it back);
- sinks: every address operand of a memory instruction (vaddr, saddr, srsrc, soffset, sbase,
  DS addresses), everything written to EXEC or M0, the SCC/VCC/EXEC read by ``s_cbranch_*``,
  and the operands of ``s_setpc``/``s_swappc``.
Anything the analysis cannot place (an instruction outside these families, the kernarg pointer
copied or indexed by a register, a backward branch into the kernarg loads) makes every
argument relevant: the answer is only ever "this byte provably cannot move an access".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .branches import branch_target

_REG = re.compile(r"\b([sva])\[(\d+):(\d+)\]|\b([sva])(\d+)\b|\b(vcc|exec|m0|scc)(?:_lo|_hi)?\b"
                  r"|\b(ttmp)(\d+)\b|\bttmp\[(\d+):(\d+)\]")
_NO_EFFECT = ("s_waitcnt", "s_barrier", "s_nop", "s_endpgm", "s_branch", "s_sendmsg",
              "s_setprio", "s_sleep", "s_dcache", "s_icache", "buffer_wbl2", "buffer_inv",
              "buffer_wbinvl1", "s_trap", "s_wait_", "s_delay_alu", "s_clause", "s_set_inst",
              "s_sethalt", "s_ttrace", "s_code_end", "s_denorm_mode", "s_round_mode",
              "s_setreg", "s_inst_prefetch", "s_incperflevel", "s_decperflevel", "s_icache_inv",
              "s_setkill", "s_wakeup", "s_buffer_wbinv", "s_barrier_", "s_singleuse",
              "s_version", "s_cbranch_join")
_READS_SCC = ("s_cselect", "s_addc", "s_subb", "s_cmov")
# SALU ops that leave SCC alone (ISA guides' SOP1/SOP2/SOPK tables: moves, selects, int
# multiplies, conversions and the GFX11.5+ float SALU); every other SALU op may write it.
_KEEPS_SCC = ("s_mov", "s_cmov", "s_cselect", "s_cvt_", "s_fmac", "s_fmaak", "s_fmamk",
              "s_add_f", "s_sub_f", "s_mul_f", "s_min_f", "s_max_f", "s_mul_i32", "s_mul_hi",
              "s_mulk", "s_sext", "s_brev", "s_bitset", "s_pack", "s_ceil", "s_floor",
              "s_trunc", "s_rndne")
_MEM_PREFIX = ("global_", "flat_", "scratch_", "buffer_", "tbuffer_", "ds_", "s_load",
               "s_buffer_load", "s_scratch", "s_store", "s_buffer_store", "s_atomic",
               "s_buffer_atomic")


@dataclass(frozen=True)
class ArgumentFlow:
    """The kernarg dwords (byte offset // 4) whose values can reach an address or a branch;
    ``all_relevant``: the analysis gave up (every argument counts), with ``why``."""

    dwords: frozenset[int]
    all_relevant: bool = False
    why: str = ""

    def relevant(self, offset: int, size: int) -> bool:
        """Whether any byte of ``[offset, offset + size)`` of the kernarg segment can move an
        access."""
        if self.all_relevant:
            return True
        return any(d in self.dwords for d in range(offset // 4, (offset + size + 3) // 4))


def _regs(text: str) -> list[tuple]:
    """Register units named in one operand: ('s', i), ('v', i), ('a', i), ('VCC',), ..."""
    out: list[tuple] = []
    for m in _REG.finditer(text):
        if m.group(1):
            out += [(m.group(1), i) for i in range(int(m.group(2)), int(m.group(3)) + 1)]
        elif m.group(4):
            out.append((m.group(4), int(m.group(5))))
        elif m.group(6):
            out.append((m.group(6).upper(),))
        elif m.group(7):
            out.append(("t", int(m.group(8))))
        elif m.group(9):
            out += [("t", i) for i in range(int(m.group(9)), int(m.group(10)) + 1)]
    return out


def _ops(ins: Any) -> list[list[tuple]]:
    return [_regs(o) for o in ins.operands[:ins.n_regs]]


def _flat(groups: Iterable[list[tuple]]) -> list[tuple]:
    return [r for g in groups for r in g]


def _space(m: str) -> tuple[str, ...]:
    if m.startswith("ds_"):
        return ("LMEM",)
    if m.startswith(("scratch_", "s_scratch")):
        return ("PMEM",)
    if m.startswith("flat_"):
        return ("GMEM", "LMEM", "PMEM")
    return ("GMEM",)


def _memory(m: str, ops: list[list[tuple]], mods: tuple[str, ...]):
    """(dests, data sources, address sinks, memory spaces) of a memory instruction."""
    returns = any(x in ("glc", "sc0") for x in mods) or "_rtn" in m
    lds = "lds" in mods or "_lds_" in m or m.endswith("_lds")
    if m.startswith("ds_"):
        if m.startswith(("ds_read", "ds_load")) or (returns or "_rtn" in m):
            return ops[0], _flat(ops[2:]), _flat(ops[1:2]), _space(m)
        if m.startswith(("ds_swizzle", "ds_permute", "ds_bpermute")):
            return ops[0], _flat(ops[1:]), [], ()  # lane data movement, no memory
        if m.startswith(("ds_append", "ds_consume")):
            return ops[0], [], [], _space(m)
        return [], _flat(ops[1:]), _flat(ops[:1]), _space(m)  # writes and atomics
    is_store = "_store" in m
    atomic = "atomic" in m
    if m.startswith(("buffer_", "tbuffer_", "s_buffer_")):  # vdata first, then addresses
        if is_store or (atomic and not returns):
            return [], _flat(ops[:1]), _flat(ops[1:]), _space(m)
        if atomic:
            return ops[0], _flat(ops[:1]), _flat(ops[1:]), _space(m)
        return ([] if lds else ops[0]), [], _flat(ops[1:] if not lds else ops), _space(m)
    if m.startswith(("s_load", "s_scratch_load")):
        return ops[0], [], _flat(ops[1:]), _space(m)
    if m.startswith(("s_store", "s_scratch_store")):
        return [], _flat(ops[:1]), _flat(ops[1:]), _space(m)
    if m.startswith("s_atomic"):
        return (ops[0] if returns else []), _flat(ops[:1]), _flat(ops[1:]), _space(m)
    # global_ / flat_ / scratch_: loads (vdst, vaddr, saddr), stores (vaddr, vdata, saddr),
    # atomics with return (vdst, vaddr, vdata, saddr) or without (vaddr, vdata, saddr)
    if lds:  # global_load_lds_*: vaddr, saddr (M0 holds the LDS address: a sink anyway)
        return [], [], _flat(ops), _space(m)
    if atomic:
        if returns:
            return ops[0], _flat(ops[2:3]), _flat(ops[1:2] + ops[3:]), _space(m)
        return [], _flat(ops[1:2]), _flat(ops[:1] + ops[2:]), _space(m)
    if is_store:
        return [], _flat(ops[1:2]), _flat(ops[:1] + ops[2:]), _space(m)
    return ops[0], [], _flat(ops[1:]), _space(m)


def _kernarg_sgpr(desc: Any) -> int:
    return (4 * desc.enable_sgpr_private_segment_buffer + 2 * desc.enable_sgpr_dispatch_ptr
            + 2 * desc.enable_sgpr_queue_ptr)


def _imm(text: str) -> int | None:
    """An s_load's offset operand: an immediate, or ``null``/``off`` (GFX11+: no soffset, so
    offset 0); None for a register."""
    if text in ("null", "off"):
        return 0
    try:
        return int(text, 0)
    except ValueError:
        return None


def _reads(ins: Any, ops: list[list[tuple]]) -> list[tuple]:
    """The registers an instruction reads (for spotting uses of the kernarg pointer)."""
    return _flat(read_operands(ins, ops))


def read_operands(ins: Any, ops: list[list[tuple]]) -> list[list[tuple]]:
    """The operands an instruction reads, each as its register units."""
    m = ins.mnemonic
    if m.startswith(("s_cmp", "s_bitcmp", "s_cbranch", "s_setpc", "s_swappc")) or (
            m.startswith(_MEM_PREFIX) and ("_store" in m or "_write" in m or "atomic" in m)) or (
            m.startswith("v_cmpx") and len(ops) == 2):  # GFX10+ v_cmpx: sources only
        return list(ops)
    if _carry_out(m, ops):  # v_add_co_u32 v0, s[0:1], ...: the SGPR pair is written
        return ops[2:]
    return ops[1:]


def _carry_out(m: str, ops: list[list[tuple]]) -> bool:
    """A VOP3 form with a second (SGPR/VCC) destination: carry-out, div_scale's flag."""
    return (m.startswith("v_") and ("_co_" in m or "div_scale" in m or "mad_u64_u32" in m
                                    or "mad_i64_i32" in m) and len(ops) > 1 and bool(ops[1])
            and ops[1][0][0] in ("s", "VCC"))


def argument_flow(info: Any, listing: Any, cut: frozenset[int] = frozenset(),
                  probe: dict | None = None) -> ArgumentFlow:
    """The ``ArgumentFlow`` of one kernel: ``info`` its KernelInfo (descriptor, arguments),
    ``listing`` its isa.Listing (callees included: a call makes every argument relevant).

    ``cut``: indices of instructions whose results take no taint (``lane_gates`` cuts the
    compares it proves to be lane gates); ``probe``: filled with, per instruction index, the
    taint of each operand as it is read (the union over every path)."""
    desc = info.descriptor
    explicit_end = max((a.offset + a.size for a in info.args), default=0)
    if getattr(listing, "callees", None):
        return ArgumentFlow(frozenset(), True, "the kernel calls functions")
    insts = list(listing.instructions)
    if not insts:
        return ArgumentFlow(frozenset())
    entry: dict[tuple, frozenset[int]] = {}
    if desc.kernarg_preload_length:  # preloaded kernarg dwords sit in the user SGPRs
        first = _kernarg_sgpr(desc) + 2 * desc.enable_sgpr_kernarg_segment_ptr
        off = 4 * getattr(desc, "kernarg_preload_offset", 0)
        for k in range(desc.kernarg_preload_length):
            d = off // 4 + k
            if 4 * d < explicit_end:
                entry[("s", first + k)] = frozenset({d})
    ptr = frozenset()
    if desc.enable_sgpr_kernarg_segment_ptr:
        ptr = frozenset({("s", _kernarg_sgpr(desc)), ("s", _kernarg_sgpr(desc) + 1)})
    try:
        return _propagate(insts, entry, ptr, explicit_end, cut, probe)
    except _GiveUp as e:
        return ArgumentFlow(frozenset(), True, str(e))


class _GiveUp(Exception):
    """The analysis cannot place something: every argument is relevant (the message says why)."""


_PARTIAL = ("_sdwa", "_d16", "_dpp", "writelane", "_hi")  # writes that keep part of the old value
_MEMORY = ("GMEM", "LMEM", "PMEM")


def _strong(ins: Any, reg: tuple, exec_touched: bool) -> bool:
    """Whether a write replaces ``reg``'s taint: scalar writes do; a vector register write
    does only while EXEC has not been changed (a VALU write leaves inactive lanes as they
    were, and divergent branches write one register under complementary masks) and only for
    whole-register writes."""
    if reg[0] in _MEMORY:
        return False
    m = ins.mnemonic
    if any(x in m for x in _PARTIAL) or any(str(o).startswith(("op_sel", "dst_sel", "row_",
                                                                "quad_perm", "dpp"))
                                            for o in ins.operands[ins.n_regs:]):
        return False
    if reg[0] in ("v", "a"):
        return not exec_touched
    return True


@dataclass
class _State:
    """The taint of each register at a program point, and what is known of EXEC and of the
    kernarg pointer (``must``: registers that hold it on every path, ``may``: on some)."""

    taint: dict
    touched: bool
    must: frozenset
    may: frozenset

    def join(self, o: _State) -> tuple[_State, bool]:
        taint, grew = dict(self.taint), False
        for r, t in o.taint.items():
            u = taint.get(r, frozenset()) | t
            if u != taint.get(r):
                taint[r], grew = u, True
        new = _State(taint, self.touched or o.touched, self.must & o.must, self.may | o.may)
        grew |= (new.touched, new.must, new.may) != (self.touched, self.must, self.may)
        return new, grew


def _propagate(insts: list, entry: dict, ptr: frozenset, explicit_end: int,
               cut: frozenset[int] = frozenset(), probe: dict | None = None) -> ArgumentFlow:
    """Flow-sensitive taint over the control-flow graph (basic blocks, a worklist, union at
    joins); memory's taint is kernel-wide (another wave may load what one stored later in
    program order), so the blocks are re-run until it stops growing."""
    addr_index = {ins.addr: i for i, ins in enumerate(insts)}
    leaders = {0}
    for i, ins in enumerate(insts):
        if ins.mnemonic.startswith(("s_branch", "s_cbranch", "s_endpgm", "s_setpc")):
            leaders.add(i + 1)
            t = branch_target(ins)
            if t is not None:
                if t not in addr_index:
                    raise _GiveUp(f"a branch to 0x{t:x}, outside the listing")
                leaders.add(addr_index[t])
    starts = sorted(x for x in leaders if x < len(insts))
    ends = {b: (starts[k + 1] if k + 1 < len(starts) else len(insts))
            for k, b in enumerate(starts)}

    def succs(b: int) -> list[int]:
        last = insts[ends[b] - 1]
        out = []
        t = branch_target(last)
        if t is not None:
            out.append(addr_index[t])
        if not last.mnemonic.startswith(("s_branch", "s_endpgm", "s_setpc")) and \
                ends[b] < len(insts):
            out.append(ends[b])
        return out

    ops_of = [_ops(ins) for ins in insts]  # operands parsed once, for every pass
    memory: dict[tuple, frozenset[int]] = {}
    while True:
        seen = dict(memory)
        sinks: set[int] = set()
        states = {0: _State(dict(entry), False, ptr, ptr)}
        work = [0]
        while work:
            b = work.pop()
            st = states[b]
            out = _run_block(insts, ops_of, b, ends[b], st, memory, sinks, explicit_end, cut,
                             probe)
            for n in succs(b):
                if n not in states:
                    states[n] = out
                    work.append(n)
                    continue
                merged, grew = states[n].join(out)
                if grew:
                    states[n] = merged
                    work.append(n)
        if memory == seen:
            return ArgumentFlow(frozenset(sinks))


def _run_block(insts: list, ops_of: list, lo: int, hi: int, st: _State, memory: dict,
               sinks: set, explicit_end: int, cut: frozenset[int] = frozenset(),
               probe: dict | None = None) -> _State:
    taint = dict(st.taint)
    taint.update(memory)
    touched, must, may = st.touched, st.must, st.may
    for i in range(lo, hi):
        ins, ops = insts[i], ops_of[i]
        kernarg = None
        if may:
            if ins.mnemonic.startswith("s_load") and len(ops) >= 2 and set(ops[1]) <= may:
                if not set(ops[1]) <= must:
                    raise _GiveUp(f"`{ins.text}` loads through the kernarg pointer on some "
                                  f"paths only")
                off = _imm(ins.operands[2]) if len(ins.operands) > 2 else None
                if off is None:
                    raise _GiveUp(f"a kernarg load at a register offset (`{ins.text}`)")
                dwords = frozenset(d for d in range(off // 4, off // 4 + len(ops[0]))
                                   if 4 * d < explicit_end)
                kernarg = (off // 4, dwords)
            elif any(r in may for r in _reads(ins, ops)):
                raise _GiveUp(f"the kernarg pointer is read by `{ins.text}`")
        if probe is not None:
            seen = probe.setdefault(i, [frozenset()] * len(ops))
            probe[i] = [a | frozenset().union(*(taint.get(r, frozenset()) for r in o))
                        for a, o in zip(seen, ops)]
        step = _effect(ins, ops, kernarg, taint)
        if step is None:
            raise _GiveUp(f"`{ins.mnemonic}` is not modelled by the argument-flow analysis")
        writes, sink = step
        if i in cut:  # a proven lane gate: what it writes (a mask, EXEC) carries no taint
            writes, sink = [(r, frozenset()) for r, _ in writes], []
        for r in sink:
            sinks |= taint.get(r, frozenset())
        for r, t in writes:
            taint[r] = t if _strong(ins, r, touched) else taint.get(r, frozenset()) | t
            if r == ("EXEC",):
                touched = True
            elif r[0] in _MEMORY:
                memory[r] = memory.get(r, frozenset()) | t
            if r in may:
                must, may = must - {r}, may - {r}
    return _State(taint, touched, must, may)


Writes = list[tuple[tuple, frozenset[int]]]


def _effect(ins: Any, ops: list[list[tuple]], kernarg: tuple[int, frozenset[int]] | None,
            taint: dict[tuple, frozenset[int]]) -> tuple[Writes, list[tuple]] | None:
    """((register written, the taint it takes) pairs, registers whose taint reaches a sink),
    or None for an instruction outside the modelled families."""
    m = ins.mnemonic
    mods = tuple(ins.operands[ins.n_regs:])

    def t_of(regs: Iterable[tuple]) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for r in regs:
            out |= taint.get(r, frozenset())
        return out

    if m.startswith("s_cbranch"):
        flag = ("SCC",) if "scc" in m else ("VCC",) if "vcc" in m else ("EXEC",)
        return [], [flag] + _flat(ops)
    if m.startswith(("s_setpc", "s_swappc", "s_rfe", "s_call")):
        return [], _flat(ops)
    if m.startswith(_NO_EFFECT):
        return [], []
    if m.startswith(_MEM_PREFIX):
        if not ops:  # cache control (buffer_gl0_inv, global_inv, global_wb): no data
            return [], []
        dests, data, addr, spaces = _memory(m, ops, mods)
        if kernarg is not None:  # dest SGPR k takes kernarg dword first + k
            first, dwords = kernarg
            return [(r, frozenset({first + k} & dwords)) for k, r in enumerate(dests)], addr
        mem = [(sp,) for sp in spaces]
        t_data = t_of(data)
        writes = [(r, t_of(mem) | t_data) for r in dests] + [(r, t_data) for r in mem if data]
        return writes, addr
    if m.startswith(("s_", "v_")):
        if m.startswith(("s_getpc", "s_memtime", "s_memrealtime", "s_getreg")):
            return [], []
        srcs = _flat(ops[1:])
        dests = list(ops[0]) if ops else []
        if m.startswith(("s_cmp", "s_bitcmp")):
            dests, srcs = [("SCC",)], _flat(ops)
        elif m.startswith("s_"):
            if not m.startswith(_KEEPS_SCC):
                dests.append(("SCC",))
            if m.startswith(_READS_SCC):
                srcs.append(("SCC",))
        if _carry_out(m, ops):
            dests += ops[1]
            srcs = _flat(ops[2:])
        if m.startswith("v_cmpx") and len(ops) == 2:  # GFX10+: no mask operand, EXEC only
            dests, srcs = [], _flat(ops)
        if "saveexec" in m or m.startswith("v_cmpx"):
            dests.append(("EXEC",))
            srcs.append(("EXEC",))
        t = t_of(srcs)
        writes = [(r, t) for r in dests]
        if ins.dual is not None:  # VOPD: the second half is one more VALU op of its own
            dual_ops = [_regs(o) for o in ins.dual[1]]
            t2 = t_of(_flat(dual_ops[1:]))
            writes += [(r, t2) for r in (dual_ops[0] if dual_ops else [])]
        control = any(r in (("EXEC",), ("M0",)) for r, _ in writes)
        return writes, (srcs if control else [])
    return None
