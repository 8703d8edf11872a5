"""Parse llvm-objdump listings of AMDGPU code into Instructions (ISA view and emulator input).

One parser, shared: the ISA widget shows these records and the emulator decodes them, so both
always agree on what an instruction is. The listing comes from the same pinned LLVM that built
the code object (``llvm-objdump -d -l``), and each line carries its encoding words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .branches import branch_labels, labelled_text
from .display import Displayable
from .errors import ArgumentKeyError

_HEADER_RE = re.compile(r"^(?P<addr>[0-9a-fA-F]+) <(?P<sym>[^>]+)>:\s*$")
_INSN_RE = re.compile(
    r"^\s+(?P<asm>\S.*?)\s*//\s*(?P<addr>[0-9A-Fa-f]+):\s*(?P<words>(?:[0-9A-Fa-f]{8}\s*)+)"
    r"(?:<(?P<target>[^>]+)>)?\s*$"
)
_RANGE_OPERAND = re.compile(r"^(?:[vsa]|ttmp)\[\d+:\d+\]$")
_LINE_RE = re.compile(r"^; (?P<file>.+):(?P<line>\d+)(?::\d+)?\s*$")


@dataclass(frozen=True)
class Instruction:
    """One machine instruction: address, mnemonic, operands, encoding words and source line."""

    addr: int
    mnemonic: str
    operands: tuple[str, ...]  # register/immediate operands, then modifiers (offset:16, glc, ...)
    words: tuple[int, ...]
    source_line: int | None
    text: str
    source_file: str | None = None
    n_regs: int = 0  # how many leading entries of `operands` are operands (the rest are modifiers)
    target: str | None = None  # branch target label printed by objdump, e.g. "add+0x78"
    # gfx11+ VOPD pairs two VALU ops in one instruction ("v_dual_mov_b32 ... :: v_dual_add...");
    # the first half is mnemonic/operands above, the second half is kept here.
    dual: tuple[str, tuple[str, ...]] | None = None
    # code inlined from a header: "file.h:line" there; source_line is then the user's line
    # that called into the header (workbench.inline_sites), None when no user frame is known
    header: str | None = None
    header_file: str | None = None  # the path of the last header in ``header`` (its line tables')

    def location(self) -> str:
        """"source line 10", "source line 10 (inlined from tile.h:4 > sync.h:24)" or ""."""
        via = f" (inlined from {self.header})" if self.header else ""
        if self.source_line:
            return f"source line {self.source_line}{via}"
        return f"inlined from {self.header}" if self.header else ""

    @property
    def size(self) -> int:
        """Encoding length in bytes."""
        return 4 * len(self.words)

    @property
    def regs(self) -> tuple[str, ...]:
        return self.operands[: self.n_regs]

    @property
    def modifiers(self) -> tuple[str, ...]:
        return self.operands[self.n_regs :]

    @property
    def category(self) -> str:
        return category(self.mnemonic)


@dataclass
class Listing(Displayable):
    """The instructions of one kernel, in address order.

    ``str(listing)`` is the listing with the user's source lines above their code when
    ``source`` is known (``kernel.isa`` sets it); in Jupyter it shows as the ISA view.
    """

    symbol: str
    instructions: list[Instruction] = field(default_factory=list)
    source: str | None = field(default=None, repr=False)  # text whose line N is source line N
    title: str = ""  # e.g. "add gfx942" (views' heading; default: the symbol)
    callees: dict[int, str] = field(default_factory=dict)  # start address -> called function

    def __len__(self) -> int:
        return len(self.instructions)

    def __iter__(self):
        return iter(self.instructions)

    def __getitem__(self, i):
        return self.instructions[i]

    def at(self, addr: int) -> Instruction:
        """The instruction starting at this address."""
        for ins in self.instructions:
            if ins.addr == addr:
                return ins
        raise ArgumentKeyError(f"no instruction at {addr:#x} in {self.symbol}")

    def mix(self, by: str = "category") -> Counter:
        """Static instruction counts, by category (default) or by mnemonic."""
        key = category if by == "category" else (lambda m: m)
        return Counter(key(i.mnemonic) for i in self.instructions)

    def dual_issue(self, counts: Mapping[int, int] | None = None) -> DualIssue:
        """VALU issue slots and operations, and which VOPD pairs the compiler formed: static
        counts, or with ``counts`` (address -> executions, e.g. ``Trace.pc_counts``) executed
        ones. A VOPD instruction (gfx11+ ``v_dual_X :: v_dual_Y``) is one slot, two ops."""
        slots = vopd = 0
        ops: Counter = Counter()
        pairs: Counter = Counter()
        paired: Counter = Counter()
        for ins in self.instructions:
            if category(ins.mnemonic) not in ("VALU", "WMMA", "MFMA"):
                continue
            n = 1 if counts is None else int(counts.get(ins.addr, 0))
            slots += n
            ops[vopd_op(ins.mnemonic)] += n
            if ins.dual is not None:
                vopd += n
                ops[vopd_op(ins.dual[0])] += n
                paired[vopd_op(ins.mnemonic)] += n
                paired[vopd_op(ins.dual[0])] += n
                pairs[f"{ins.mnemonic} :: {ins.dual[0]}"] += n
        return DualIssue(slots, sum(ops.values()), vopd, ops, pairs, paired)

    def __str__(self) -> str:
        return self.text()

    def labels(self) -> dict[int, str]:
        """Branch targets inside this listing: address -> label ("L1", "L2", ... in address
        order), for the views to print ``s_cbranch_scc0 L2`` and an ``L2:`` line above the
        instruction the branch goes to (objdump prints only the raw SIMM16 and a
        ``<kernel+0x30>`` comment). Targets are ``branch_target``'s: PC + 4 + SIMM16 * 4."""
        starts = {self.symbol: self.instructions[0].addr} if self.instructions else {}
        starts.update({name: addr for addr, name in self.callees.items()})
        return branch_labels(self.instructions, starts)

    def shown(self, ins: Instruction, labels: Mapping[int, str] | None = None) -> str:
        """The instruction's text as the views print it: a branch names its target's label
        (``s_cbranch_execnz L1``, not ``s_cbranch_execnz 65518``); anything else as objdump
        printed it. ``labels`` defaults to :meth:`labels` (pass it when showing many)."""
        return labelled_text(ins, self.labels() if labels is None else labels)

    def rows(self, source: str | None = None) -> list[tuple[str, str]]:
        """(kind, text) lines of the listing as printed: kind "call" (a called function
        starts), "src" (the user's source line above its code), "label" (a branch target's
        ``L1:``) or "ins" (one instruction, branches naming their labels). The label line sits
        right above its instruction, after any source line that starts there."""
        source = self.source if source is None else source
        lines = source.splitlines() if source is not None else None
        labels = self.labels()
        out: list[tuple[str, str]] = []
        last = None
        for ins in self.instructions:
            if ins.addr in self.callees:
                out.append(("call", f"; called function {self.callees[ins.addr]}:"))
                last = None
            here = (ins.source_line, ins.header)
            if ins.source_line is not None and here != last:
                last = here
                src = ""
                if lines is not None and 0 < ins.source_line <= len(lines):
                    src = "  " + lines[ins.source_line - 1].strip()
                via = f"  [inlined from {ins.header}]" if ins.header else ""
                out.append(("src", f"; line {ins.source_line}:{src}{via}"))
            if ins.addr in labels:
                out.append(("label", f"{labels[ins.addr]}:"))
            out.append(("ins", self.shown(ins, labels)))
        return out

    def text(self, source: str | None = None, with_addresses: bool = False) -> str:
        """A plain listing; with ``source`` (default: the listing's own) the user's source line
        is printed above its code; branch targets carry labels (:meth:`labels`)."""
        addrs = iter(ins.addr for ins in self.instructions)
        out = []
        for kind, text in self.rows(source):
            if kind == "ins":
                prefix = f"{next(addrs):6x}  " if with_addresses else "    "
                out.append(prefix + text)
            else:
                out.append(text)
        return "\n".join(out)


