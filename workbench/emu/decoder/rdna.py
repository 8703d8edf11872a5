"""RDNA3 (GFX11) and RDNA4 (GFX12) code objects on the gfx9 semantic table: mnemonic renames
and the encoding-length rule of the GFX11/GFX12 microcode formats.

Why renames: GFX11 renamed most memory and integer mnemonics without changing what they do
(``global_load_b32`` is gfx9's ``global_load_dword``, ``v_add_nc_u32`` is ``v_add_u32``,
``s_and_not1_b32`` is ``s_andn2_b32``; LLVM keeps both spellings as aliases of one operation in
its *Instructions.td "Real" definitions, e.g. ``defm : MUBUF_Real_gfx11_Renamed``). Mapping the
new name to the old one keeps one semantic per operation (table-driven families, no copies).
GFX12 renamed a few more (``s_add_co_u32`` = ``s_add_u32``, ``v_max_num_f32`` = ``v_max_f32``).

Why a length rule: ``decode.check_length`` checks every instruction's printed word count
against what its encoding bits imply. The GFX11/GFX12 format codes below are the
[31:24]/[31:26] patterns of the RDNA3 and RDNA4 ISA guides' "Microcode Formats" chapters (the
same values as LLVM's SIInstrFormats.td / VOPDInstructions.td / FLATInstructions.td encodings
for GFX11 and GFX12) and were checked against every instruction of the emulator corpus
compiled for gfx1100 and gfx1201.
"""
from __future__ import annotations

# ---- generations ------------------------------------------------------------------------------


def generation(arch: str) -> int:
    """9 (gfx9 CDNA), 11 (RDNA3: gfx110x, gfx115x) or 12 (RDNA4: gfx120x)."""
    if arch.startswith("gfx11"):
        return 11
    if arch.startswith("gfx12"):
        return 12
    return 9


# ---- renames: GFX11/GFX12 mnemonic -> the gfx9 mnemonic with the same semantics ---------------
_WIDTH = {"b32": "dword", "b64": "dwordx2", "b96": "dwordx3", "b128": "dwordx4",
          "b256": "dwordx8", "b512": "dwordx16"}
_VMEM_SUB = {"u8": "ubyte", "i8": "sbyte", "u16": "ushort", "i16": "sshort", "b8": "byte",
             "b16": "short", "d16_b16": "short_d16", "d16_hi_b16": "short_d16_hi",
             "d16_u8": "ubyte_d16", "d16_i8": "sbyte_d16", "d16_hi_u8": "ubyte_d16_hi",
             "d16_hi_i8": "sbyte_d16_hi", "d16_hi_b8": "byte_d16_hi", **_WIDTH}
_ATOMIC = {"add_u32": "add", "sub_u32": "sub", "min_i32": "smin", "max_i32": "smax",
           "min_u32": "umin", "max_u32": "umax", "and_b32": "and", "or_b32": "or",
           "xor_b32": "xor", "swap_b32": "swap", "cmpswap_b32": "cmpswap", "inc_u32": "inc",
           "dec_u32": "dec", "add_u64": "add_x2", "sub_u64": "sub_x2", "swap_b64": "swap_x2",
           "cmpswap_b64": "cmpswap_x2", "min_i64": "smin_x2", "max_i64": "smax_x2",
           "min_u64": "umin_x2", "max_u64": "umax_x2", "and_b64": "and_x2", "or_b64": "or_x2",
           "xor_b64": "xor_x2", "inc_u64": "inc_x2", "dec_u64": "dec_x2",
           "add_f32": "add_f32", "pk_add_f16": "pk_add_f16", "pk_add_bf16": "pk_add_bf16"}
