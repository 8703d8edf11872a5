"""gfx950 scaled conversions between f32 and the OCP fp8 / bf8 / fp4 formats (VOP3):
``v_cvt_scalef32_[pk_]f32_{fp8,bf8}``, ``v_cvt_scalef32_pk_f32_fp4`` (decode) and
``v_cvt_scalef32_pk_{fp8,bf8,fp4}_f32`` (encode) -- what clang 22 emits for
``__builtin_amdgcn_cvt_scalef32_*`` (seen in llvm-objdump of gfx950 code).

One table (``OPS``): mnemonic -> (direction, format, values per instruction). Semantics follow
AMD's host model of these builtins (HIP ``amd_hip_ocp_host.hpp`` ``to_float`` / ``from_float``
for the MX-scaled encodings, vendored e.g. in triton third_party/amd/backend/include):

* the scale operand is an f32 whose exponent is the E8M0 block scale ``2**(e - 127)`` (MLIR's
  arith-to-amdgpu lowering passes an E8M0 value widened to f32; the hardware's scale path is
  E8M0: LLVM PR 158117 notes it reads bits [30:23] for MFMA scales). The emulator takes the
  exponent field and refuses, naming the lane, a scale with mantissa bits set (what the
  hardware does with those is undocumented); the sign bit is ignored; exponent field 255
  (inf/NaN) is the E8M0 NaN and gives NaN results (fp4: the largest magnitude, it has no NaN).
* decode: ``value * 2**(e-127)`` rounded once to f32 (nearest even; overflow -> ±inf, "gfx950
  HW behavior" in the host model); encode: ``mx.encode_rne(x / 2**(e-127))``.
* operand selects (builtin argument -> op_sel, llvm-objdump): ``pk_f32_{fp8,bf8}`` read bytes 0,1
  of source word ``op_sel[0]``; ``f32_{fp8,bf8}`` and ``pk_f32_fp4`` read source byte
  ``op_sel[0] + 2*op_sel[1]`` (fp4: low nibble -> first result, the packing of CK's
  f4x2 registers "K0K1"); ``pk_{fp8,bf8}_f32`` write word ``op_sel[3]`` of D and
  ``pk_fp4_f32`` byte ``op_sel[2] + 2*op_sel[3]`` (source 0 in the low nibble), keeping the
  rest of D.
Source modifiers (neg/abs/clamp/omod) are refused; f32 inputs are not flushed. Every source is
read before D is written (the ISA pseudo-code reads S0/S1 into temporaries first), so D may
overlap a source: ``v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, s`` decodes both values from the old
v2 (tests/emu/test_emu_cvtscale_alias.py); the encodes keep the old bits of D they do not write.

Stochastic rounding (``SR_OPS``: ``v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16}``,
``v_cvt_scalef32_sr_pk_fp4_{f32,f16,bf16}``; operands D, data, seed, scale as clang 22 emits
them for ``__builtin_amdgcn_cvt_scalef32_sr_*``): ``mx.encode_sr(x / 2**(e-127), seed)``, the
seed's top bits aligned to the fraction bits the target drops from the *source* format (23 f32,
10 f16, 7 bf16), as AMD's host model ``from_float_sr`` does for these builtins; both values of a
pk_fp4 use the same seed (the host model's packed forms pass one seed to every element). f16 /
bf16 data is the low half of its VGPR; the fp4 pair is data[15:0], data[31:16] (f16/bf16) or the
VGPR pair (f32), the first value in the low nibble. D's byte ``op_sel[2] + 2*op_sel[3]`` is
written (llvm-objdump: builtin byte 3 -> ``op_sel:[0,0,1,1]``), the rest of D kept; a source
op_sel is refused. ``v_cvt_scalef32_sr_pk32_{fp6,bf6}_{f32,f16,bf16}`` (``SR_PK32``) convert 32
values (32 f32 VGPRs, or 16 VGPRs of f16/bf16 pairs, low half first) with one seed into six
VGPRs, value k in bits [6k, 6k+6) of the 192-bit little-endian result -- the host model's
packed 32 x 6-bit bitfield (``fp6_cvt_packedx32``), which also passes the one seed to all 32.
"""
from __future__ import annotations

import numpy as np

from ...decoder.operands import row_of, vread32
from ...decoder.registry import Decoded, semantic
from ...errors import EmulatorError, UnknownInstruction
from ...numerics.mx import MX_TABLES, encode_rne, encode_sr

