"""gfx942 / gfx950 / gfx1201 fp8/bf8 conversions: v_cvt_f32_{fp8,bf8}, v_cvt_pk_f32_{fp8,bf8}
(VOP1, with SDWA byte/word select and DPP; GFX12: VOP3 byte_sel / op_sel), v_cvt_pk_{fp8,bf8}_f32
and v_cvt_sr_{fp8,bf8}_f32 (VOP3).

Formats: on gfx942 the FNUZ tables of ``fp8`` (E4M3FNUZ bias 8, E5M2FNUZ bias 16; one NaN 0x80,
no infinities, no negative zero). On gfx950 and gfx1201 (``arch.has_ocp_fp8``; ROCm's precision
support page lists OCP FP8 for gfx12) the same instructions convert the OCP formats E4M3 / E5M2
(``emu.mx``; ROCm/rocm-systems PR 7825: "the hardware __builtin_amdgcn_cvt_pk_fp8_f32 emits the
OCP encoding on gfx950"; triton PR 7186): decodes are
exact table lookups, f32 -> fp8 rounds to nearest even by ``mx.encode_rne`` (overflow: E4M3 NaN,
E5M2 ±inf; llvm-mc -mcpu=gfx950 rejects ``clamp`` here too). Stochastic rounding to the OCP
formats (``v_cvt_sr_*`` on gfx950) is ``mx.encode_sr``: AMD's host model of the gfx950
instruction (HIP amd_hip_ocp_host.hpp ``from_float_sr``) adds the seed's top 23 - m bits to the
23 - m fraction bits E4M3 / E5M2 drop and truncates. The bullets below describe gfx942.

* fp8 -> f32 (``v_cvt_f32_fp8``; ``v_cvt_pk_f32_fp8`` converts bytes 0, 1 of the selected word):
  exact table decode; 0x80 -> NaN. SDWA ``src0_sel:BYTE_n`` / ``WORD_1`` picks the source byte /
  word, which is how LLVM encodes the builtins' byte/word argument (llvm-objdump of
  __builtin_amdgcn_cvt_f32_fp8(w, 3): ``v_cvt_f32_fp8_sdwa v, v src0_sel:BYTE_3``).
* f32 -> fp8: round to nearest even in the target precision (subnormals included), the
  conversion AMD's libraries use the instruction for ("RNE CVT" in rocBLAS/MIOpen's hip_f8,
  whose host model ``cast_to_f8`` stands in for the device builtin); NaN and ±inf -> 0x80; a
  result that rounds beyond the largest finite value -> 0x80 (FNUZ has no infinity; ONNX
  "float8 cast" table, onnx.ai/onnx/technical/float8.html, and the same host model); zero of
  either sign and anything that rounds to zero -> 0x00. gfx942 has no clamp bit on these
  (llvm-mc -mcpu=gfx942 rejects ``clamp``), so saturation is the program's job (libraries
  clamp with v_med3_f32 first).
* stochastic rounding (``v_cvt_sr_*``, S1 = random bits): the magnitude is truncated to the
  target precision after adding the low k bits of S1 to the k dropped bits (a carry rounds
  up) — the host model's ``mantissa += rng & drop_mask``. The instruction's own use of S1 is
  described only by that model; the tests check what any such rounding must satisfy too.
* Destination placement (LLVM builtin argument -> VOP3 op_sel, seen in llvm-objdump):
  ``v_cvt_pk_*_f32`` writes its two bytes into word ``op_sel[2]`` of D and keeps the other word
  (builtin ``old``/``word_sel``); ``v_cvt_sr_*_f32`` writes byte ``op_sel[2] + 2*op_sel[3]``
  and keeps the other three bytes.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ....arch import get as get_arch
from ...decoder.operands import row_of, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import UnknownInstruction
from ...numerics.floats import flush_src
from ...numerics.fp8 import FP8_FORMATS, FP8_TABLES
from ...numerics.mx import MX_TABLES, encode_rne, encode_sr
from .table import Op, build_generic, src_reader

U32, I64, U64 = np.uint32, np.int64, np.uint64
FMT = {"fp8": "float8_e4m3fnuz", "bf8": "float8_e5m2fnuz"}
NAN_CODE = 0x80
OCP_FMT = {"fp8": "float8_e4m3fn", "bf8": "float8_e5m2"}  # gfx950 (emu.mx)
_T32 = {k: FP8_TABLES[v].astype(np.float32) for k, v in FMT.items()}
_T32_OCP = {k: MX_TABLES[v].astype(np.float32) for k, v in OCP_FMT.items()}


def decode(codes, kind: str, ocp: bool = False) -> np.ndarray:
    """fp8/bf8 codes (low 8 bits used) -> float32 (exact); FNUZ, or OCP with ``ocp``."""
    return np.take((_T32_OCP if ocp else _T32)[kind], (np.asarray(codes) & 0xFF).astype(np.uint8))


def is_ocp(d: Decoded) -> bool:
    """Whether this kernel's target converts the OCP fp8 formats (gfx950) instead of FNUZ."""
    return get_arch(d.kernel.arch).has_ocp_fp8