_DS = {"load_b32": "read_b32", "load_b64": "read_b64", "load_b96": "read_b96",
       "load_b128": "read_b128", "store_b32": "write_b32", "store_b64": "write_b64",
       "store_b96": "write_b96", "store_b128": "write_b128", "load_u8": "read_u8",
       "load_i8": "read_i8", "load_u16": "read_u16", "load_i16": "read_i16",
       "store_b8": "write_b8", "store_b16": "write_b16",
       "load_2addr_b32": "read2_b32", "load_2addr_b64": "read2_b64",
       "load_2addr_stride64_b32": "read2st64_b32", "load_2addr_stride64_b64": "read2st64_b64",
       "store_2addr_b32": "write2_b32", "store_2addr_b64": "write2_b64",
       "store_2addr_stride64_b32": "write2st64_b32",
       "store_2addr_stride64_b64": "write2st64_b64",
       "load_u8_d16": "read_u8_d16", "load_u8_d16_hi": "read_u8_d16_hi",
       "load_i8_d16": "read_i8_d16", "load_i8_d16_hi": "read_i8_d16_hi",
       "load_u16_d16": "read_u16_d16", "load_u16_d16_hi": "read_u16_d16_hi",
       "store_b8_d16_hi": "write_b8_d16_hi", "store_b16_d16_hi": "write_b16_d16_hi",
       "storexchg_rtn_b32": "wrxchg_rtn_b32", "storexchg_rtn_b64": "wrxchg_rtn_b64",
       "add_rtn_u32": "add_rtn_u32",
       # GFX11's DS_CMPSTORE_* take (new value, compare value) where gfx9's DS_CMPST_* take
       # (compare, new): memory.ds swaps them back on gen >= 11 (RDNA3 ISA DS_CMPSTORE_B32:
       # "src = DATA; cmp = DATA2"; LLVM DSInstructions.td selects atomic_cmp_swap with
       # DSAtomicCmpXChgSwapped before GFX11 and DSAtomicCmpXChg from GFX11 on)
       "cmpstore_b32": "cmpst_b32", "cmpstore_rtn_b32": "cmpst_rtn_b32",
       "cmpstore_b64": "cmpst_b64", "cmpstore_rtn_b64": "cmpst_rtn_b64"}
# (GFX12's ds_min_num_f32 etc. keep their names: minimumNumber, not GFX11's compare; memops)