U32 = np.uint32
FORMATS = {"fp8": "float8_e4m3fn", "bf8": "float8_e5m2", "fp4": "float4_e2m1fn"}
OPS = {  # mnemonic -> (direction, format, values converted)
    "v_cvt_scalef32_pk_f32_fp8": ("dec", "fp8", 2),
    "v_cvt_scalef32_pk_f32_bf8": ("dec", "bf8", 2),
    "v_cvt_scalef32_pk_f32_fp4": ("dec", "fp4", 2),
    "v_cvt_scalef32_f32_fp8": ("dec", "fp8", 1),
    "v_cvt_scalef32_f32_bf8": ("dec", "bf8", 1),
    "v_cvt_scalef32_pk_fp8_f32": ("enc", "fp8", 2),
    "v_cvt_scalef32_pk_bf8_f32": ("enc", "bf8", 2),
    "v_cvt_scalef32_pk_fp4_f32": ("enc", "fp4", 2),
}


def _opsel(d: Decoded) -> list[int]:
    """The op_sel bits (4, zero-filled); any other modifier or a neg/abs source is refused."""
    for k in d.mods:
        if k != "op_sel":
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"modifier {k}")
    if any(o.neg or o.abs for o in d.ops):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "neg/abs source modifier")
    v = d.mods.get("op_sel", [])
    v = v if isinstance(v, list) else [v]
    return [int(x) for x in v] + [0] * (4 - len(v))


def _scale_exp(bits: np.ndarray, d: Decoded) -> np.ndarray:
    """f32 scale bits -> float64 2**(e-127) (NaN for exponent field 255)."""
    bits = np.asarray(bits, U32)
    if (bits & U32(0x7FFFFF)).any():
        bad = np.argwhere(np.broadcast_to(bits & U32(0x7FFFFF), bits.shape) != 0)[0]
        raise EmulatorError(f"`{d.inst.text}` at pc 0x{d.addr:x}: scale "
                            f"0x{int(bits[tuple(bad)]):08x} (lane {int(bad[-1])}) is not a power "
                            "of two; only E8M0 scales (an f32 exponent) are modelled")
    e = ((bits >> U32(23)) & U32(0xFF)).astype(np.int64)
    return np.where(e == 0xFF, np.nan, np.exp2((e - 127).astype(np.float64)))


@semantic(*OPS)
def _build(d: Decoded):
    direction, kind, n = OPS[d.base]
    fmt = FORMATS[kind]
    sel = _opsel(d)
    nv = d.kernel.n_vgpr
    dst, srcs = d.ops[0], d.ops[1:]
    row = row_of(dst, nv)
    readers = [vread32(o, nv, is_float=o.kind == "fimm") for o in srcs]
    table = MX_TABLES[fmt]
    bits = 4 if kind == "fp4" else 8

    if direction == "dec":
        if dst.n != n:
            raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, f"destination {dst.text}")
        if n == 2 and bits == 8:
            shifts = [16 * sel[0], 16 * sel[0] + 8]
        else:
            base = 8 * (sel[0] + 2 * sel[1])
            shifts = [base, base + 4][:n]

        def run(st, g):
            # Every value is decoded before D is written: D may overlap S0 (clang allocates
            # `v_cvt_scalef32_pk_f32_fp4 v[2:3], v2, s`), and the reader is a view of R.
            src = np.asarray(readers[0](st, g), U32)
            scale = _scale_exp(readers[1](st, g), d)
            shape = st.R[row, g.ix].shape
            vals = [(np.take(table, ((src >> U32(sh)) & U32((1 << bits) - 1)).astype(np.int64))
                     * scale).astype(np.float32) for sh in shifts]
            for k, val in enumerate(vals):
                st.vwrite(row + k, g, np.broadcast_to(val.view(U32), shape))
        return run

    if kind == "fp4":
        shift, width = 8 * (sel[2] + 2 * sel[3]), 8
    else:
        shift, width = 16 * sel[3], 16
    keep = U32(~(((1 << width) - 1) << shift) & 0xFFFFFFFF)

    def enc(x, scale):
        y = np.asarray(x, U32).view(np.float32).astype(np.float64) / scale
        y = np.where(np.isnan(scale), np.copysign(np.nan, np.asarray(x, U32).view(np.float32)),
                     y)
        return encode_rne(y, fmt)

    def run(st, g):
        scale = _scale_exp(readers[2](st, g), d)
        lo, hi = enc(readers[0](st, g), scale), enc(readers[1](st, g), scale)
        val = lo | (hi << U32(bits))
        old = st.R[row, g.ix]
        st.vwrite(row, g, (old & keep) | (val << U32(shift)))
    return run