def encode(x, kind: str, rng=None) -> np.ndarray:
    """float32 -> fp8/bf8 codes (uint32): RNE, or stochastic with random bits ``rng``."""
    exp_bits, bias = FP8_FORMATS[FMT[kind]]
    wm = 7 - exp_bits
    bits = np.asarray(x, np.float32).view(U32).astype(I64)
    sign = (bits >> 31) & 1
    e = (bits >> 23) & 0xFF
    m = np.where(e > 0, (bits & 0x7FFFFF) | 0x800000, bits & 0x7FFFFF)  # |x| = m * 2^E
    E = np.where(e > 0, e, 1) - 150
    binade = E + np.frexp(np.maximum(m, 1).astype(np.float64))[1].astype(I64) - 1  # exact
    q = np.maximum(binade - wm, 1 - bias - wm)  # exponent of the target quantum at |x|
    k = np.clip(q - E, 0, 40)  # dropped low bits of m (beyond 40: nothing survives)
    kept = m >> k
    dropped = m - (kept << k)
    if rng is None:  # round to nearest, ties to even
        half = np.where(k > 0, np.left_shift(1, np.maximum(k - 1, 0)), 0)
        up = (k > 0) & ((dropped > half) | ((dropped == half) & ((kept & 1) == 1)))
    else:  # add the low k bits of the random word, carry rounds up
        r = np.asarray(rng, U32).astype(I64)
        low = np.where(k >= 32, r, r & ((np.left_shift(1, np.minimum(k, 32))) - 1))
        up = (k > 0) & (dropped + low >= np.left_shift(1, k))
    mag = (kept + up).astype(np.float64) * np.exp2(q.astype(np.float64))  # exact
    pos = FP8_TABLES[FMT[kind]][:128]  # codes 0x00..0x7f, increasing
    code = np.searchsorted(pos, np.minimum(mag, pos[-1])).astype(I64)
    code = np.where(mag > pos[-1], NAN_CODE, code)
    code = np.where((code != 0) & (code != NAN_CODE), code | (sign << 7), code)
    code = np.where(e == 0xFF, NAN_CODE, code)  # NaN, ±inf
    return code.astype(U32)


# ---- fp8 -> f32 (VOP1, generic builder: SDWA/DPP/clamp/omod come with it) ------------------
def _cvt_f32(kind, ocp):
    return lambda a: decode(a, kind, ocp)


def _cvt_pk_f32(kind, ocp):
    def fn(a):
        lo = decode(a, kind, ocp).view(U32).astype(U64)
        hi = decode(np.asarray(a, U32) >> U32(8), kind, ocp).view(U32).astype(U64)
        return lo | (hi << U64(32))
    return fn


