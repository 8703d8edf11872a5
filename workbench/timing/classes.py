"""Instruction classes of the timing model: which unit an instruction uses and what it costs.

Why separate: the class table is the one place a reader checks how an instruction is timed.
Classes: VALU, TRANS (quarter-rate VALU: transcendentals and 32-bit integer multiplies),
MFMA (matrix pipe, cycles from the layout catalog or
SISchedule.td passes), SALU, SMEM (lgkmcnt), BRANCH, LDS (lgkmcnt; bank cycles from
workbench.lds), VMEM_LOAD / VMEM_STORE (vmcnt), and the internal ones handled in the instruction
buffer: WAIT (s_waitcnt), BARRIER, NOP (s_nop), SLEEP, PRIO (s_setprio), END, and COMPILE_ONLY
(sched_barrier / sched_group_barrier are compiler directives and emit nothing; s_nop pads the
hazards the compiler's GCNHazardRecognizer found, so dependent-MFMA and VALU->MFMA hazards are
timed through those s_nop instructions).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ArgumentValueError

VALU, TRANS, MFMA, SALU, SMEM, BRANCH, LDS, VMEM_LOAD, VMEM_STORE = range(9)
WAIT, BARRIER, NOP, SLEEP, PRIO, END, OTHER_INTERNAL = range(9, 16)
NAMES = ("VALU", "TRANS", "MFMA", "SALU", "SMEM", "BRANCH", "LDS", "VMEM_LOAD", "VMEM_STORE",
         "WAIT", "BARRIER", "NOP", "SLEEP", "PRIO", "END", "INTERNAL")

# issue categories (one instruction per category per SIMD slot, GCN): MFMA issues as VALU
CATEGORY = {VALU: 0, TRANS: 0, MFMA: 0, SALU: 1, SMEM: 1, BRANCH: 2, LDS: 3, VMEM_LOAD: 4,
            VMEM_STORE: 4}

_TRANS = re.compile(r"^v_(exp|log|rcp|rsq|sqrt|sin|cos)_")
# 32-bit integer multiplies are quarter rate: LLVM AMDGPUTargetTransformInfo.cpp, ISD::MUL
# ("i32: QuarterRateCost"; an i64 multiply is four of them plus full-rate adds)
_INT_MUL = re.compile(r"^v_(mul_lo_u32|mul_lo_i32|mul_hi_u32|mul_hi_i32|mad_u64_u32|mad_i64_i32)")
_SHAPE = re.compile(r"(\d+)x(\d+)x(\d+)")
_BRANCH = ("s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_getpc", "s_call")
_SMEM = ("s_load", "s_buffer_load", "s_store", "s_buffer_store", "s_dcache", "s_memtime",
         "s_memrealtime", "s_scratch_load", "s_scratch_store", "s_atc_probe")
_INTERNAL = ("s_waitcnt_vscnt", "s_waitcnt_expcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_vmcnt",
             "s_ttracedata", "s_incperflevel", "s_decperflevel", "s_trap", "s_icache_inv")


@dataclass(frozen=True)
class InstClass:
    """How one static instruction is timed."""

    kind: int
    cycles: int = 0  # MFMA: pipe cycles; NOP/SLEEP: stall cycles
    flops: int = 0  # MFMA: 2*M*N*K*blocks
    dtype: str = ""  # MFMA input type for the peak: bf16 | f16 | fp8 | f32 | f64 | i8
    waits: tuple[int, int, int] = (-1, -1, -1)  # WAIT: (vmcnt, lgkmcnt, expcnt), -1 = no wait
    prio: int = 0  # PRIO: the new priority
    source: str = ""  # MFMA: where the cycle count comes from


def _int_operand(text: str) -> int:
    m = re.search(r"(0x[0-9a-fA-F]+|-?\d+)\s*$", text.strip())
    return int(m.group(1), 0) if m else 0


def parse_waitcnt(text: str) -> tuple[int, int, int]:
    """(vmcnt, lgkmcnt, expcnt) a gfx9 s_waitcnt waits for; -1 where it does not wait.

    Named form ``vmcnt(N) lgkmcnt(M)``; a raw SIMM16 is decoded with the gfx9 field layout
    (ISA guide: vmcnt bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 11:8; all-ones = no wait).
    """
    named = {k: int(v) for k, v in re.findall(r"(vmcnt|lgkmcnt|expcnt)\((\d+)\)", text)}
    if named:
        return (named.get("vmcnt", -1), named.get("lgkmcnt", -1), named.get("expcnt", -1))
    v = _int_operand(text) & 0xFFFF
    vm = (v & 0xF) | (((v >> 14) & 0x3) << 4)
    lgkm = (v >> 8) & 0xF
    exp = (v >> 4) & 0x7
    return (-1 if vm == 63 else vm, -1 if lgkm == 15 else lgkm, -1 if exp == 7 else exp)


def _mfma_dtype(mn: str) -> str:
    for key, dt in (("f8f6f4", "fp8"), ("fp8", "fp8"), ("bf8", "fp8"), ("bf16", "bf16"),
                    ("f16", "f16"), ("xf32", "f32"), ("i8", "i8"), ("f64", "f64")):
        if key in mn:
            return dt
    return "f32"


def mfma_class(mnemonic: str, arch: str) -> InstClass:
    """Cycles and FLOPs of an MFMA: the layout catalog when it lists it, else SCHED passes."""
    base = mnemonic.removesuffix("_e64")
    dt = _mfma_dtype(base)
    try:
        from ..layouts import catalog

        mi = catalog.get(base, arch)
        return InstClass(MFMA, int(mi.cycles), 2 * mi.m * mi.n * mi.k * mi.blocks, dt,
                         source=f"layout catalog ({mi.timing_source})")
    except (KeyError, ValueError, LookupError):
        pass
    m = _SHAPE.search(base)
    if not m:
        raise ArgumentValueError(f"timing model: cannot read the shape of MFMA {mnemonic!r}")
    M, N, K = (int(x) for x in m.groups())
    # LLVM SISchedule.td pass counts (SIDPGFX942/950FullSpeedModel; 1 pass = 4 cycles): gfx950
    # f8f6f4 16x16x128 = 8 passes with fp8/bf8 operands,
    # 32x32x64 = 16; otherwise 16x16 = 4, 32x32 = 8, 4x4 = 2 passes.
    if "f8f6f4" in base:
        passes = 8 if M == 16 else 16
    else:
        passes = {4: 2, 16: 4, 32: 8}.get(M, 8)
    return InstClass(MFMA, 4 * passes, 2 * M * N * K, dt,
                     source="SCHED passes (LLVM SISchedule.td), shape read from the mnemonic")


def classify(mnemonic: str, text: str, arch: str, trans_cycles: int = 16,
             sleep_unit: int = 64) -> InstClass:
    """The timing class of one instruction (mnemonic as the listing prints it)."""
    mn = mnemonic
    if mn.startswith(("v_mfma", "v_smfmac")):
        return mfma_class(mn, arch)
    if mn.startswith("v_"):
        quarter = _TRANS.match(mn) or _INT_MUL.match(mn)
        return InstClass(TRANS, trans_cycles) if quarter else InstClass(VALU)
    if mn.startswith("ds_"):
        return InstClass(LDS)
    if mn.startswith(("global_", "buffer_", "flat_", "scratch_")):
        store = "_store" in mn or "_atomic" in mn
        return InstClass(VMEM_STORE if store else VMEM_LOAD)
    if mn == "s_waitcnt":
        return InstClass(WAIT, waits=parse_waitcnt(text))
    for i, name in enumerate(("s_waitcnt_vmcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt")):
        if mn == name:
            w = [-1, -1, -1]
            w[i] = _int_operand(text) & 0x3F
            return InstClass(WAIT, waits=(w[0], w[1], w[2]))
    if mn == "s_barrier":
        return InstClass(BARRIER)
    if mn == "s_nop":
        return InstClass(NOP, _int_operand(text) + 1)
    if mn == "s_sleep":
        return InstClass(SLEEP, sleep_unit * _int_operand(text))
    if mn == "s_setprio":
        return InstClass(PRIO, prio=_int_operand(text))
    if mn == "s_endpgm":
        return InstClass(END)
    if mn.startswith(_BRANCH):
        return InstClass(BRANCH)
    if mn.startswith(_SMEM):
        return InstClass(SMEM)
    if mn.startswith(_INTERNAL):
        return InstClass(OTHER_INTERNAL)
    if mn.startswith("s_"):
        return InstClass(SALU)
    return InstClass(VALU)
