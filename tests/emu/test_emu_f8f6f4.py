"""Proof by execution for gfx950's f8f6f4 MFMAs: every one of v_mfma_[scale_]f32_16x16x128_f8f6f4
and v_mfma_[scale_]f32_32x32x64_f8f6f4, with every CBSZ (A) x BLGP (B) format selection (fp8
E4M3, bf8 E5M2, fp6 E2M3, bf6 E3M2, fp4 E2M1), computes D = A·B + C exactly on the emulator when
its operands are placed through the layout catalog, with E8M0 block scales for the _scale forms.

The probe kernels (``workbench.layouts.probes``) call clang 22's
``__builtin_amdgcn_mfma_scale_f32_*_f8f6f4`` (constant zero scales emit the unscaled mnemonic);
the host packs A/B with ``MatrixInstruction.scatter_bits`` and reads D with ``gather_bits``.
Element values come from this file's own tables of the OCP formats (OFP8 rev 1.0 Table 1, OCP
MX v1.0 §5.3), cross-checked against torch's float8 dtypes and the emulator's ``emu.mx``; the
values (multiples of 1/2 up to 4, scales 2^-2..2^2) make every D exact in fp32 whatever the
summation order, so the comparison is bit for bit. As in test_layouts_execution, this checks
clang's register placement, the decoder, operand plumbing and arithmetic against the catalog;
the catalog formulas themselves are checked against CK's tables and hardware scale mapping in
test_layouts.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from mfma_values import pack, unpack

import workbench as wb
from workbench import layouts
from workbench.emu.numerics.mx import MX_TABLES, e8m0_to_f64
from workbench.layouts import probes
from workbench.runtime.kernel import Kernel

ARCH = "gfx950"
NAMES = ["v_mfma_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4",
         "v_mfma_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"]
CODES = {0: "fp8", 1: "bf8", 2: "fp6", 3: "bf6", 4: "fp4"}


def _ocp_values(e_bits: int, m_bits: int, bias: int) -> np.ndarray:
    """Value of each code, sign bit first: subnormal m*2^(1-bias-m_bits), normal
    (1 + m/2^m_bits) * 2^(e-bias); special codes are overwritten by the caller."""
    vals = []
    for code in range(1 << (1 + e_bits + m_bits)):
        s, e, m = code >> (e_bits + m_bits), (code >> m_bits) & ((1 << e_bits) - 1), \
            code & ((1 << m_bits) - 1)
        mag = (m / 2**m_bits) * 2.0 ** (1 - bias) if e == 0 else \
            (1 + m / 2**m_bits) * 2.0 ** (e - bias)
        vals.append(-mag if s else mag)
    return np.array(vals)


TABLES = {"float8_e4m3fn": _ocp_values(4, 3, 7), "float8_e5m2": _ocp_values(5, 2, 15),
          "float6_e2m3fn": _ocp_values(2, 3, 1), "float6_e3m2fn": _ocp_values(3, 2, 3),
          "float4_e2m1fn": _ocp_values(2, 1, 1)}
TABLES["float8_e4m3fn"][[0x7F, 0xFF]] = np.nan  # S.1111.111 (OFP8 Table 1)
TABLES["float8_e5m2"][[0x7C, 0xFC]] = [np.inf, -np.inf]
TABLES["float8_e5m2"][[0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF]] = np.nan


def test_format_tables():
    """Spec anchors (largest normal / smallest subnormal per format), torch's float8 codecs,
    and the emulator's decode tables all agree code by code."""
    anchors = {"float8_e4m3fn": (448, 2**-9), "float8_e5m2": (57344, 2**-16),
               "float6_e2m3fn": (7.5, 0.125), "float6_e3m2fn": (28, 0.0625),
               "float4_e2m1fn": (6, 0.5)}
    for name, (big, tiny) in anchors.items():
        t = TABLES[name]
        fin = np.abs(t[np.isfinite(t)])
        assert fin.max() == big and fin[fin > 0].min() == tiny, name
        np.testing.assert_array_equal(MX_TABLES[name], t)
    for name, dt in (("float8_e4m3fn", torch.float8_e4m3fn), ("float8_e5m2", torch.float8_e5m2)):
        codes = torch.arange(256, dtype=torch.uint8).view(dt).to(torch.float64).numpy()
        np.testing.assert_array_equal(codes, TABLES[name])
    assert TABLES["float4_e2m1fn"][:8].tolist() == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    e8 = torch.arange(256, dtype=torch.uint8).view(torch.float8_e8m0fnu).to(torch.float64)
    np.testing.assert_array_equal(e8m0_to_f64(np.arange(256)), e8.numpy())