@dataclass(frozen=True)
class DualIssue:
    """VALU issue slots of a listing (``Listing.dual_issue``), with its VOPD pairs.

    gfx11/gfx12 VOPD issues two VALU operations, X and Y, as one instruction (AMD "RDNA3
    Instruction Set Architecture" reference guide, "VOPD" encoding / dual-issue VALU); LLVM
    forms them in GCNCreateVOPD.cpp (off with ``-mllvm -amdgpu-enable-vopd=0``).
    """

    slots: int            # VALU instructions (a VOPD pair counts once)
    ops: int              # VALU operations (a VOPD pair counts twice)
    vopd: int             # VOPD instructions
    by_op: Counter        # operations by mnemonic, v_dual_ prefix dropped ("v_fmac_f32")
    pairs: Counter        # "v_dual_fmac_f32 :: v_dual_fmac_f32" -> count
    paired: Counter       # operations issued inside a VOPD pair, by mnemonic as in by_op

    @property
    def paired_ops(self) -> int:
        """Operations issued inside a VOPD pair."""
        return 2 * self.vopd


def vopd_op(mnemonic: str) -> str:
    """The VALU operation of a VOPD half: "v_dual_fmac_f32" -> "v_fmac_f32" (others as is)."""
    return "v_" + mnemonic[len("v_dual_"):] if mnemonic.startswith("v_dual_") else mnemonic


