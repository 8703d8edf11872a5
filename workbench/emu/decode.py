"""Listing -> Program: every instruction compiled once into a handler, cached per kernel.

Why decode the LLVM disassembly instead of the binary: the reference notes
(shared/reference/emulator_anchors.md §5b) argue for binary decoding because printers change,
a wrong target silently prints wrong text, and the grammar is large. Here the text comes from
the *same pinned* LLVM (≥ 19, gfx942 known) that produced the code object, through the one
parser the ISA view also uses (``workbench.isa``), so (1) printer drift cannot desynchronise
compiler and decoder, (2) the target is always right (``--mcpu`` from the code object), and
(3) the grammar we need is the subset clang emits, which the tests exercise. Each line still
carries its encoding words: ``check_length`` verifies the word count the mnemonic's encoding
implies (catching any parse/format mix-up), and branch targets are computed from the printed
simm16, not from labels. What text gives for free: named operands, resolved inline constants,
modifier names — no XML tables to download or license.

Compilation: ``Program`` parses operands once, looks the base mnemonic up in the semantic table
(``registry``) and keeps one ``Exec`` per instruction, indexed by instruction number; branch
targets are pre-resolved to indices. Unknown instructions compile to a handler that raises
``UnknownInstruction`` when (and only when) executed, so a kernel with an unused trap path still
runs; ``Program.unsupported`` lists them statically for the coverage report.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import families  # noqa: F401  (registers every family's semantics)
from .errors import EmulatorError, UnknownInstruction
from .operands import OperandError, parse_operand, split_operands
from .registry import BRANCH, Decoded, Exec, as_exec, lookup

SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa")
# VOP1/VOP2 instructions LLVM prints without an _e32 suffix (they have no VOP3 twin it names)
BARE_VOP12 = {"v_nop", "v_clrexcp", "v_readfirstlane_b32", "v_accvgpr_mov_b32", "v_swap_b32",
              "v_mov_b64"}
# SOPP / SOPK mnemonics: their immediate is the SIMM16 field, never a literal dword
SOPP_SOPK = ("s_cbranch", "s_branch", "s_waitcnt", "s_nop", "s_sleep", "s_setprio", "s_trap",
             "s_sendmsg", "s_movk", "s_cmovk", "s_cmpk", "s_addk", "s_mulk", "s_getreg",
             "s_setreg", "s_call", "s_endpgm", "s_barrier", "s_icache", "s_incperf",
             "s_decperf", "s_ttrace", "s_set_gpr", "s_setkill", "s_sethalt")


@dataclass
class ProgramInfo:
    """Kernel-wide facts builders may need."""

    name: str
    n_vgpr: int
    n_agpr: int
    denorm32: int = 3  # FLOAT_DENORM_MODE_32 (3 = no flushing)
    denorm16_64: int = 3
    dx10_clamp: bool = True
    ieee_mode: bool = True


def split_mnemonic(m: str) -> tuple[str, str]:
    for s in SUFFIXES:
        if m.endswith(s):
            return m[: -len(s)], s[1:]
    return m, ""


def expected_words(mnemonic: str, encoding: str, has_literal: bool) -> set[int]:
    """Encoding length (dwords) implied by a gfx9 mnemonic (CDNA3 ISA guide, "Microcode
    formats": SOP*/VOP1/VOP2/VOPC 32-bit (+32-bit literal); VOP3/VOP3P/SMEM/DS/FLAT/MUBUF/DPP/
    SDWA 64-bit; gfx9 VOP3 has no literal)."""
    if encoding in ("e64", "dpp", "sdwa"):
        return {2}
    if encoding == "e32":
        return {2} if has_literal else {1}
    if mnemonic.startswith(("s_load", "s_store", "s_buffer", "s_dcache", "s_memtime",
                            "s_memrealtime", "s_atc", "s_scratch", "s_atomic")):
        return {2}
    if mnemonic.startswith(("ds_", "global_", "flat_", "scratch_", "buffer_", "tbuffer_")):
        return {2}
    if mnemonic == "s_setreg_imm32_b32":
        return {2}
    if mnemonic.startswith(SOPP_SOPK):  # 16-bit immediates live in the instruction word
        return {1}
    if mnemonic.startswith("s_"):
        return {2} if has_literal else {1}
    if mnemonic in BARE_VOP12:
        return {2} if has_literal else {1}
    if mnemonic in ("v_fmamk_f32", "v_fmaak_f32", "v_madmk_f32", "v_madak_f32"):
        return {2}  # VOP2 + the K literal
    if lookup(mnemonic) is not None:
        return {2}  # VOP3-only / VOP3P (v_mfma, v_pk_*, v_mad_u64_u32, ...): 64-bit
    return {1, 2}  # no semantic: it raises UnknownInstruction if it ever executes


def _has_literal(ops) -> bool:
    for o in ops:
        if o.kind == "imm" and not (-16 <= int(o.value) <= 64):
            return True
        if o.kind == "fimm" and abs(o.value) not in (0.5, 1.0, 2.0, 4.0) and not (
                abs(abs(o.value) - 0.15915494309189535) < 1e-7):
            return True
    return False


class Program:
    """A kernel compiled for the emulator: ``execs[i]`` runs instruction ``insts[i]``."""

    def __init__(self, listing: Any, name: str, denorm32: int = 3, denorm16_64: int = 3,
                 dx10_clamp: bool = True, ieee_mode: bool = True) -> None:
        self.listing = listing
        self.insts = list(listing)
        self.index = {ins.addr: i for i, ins in enumerate(self.insts)}
        parsed = []
        max_v, max_a = -1, -1
        for ins in self.insts:
            pos, mods = split_operands(tuple(ins.operands))
            try:
                ops = [parse_operand(p) for p in pos]
            except OperandError as e:
                raise EmulatorError(f"decode: {e} at pc 0x{ins.addr:x}: `{ins.text}`") from None
            for o in ops:
                if o.kind == "v":
                    max_v = max(max_v, o.idx + o.n - 1)
                elif o.kind == "a":
                    max_a = max(max_a, o.idx + o.n - 1)
            parsed.append((pos, ops, mods))
        self.info = ProgramInfo(name, max_v + 1, max_a + 1, denorm32, denorm16_64, dx10_clamp,
                                ieee_mode)
        self.execs: list[Exec] = []
        self.unsupported: list[tuple[int, str]] = []
        self.decoded: list[Decoded] = []
        for ins, (_pos, ops, mods) in zip(self.insts, parsed):
            base, enc = split_mnemonic(ins.mnemonic)
            check_length(ins, enc, ops)
            d = Decoded(ins, ins.mnemonic, base, enc, ops, mods, self.info)
            self.decoded.append(d)
            self.execs.append(self._compile(d))
        # resolve branch targets (byte address -> instruction index)
        for i, e in enumerate(self.execs):
            if e.kind == BRANCH:
                if e.target not in self.index:
                    ins = self.insts[i]
                    raise EmulatorError(f"decode: branch at pc 0x{ins.addr:x} targets 0x"
                                        f"{e.target:x}, which is not an instruction start")
                e.target = self.index[e.target]

    def _compile(self, d: Decoded) -> Exec:
        b = lookup(d.base)
        if b is None:
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(UnknownInstruction(d.mnemonic, d.addr, d.inst.text))
        try:
            return as_exec(b(d))
        except UnknownInstruction as e:
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(e)
        except (OperandError, ValueError, IndexError) as e:
            err = UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"cannot decode: {e}")
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(err)


def check_length(ins: Any, enc: str, ops) -> None:
    exp = expected_words(ins.mnemonic, enc, _has_literal(ops))
    if len(ins.words) not in exp:
        raise EmulatorError(
            f"decode: `{ins.text}` at pc 0x{ins.addr:x} prints {len(ins.words)} encoding words but"
            f" its format implies {sorted(exp)}; the listing and the decoder disagree")


def _raiser(err: Exception) -> Exec:
    def run(st, g):
        raise err
    return Exec(run)
