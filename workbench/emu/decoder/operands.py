"""Operand text (as llvm-objdump prints it) -> pre-resolved, typed register/constant accessors.

Syntax follows LLVM's AMDGPU printer (llvm/docs/AMDGPUOperandSyntax.rst,
AMDGPUModifierSyntax.rst): ``v5``, ``v[0:1]``, ``s[4:7]``, ``a[12:15]``, specials (``vcc``,
``exec_lo``, ``m0`` ...), inline integers -16..64, inline floats (±0.5, ±1, ±2, ±4 and
0.15915494 = 1/2π), hex literals, ``-v1`` / ``|v1|`` / ``neg(v1)`` / ``abs(v1)``, ``sext(v1)``
(SDWA), ``lit(0x1)`` (LLVM 22, unlike 19, prints a literal dword whose value would also fit
an inline constant this way: AMDGPUInstPrinter "lit(...)"), and trailing modifiers
``key:value`` or bare flags.
"""
from __future__ import annotations

import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...isa import split_top
from ..machine.state import EXEC

# gfx9 scalar operand encodings (LLVM SIRegisterInfo.td; AMDGPU "SGPR / special" operand table)
SPECIAL_SGPR: dict[str, tuple[int, int]] = {
    "flat_scratch": (102, 2), "flat_scratch_lo": (102, 1), "flat_scratch_hi": (103, 1),
    "xnack_mask": (104, 2), "xnack_mask_lo": (104, 1), "xnack_mask_hi": (105, 1),
    "vcc": (106, 2), "vcc_lo": (106, 1), "vcc_hi": (107, 1),
    "m0": (124, 1), "exec": (126, 2), "exec_lo": (126, 1), "exec_hi": (127, 1),
    # GFX10+ ``null`` (RDNA3 ISA "SGPR_NULL": reads 0, writes are discarded): an unused slot
    # of the gfx9 numbering that the emulator keeps at 0 (workbench.emu.machine.state.State.swrite)
    "null": (125, 1),
}
TTMP_BASE = 108

# Apertures our emulated flat address space uses for LDS and private (scratch) memory when a
# kernel reads src_shared_base / src_private_base (values chosen by the emulator; only their
# disjointness from the global heap matters).
SHARED_APERTURE = 0x0001_0000_0000_0000
PRIVATE_APERTURE = 0x0002_0000_0000_0000
APERTURE_SIZE = 1 << 32
APERTURE_CONST = {
    "src_shared_base": SHARED_APERTURE, "src_shared_limit": SHARED_APERTURE + APERTURE_SIZE - 1,
    "src_private_base": PRIVATE_APERTURE,
    "src_private_limit": PRIVATE_APERTURE + APERTURE_SIZE - 1,
}

INV_2PI = 0.15915494309189535  # inline constant 1/(2*pi) (AMDGPU "inline constants" table)
# bit patterns of 1/(2pi) per operand type (LLVM AMDGPUInstPrinter printImmediate16/32/64)
INV_2PI_BITS = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882}

FLAGS = {"glc", "slc", "dlc", "sc0", "sc1", "nt", "lds", "offen", "idxen", "addr64", "gds",
         "clamp", "row_mirror", "row_half_mirror", "tfe", "lwe", "fi", "d16"}

_REG1 = re.compile(r"^([vsa])(\d+)$")
_REGN = re.compile(r"^([vsa])\[(\d+):(\d+)\]$")
_HALF = re.compile(r"^v(\d+)\.([lh])$")  # true16 halves (LLVM AMDGPU "real-true16": v0.l, v0.h)
_TTMP1 = re.compile(r"^ttmp(\d+)$")
_TTMPN = re.compile(r"^ttmp\[(\d+):(\d+)\]$")
_INT = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
_FLOAT = re.compile(r"^-?\d+\.\d+(e[-+]?\d+)?$")
_CNT = re.compile(r"^(vmcnt|expcnt|lgkmcnt)\((\d+)\)$")
_MOD = re.compile(r"^([a-z_][a-z0-9_]*):(.+)$")


class OperandError(ValueError):
    """Operand text the emulator cannot interpret."""


@dataclass
class Operand:
    """One positional operand. ``kind``: v a s imm fimm off special const."""

    text: str
    kind: str
    idx: int = 0  # register row (v: k, a: k — offset by n_vgpr at bind time; s: slot)
    n: int = 1  # number of 32-bit registers
    value: Any = None  # imm: int; fimm: float; const: int (64-bit); special: name
    neg: bool = False
    abs: bool = False
    sext: bool = False
    literal: bool = False  # printed as ``lit(...)``: a literal dword, never an inline constant
    half: str = ""  # GFX11+ true16 register half: "l" (bits 15:0) or "h" (bits 31:16) of VGPR idx

    @property
    def is_vector(self) -> bool:
        return self.kind in ("v", "a")

    @property
    def is_reg(self) -> bool:
        return self.kind in ("v", "a", "s")