CVT_OPS = {False: {}, True: {}}  # keyed by OCP (gfx950) or FNUZ (gfx942)
for _ocp in (False, True):
    for _k in ("fp8", "bf8"):
        CVT_OPS[_ocp][f"v_cvt_f32_{_k}"] = Op("f32", ("u32",), _cvt_f32(_k, _ocp))
        CVT_OPS[_ocp][f"v_cvt_pk_f32_{_k}"] = Op("u64", ("u32",), _cvt_pk_f32(_k, _ocp))


@semantic(*CVT_OPS[False])
def _build_to_f32(d: Decoded):
    o = CVT_OPS[is_ocp(d)][d.base]
    if d.kernel.gen >= 12:
        # GFX12 has no SDWA: the VOP3 form selects the source byte (v_cvt_f32_*: ``byte_sel:n``,
        # byte n) or word (v_cvt_pk_f32_*: ``op_sel:[1,0]``, the high word) — how LLVM encodes
        # the builtins' byte/word argument for gfx1201 (llvm-objdump of
        # __builtin_amdgcn_cvt_f32_fp8(w, 3): ``v_cvt_f32_fp8_e64 v, v byte_sel:3``;
        # __builtin_amdgcn_cvt_pk_f32_fp8(w, true): ``v_cvt_pk_f32_fp8_e64 v[..], v op_sel:[1,0]``)
        pk = d.base.startswith("v_cvt_pk_")
        sel = int(d.mods.get("byte_sel", 0)) if not pk else _opsel(d, 2)[0]
        if (pk and ("byte_sel" in d.mods or any(_opsel(d, 2)[1:]))) or \
                (not pk and "op_sel" in d.mods):
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "byte/word select form")
        if sel:
            shift, fn = U32(16 if pk else 8 * sel), o.fn
            o = Op(o.dst, o.srcs, lambda a: fn(np.asarray(a, U32) >> shift))
        d = replace(d, mods={k: v for k, v in d.mods.items() if k not in ("byte_sel", "op_sel")})
    elif "op_sel" in d.mods:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel")
    return build_generic(d, o)


# ---- f32 -> fp8 (VOP3) ------------------------------------------------------------------------
def _opsel(d: Decoded, n: int) -> list[int]:
    v = d.mods.get("op_sel", [0] * n)
    v = v if isinstance(v, list) else [v]
    return [int(x) for x in v] + [0] * (n - len(v))


def _build_from_f32(d: Decoded, sr: bool):
    kind = d.base.split("_")[3]  # v_cvt_{pk,sr}_{fp8,bf8}_f32
    for k in d.mods:
        if k != "op_sel":
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    ocp = is_ocp(d)
    dst, a, b = d.ops
    nv = d.kernel.n_vgpr
    sel = _opsel(d, 4 if sr else 3)
    if any(sel[:2]):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a source")
    fl = flush_src(d.kernel.denorm32)
    ra = src_reader(d, a, "f32", nv, flush_in=fl)
    if sr:
        if b.neg or b.abs:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "modifier on the seed")
        rb = vread32(b, nv)
        shift = 8 * (sel[2] + 2 * sel[3])
        keep = U32(~(0xFF << shift) & 0xFFFFFFFF)
    else:
        rb = src_reader(d, b, "f32", nv, flush_in=fl)
        shift = 16 * sel[2]
        keep = U32(~(0xFFFF << shift) & 0xFFFFFFFF)
    row = row_of(dst, nv)

    def run(st, g):
        x = ra(st, g)
        if sr and ocp:
            val = encode_sr(x, rb(st, g), OCP_FMT[kind])
        elif sr:
            val = encode(x, kind, rng=rb(st, g))
        elif ocp:
            val = encode_rne(x, OCP_FMT[kind]) | (encode_rne(rb(st, g), OCP_FMT[kind]) << U32(8))
        else:
            val = encode(x, kind) | (encode(rb(st, g), kind) << U32(8))
        old = st.R[row, g.ix]
        st.vwrite(row, g, (old & keep) | (val << U32(shift)))
    return run


@semantic("v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32")
def _build_pk(d: Decoded):
    return _build_from_f32(d, sr=False)


@semantic("v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32")
def _build_sr(d: Decoded):
    return _build_from_f32(d, sr=True)