RENAMES: dict[str, str] = {
    # VALU integer (LLVM VOP2Instructions.td: "v_add_nc_u32" is GFX10+'s name of v_add_u32)
    "v_add_nc_u32": "v_add_u32", "v_sub_nc_u32": "v_sub_u32", "v_subrev_nc_u32": "v_subrev_u32",
    "v_add_nc_i32": "v_add_i32", "v_sub_nc_i32": "v_sub_i32",
    "v_add_nc_u16": "v_add_u16", "v_sub_nc_u16": "v_sub_u16",
    "v_add_co_ci_u32": "v_addc_co_u32", "v_sub_co_ci_u32": "v_subb_co_u32",
    "v_subrev_co_ci_u32": "v_subbrev_co_u32",
    "v_cvt_pk_rtz_f16_f32": "v_cvt_pkrtz_f16_f32",
    # GFX11+ VOP2 D = dot2(S0, S1) + D (LLVM VOP2Instructions.td V_DOT2ACC_F32_F16 / _BF16:
    # the gfx9 v_dot2c_* under their GFX11 names; fdot2 with the accumulator in the destination)
    "v_dot2acc_f32_f16": "v_dot2c_f32_f16", "v_dot2acc_f32_bf16": "v_dot2c_f32_bf16",
    "v_cvt_pk_norm_i16_f32": "v_cvt_pknorm_i16_f32",
    "v_cvt_pk_norm_u16_f32": "v_cvt_pknorm_u16_f32",
    "v_mad_co_u64_u32": "v_mad_u64_u32", "v_mad_co_i64_i32": "v_mad_i64_i32",  # GFX12 names
    # GFX12 IEEE-754-2019 minimumNumber/maximumNumber: on the gfx9 ops with IEEE mode (the only
    # difference is sNaN quieting, RDNA4 ISA "V_MAX_NUM_F32")
    "v_min_num_f32": "v_min_f32", "v_max_num_f32": "v_max_f32", "v_min_num_f16": "v_min_f16",
    "v_max_num_f16": "v_max_f16", "v_min_num_f64": "v_min_f64", "v_max_num_f64": "v_max_f64",
    "v_minmax_num_f32": "v_minmax_f32", "v_maxmin_num_f32": "v_maxmin_f32",
    "v_minmax_num_f16": "v_minmax_f16", "v_maxmin_num_f16": "v_maxmin_f16",
    # med3 with any NaN operand = min3 of the operands in both modes (LLVM
    # AMDGPUInstCombineIntrinsic.cpp, fmed3 fold: "ieee=0 / s0 _nan: min(s1, s2)" as for ieee=1)
    "v_med3_num_f32": "v_med3_f32", "v_med3_num_f16": "v_med3_f16",
    "v_min3_num_f32": "v_min3_f32", "v_max3_num_f32": "v_max3_f32",
    "v_min3_num_f16": "v_min3_f16", "v_max3_num_f16": "v_max3_f16",
    # GFX12's names of V_PK_MIN_F16 / V_PK_MAX_F16 (same VOP3P opcodes 17 / 18; LLVM
    # VOP3PInstructions.td renames them for GFX12)
    "v_pk_min_num_f16": "v_pk_min_f16", "v_pk_max_num_f16": "v_pk_max_f16",
    # GFX11 bit scans (LLVM VOP1Instructions.td: V_CLZ_I32_U32 / V_CTZ_I32_B32 / V_CLS_I32 are
    # the Real names of V_FFBH_U32 / V_FFBL_B32 / V_FFBH_I32, opcodes 0x39..0x3b)
    "v_clz_i32_u32": "v_ffbh_u32", "v_ctz_i32_b32": "v_ffbl_b32", "v_cls_i32": "v_ffbh_i32",
    # GFX11 float->int roundings (VOP1 0x0c/0x0d: V_CVT_NEAREST_I32_F32 / V_CVT_FLOOR_I32_F32
    # are the Real names of V_CVT_RPI_I32_F32 / V_CVT_FLR_I32_F32)
    "v_cvt_nearest_i32_f32": "v_cvt_rpi_i32_f32", "v_cvt_floor_i32_f32": "v_cvt_flr_i32_f32",
    # SALU (LLVM SOPInstructions.td GFX11 renames; GFX12 "_co" names)
    "s_and_not1_b32": "s_andn2_b32", "s_and_not1_b64": "s_andn2_b64",
    "s_or_not1_b32": "s_orn2_b32", "s_or_not1_b64": "s_orn2_b64",
    "s_ctz_i32_b32": "s_ff1_i32_b32", "s_ctz_i32_b64": "s_ff1_i32_b64",
    "s_clz_i32_u32": "s_flbit_i32_b32", "s_clz_i32_u64": "s_flbit_i32_b64",
    "s_cls_i32": "s_flbit_i32", "s_cls_i32_i64": "s_flbit_i32_i64",
    "s_add_co_u32": "s_add_u32", "s_sub_co_u32": "s_sub_u32", "s_add_co_i32": "s_add_i32",
    "s_sub_co_i32": "s_sub_i32", "s_add_co_ci_u32": "s_addc_u32", "s_sub_co_ci_u32": "s_subb_u32",
    "s_addk_co_i32": "s_addk_i32",  # GFX12 SOPK name (RDNA4 ISA S_ADDK_CO_I32: SCC = overflow)
    "s_and_not1_saveexec_b64": "s_andn2_saveexec_b64",
    "s_or_not1_saveexec_b64": "s_orn2_saveexec_b64",
    "s_and_not0_saveexec_b64": "s_andn1_saveexec_b64",
    "s_or_not0_saveexec_b64": "s_orn1_saveexec_b64",
    "s_and_not1_wrexec_b64": "s_andn2_wrexec_b64", "s_and_not0_wrexec_b64": "s_andn1_wrexec_b64",
    "s_and_not1_saveexec_b32": "s_andn2_saveexec_b32",
    "s_or_not1_saveexec_b32": "s_orn2_saveexec_b32",
    "s_and_not0_saveexec_b32": "s_andn1_saveexec_b32",
    "s_or_not0_saveexec_b32": "s_orn1_saveexec_b32",
    "s_and_not1_wrexec_b32": "s_andn2_wrexec_b32", "s_and_not0_wrexec_b32": "s_andn1_wrexec_b32",
    # GFX12's barrier is split: s_barrier_signal -1 then s_barrier_wait -1 (RDNA4 ISA §"Split
    # barrier"); clang emits the pair back to back, so the wait is the workgroup barrier
    "s_barrier_wait": "s_barrier",
}
for _k, _v in _WIDTH.items():
    RENAMES[f"s_load_{_k}"] = f"s_load_{_v}"
    RENAMES[f"s_buffer_load_{_k}"] = f"s_buffer_load_{_v}"