def split_items(operands: tuple) -> list[str]:
    """Flatten the listing's operand strings into whitespace-separated top-level items."""
    return [it for o in operands for it in split_top(o, " \t")]


def parse_value(s: str) -> Any:
    s = s.strip()
    if s.startswith("[") and s.endswith("]"):
        return [parse_value(x) for x in s[1:-1].split(",")]
    if _INT.match(s):
        return int(s, 0) if not s.startswith("-") else -int(s[1:], 0)
    return s


def split_operands(operands: tuple) -> tuple[list[str], dict]:
    """(positional operand texts, modifiers) from a listing instruction's operand tuple."""
    pos: list[str] = []
    mods: dict = {}
    for it in split_items(operands):
        m = _CNT.match(it)
        if m:
            mods[m.group(1)] = int(m.group(2))
            continue
        if it in FLAGS:
            mods[it] = True
            continue
        m = _MOD.match(it)
        if m and not it.startswith(("hwreg(", "sendmsg(")):
            mods[m.group(1)] = parse_value(m.group(2))
            continue
        pos.append(it)
    return pos, mods


def parse_operand(text: str) -> Operand:
    """Parse one positional operand."""
    t = text.strip()
    neg = absf = sext = False
    if t.startswith("neg(") and t.endswith(")"):
        neg, t = True, t[4:-1]
    if t.startswith("-") and not _INT.match(t) and not _FLOAT.match(t):
        neg, t = True, t[1:]
    if t.startswith("|") and t.endswith("|"):
        absf, t = True, t[1:-1]
    if t.startswith("abs(") and t.endswith(")"):
        absf, t = True, t[4:-1]
    if t.startswith("sext(") and t.endswith(")"):
        sext, t = True, t[5:-1]
    literal = t.startswith("lit(") and t.endswith(")")
    if literal:
        t = t[4:-1]
    op = _parse_plain(t, text)
    if literal and op.kind not in ("imm", "fimm"):
        raise OperandError(f"lit(...) around a non-constant in {text!r}")
    op.neg, op.abs, op.sext, op.literal = neg, absf, sext, literal
    return op


def _parse_plain(t: str, text: str) -> Operand:
    m = _REG1.match(t)
    if m:
        return Operand(text, m.group(1), int(m.group(2)), 1)
    m = _REGN.match(t)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        return Operand(text, m.group(1), lo, hi - lo + 1)
    m = _HALF.match(t)
    if m:
        return Operand(text, "v", int(m.group(1)), 1, half=m.group(2))
    if t in SPECIAL_SGPR:
        i, n = SPECIAL_SGPR[t]
        return Operand(text, "s", i, n)
    m = _TTMP1.match(t)
    if m:
        return Operand(text, "s", TTMP_BASE + int(m.group(1)), 1)
    m = _TTMPN.match(t)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        return Operand(text, "s", TTMP_BASE + lo, hi - lo + 1)
    if _INT.match(t):
        return Operand(text, "imm", value=int(t, 0) if t[0] != "-" else -int(t[1:], 0))
    if _FLOAT.match(t):
        return Operand(text, "fimm", value=float(t))
    if t == "off":
        return Operand(text, "off")
    if t in APERTURE_CONST:
        return Operand(text, "const", value=APERTURE_CONST[t])
    if t in ("src_scc", "src_execz", "src_vccz", "scc"):
        return Operand(text, "special", value=t)
    return Operand(text, "special", value=t)


# ---- constants -------------------------------------------------------------------------------
def imm_bits(op: Operand, bits: int, is_float: bool) -> int:
    """Bit pattern of an inline constant / literal for an operand of ``bits`` width.

    Inline integers are sign-extended to the operand width; inline floats are encoded in the
    operand's float format (for integer operands of 32/64 bits, as f32/f64 — AMD CDNA3 ISA guide
    §"Inline constants": the float constants are used as their bit pattern in the operand's
    size). Literals (outside -16..64) are the 32-bit literal; for 64-bit float operands the
    literal supplies the high 32 bits (CDNA3 ISA guide, "Literal constants").
    """
    mask = (1 << bits) - 1
    if op.kind == "const":
        v = int(op.value)
        return (v >> 32) & mask if bits == 32 else v & mask
    if op.kind == "fimm":
        f = float(op.value)
        if abs(abs(f) - INV_2PI) < 1e-7:
            b = INV_2PI_BITS[bits]
            return b
        if bits == 16:
            return int(np.array(f, np.float16).view(np.uint16))
        if bits == 32:
            return struct.unpack("<I", struct.pack("<f", f))[0]
        return struct.unpack("<Q", struct.pack("<d", f))[0]
    v = int(op.value)
    if -16 <= v <= 64 and not op.literal:
        return v & mask
    v &= 0xFFFFFFFF
    if bits == 64 and is_float:
        return v << 32
    if bits == 16:
        return v & 0xFFFF
    return v