def vgpr_index(operand: str) -> int | None:
    """The VGPR number of a single-VGPR operand ("v12" -> 12), else None (SGPR, constant,
    range)."""
    m = re.fullmatch(r"v(\d+)", operand.strip())
    return int(m[1]) if m else None


def split_top(s: str, seps: str) -> list[str]:
    """Split on characters in seps that are outside (), [] brackets."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch in seps and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [p.strip() for p in out if p.strip()]


def parse_operands(rest: str) -> tuple[tuple[str, ...], int]:
    """(operands + trailing modifiers, number of real operands) from the text after a mnemonic."""
    parts = split_top(rest, ",")
    if not parts:
        return (), 0
    if len(parts) == 1:
        toks = split_top(parts[0], " \t")
        # With a single comma-free group, tokens with ':' are modifiers (offset:8, vmcnt style
        # counters are written vmcnt(0) and count as operands of s_waitcnt), but for a register
        # range (s_setpc_b64 s[30:31], s_getpc_b64 s[4:5]).
        ops = [t for t in toks if ":" not in t or t.startswith(("[", "-["))
               or _RANGE_OPERAND.match(t)]
        mods = [t for t in toks if t not in ops]
        return tuple(ops + mods), len(ops)
    last = split_top(parts[-1], " \t")
    ops = parts[:-1] + last[:1]
    return tuple(ops + last[1:]), len(ops)


def parse_asm(asm: str) -> tuple[str, tuple[str, ...], int, tuple | None]:
    """(mnemonic, operands, how many are register/immediate operands, the VOPD second half or
    None) of one instruction's assembly text as objdump prints it."""
    first, _, second = asm.partition(" :: ")
    mnemonic, _, rest = first.partition(" ")
    ops, n = parse_operands(rest)
    dual = None
    if second:
        m2, _, rest2 = second.strip().partition(" ")
        dual = (m2, parse_operands(rest2)[0])
    return mnemonic, ops, n, dual


def parse_listing(text: str, symbol: str, filename: str | None = None,
                  callees: bool = True) -> Listing:
    """The instructions of ``symbol`` from an ``llvm-objdump -d -l`` listing, followed (with
    ``callees``) by those of every function it calls, directly or not: device functions that
    were not inlined (``__noinline__``, recursion) run as real calls (``s_swappc_b64``), and
    both the ISA view and the emulator need their code.

    ``source_line`` is set only for lines of the user's file (``filename``, or any file that is
    not a header when filename is None); lines inside inlined headers keep ``source_file``.
    ``place_sites`` then gives header code the user's calling line (``workbench.inline_sites``).
    """
    listing = Listing(symbol, _symbol_instructions(text, symbol, filename))
    if callees:
        starts = {int(h["addr"], 16): h["sym"] for h in map(_HEADER_RE.match, text.splitlines())
                  if h}
        seen, todo = {symbol}, [listing.instructions]
        while todo:
            for target in call_targets(todo.pop()):
                callee = starts.get(target)
                if callee is not None and callee not in seen:
                    seen.add(callee)
                    listing.callees[target] = callee
                    todo.append(_symbol_instructions(text, callee, filename))
                    listing.instructions.extend(todo[-1])
    return listing


def place_sites(listing: Listing, sites: Mapping[int, Any]) -> Listing:
    """Give each instruction inlined from a header its ``header`` and, as ``source_line``, the
    user's line that called into the header (``sites``: address -> ``inline_sites.Site``)."""
    listing.instructions[:] = [_placed(ins, sites.get(ins.addr))
                               for ins in listing.instructions]
    return listing


def _placed(ins: Instruction, site: Any) -> Instruction:
    """An instruction inlined from a header, given its user call-site line and header line."""
    if site is None or ins.source_line is not None or site.header is None:
        return ins
    return replace(ins, source_line=site.user_line, header=site.header,
                   header_file=site.header_file)


_GETPC_ADD = ("s_add_u32", "s_add_co_u32")
_GETPC_ADDC = ("s_addc_u32", "s_add_co_ci_u32")


def _literal(tok: str) -> int | None:
    tok = tok.strip()
    if tok.startswith("lit(") and tok.endswith(")"):
        tok = tok[4:-1]
    try:
        return int(tok, 0)
    except ValueError:
        return None