for _seg in ("global", "flat", "scratch", "buffer"):
    for _k, _v in _VMEM_SUB.items():
        RENAMES[f"{_seg}_load_{_k}"] = f"{_seg}_load_{_v}"
        RENAMES[f"{_seg}_store_{_k}"] = f"{_seg}_store_{_v}"
    for _k, _v in _ATOMIC.items():
        RENAMES[f"{_seg}_atomic_{_k}"] = f"{_seg}_atomic_{_v}"
    RENAMES[f"{_seg}_load_lds_b32"] = f"{_seg}_load_lds_dword"
for _k, _v in _DS.items():
    RENAMES[f"ds_{_k}"] = f"ds_{_v}"


def rename(base: str) -> str:
    """The gfx9 mnemonic with the same semantics as the GFX11/GFX12 ``base`` (or ``base``)."""
    return RENAMES.get(base, base)


def normalize_mods(mods: dict, gen: int) -> dict:
    """GFX12 cache-policy modifiers in gfx9 terms: ``th:TH_ATOMIC_RETURN`` is gfx9's ``glc`` on
    an atomic (return the pre-op value); other ``th:`` / ``scope:`` values only steer caches,
    which the emulator does not model (RDNA4 ISA §"Memory scope and temporal hints")."""
    if gen < 12 or not ({"th", "scope"} & set(mods)):
        return mods
    out = {k: v for k, v in mods.items() if k not in ("th", "scope")}
    if "RETURN" in str(mods.get("th", "")):
        out["glc"] = True
    return out


# ---- encoding formats -----------------------------------------------------------------------
# name -> (mask, value, base length in dwords), first match wins (RDNA3 ISA "Microcode
# Formats": SOP1 [31:23]=1_0111_1101, SOPC 1_0111_1110, SOPP 1_0111_1111, SOPK [31:28]=1011,
# SOP2 [31:30]=10, VOP1 [31:25]=011_1111, VOPC 011_1110, VOP2 [31]=0, VOPD [31:26]=11_0010,
# VOP3P [31:24]=1100_1100, VOP3 [31:26]=11_0101, DS 11_0110, FLAT 11_0111, MUBUF 11_1000,
# MTBUF 11_1010, SMEM 11_1101; RDNA4 ISA: VFLAT/VSCRATCH/VGLOBAL [31:24]=0xEC/0xED/0xEE and
# VBUFFER [31:26]=11_0001, both three dwords)
_COMMON = (
    ("SOP1", 0xFF800000, 0xBE800000, 1), ("SOPC", 0xFF800000, 0xBF000000, 1),
    ("SOPP", 0xFF800000, 0xBF800000, 1), ("SOPK", 0xF0000000, 0xB0000000, 1),
    ("SOP2", 0xC0000000, 0x80000000, 1), ("VOP1", 0xFE000000, 0x7E000000, 1),
    ("VOPC", 0xFE000000, 0x7C000000, 1), ("VOP2", 0x80000000, 0x00000000, 1),
    ("VOPD", 0xFC000000, 0xC8000000, 2), ("VOP3P", 0xFF000000, 0xCC000000, 2),
    ("VOP3", 0xFC000000, 0xD4000000, 2), ("DS", 0xFC000000, 0xD8000000, 2),
    ("SMEM", 0xFC000000, 0xF4000000, 2),
)
FORMATS_GFX11 = _COMMON + (
    ("FLAT", 0xFC000000, 0xDC000000, 2), ("MUBUF", 0xFC000000, 0xE0000000, 2),
    ("MTBUF", 0xFC000000, 0xE8000000, 2),
)
FORMATS_GFX12 = _COMMON + (
    ("FLAT", 0xFC000000, 0xEC000000, 3), ("MUBUF", 0xFC000000, 0xC4000000, 3),
)
SRC_LITERAL, SRC_DPP16, SRC_DPP8, SRC_DPP8_FI = 255, 250, 233, 234
# VOPD opcodes (word 0: OPX [25:22], OPY [21:17]; RDNA3 ISA "VOPD" format) of
# v_dual_fmaak_f32 / v_dual_fmamk_f32 carry a K literal (FMAAK = 1, FMAMK = 2 for X and Y)
_VOPD_K = {1, 2}
_K_OPS = ("v_fmamk_", "v_fmaak_", "v_madmk_", "v_madak_")