# ---- accessors -------------------------------------------------------------------------------
Reader = Callable[[Any, Any], Any]


def row_of(op: Operand, n_vgpr: int, k: int = 0) -> int:
    """Row in State.R for vector operand ``op`` (its k-th dword)."""
    return op.idx + k + (n_vgpr if op.kind == "a" else 0)


def vread32(op: Operand, n_vgpr: int, k: int = 0, bits: int = 32,
            is_float: bool = False) -> Reader:
    """Reader of dword k of ``op`` in vector context: [w,64] / [w,1] uint32 or a uint32 scalar."""
    if op.kind in ("v", "a"):
        r = row_of(op, n_vgpr, k)
        return lambda st, g: st.R[r, g.ix]
    if op.kind == "s":
        i = op.idx + k
        return lambda st, g: st.S[i, g.ix][:, None]
    if op.kind in ("imm", "fimm", "const"):
        if bits == 64:
            v = imm_bits(op, 64, is_float)
            c = np.uint32((v >> (32 * k)) & 0xFFFFFFFF)
        else:
            c = np.uint32(imm_bits(op, bits, is_float) if k == 0 else 0)
        return lambda st, g: c
    if op.kind == "special":
        return _special_reader(op, vector=True)
    raise OperandError(f"operand {op.text!r} cannot be read as a vector source")


def vread64(op: Operand, n_vgpr: int, is_float: bool = False) -> Reader:
    """Reader of a 64-bit vector-context source as uint64 ([w,64], [w,1] or scalar)."""
    if op.kind in ("imm", "fimm", "const"):
        c = np.uint64(imm_bits(op, 64, is_float))
        return lambda st, g: c
    lo = vread32(op, n_vgpr, 0)
    hi = vread32(op, n_vgpr, 1)
    return lambda st, g: lo(st, g).astype(np.uint64) | (hi(st, g).astype(np.uint64) << 32)


def sread32(op: Operand, k: int = 0, bits: int = 32, is_float: bool = False) -> Reader:
    """Reader of dword k of a scalar-context source: [w] uint32 or a uint32 scalar."""
    if op.kind == "s":
        i = op.idx + k
        return lambda st, g: st.S[i, g.ix]
    if op.kind in ("imm", "fimm", "const"):
        if bits == 64:
            c = np.uint32((imm_bits(op, 64, is_float) >> (32 * k)) & 0xFFFFFFFF)
        else:
            c = np.uint32(imm_bits(op, 32, is_float))
        return lambda st, g: c
    if op.kind == "special":
        return _special_reader(op, vector=False)
    raise OperandError(f"operand {op.text!r} cannot be read as a scalar source")


def sread64(op: Operand, is_float: bool = False) -> Reader:
    if op.kind in ("imm", "fimm", "const"):
        c = np.uint64(imm_bits(op, 64, is_float))
        return lambda st, g: c
    if op.kind == "s" and op.idx == EXEC:
        return lambda st, g: (st.S[EXEC, g.ix].astype(np.uint64)
                              | (st.S[EXEC + 1, g.ix].astype(np.uint64) << 32))
    lo, hi = sread32(op, 0), sread32(op, 1)
    return lambda st, g: lo(st, g).astype(np.uint64) | (hi(st, g).astype(np.uint64) << 32)


def _special_reader(op: Operand, vector: bool) -> Reader:
    name = op.value
    if name in ("src_scc", "scc"):
        f = lambda st, g: st.SCC[g.ix].astype(np.uint32)  # noqa: E731
    elif name == "src_execz":
        f = lambda st, g: (~st.EM[g.ix].any(-1)).astype(np.uint32)  # noqa: E731
    elif name == "src_vccz":
        f = lambda st, g: ((st.S[106, g.ix] | (st.S[107, g.ix] if st.wave == 64 else 0))  # noqa
                           == 0).astype(np.uint32)
    else:
        raise OperandError(f"unsupported operand {op.text!r}")
    if vector:
        return lambda st, g: f(st, g)[:, None]
    return f


def swriter(op: Operand, k: int = 0) -> int | None:
    """SGPR slot for dword k of a scalar destination (None for ``null``-like sinks)."""
    if op.kind != "s":
        raise OperandError(f"operand {op.text!r} is not a scalar destination")
    return op.idx + k