def _variants() -> list:
    return [layouts.get(n, ARCH).with_formats(a, b) for n in NAMES for a in CODES for b in CODES]


VARIANTS = _variants()


@pytest.fixture(scope="module")
def module():
    return wb.compile(probes.probe_source(VARIANTS), ARCH)


def _encode(values: np.ndarray, t: str) -> np.ndarray:
    table = TABLES[t]
    codes = np.array([int(np.flatnonzero(table == v)[0]) for v in values.ravel()])
    return codes.reshape(values.shape).astype(np.uint32)


def _values(t: str, shape, rng) -> np.ndarray:
    """Random values of type t among the multiples of 1/2 with |x| <= 4 (zero included)."""
    table = TABLES[t]
    fin = table[np.isfinite(table)]
    ok = np.unique(fin[(np.abs(fin) <= 4) & (fin * 2 % 1 == 0)])
    return rng.choice(ok, size=shape)


def _lanes(ins, operand: str, bits: np.ndarray, width: int) -> np.ndarray:
    """Per-lane register words [64, width] (the builtin's vector argument; unused dwords 0)."""
    regs = pack(ins, operand, bits[None])[0]
    out = np.zeros((64, width), np.uint32)
    out[:, :regs.shape[1]] = regs
    return out


def _run_case(module, ins, rng, kernel_name=None, opsel=(0, 0)):
    """Launch one probe on the emulator; return (D got, D expected) as float32 arrays."""
    kernel = Kernel(module, kernel_name or probes.kernel_name(ins), device="emulator:gfx950")
    a_val = _values(ins.a_type, ins.shape("A"), rng)
    b_val = _values(ins.b_type, ins.shape("B"), rng)
    c_val = (rng.permutation(ins.m * ins.n) - ins.m * ins.n // 2).reshape(ins.shape("C"))
    a = _lanes(ins, "A", _encode(a_val, ins.a_type), 8).view(np.int32)
    b = _lanes(ins, "B", _encode(b_val, ins.b_type), 8).view(np.int32)
    c = pack(ins, "C", c_val.astype(np.float32).view(np.uint32)[None])[0].view(np.float32)
    args = [a, b, c]
    if ins.scaled:
        # E8M0 2^-2 .. 2^2 in the selected byte, other bytes random (must be ignored)
        scale = {}
        for op, sel in zip("AB", opsel):
            word = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
            exp = rng.integers(125, 130, 64).astype(np.uint32)
            word = (word & ~np.uint32(0xFF << (8 * sel))) | (exp << np.uint32(8 * sel))
            scale[op] = exp
            args.append(word.view(np.int32))
        a_val = a_val * 2.0 ** (scale["A"][ins.scale_lane("A")].astype(np.int64) - 127)
        b_val = b_val * 2.0 ** (scale["B"][ins.scale_lane("B")].astype(np.int64) - 127)
    kernel[1, 64](*args)
    got = unpack(ins, "D", c.view(np.uint32)[None])[0].view(np.float32)
    want = a_val @ b_val + c_val
    assert (want.astype(np.float32) == want).all()  # exact in fp32 by construction
    return got, want.astype(np.float32)


@pytest.mark.parametrize("ins", VARIANTS, ids=lambda i: probes.kernel_name(i).removeprefix(
    "probe_mfma_") + f"-{CODES[i.format_codes[0]]}x{CODES[i.format_codes[1]]}")
def test_f8f6f4_mfma_computes_a_times_b_plus_c(module, ins):
    kernel = Kernel(module, probes.kernel_name(ins), device="emulator:gfx950")
    (mfma,) = [i for i in kernel.isa_for(ARCH) if i.mnemonic.startswith("v_mfma")]
    assert mfma.mnemonic == ins.name, mfma.text
    ca, cb = ins.format_codes
    assert (f"cbsz:{ca}" in mfma.text) == bool(ca) and (f"blgp:{cb}" in mfma.text) == bool(cb)
    regs = [int(x[x.index(":") + 1:-1]) - int(x[x.index("[") + 1:x.index(":")]) + 1
            for x in mfma.operands[:4]]
    assert regs == [ins.vgprs[o] for o in "DABC"], mfma.text
    rng = np.random.default_rng(sum(map(ord, probes.kernel_name(ins))))
    got, want = _run_case(module, ins, rng)
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{ins.name} {ins.format_codes}: D{tuple(bad[0])} = "
                           f"{got[tuple(bad[0])]}, expected {want[tuple(bad[0])]}")


