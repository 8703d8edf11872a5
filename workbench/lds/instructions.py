"""DS (LDS) instruction names -> what one lane of the instruction touches in LDS.

Why: the bank model needs the per-lane access width, the number of addresses per lane
(READ2/WRITE2 forms) and whether the op is a load, a store, an atomic or a permute that never
touches LDS memory. Both spellings that llvm-objdump prints are accepted: GFX9 (``ds_read_b32``,
``ds_write2st64_b64``) and GFX11+ (``ds_load_b32``, ``ds_store_2addr_stride64_b64``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import ArgumentTypeError, ArgumentValueError, HipwbError

__all__ = ["DsInstruction", "UnsupportedInstruction", "ds_instruction"]


class UnsupportedInstruction(HipwbError, ValueError):
    """A mnemonic that is not a DS instruction this model knows how to place in LDS banks."""


@dataclass(frozen=True)
class DsInstruction:
    """One DS mnemonic, decoded into what each lane accesses.

    ``size`` is the bytes accessed per address per lane; ``addresses`` is 2 for the
    READ2/WRITE2/WRXCHG2 forms; ``offset_unit`` is the byte value of one unit of their 8-bit
    ``offset0``/``offset1`` fields.
    """

    name: str
    kind: str  # "load" | "store" | "atomic" | "permute"
    size: int
    addresses: int = 1
    offset_unit: int = 0
    returns: bool = False
    transpose_bits: int = 0  # gfx950 ds_read_*_tr_b<N>: element bits of the 16-lane exchange

    @property
    def touches_banks(self) -> bool:
        """False for the cross-lane permutes, which move data without reading LDS memory."""
        return self.kind != "permute"

    @property
    def bytes_per_lane(self) -> int:
        """Bytes one lane moves to or from LDS (both addresses of a READ2 counted)."""
        return self.size * self.addresses

    def pair_addresses(self, base, offset0: int, offset1: int) -> np.ndarray:
        """Byte addresses ``[lanes, 2]`` of a READ2/WRITE2 from the per-lane base address.

        Source: AMD CDNA4 ISA guide §11.3 "Double Address Instructions" (markdown copy in the code
        index, id 63000004154): ``LDS_Addr{0,1} = LDS_BASE + VGPR[ADDR] + InstrOffset{0,1}*ADJ``,
        ADJ = 4 for 8/16/32-bit data and 8 for 64-bit; the ST64 forms multiply the offset by 64
        (Table 58 "offset *= 64").
        """
        if self.addresses != 2:
            raise ArgumentValueError(
                f"{self.name} takes one address per lane; pair_addresses is for "
                "READ2/WRITE2 forms")
        for label, off in (("offset0", offset0), ("offset1", offset1)):
            if not 0 <= int(off) <= 255:
                raise ArgumentValueError(f"{self.name}: {label}={off} does not fit the 8-bit field")
        base = np.asarray(base, dtype=np.int64)
        return np.stack([base + int(offset0) * self.offset_unit,
                         base + int(offset1) * self.offset_unit], axis=-1)


# Sizes of the typed suffixes (bytes).
_SIZES = {"b8": 1, "u8": 1, "i8": 1, "b16": 2, "u16": 2, "i16": 2, "f16": 2, "bf16": 2,
          "b32": 4, "u32": 4, "i32": 4, "f32": 4, "b64": 8, "u64": 8, "i64": 8, "f64": 8,
          "b96": 12, "b128": 16}

# Single-address loads/stores, both spellings; sub-dword forms may carry _d16 / _d16_hi
# (they only pick which half of the VGPR receives the data).
_LOAD = re.compile(r"^ds_(?:read|load)_(b32|b64|b96|b128|u8|i8|u16|i16)(?:_d16(?:_hi)?)?$")
_STORE = re.compile(r"^ds_(?:write|store)_(b8|b16|b32|b64|b96|b128)(?:_d16_hi)?$")
# Two-address forms: GFX9 read2/read2st64/write2/write2st64, GFX11+ *_2addr[_stride64].
_LOAD2 = re.compile(r"^ds_(?:read2(st64)?|load_2addr(_stride64)?)_(b32|b64)$")
_STORE2 = re.compile(r"^ds_(?:write2(st64)?|store_2addr(_stride64)?)_(b32|b64)$")
_XCHG2 = re.compile(r"^ds_(?:wrxchg2(st64)?|storexchg_2addr(_stride64)?)_rtn_(b32|b64)$")
# LDS atomics: ds_<op>[_rtn]_<type>. Every op name here is one that LLVM 19's llvm-mc accepts
# for at least one of gfx90a/gfx942/gfx1030/gfx1100/gfx1201 (checked by assembling them).
_ATOMIC_OPS = ("add", "sub", "rsub", "inc", "dec", "min", "max", "and", "or", "xor", "mskor",
               "wrxchg", "storexchg", "cmpst", "cmpstore", "condxchg32", "wrap", "min_num",
               "max_num", "sub_clamp", "cond_sub", "pk_add")
_ATOMIC = re.compile(r"^ds_(" + "|".join(sorted(_ATOMIC_OPS, key=len, reverse=True))
                     + r")(_rtn)?_(u32|i32|f32|b32|u64|i64|f64|b64|f16|bf16)$")
_PERMUTE = re.compile(r"^ds_(bpermute|permute|swizzle)_b32$")
# gfx950 transposing reads (LLVM DSInstructions.td DS_READ_B64_TR_B4/B8/B16, DS_READ_B96_TR_B6;
# llvm-mc -mcpu=gfx950 accepts them, gfx942 does not): each lane reads 8 (12) bytes at its own
# address; the transpose is a 16-lane data exchange after the read
# (workbench.emu.semantics.memory.dstr).
_TRANSPOSE = re.compile(r"^ds_read_(b64|b96)_tr_b(4|6|8|16)$")
_TRANSPOSE_FORMS = {("b64", 4), ("b64", 8), ("b64", 16), ("b96", 6)}


def ds_instruction(name: str) -> DsInstruction:
    """Decode a DS mnemonic (e.g. ``"ds_read_b128"``, ``"ds_load_2addr_b32"``).

    Raises UnsupportedInstruction naming the mnemonic when it is not a per-lane LDS access.
    """
    if not isinstance(name, str):
        raise ArgumentTypeError(f"instruction must be a mnemonic string, got {type(name).__name__}")
    n = name.strip().lower()
    if m := _LOAD.match(n):
        return DsInstruction(n, "load", _SIZES[m.group(1)], returns=True)
    if m := _STORE.match(n):
        return DsInstruction(n, "store", _SIZES[m.group(1)])
    for rx, kind, returns in ((_LOAD2, "load", True), (_STORE2, "store", False),
                              (_XCHG2, "atomic", True)):
        if m := rx.match(n):
            size = _SIZES[m.group(3)]
            st64 = bool(m.group(1) or m.group(2))
            # ISA §11.3: ADJ = 4 for <=32-bit data, 8 for 64-bit; ST64 forms scale by 64.
            unit = size * (64 if st64 else 1)
            return DsInstruction(n, kind, size, addresses=2, offset_unit=unit, returns=returns)
    if m := _ATOMIC.match(n):
        op, rtn, ty = m.groups()
        size = _SIZES[ty]
        if op == "pk_add":  # packed f16/bf16 pair: one dword per lane
            size = 4
        return DsInstruction(n, "atomic", size, returns=bool(rtn))
    if _PERMUTE.match(n):
        return DsInstruction(n, "permute", 4, returns=True)
    if (m := _TRANSPOSE.match(n)) and (m.group(1), int(m.group(2))) in _TRANSPOSE_FORMS:
        return DsInstruction(n, "load", _SIZES[m.group(1)], returns=True,
                             transpose_bits=int(m.group(2)))
    hint = ""
    if n.startswith("ds_") and "_tr_" in n:
        hint = (" (gfx950 has ds_read_b64_tr_b4/b8/b16 and ds_read_b96_tr_b6 only; LLVM "
                "DSInstructions.td)")
    elif n.startswith("ds_"):
        hint = " (no per-lane LDS address to place in banks, or not a form this model knows)"
    else:
        hint = " (not a DS instruction)"
    raise UnsupportedInstruction(f"instruction {name!r} is not modelled by workbench.lds{hint}")
