"""s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 on the MODE hardware register.

Fields (LLVM SIDefines.h, namespace Hwreg: ID_MODE = 1; ModeRegisterMasks FP_ROUND_MASK = bits
3:0 (f32 round 1:0, f64/f16 round 3:2), FP_DENORM_MASK = bits 7:4 (f32 5:4, f64/f16 7:6),
DX10_CLAMP_MASK = bit 8, IEEE_MODE_MASK = bit 9). The SOPK simm16 names the field:
id [5:0], offset [10:6], size-1 [15:11] (CDNA3 ISA S_GETREG_B32; LLVM printer
``hwreg(HW_REG_MODE, offset, size)``); s_setreg_imm32_b32 takes the value from its literal dword.
The wave's MODE starts as the kernel descriptor's COMPUTE_PGM_RSRC1 float fields, DX10_CLAMP and
IEEE_MODE (AMDGPUUsage "compute_pgm_rsrc1": the CP loads them into the wave's MODE register).

How mode changes reach the float semantics: instruction semantics are compiled once, with the
denormal/clamp/IEEE modes in force *at that instruction*, found by a linear scan of the
listing that follows the constant writes of s_setreg_imm32_b32 (LLVM brackets an f32 division
with ``s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3`` ... ``, 0`` when denormals are
otherwise flushed, SIISelLowering::LowerFDIV32). At run time every s_setreg checks that the MODE
it produces is the one the following code was compiled for, and a branch between code compiled
for different modes raises when taken — a mismatch is an error, never a silent wrong result.
Rounding modes other than round-to-nearest-even are not modelled: a write of one raises.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...decoder.operands import sread32
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction

HW_REG_MODE = 1
FP_BITS = 0x3FF  # round (3:0), denorm (7:4), DX10_CLAMP (8), IEEE (9)
ROUND_NAMES = {0: "nearest-even", 1: "+inf", 2: "-inf", 3: "toward zero"}  # SIDefines FP_ROUND_*


def mode_from_descriptor(desc: Any) -> int:
    """Initial MODE bits of a wave from the kernel descriptor."""
    return ((desc.float_round_mode_32 & 3) | (desc.float_round_mode_16_64 & 3) << 2
            | (desc.float_denorm_mode_32 & 3) << 4 | (desc.float_denorm_mode_16_64 & 3) << 6
            | int(bool(desc.dx10_clamp)) << 8 | int(bool(desc.ieee_mode)) << 9)


def mode_fields(mode: int) -> dict:
    """ProgramInfo fields that a MODE value sets."""
    return {"denorm32": (mode >> 4) & 3, "denorm16_64": (mode >> 6) & 3,
            "dx10_clamp": bool(mode >> 8 & 1), "ieee_mode": bool(mode >> 9 & 1), "mode": mode}


def hwreg_fields(word0: int) -> tuple[int, int, int]:
    """(register id, bit offset, bit count) from a SOPK s_getreg/s_setreg simm16."""
    simm = word0 & 0xFFFF
    return simm & 0x3F, (simm >> 6) & 0x1F, ((simm >> 11) & 0x1F) + 1


def static_effect(ins: Any, mode: int) -> int:
    """MODE after ``ins`` when it is a constant MODE write (else ``mode`` unchanged)."""
    if ins.mnemonic in ("s_round_mode", "s_denorm_mode"):  # GFX10+ SOPP: SIMM16[3:0]
        sh = 0 if ins.mnemonic == "s_round_mode" else 4  # MODE[3:0] round, [7:4] denorm
        return (mode & ~(0xF << sh)) | ((ins.words[0] & 0xF) << sh)
    if ins.mnemonic != "s_setreg_imm32_b32" or len(ins.words) < 2:
        return mode
    rid, off, size = hwreg_fields(ins.words[0])
    if rid != HW_REG_MODE:
        return mode
    m = ((1 << size) - 1) << off
    return (mode & ~m) | ((ins.words[1] << off) & m)


def _check(d: Decoded, new: np.ndarray, expect: int) -> None:
    """Refuse MODE values the following code was not compiled for."""
    fp = new & np.uint32(FP_BITS)
    if (fp & np.uint32(0xF)).any():
        r = int((fp & np.uint32(0xF))[fp & np.uint32(0xF) != 0][0])
        raise EmulatorError(
            f"{d.mnemonic} at pc 0x{d.addr:x} sets the rounding mode to f32 "
            f"{ROUND_NAMES[r & 3]} / f64,f16 {ROUND_NAMES[r >> 2]}; the emulator models only "
            f"round-to-nearest-even: `{d.inst.text}`")
    if (fp != np.uint32(expect & FP_BITS)).any():
        got = int(fp[fp != np.uint32(expect & FP_BITS)][0])
        raise EmulatorError(
            f"{d.mnemonic} at pc 0x{d.addr:x} sets MODE[9:0] = 0x{got:03x} at run time, but the "
            f"code after it was compiled for 0x{expect & FP_BITS:03x} (denormal/clamp/IEEE "
            f"modes are resolved per instruction from constant s_setreg_imm32_b32 writes): "
            f"`{d.inst.text}`")


# The shader cycle counter that clock64() reads on RDNA (LLVM SIDefines.h Hwreg: ID_SHADER_CYCLES
# = 29, a 20-bit counter on GFX10.3/GFX11; GFX12 names it SHADER_CYCLES_LO (32 bits) and adds
# ID_SHADER_CYCLES_HI = 30). The emulator has no clock: it reads the launch's executed
# wave-instructions, the same monotonic counter as gfx9's s_memtime (scalar.smem).
HW_REG_SHADER_CYCLES, HW_REG_SHADER_CYCLES_HI = 29, 30


# Wave placement registers (__smid() reads them). LLVM SIDefines.h Hwreg: ID_HW_ID = 4 (gfx9),
# ID_XCC_ID = 20 (gfx940+), ID_HW_ID1 = 23 (GFX10+). Field layouts: CDNA3 ISA "HW_ID" (WAVE_ID
# 3:0, SIMD_ID 5:4, PIPE_ID 7:6, CU_ID 11:8, SH_ID 12, SE_ID 14:13, ...), RDNA3 ISA "HW_ID1"
# (WAVE_ID 4:0, SIMD_ID 9:8, WGP_ID 13:10, SA_ID 16, SE_ID 20:18), XCC_ID 3:0.
# The emulator's machine is modelled, not a real GPU's: one XCC, one shader engine and array,
# 16 CUs (WGPs on RDNA: the 4-bit CU_ID / WGP_ID range); workgroup number d of the launch (in
# dispatch order, x fastest) runs on CU d mod 16, its wave k on SIMD k mod 4 in slot k // 4;
# SE, SA, SH, XCC, pipe and the queue fields read 0. So __smid() is deterministic: blocks
# 0..15 report 0..15, block 16 reports 0 again, and every wave of a block the same value.
HW_REG_HW_ID, HW_REG_XCC_ID, HW_REG_HW_ID1 = 4, 20, 23
EMU_CUS = 16


def _placement(st, g, rid: int) -> np.ndarray:
    """The HW_ID / HW_ID1 / XCC_ID value of each wave of ``g`` (see the model above)."""
    wave = np.asarray(g.waves)
    cu = (st.wg_first + st.wg[wave]) % EMU_CUS
    k = st.wave_in_wg[wave]
    if rid == HW_REG_XCC_ID:
        return np.zeros(len(wave), np.uint32)
    if rid == HW_REG_HW_ID1:
        return ((k // 4) | (k % 4) << 8 | cu << 10).astype(np.uint32)
    return ((k // 4) | (k % 4) << 4 | cu << 8).astype(np.uint32)


def _counter(st) -> int:
    from .smem import clock_now

    return clock_now(st)


def _fields(d: Decoded) -> tuple[int, int, int]:
    rid, off, size = hwreg_fields(d.inst.words[0])
    if rid in (HW_REG_SHADER_CYCLES, HW_REG_SHADER_CYCLES_HI) and d.base == "s_getreg_b32" \
            and d.kernel.gen >= 11:
        return rid, off, size
    if d.base == "s_getreg_b32" and (
            (rid == HW_REG_HW_ID and d.kernel.gen == 9)
            or (rid == HW_REG_HW_ID1 and d.kernel.gen >= 10)
            or (rid == HW_REG_XCC_ID and str(d.kernel.arch) in ("gfx940", "gfx941", "gfx942",
                                                                 "gfx950"))):
        return rid, off, size
    if rid != HW_REG_MODE:
        name = next((o.text for o in d.ops if "hwreg" in o.text), f"id {rid}")
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text,
                                 f"hardware register {name} (only HW_REG_MODE is modelled)")
    return rid, off, size


@semantic("s_getreg_b32")
def _build_getreg(d: Decoded):
    rid, off, size = _fields(d)
    dst = d.ops[0]
    mask = np.uint32((1 << size) - 1) if size < 32 else np.uint32(0xFFFFFFFF)
    if rid in (HW_REG_HW_ID, HW_REG_HW_ID1, HW_REG_XCC_ID):
        def placement(st, g):
            st.swrite(dst.idx, g, (_placement(st, g, rid) >> np.uint32(off)) & mask)
        return placement
    if rid != HW_REG_MODE:
        shift = 32 if rid == HW_REG_SHADER_CYCLES_HI else 0
        width = 20 if (rid == HW_REG_SHADER_CYCLES and d.kernel.gen == 11) else 32

        def cycles(st, g):
            v = (_counter(st) >> shift) & ((1 << width) - 1)
            st.swrite(dst.idx, g, np.uint32((v >> off) & int(mask)))
        return cycles

    def run(st, g):
        st.swrite(dst.idx, g, (st.MODE[g.ix] >> np.uint32(off)) & mask)
    return run


@semantic("s_setreg_b32", "s_setreg_imm32_b32")
def _build_setreg(d: Decoded):
    _rid, off, size = _fields(d)
    m = np.uint32((((1 << size) - 1) << off) & 0xFFFFFFFF)
    imm = d.base == "s_setreg_imm32_b32"
    if imm:
        lit = np.uint32(d.inst.words[1])
        src = lambda st, g: lit  # noqa: E731
    else:
        src = sread32(next(o for o in d.ops if o.kind == "s"))
    pre = int(getattr(d.kernel, "mode", -1))
    expect = static_effect(d.inst, pre) if pre >= 0 else -1

    def run(st, g):
        new = (st.MODE[g.ix] & ~m) | ((np.asarray(src(st, g), np.uint32) << np.uint32(off)) & m)
        if expect >= 0:
            _check(d, np.asarray(new, np.uint32), expect)
        st.MODE[g.ix] = new
    return run
