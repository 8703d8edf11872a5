"""Listing -> Program: every instruction compiled once into a handler, cached per kernel.

Why decode the LLVM disassembly instead of the binary: the case for binary decoding (made by
the emulators that do it: tinygrad's, remu, MGPUSim, gem5; and by llvm-objdump's AMDGPU printer
bugs, llvm-project issues #52716, #59468, #56784, #132472) is that printers change, a wrong
target silently prints wrong text, and the grammar is large. Here the text comes from
the *same pinned* LLVM (≥ 19, gfx942 known) that produced the code object, through the one
parser the ISA view also uses (``workbench.isa``), so (1) printer drift cannot desynchronise
compiler and decoder, (2) the target is always right (``--mcpu`` from the code object), and
(3) the grammar we need is the subset clang emits, which the tests exercise. Each line still
carries its encoding words: ``check_length`` verifies the word count and microcode format that
the encoding bits imply against the printed mnemonic (catching any parse/format mix-up; the
printed operands cannot tell a literal dword from an inline constant), and branch targets are
computed from the printed simm16, not from labels. What text gives for free: named operands,
resolved inline constants, modifier names — no XML tables to download or license.

Compilation: ``Program`` parses operands once, looks the base mnemonic up in the semantic table
(``registry``) and keeps one ``Exec`` per instruction, indexed by instruction number; branch
targets are pre-resolved to indices. Unknown instructions compile to a handler that raises
``UnknownInstruction`` when (and only when) executed, so a kernel with an unused trap path still
runs; ``Program.unsupported`` lists them statically for the coverage report.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..decoder.operands import OperandError, parse_operand, split_operands
from ..decoder.rdna import encoded_words as rdna_encoded_words
from ..decoder.rdna import generation, normalize_mods, rename
from ..decoder.registry import BRANCH, Decoded, Exec, as_exec, lookup, split_mnemonic
from ..errors import EmulatorError, UnknownInstruction
from ..semantics import families  # noqa: F401  (registers every family's semantics)
from ..semantics.scalar.mode import mode_fields, static_effect
from ..semantics.valu.vindex import build_indexed, region_effect

# ---- encoding formats from the first dword (CDNA3 ISA guide, chapter "Microcode Formats";
# the same bit patterns are LLVM's SIInstrFormats.td / *Instructions.td Enc32/Enc64 fields)
# name -> (mask, value, base length in dwords)
FORMATS: tuple[tuple[str, int, int, int], ...] = (
    ("SOP1", 0xFF800000, 0xBE800000, 1),   # [31:23] = 1_0111_1101
    ("SOPC", 0xFF800000, 0xBF000000, 1),   # [31:23] = 1_0111_1110
    ("SOPP", 0xFF800000, 0xBF800000, 1),   # [31:23] = 1_0111_1111
    ("SOPK", 0xF0000000, 0xB0000000, 1),   # [31:28] = 1011 (after SOP1/SOPC/SOPP)
    ("SOP2", 0xC0000000, 0x80000000, 1),   # [31:30] = 10
    ("VOP1", 0xFE000000, 0x7E000000, 1),   # [31:25] = 011_1111
    ("VOPC", 0xFE000000, 0x7C000000, 1),   # [31:25] = 011_1110
    ("VOP2", 0x80000000, 0x00000000, 1),   # [31] = 0
    ("VOP3P", 0xFF800000, 0xD3800000, 2),  # [31:23] = 1101_0011_1
    ("VOP3", 0xFC000000, 0xD0000000, 2),   # [31:26] = 11_0100
    ("VINTRP", 0xFC000000, 0xD4000000, 1),  # [31:26] = 11_0101
    ("SMEM", 0xFC000000, 0xC0000000, 2),   # [31:26] = 11_0000
    ("EXP", 0xFC000000, 0xC4000000, 2),    # [31:26] = 11_0001
    ("DS", 0xFC000000, 0xD8000000, 2),     # [31:26] = 11_0110
    ("FLAT", 0xFC000000, 0xDC000000, 2),   # [31:26] = 11_0111 (flat, global, scratch)
    ("MUBUF", 0xFC000000, 0xE0000000, 2),  # [31:26] = 11_1000
    ("MTBUF", 0xFC000000, 0xE8000000, 2),  # [31:26] = 11_1010
    ("MIMG", 0xFC000000, 0xF0000000, 2),   # [31:26] = 11_1100
)
# Source-operand codes of the 32-bit formats (CDNA3 ISA "SSRC0/SRC0" operand table; LLVM
# SIDefines.h): 255 = a 32-bit literal dword follows, 250 = DPP dword, 249 = SDWA dword.
SRC_LITERAL, SRC_DPP, SRC_SDWA = 255, 250, 249
# VOP3P opcode of v_mfma_ld_scale_b32, the prefix of gfx950's scaled MFMAs (encoding word 0 =
# 0xD3AC....: bits [22:16] = 0x2C; mai-gfx950.s encodings [..,0xac,0xd3,..])
VOP3P_MFMA_LD_SCALE = 0x2C
# VOP2 opcodes whose encoding always carries the K literal (printed as an operand)
K_LITERAL = {"v_fmamk_f32", "v_fmaak_f32", "v_madmk_f32", "v_madak_f32", "v_fmamk_f16",
             "v_fmaak_f16", "v_madmk_f16", "v_madak_f16"}
# which mnemonic prefixes belong to which format (a cross-check of the listing's text)
_PREFIX_FORMAT = (("s_load", "SMEM"), ("s_store", "SMEM"), ("s_buffer", "SMEM"),
                  ("s_dcache", "SMEM"), ("s_memtime", "SMEM"), ("s_memrealtime", "SMEM"),
                  ("s_atomic", "SMEM"), ("s_scratch", "SMEM"), ("s_atc", "SMEM"),
                  ("ds_", "DS"), ("global_", "FLAT"), ("flat_", "FLAT"), ("scratch_", "FLAT"),
                  ("buffer_", "MUBUF"), ("tbuffer_", "MTBUF"))


def encoding_format(word0: int) -> str:
    """The microcode format of an instruction from its first dword."""
    for name, mask, val, _n in FORMATS:
        if word0 & mask == val:
            return name
    return "?"


def encoded_words(mnemonic: str, words: tuple[int, ...]) -> tuple[str, int]:
    """(format, length in dwords) that the encoding itself implies.

    Why from the bits: the printed operands do not tell whether a value came from an inline
    constant or a literal dword (LLVM prints a literal 0xffffffff on a 32-bit operand as ``-1``,
    e.g. ``s_addc_u32 s7, s7, -1`` = ``8207ff07 ffffffff``), so the length must come from the
    source fields: SOP1/SOP2/SOPC ssrc0/ssrc1 = 255, VOP1/VOP2/VOPC src0 = 255 add a literal
    dword; src0 = 250 / 249 (DPP / SDWA) add the DPP / SDWA dword; SOPK s_setreg_imm32_b32 and
    the VOP2 *mk/*ak opcodes carry a K literal; VOP3/VOP3P have no literal on gfx9 (CDNA3 ISA
    "Microcode Formats", "Literal constants")."""
    w = words[0]
    fmt = encoding_format(w)
    n = next(x[3] for x in FORMATS if x[0] == fmt) if fmt != "?" else len(words)
    if fmt in ("SOP1", "SOP2", "SOPC"):
        srcs = (w & 0xFF,) if fmt == "SOP1" else (w & 0xFF, (w >> 8) & 0xFF)
        n += any(s == SRC_LITERAL for s in srcs)
    elif fmt == "SOPK" and mnemonic == "s_setreg_imm32_b32":
        n += 1
    elif fmt in ("VOP1", "VOP2", "VOPC"):
        src0 = w & 0x1FF
        if src0 in (SRC_LITERAL, SRC_DPP, SRC_SDWA):
            n += 1
        elif fmt == "VOP2" and split_mnemonic(mnemonic)[0] in K_LITERAL:
            n += 1
    elif fmt == "VOP3P" and (w >> 16) & 0x7F == VOP3P_MFMA_LD_SCALE:
        # gfx950 v_mfma_scale_*: a v_mfma_ld_scale_b32 pair (the two scale sources) fused with
        # the MFMA's own VOP3P pair, printed as one instruction (CDNA4 ISA §7.2 "four-dword
        # encoding"; LLVM VOP3PX, llvm/test/MC/AMDGPU/mai-gfx950.s: 16 encoding bytes)
        n = 4
    return fmt, n


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
    mode: int = -1  # MODE register bits in force at the instruction (scalar.mode); -1 = unknown
    arch: str = "gfx942"  # the code object's target (MFMA layouts, per-arch instruction sets)
    wave: int = 64  # wavefront size (RDNA: 32 unless the code object is wave64)
    gen: int = 9  # ISA generation: 9 (CDNA), 11 (RDNA3), 12 (RDNA4)


class Program:
    """A kernel compiled for the emulator: ``execs[i]`` runs instruction ``insts[i]``."""

    def __init__(self, listing: Any, name: str, denorm32: int = 3, denorm16_64: int = 3,
                 dx10_clamp: bool = True, ieee_mode: bool = True, mode: int | None = None,
                 arch: str = "gfx942", wave: int = 64) -> None:
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
        if mode is None:  # round-to-nearest-even with the given denormal/clamp/IEEE modes
            mode = (denorm32 & 3) << 4 | (denorm16_64 & 3) << 6 | int(dx10_clamp) << 8 \
                | int(ieee_mode) << 9
        gen = generation(arch)
        self.info = ProgramInfo(name, max_v + 1, max_a + 1, **mode_fields(mode), arch=arch,
                                wave=wave, gen=gen)
        self.execs: list[Exec] = []
        self.unsupported: list[tuple[int, str]] = []
        self.decoded: list[Decoded] = []
        # the MODE in force per instruction, following constant MODE writes (scalar.mode)
        variants = {mode: self.info}
        gpr_idx = 0  # gfx9 VGPR index mode, followed through the listing (valu.vindex)
        self.modes: list[int] = []
        for ins, (_pos, ops, mods) in zip(self.insts, parsed):
            base, enc = split_mnemonic(ins.mnemonic)
            if gen == 9:
                check_length(ins, enc)
            else:  # RDNA: GFX11/GFX12 formats; renamed mnemonics run the gfx9 semantics
                check_length(ins, enc, gen)
                base = rename(base)
                mods = normalize_mods(mods, gen)
            info = variants.get(mode)
            if info is None:
                info = variants[mode] = replace(self.info, **mode_fields(mode))
            self.modes.append(mode)
            d = Decoded(ins, ins.mnemonic, base, enc, ops, mods, info, gpr_idx)
            self.decoded.append(d)
            self.execs.append(self._compile(d))
            mode = static_effect(ins, mode)
            gpr_idx = region_effect(ins, gpr_idx)
        # resolve branch targets (byte address -> instruction index)
        for i, e in enumerate(self.execs):
            if e.kind == BRANCH:
                if e.target not in self.index:
                    ins = self.insts[i]
                    raise EmulatorError(f"decode: branch at pc 0x{ins.addr:x} targets 0x"
                                        f"{e.target:x}, which is not an instruction start")
                e.target = self.index[e.target]
                if self.modes[e.target] != self.modes[i]:
                    self.execs[i] = _mode_guard(e, self.insts[i], self.modes[i],
                                                self.modes[e.target])

    def _compile(self, d: Decoded) -> Exec:
        if d.gpr_idx and d.base.startswith("v_"):
            try:
                return as_exec(build_indexed(d, d.gpr_idx))
            except UnknownInstruction as e:
                self.unsupported.append((d.addr, d.mnemonic))
                return _raiser(e)
        b = lookup(d.base)
        if b is None:
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(UnknownInstruction(d.mnemonic, d.addr, d.inst.text))
        if any(o.half for o in d.ops) and b not in _TRUE16_BUILDERS:
            # GFX11+ true16 halves (v0.l / v0.h) are honoured by the VALU table's generic
            # builder and VOPC only; anywhere else they would be read as whole VGPRs
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                              "true16 register halves (v.l / v.h)"))
        try:
            return as_exec(b(d))
        except UnknownInstruction as e:
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(e)
        except (OperandError, ValueError, IndexError) as e:
            err = UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"cannot decode: {e}")
            self.unsupported.append((d.addr, d.mnemonic))
            return _raiser(err)


def _true16_builders() -> tuple:
    from ..semantics.valu.table import _build_valu
    from ..semantics.valu.vcmp import _build_cmp

    return (_build_valu, _build_cmp)


_TRUE16_BUILDERS = _true16_builders()


def check_length(ins: Any, enc: str, gen: int = 9) -> None:
    """The listing's word count must equal the length the encoding bits imply, and the format
    must fit the mnemonic (catches any parse/format mix-up between listing and decoder)."""
    if gen == 9:
        fmt, n = encoded_words(ins.mnemonic, ins.words)
    else:
        fmt, n = rdna_encoded_words(ins.mnemonic, ins.words, gen)
    why = None
    if len(ins.words) != n:
        why = f"its {fmt} encoding implies {n}"
    elif gen > 9 and ins.mnemonic.startswith("v_dual_") and fmt != "VOPD":
        why = f"a VOPD mnemonic in a {fmt} encoding"
    elif gen > 9 and fmt == "VOPD":
        pass
    elif gen > 9 and enc == "dpp" and fmt in ("VOP3", "VOP3P"):
        pass  # VOP3 with DPP (GFX11+)
    elif enc == "e64" and fmt not in ("VOP3", "VOP3P"):
        why = f"an _e64 mnemonic in a {fmt} encoding"
    elif enc in ("e32", "dpp", "sdwa") and fmt not in ("VOP1", "VOP2", "VOPC"):
        why = f"an _{enc} mnemonic in a {fmt} encoding"
    elif enc == "dpp" and gen == 9 and ins.words[0] & 0x1FF != SRC_DPP:
        why = "a _dpp mnemonic without the DPP src0 code 250"
    elif enc == "sdwa" and ins.words[0] & 0x1FF != SRC_SDWA:
        why = "an _sdwa mnemonic without the SDWA src0 code 249"
    else:
        for p, f in _PREFIX_FORMAT:
            if ins.mnemonic.startswith(p) and fmt != f:
                why = f"a {p}* mnemonic in a {fmt} encoding"
                break
        else:
            if ins.mnemonic.startswith("s_") and fmt not in (
                    "SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "SMEM"):
                why = f"a scalar mnemonic in a {fmt} encoding"
            elif ins.mnemonic.startswith("v_") and fmt not in (
                    "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
                why = f"a vector ALU mnemonic in a {fmt} encoding"
    if why is not None:
        raise EmulatorError(
            f"decode: `{ins.text}` at pc 0x{ins.addr:x} prints {len(ins.words)} encoding words "
            f"({' '.join(f'{x:08x}' for x in ins.words)}) but it is {why}; the listing and the "
            f"decoder disagree")


def _mode_guard(e: Exec, ins: Any, here: int, there: int) -> Exec:
    """A branch between code compiled for different MODE values: raise if it is taken."""
    run = e.run

    def guarded(st, g):
        taken = run(st, g)
        if np.any(taken):
            raise EmulatorError(
                f"decode: branch `{ins.text}` at pc 0x{ins.addr:x} is taken from code compiled "
                f"for MODE 0x{here:03x} into code compiled for MODE 0x{there:03x}; the "
                f"emulator resolves float modes along the listing and cannot follow this jump")
        return taken
    return Exec(guarded, e.kind, e.target)


def _raiser(err: Exception) -> Exec:
    def run(st, g):
        raise err
    return Exec(run)