# ---- stochastic rounding (scaled) ---------------------------------------------------------------
SR_OPS = {  # mnemonic -> (format, source type, values converted)
    f"v_cvt_scalef32_sr_{k}_{t}": (k, t, 1) for k in ("fp8", "bf8") for t in ("f32", "f16", "bf16")
}
SR_OPS.update({f"v_cvt_scalef32_sr_pk_fp4_{t}": ("fp4", t, 2) for t in ("f32", "f16", "bf16")})
SRC_MAN = {"f32": 23, "f16": 10, "bf16": 7}  # fraction bits of the source format


def _half_to_f64(bits: np.ndarray, t: str) -> np.ndarray:
    """Low 16 bits (f16 or bf16) -> float64, exact."""
    h = (np.asarray(bits, U32) & U32(0xFFFF))
    if t == "f16":
        return h.astype(np.uint16).view(np.float16).astype(np.float64)
    return (h << U32(16)).view(np.float32).astype(np.float64)


@semantic(*SR_OPS)
def _build_sr(d: Decoded):
    kind, t, n = SR_OPS[d.base]
    fmt = FORMATS[kind]
    sel = _opsel(d)
    if sel[0] or sel[1]:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "op_sel on a source")
    nv = d.kernel.n_vgpr
    dst, data, seed, scale = d.ops
    row = row_of(dst, nv)
    words = 2 if (n == 2 and t == "f32") else 1
    rdata = [vread32(data, nv, k, is_float=data.kind == "fimm") for k in range(words)]
    rseed = vread32(seed, nv)
    rscale = vread32(scale, nv, is_float=scale.kind == "fimm")
    bits = 4 if kind == "fp4" else 8
    shift = 8 * (sel[2] + 2 * sel[3])
    keep = U32(~(0xFF << shift) & 0xFFFFFFFF)

    def values(st, g):
        if t == "f32":
            return [np.asarray(r(st, g), U32).view(np.float32).astype(np.float64) for r in rdata]
        w = np.asarray(rdata[0](st, g), U32)
        return [_half_to_f64(w >> U32(16 * k), t) for k in range(n)]

    def run(st, g):
        sc = _scale_exp(rscale(st, g), d)
        r = rseed(st, g)
        val = U32(0)
        for k, x in enumerate(values(st, g)):
            y = np.where(np.isnan(sc), np.copysign(np.nan, x), x / sc)
            val = val | (encode_sr(y, r, fmt, SRC_MAN[t]) << U32(bits * k))
        old = st.R[row, g.ix]
        st.vwrite(row, g, (old & keep) | (np.asarray(val, U32) << U32(shift)))
    return run


SR_PK32 = {f"v_cvt_scalef32_sr_pk32_{k}_{t}": (k, t) for k in ("fp6", "bf6")
           for t in ("f32", "f16", "bf16")}
FP6 = {"fp6": "float6_e2m3fn", "bf6": "float6_e3m2fn"}


@semantic(*SR_PK32)
def _build_sr_pk32(d: Decoded):
    kind, t = SR_PK32[d.base]
    fmt = FP6[kind]
    if d.mods or any(o.neg or o.abs for o in d.ops):
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "modifier")
    nv = d.kernel.n_vgpr
    dst, data, seed, scale = d.ops
    words = 32 if t == "f32" else 16
    if dst.n != 6 or data.kind != "v" or data.n != words:
        raise UnknownInstruction(d.mnemonic, d.addr, d.inst.text, "operand sizes")
    row = row_of(dst, nv)
    rdata = [vread32(data, nv, k) for k in range(words)]
    rseed = vread32(seed, nv)
    rscale = vread32(scale, nv, is_float=scale.kind == "fimm")

    def run(st, g):
        sc = _scale_exp(rscale(st, g), d)
        r = rseed(st, g)
        acc = [np.zeros(st.R[row, g.ix].shape, np.uint64) for _ in range(3)]  # 3 x 64 bits
        for k in range(32):
            w = np.asarray(rdata[k if t == "f32" else k // 2](st, g), U32)
            if t == "f32":
                x = w.view(np.float32).astype(np.float64)
            else:
                x = _half_to_f64(w >> U32(16 * (k % 2)), t)
            y = np.where(np.isnan(sc), np.copysign(np.nan, x), x / sc)
            code = encode_sr(y, r, fmt, SRC_MAN[t]).astype(np.uint64)
            bit = 6 * k
            acc[bit // 64] |= code << np.uint64(bit % 64)
            if bit % 64 > 58:  # the value straddles two 64-bit words
                acc[bit // 64 + 1] |= code >> np.uint64(64 - bit % 64)
        for j in range(6):
            st.vwrite(row + j, g, (acc[j // 2] >> np.uint64(32 * (j % 2))).astype(U32))
    return run
