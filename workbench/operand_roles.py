"""Which registers an AMDGPU instruction writes and which it reads, from its listing text.

Why: register-pressure analysis (`workbench.pressure`) needs a def/use set per instruction. The
emulator's checker (``workbench.emu.observers.check``) keeps its own private, coarser table
(first operand = the load's data) and sits a layer above, so this layer-1 module has its own,
table-driven by instruction family, one small function per family.

Operands are read as ``llvm-objdump`` prints them (LLVM AMDGPUOperandSyntax.rst): ``v5``,
``v[4:7]``, ``a[0:15]``, ``s[2:3]``, ``vcc``/``vcc_lo``/``vcc_hi``; the printed range gives a
tuple's width, so ``_x2/_x4/_b64/_b128`` forms need no table. The rule of each family follows
the AMD ISA guides (CDNA3 ISA, "Vector ALU", "Scalar Memory", "LDS", "Global/Flat"; RDNA3 ISA
for VOPD and true16) and LLVM's tied operands (SIInstrInfo.td ``$vdst = $vdst_in``/``$src2``):

- the first operand is the destination, except for stores, compares to SCC, branches and
  other SOPP, LDS-DMA loads (``global_load_lds_*``, ``buffer_load_* ... lds``: the data goes
  to LDS, no VGPR is written) and atomics that do not return (no ``glc``/``sc0``/
  ``th:TH_ATOMIC_RETURN``);
- two destinations: carry-out VALU (``v_add_co_u32 v0, vcc, ...``, ``v_addc_co``, ``v_sub*_co``,
  ``v_add_co_ci``), ``v_div_scale``, ``v_mad_u64_u32``/``v_mad_i64_i32`` (VOP3b), swaps
  (``v_swap_b32``, ``v_permlane16/32_swap``: both read too), and VOPD's two halves;
- the destination is also *read* where the hardware keeps part of the old value or
  accumulates into it: MAC/FMAC and ``v_dot*c`` (dst = src2), ``v_writelane`` (other lanes),
  ``v_smfmac``/``v_swmmac`` (dst is the accumulator), SOPK ``s_addk/s_mulk/s_cmovk``,
  ``s_cmov``/``s_bitset``/``s_fmac``, d16 loads (the other 16 bits are kept on gfx9+), true16
  halves (``v0.l``), ``v_fma_mixlo/hi``, VOP3 16-bit writes to the high half (``op_sel``'s dst
  bit), SDWA with ``dst_unused:UNUSED_PRESERVE``, DPP whose disabled lanes keep the old
  value (row/bank mask not 0xf, or a shift without ``bound_ctrl``), fp8/bf8/fp4 packing
  conversions (``v_cvt_pk_fp8_f32`` ... write a half or a byte: LLVM ties ``vdst_in``), and
  returning buffer/image atomics (the data register receives the old value);
- implicit operands that are registers we count: ``v_div_fmas`` reads VCC,
  ``s_cbranch_vccz/vccnz`` read VCC. EXEC, M0, SCC, flat_scratch, xnack_mask, ttmp, null,
  inline constants and literals are not registers here.

Not modelled (reads/writes taken as printed): M0-relative VGPR indexing (``v_movrel*``,
``s_set_gpr_idx_on``) and the registers a called function (``s_swappc_b64``) touches.

Registers are ints: ``v k`` -> k, ``a k`` -> AGPR_BASE + k, ``s k`` -> SGPR_BASE + k, VCC's
halves SGPR_BASE + 106/107 (their SGPR encodings, AMDGPU "SGPR / special" operand table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["AGPR_BASE", "SGPR_BASE", "VCC_HI", "VCC_LO", "def_use", "operand_registers",
           "reg_class", "reg_name", "register_ranges"]

AGPR_BASE = 512
SGPR_BASE = 1024
VCC_LO, VCC_HI = SGPR_BASE + 106, SGPR_BASE + 107
_PREFIX = {"v": 0, "a": AGPR_BASE, "s": SGPR_BASE}

_RANGE = re.compile(r"(?<![\w.])([vas])\[(\d+):(\d+)\]")
_ONE = re.compile(r"(?<![\w.\[])([vas])(\d+)(?:\.[lh])?(?![\w\[:])")
_VCC = re.compile(r"(?<![\w.])vcc(_lo|_hi)?(?!\w)")


def operand_registers(text: str, wave64: bool = True) -> tuple[int, ...]:
    """The registers one operand's text names (``-|v[2:3]|`` -> (2, 3); ``vcc`` -> VCC's
    halves in wave64, its low half in wave32)."""
    out = [_PREFIX[m[1]] + k for m in _RANGE.finditer(text)
           for k in range(int(m[2]), int(m[3]) + 1)]
    out += [_PREFIX[m[1]] + int(m[2]) for m in _ONE.finditer(text)]
    for m in _VCC.finditer(text):
        half = m[1]
        out += [VCC_LO] if half == "_lo" or (half is None and not wave64) else \
            [VCC_HI] if half == "_hi" else [VCC_LO, VCC_HI]
    return tuple(out)


def reg_class(r: int) -> str:
    """"vgpr", "agpr", "sgpr" or "vcc"."""
    if r < AGPR_BASE:
        return "vgpr"
    if r < SGPR_BASE:
        return "agpr"
    return "vcc" if r in (VCC_LO, VCC_HI) else "sgpr"


def reg_name(r: int) -> str:
    """``v5``, ``a3``, ``s7``, ``vcc_lo``."""
    if r in (VCC_LO, VCC_HI):
        return "vcc_lo" if r == VCC_LO else "vcc_hi"
    for p, base in (("s", SGPR_BASE), ("a", AGPR_BASE), ("v", 0)):
        if r >= base:
            return f"{p}{r - base}"
    raise ValueError(r)


def register_ranges(regs: Iterable[int]) -> str:
    """Registers as short ranges in listing syntax: ``v[0:5], v9, a[0:3], s[2:3], vcc_lo``."""
    out: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            first, last = reg_name(run[0]), reg_name(run[-1])
            out.append(first if len(run) == 1 else f"{first[0]}[{first[1:]}:{last[1:]}]")
            run.clear()

    for r in sorted(set(regs)):
        if run and (r != run[-1] + 1 or reg_class(r) != reg_class(run[-1])
                    or reg_class(r) == "vcc"):
            flush()
        run.append(r)
    flush()
    return ", ".join(out)


# -- families ----------------------------------------------------------------------------------
# Each returns (number of leading destination operands, whether those are also read).

_TWO_DST = re.compile(r"^v_(add|sub|subrev|addc|subb|subbrev)_co_|^v_(add|sub|subrev)_co_ci_"
                      r"|^v_div_scale_|^v_mad_(u64_u32|i64_i32)|^v_mad_co_")
_TIED_VALU = re.compile(r"^v_(pk_)?f?mac_|^v_dot\d+c_|^v_dual_fmac|^v_dual_dot2acc|^v_writelane"
                        r"|^v_permlanex?16_b32|^v_permlane16_var|^v_smfmac|^v_swmmac"
                        r"|^v_(fma|mad)_mix(lo|hi)_"
                        r"|^v_cvt_(scalef32_)?(sr_)?(pk_)?(fp8|bf8|fp4)_")
_VECTOR = re.compile(r"[va](\d|\[)")  # a VGPR/AGPR operand, not vcc
_SWAPS = ("v_swap_b32", "v_swaprel_b32", "v_permlane16_swap", "v_permlane32_swap")
_DPP_SHIFTS = ("row_shl", "row_shr", "wave_shl", "wave_shr", "row_bcast")


def _mod_value(mods: Sequence[str], key: str) -> str | None:
    for m in mods:
        if m.startswith(key + ":"):
            return m.split(":", 1)[1]
    return None


def _keeps_old(ops: Sequence[str], mods: Sequence[str], mnemonic: str) -> bool:
    """Whether a VALU write leaves part of the destination as it was (read it, then)."""
    if ops and re.search(r"\.[lh]$", ops[0]):  # true16: v0.l keeps v0.h (RDNA3 ISA 7.9)
        return True
    if mnemonic.endswith("_sdwa") and _mod_value(mods, "dst_unused") == "UNUSED_PRESERVE":
        return True
    sel = _mod_value(mods, "op_sel")
    if sel and not mnemonic.startswith("v_pk_"):  # VOP3 op_sel: one bit per source, then dst
        bits = sel.strip("[]").split(",")
        if len(bits) == len(ops) and bits[-1] == "1":  # writes the high half, keeps the low
            return True
    if any(m.startswith(("quad_perm", "row_", "wave_", "dpp8")) for m in mods):
        # DPP (CDNA3 ISA "DPP"): a disabled row/bank, or a lane whose source is out of range
        # when bound_ctrl is off, does not write its lane
        full = all(_mod_value(mods, k) in (None, "0xf") for k in ("row_mask", "bank_mask"))
        shift = any(m.startswith(_DPP_SHIFTS) for m in mods)
        return not full or (shift and _mod_value(mods, "bound_ctrl") is None)
    return False


def _valu(m: str, ops: Sequence[str], mods: Sequence[str]) -> tuple[int, bool]:
    if not ops:
        return 0, False
    if m.startswith(("v_cmp", "v_cmpx")):  # VOPC: sdst (vcc / s pair) unless only EXEC (v_cmpx)
        return (1 if len(ops) == 3 else 0), False
    if m.startswith(_SWAPS):
        return 2, True
    if _TWO_DST.match(m) and len(ops) >= 3 and not _VECTOR.match(ops[1]):
        return 2, False
    return 1, bool(_TIED_VALU.match(m)) or _keeps_old(ops, mods, m)


_SALU_NO_DST = ("s_cmp", "s_bitcmp", "s_setpc", "s_rfe", "s_set_gpr_idx", "s_waitcnt",
                "s_wait_", "s_cbranch", "s_branch", "s_setreg", "s_store", "s_buffer_store",
                "s_scratch_store", "s_dcache", "s_icache", "s_atc_probe", "s_prefetch",
                "s_ttracedata", "s_trap", "s_barrier", "s_endpgm", "s_nop", "s_sleep",
                "s_setprio", "s_delay_alu", "s_clause", "s_set_inst", "s_setkill", "s_sethalt",
                "s_code_end", "s_denorm_mode", "s_round_mode", "s_wakeup", "s_incperflevel",
                "s_decperflevel", "s_singleuse", "s_version", "s_sendmsghalt")
_SALU_TIED = ("s_addk_", "s_mulk_", "s_cmovk_", "s_cmov_", "s_bitset0_", "s_bitset1_",
              "s_fmac_")


def _salu(m: str, ops: Sequence[str], mods: Sequence[str]) -> tuple[int, bool]:
    if m.startswith(("s_atomic", "s_buffer_atomic")):  # SMEM atomics: data returns with glc
        return (1, True) if "glc" in mods else (0, False)
    if m.startswith("s_sendmsg") and not m.startswith("s_sendmsg_rtn"):
        return 0, False
    if m.startswith(_SALU_NO_DST) or not ops:
        return 0, False
    return 1, m.startswith(_SALU_TIED)


_DS_LOADS = ("ds_read", "ds_load", "ds_bpermute", "ds_permute", "ds_swizzle", "ds_consume",
             "ds_append", "ds_ordered_count")


def _ds(m: str, ops: Sequence[str], mods: Sequence[str]) -> tuple[int, bool]:
    if m.startswith(_DS_LOADS) or "_rtn" in m:
        return 1, "_d16" in m
    return 0, False


def _returns(mods: Sequence[str]) -> bool:
    """An atomic returns the old value: glc (gfx9, gfx10/11), sc0 (gfx940+), th:..RETURN (gfx12)."""
    return any(x in ("glc", "sc0") or (x.startswith("th:") and "RETURN" in x) for x in mods)


def _vmem(m: str, ops: Sequence[str], mods: Sequence[str]) -> tuple[int, bool]:
    if "lds" in mods or "_lds" in m:  # LDS DMA (CDNA3 ISA "global load LDS"): no VGPR data
        return 0, False
    if "_atomic" in m:
        if not _returns(mods):
            return 0, False
        return (1, True) if m.startswith(("buffer_", "image_")) else (1, False)
    if "_load" in m or m.startswith(("image_sample", "image_gather", "image_get", "image_bvh",
                                     "image_msaa")):
        return 1, "_d16" in m and "format_d16_xy" not in m
    return 0, False


_FAMILIES = (("ds_", _ds), ("global_", _vmem), ("buffer_", _vmem), ("flat_", _vmem),
             ("scratch_", _vmem), ("tbuffer_", _vmem), ("image_", _vmem), ("v_", _valu),
             ("s_", _salu))


def roles(mnemonic: str, ops: Sequence[str], mods: Sequence[str] = ()) -> tuple[int, bool]:
    """(number of leading destination operands, whether they are also read) for one
    instruction (one VOPD half)."""
    for prefix, fn in _FAMILIES:
        if mnemonic.startswith(prefix):
            return fn(mnemonic, ops, mods)
    return 0, False  # exp, export, unknown: read everything


def _implicit_uses(m: str, wave64: bool) -> tuple[int, ...]:
    if m.startswith(("v_div_fmas", "s_cbranch_vcc")):
        return (VCC_LO, VCC_HI) if wave64 else (VCC_LO,)
    return ()


def def_use(ins: Any, wave64: bool = True) -> tuple[frozenset[int], frozenset[int]]:
    """(registers written, registers read) by one ``workbench.isa.Instruction``."""
    halves = [(ins.mnemonic, ins.regs, ins.modifiers)]
    if getattr(ins, "dual", None):
        halves.append((ins.dual[0], ins.dual[1], ()))
    defs: set[int] = set()
    uses: set[int] = set()
    for m, ops, mods in halves:
        n_dst, dst_read = roles(m, ops, mods)
        for j, op in enumerate(ops):
            regs = operand_registers(op, wave64)
            if j < n_dst:
                defs.update(regs)
            if j >= n_dst or dst_read:
                uses.update(regs)
        uses.update(_implicit_uses(m, wave64))
    return frozenset(defs), frozenset(uses)