def call_targets(instructions: list[Instruction]) -> list[int]:
    """Addresses that ``s_getpc_b64 s[n:n+1]; s_add_u32 sn, sn, lo; s_addc_u32 sn+1, sn+1, hi``
    forms: LLVM's PC-relative call sequence (SIInstrInfo / AMDGPU "SI_PC_ADD_REL_OFFSET",
    func@rel32@lo+4 and @hi+12 resolved by the linker), also used for data addresses, which
    match no function start and are ignored by the caller."""
    out = []
    for i, ins in enumerate(instructions):
        if ins.mnemonic != "s_getpc_b64" or not ins.operands:
            continue
        m = re.match(r"s\[(\d+):(\d+)\]", ins.operands[0])
        if not m:
            continue
        lo_reg, hi_reg = f"s{m[1]}", f"s{m[2]}"
        lo = hi = None
        for nxt in instructions[i + 1:i + 6]:
            r = nxt.regs
            if nxt.mnemonic in _GETPC_ADD and len(r) == 3 and r[0] == lo_reg == r[1]:
                lo = _literal(r[2])
            elif nxt.mnemonic in _GETPC_ADDC and len(r) == 3 and r[0] == hi_reg == r[1]:
                hi = _literal(r[2])
        if lo is None:
            continue
        if hi is None:
            hi = -1 if lo & 0x80000000 else 0
        off = ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)
        out.append((ins.addr + ins.size + off) & 0xFFFFFFFFFFFFFFFF)
    return out


def _symbol_instructions(text: str, symbol: str, filename: str | None) -> list[Instruction]:
    listing = Listing(symbol)
    inside = False
    cur_file: str | None = None
    cur_line: int | None = None
    for raw in text.splitlines():
        h = _HEADER_RE.match(raw)
        if h:
            if inside:
                break
            inside = h["sym"] == symbol
            continue
        if not inside:
            continue
        lm = _LINE_RE.match(raw)
        if lm:
            cur_file, cur_line = lm["file"], int(lm["line"])
            continue
        m = _INSN_RE.match(raw)
        if not m:
            continue
        asm = m["asm"].strip()
        mnemonic, ops, n, dual = parse_asm(asm)
        user = cur_file is not None and is_user_file(cur_file, filename)
        listing.instructions.append(Instruction(
            addr=int(m["addr"], 16), mnemonic=mnemonic, operands=ops,
            words=tuple(int(w, 16) for w in m["words"].split()),
            source_line=cur_line if user else None, text=asm,
            source_file=cur_file.rsplit("/", 1)[-1] if cur_file else None, n_regs=n,
            target=m["target"], dual=dual,
        ))
    if not listing.instructions:
        raise ArgumentKeyError(f"symbol {symbol!r} not found in the listing")
    # Drop the padding the assembler puts after the final s_endpgm: s_nop for code alignment,
    # and the s_code_end fill (s_nop on gfx90a) that LLVM appends for instruction prefetch
    # (AMDGPUTargetStreamer.cpp EmitCodeEnd; seen after gfx1100 kernels in llvm-objdump).
    ins = listing.instructions
    pad = ("s_nop", "s_code_end")
    last = max(i for i, x in enumerate(ins) if x.mnemonic not in pad) if any(
        x.mnemonic not in pad for x in ins) else len(ins) - 1
    # after a kernel's end, a function's return or an unconditional branch (an -O0 loop laid
    # out after s_endpgm) nothing falls through into the padding
    if ins[last].mnemonic in ("s_endpgm", "s_setpc_b64", "s_branch"):
        del ins[last + 1 :]
    return ins


def is_user_file(path: str, filename: str | None) -> bool:
    """Whether a path in the line tables is the user's file (``filename``), or, when that is
    None, any file that is not a header."""
    base = path.rsplit("/", 1)[-1]
    if filename is not None:
        return base == filename
    return not base.endswith((".h", ".hpp", ".cuh", ".inc"))


# Instruction categories, by mnemonic prefix (AMD CDNA3 ISA guide, "Instruction Set" chapters).
_CATEGORIES = (
    ("v_mfma", "MFMA"), ("v_smfmac", "MFMA"), ("v_wmma", "WMMA"), ("v_swmmac", "WMMA"),
    ("v_accvgpr", "VALU"), ("s_waitcnt", "waitcnt"), ("s_barrier", "barrier"),
    ("s_branch", "branch"), ("s_cbranch", "branch"), ("s_setpc", "branch"),
    ("s_swappc", "branch"), ("s_endpgm", "control"), ("s_nop", "control"),
    ("s_sleep", "control"), ("s_setprio", "control"), ("s_load", "SMEM"), ("s_store", "SMEM"),
    ("s_buffer", "SMEM"), ("s_", "SALU"), ("v_", "VALU"), ("ds_", "LDS"), ("global_", "VMEM"),
    ("buffer_", "VMEM"), ("flat_", "VMEM"), ("scratch_", "scratch"),
)


def category(mnemonic: str) -> str:
    """A coarse unit name for a mnemonic: SALU, VALU, SMEM, VMEM, LDS, MFMA, branch, ..."""
    for prefix, cat in _CATEGORIES:
        if mnemonic.startswith(prefix):
            return cat
    return "other"