OPSEL_SRC = """
typedef int v8i __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
#define K(NAME, SHAPE, CT, SA, SB) extern "C" __global__ void NAME(const v8i* a, const v8i* b, \\
    CT* c, const int* sa, const int* sb) { int t = __builtin_amdgcn_workitem_id_x(); \\
    c[t] = __builtin_amdgcn_mfma_scale_f32_##SHAPE##_f8f6f4(a[t], b[t], c[t], 1, 3, SA, sa[t], \\
                                                            SB, sb[t]); }
K(opsel16_2_3, 16x16x128, v4f, 2, 3)
K(opsel16_1_0, 16x16x128, v4f, 1, 0)
K(opsel32_3_1, 32x32x64, v16f, 3, 1)
"""


@pytest.mark.parametrize(("kernel_name", "shape", "opsel"), [
    ("opsel16_2_3", "16x16x128", (2, 3)), ("opsel16_1_0", "16x16x128", (1, 0)),
    ("opsel32_3_1", "32x32x64", (3, 1))])
def test_scale_byte_selection(kernel_name, shape, opsel):
    """The builtin's opselA/opselB pick the scale byte (printed as op_sel/op_sel_hi)."""
    module = wb.compile(OPSEL_SRC, ARCH)
    ins = layouts.get(f"v_mfma_scale_f32_{shape}_f8f6f4", ARCH).with_formats(1, 3)
    got, want = _run_case(module, ins, np.random.default_rng(7), kernel_name, opsel)
    assert (got == want).all()


# gfx942's fp8 MFMAs exist on gfx950 too (the catalog lists them under gfx950 with gfx942's
# layouts), but read gfx950's OCP E4M3 / E5M2: the gfx950 entries carry the OCP types.
INHERITED = [i for i in layouts.list("gfx942") if "fp8" in i.name or "bf8" in i.name]
OCP_OF = {"float8_e4m3fnuz": "float8_e4m3fn", "float8_e5m2fnuz": "float8_e5m2"}


def test_gfx950_lists_gfx942_fp8_mfmas_with_ocp_types():
    for ins in INHERITED:
        own = layouts.get(ins.name, ARCH)
        assert (own.a_type, own.b_type) == (OCP_OF[ins.a_type], OCP_OF[ins.b_type])
        assert own.vgprs == ins.vgprs and own.builtin == ins.builtin


@pytest.mark.parametrize("ins", INHERITED, ids=lambda i: i.name)
def test_inherited_fp8_mfma_reads_ocp_on_gfx950(ins):
    module = wb.compile(probes.probe_source([ins]), ARCH)
    kernel = Kernel(module, probes.kernel_name(ins), device="emulator:gfx950")
    (mfma,) = [i for i in kernel.isa_for(ARCH) if i.mnemonic.startswith("v_mfma")]
    assert mfma.mnemonic == ins.name
    rng = np.random.default_rng(len(ins.name))
    ta, tb = OCP_OF[ins.a_type], OCP_OF[ins.b_type]
    # E4M3 448 / E5M2 57344 exist only in OCP: a FNUZ reading of these codes would differ
    a_val = _values(ta, ins.shape("A"), rng)
    b_val = _values(tb, ins.shape("B"), rng)
    a_val[0, 0, 0] = 448.0 if ta == "float8_e4m3fn" else 57344.0
    c_val = rng.integers(-50, 50, ins.shape("C")).astype(np.float64)
    a = pack(ins, "A", _encode(a_val, ta)[None])[0].view(np.int64)
    b = pack(ins, "B", _encode(b_val, tb)[None])[0].view(np.int64)
    c = pack(ins, "C", c_val.astype(np.float32).view(np.uint32)[None])[0].view(np.float32)
    kernel[1, 64](a, b, c)
    got = unpack(ins, "D", c.view(np.uint32)[None])[0].view(np.float32)
    want = a_val @ b_val + c_val
    assert (want.astype(np.float32) == want).all()
    assert (got == want).all(), f"{ins.name}: {np.argwhere(got != want)[:3].tolist()}"