def encoding_format(word0: int, gen: int) -> tuple[str, int]:
    """(format, base length in dwords) of an RDNA instruction from its first dword."""
    for name, mask, val, n in (FORMATS_GFX12 if gen >= 12 else FORMATS_GFX11):
        if word0 & mask == val:
            return name, n
    return "?", 0


def encoded_words(mnemonic: str, words: tuple[int, ...], gen: int) -> tuple[str, int]:
    """(format, length in dwords) that the bits imply: the base length, plus one literal dword
    when a source field holds 255 (any of VOP3's three, VOPD's srcX0/srcY0, SALU's ssrc fields)
    or the op is a K-literal form, plus the DPP dword (src0 = 250 DPP16, 233/234 DPP8; VOP3
    with DPP has it as its third dword)."""
    w = words[0]
    fmt, n = encoding_format(w, gen)
    if fmt == "?":
        return fmt, len(words)
    if fmt in ("SOP1", "SOP2", "SOPC"):
        srcs = (w & 0xFF,) if fmt == "SOP1" else (w & 0xFF, (w >> 8) & 0xFF)
        # s_fmamk_f32 / s_fmaak_f32 always carry their K dword (RDNA4 ISA "SOP2")
        n += any(s == SRC_LITERAL for s in srcs) or mnemonic.startswith(("s_fmamk_", "s_fmaak_"))
    elif fmt == "SOPK" and mnemonic in ("s_setreg_imm32_b32", "s_version"):
        n += mnemonic == "s_setreg_imm32_b32"
    elif fmt in ("VOP1", "VOP2", "VOPC"):
        src0 = w & 0x1FF
        if src0 in (SRC_LITERAL, SRC_DPP16, SRC_DPP8, SRC_DPP8_FI):
            n += 1
        elif fmt == "VOP2" and mnemonic.startswith(_K_OPS):
            n += 1
    elif fmt in ("VOP3", "VOP3P") and len(words) >= 2:
        w1 = words[1]
        srcs = (w1 & 0x1FF, (w1 >> 9) & 0x1FF, (w1 >> 18) & 0x1FF)
        if srcs[0] in (SRC_DPP16, SRC_DPP8, SRC_DPP8_FI) and mnemonic.endswith("_dpp"):
            n += 1
        elif SRC_LITERAL in srcs:
            n += 1
    elif fmt == "VOPD" and len(words) >= 2:
        opx, opy = (w >> 22) & 0xF, (w >> 17) & 0x1F
        if (w & 0x1FF) == SRC_LITERAL or (words[1] & 0x1FF) == SRC_LITERAL \
                or opx in _VOPD_K or opy in _VOPD_K:
            n += 1
    return fmt, n
