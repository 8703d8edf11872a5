"""The emulator's MFMA family, through the real path: HIP source -> workbench.compile(gfx942) ->
Kernel(..., device="emulator")[grid, block](...) -> numpy/torch references.

* ``mfma_regs.hip``: one kernel per gfx942 MFMA (and modifier variants); lanes load register
  contents the test packs with ``workbench.layouts``, so the checks are about arithmetic, element
  types, CBSZ/ABID/BLGP/negation and batching over waves (3 waves per launch, different data).
  Modifier references come from the prose of the AMD Matrix Instruction Calculator's README
  (CBSZ/ABID/BLGP), not from the catalog.
* ``mfma_layout.hip`` / ``mfma_gemm.hip``: kernels that place matrix elements in lanes with
  hand-written closed forms (the calculator's formulas), independent of the catalog the emulator
  uses.

Inputs are small integers wherever the result can then be exact (every product and partial sum
is an integer far below 2^24, so any summation order gives the same f32): those comparisons are
bit-exact. Random-float checks state their tolerance next to them.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path

import mfma_values
import numpy as np
import pytest
import torch
from mfma_values import decode, pack, unpack

import workbench
from workbench import layouts
from workbench.emu.errors import EmulatorError
from workbench.emu.numerics.fp8 import FP8_TABLES, fp8_to_f64
from workbench.layouts import probes
from workbench.runtime.kernel import Kernel

ARCH = "gfx942"
KDIR = Path(__file__).parents[1] / "kernels" / "emu"
WAVES = 3  # waves per launch: one lock-step group whose waves hold different data
TORCH_FP8 = {"float8_e4m3fnuz": torch.float8_e4m3fnuz, "float8_e5m2fnuz": torch.float8_e5m2fnuz}


@pytest.fixture(scope="module")
def regs_mod():
    return workbench.compile((KDIR / "mfma_regs.hip").read_text(), ARCH)


@pytest.fixture(scope="module")
def layout_mod():
    return workbench.compile((KDIR / "mfma_layout.hip").read_text(), ARCH)


@pytest.fixture(scope="module")
def gemm_mod():
    return workbench.compile((KDIR / "mfma_gemm.hip").read_text(), ARCH)


def launch(mod, name: str, grid, block, *args):
    return Kernel(mod, name, device="emulator")[grid, block](*args)


# ---- element encodings ------------------------------------------------------------------------
def encode(t: str, x: np.ndarray) -> np.ndarray:
    """Values of type ``t`` -> raw element bits (fp8: RNE through torch; others: mfma_values)."""
    if t in TORCH_FP8:
        codes = torch.from_numpy(np.asarray(x, np.float32)).to(TORCH_FP8[t]).view(torch.uint8)
        return codes.numpy().astype(np.uint32)
    return mfma_values.encode(t, x)


def small_ints(rng, t: str, shape) -> np.ndarray:
    """Random values of ``t`` that are exact in ``t`` and keep every sum exact in f32."""
    if t == "i8":
        return rng.integers(-128, 128, shape)
    if t == "i32":
        return rng.integers(-2**31, 2**31, shape)  # full range: exercises the 32-bit wrap
    if t == "float8_e5m2fnuz":  # 2 mantissa bits: integers up to 8 are exact
        return rng.choice([-4.0, -3.0, -2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0, 6.0],
                          shape)
    return rng.integers(-8, 9, shape).astype(np.float64)  # exact in e4m3fnuz .. f64


# ---- register contents as kernel arguments ------------------------------------------------------
_CTYPE = {"float": np.float32, "int": np.int32, "long": np.int64, "double": np.float64}


def as_arg(ins, k: int, lanes: np.ndarray) -> np.ndarray:
    """Register contents as the kernel's pointer type (scalar C types need their dtype)."""
    dt = _CTYPE.get(ins.builtin_types[k])
    flat = lanes.reshape(-1)
    return flat.view(dt) if dt is not None else flat


# ---- modifier oracles (calculator README prose, written independently of the catalog) --------
def a_block_source(blocks: int, cbsz: int, abid: int) -> np.ndarray:
    """"broadcast one A block to 2^CBSZ blocks; ABID picks which block within each group"."""
    group = 1 << cbsz
    return np.repeat(np.arange(0, blocks, group) + abid, group)


def blgp_source_lanes(blgp: int) -> np.ndarray:
    """Physical B lane read by each lane: 1 "lanes 0-31 broadcast into 32-63", 2 "lanes 32-63
    into 0-31", 3 "rotate all lanes down by 16", 4-7 "broadcast lane group 0-15 / 16-31 / 32-47 /
    48-63 into the other three groups"."""
    lanes = np.arange(64)
    if blgp == 0:
        return lanes
    if blgp == 1:
        return np.concatenate([lanes[:32], lanes[:32]])
    if blgp == 2:
        return np.concatenate([lanes[32:], lanes[32:]])
    if blgp == 3:
        return np.roll(lanes, -16)
    return np.tile(lanes[16 * (blgp - 4):16 * (blgp - 3)], 4)


# ---- the register-packed kernels ----------------------------------------------------------------
def _kernel_cases():
    src = (KDIR / "mfma_regs.hip").read_text()
    out = []
    for name, mods in re.findall(r"^MFMA\((mfma_\w+?)(?:__(cbsz\d+_abid\d+_blgp\d+))?,", src,
                                 re.M):
        cbsz, abid, blgp = (map(int, re.findall(r"\d+", mods)) if mods else (0, 0, 0))
        kernel = name + (f"__{mods}" if mods else "")
        out.append(pytest.param("v_" + name, kernel, cbsz, abid, blgp, id=kernel))
    return out


CASES = _kernel_cases()


def run_regs(mod, mnemonic, kernel, a, b, c, cbsz=0, abid=0, blgp=0):
    """Run one register-packed kernel on matrices a, b, c; returns (D values, reference)."""
    ins = layouts.get(mnemonic, ARCH)
    la = pack(ins, "A", encode(ins.a_type, a))
    lb = pack(ins, "B", encode(ins.b_type, b))
    lc = pack(ins, "C", encode(ins.c_type, c))
    ld = np.zeros_like(lc)
    launch(mod, kernel, WAVES, 64, as_arg(ins, 1, la), as_arg(ins, 2, lb), as_arg(ins, 3, lc),
           as_arg(ins, 0, ld))
    got = decode(ins.d_type, unpack(ins, "D", ld))
    # reference: the values the registers hold, with the modifiers applied per the calculator README
    av = decode_input(ins.a_type, unpack(ins, "A", la))
    bv = decode_input(ins.b_type, unpack(ins, "B", lb[:, blgp_source_lanes(
        blgp if ins.blgp == "lanes" else 0)]))
    cv = decode(ins.c_type, unpack(ins, "C", lc)).astype(np.float64)
    av = av[:, a_block_source(ins.blocks, cbsz, abid)]
    if ins.blgp == "negate":
        av, bv, cv = (-x if blgp >> i & 1 else x for i, x in enumerate((av, bv, cv)))
    if ins.d_type == "i32":
        ref = (np.matmul(av.astype(np.int64), bv.astype(np.int64)) + cv.astype(np.int64))
        ref = ref.astype(np.int32)  # two's-complement wrap of the 32-bit accumulator
    else:
        ref = np.matmul(av, bv) + cv
    return got, ref


def decode_input(t: str, bits: np.ndarray) -> np.ndarray:
    """Element bits of an A/B type -> float64 (int64 for i8) via numpy/torch, not the emulator."""
    if t in ("f32", "xf32"):
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if t == "i8":
        return bits.astype(np.uint8).view(np.int8).astype(np.int64)
    if t == "f64":
        return bits.astype(np.uint64).view(np.float64)
    codes = torch.from_numpy(bits.astype(np.uint8))
    return codes.view(TORCH_FP8[t]).to(torch.float64).numpy()


@pytest.mark.parametrize("mnemonic, kernel, cbsz, abid, blgp", CASES)
def test_mfma_exact(regs_mod, mnemonic, kernel, cbsz, abid, blgp):
    """Every gfx942 MFMA (and modifier form) on integer-valued inputs: bit-exact vs numpy."""
    ins = layouts.get(mnemonic, ARCH)
    listing = [i for i in regs_mod[ARCH].listing(kernel) if i.mnemonic.startswith("v_mfma")]
    assert [i.mnemonic for i in listing] == [mnemonic]  # the kernel runs the instruction named
    rng = np.random.default_rng(zlib.crc32(kernel.encode()))
    a = small_ints(rng, ins.a_type, (WAVES, *ins.shape("A")))
    b = small_ints(rng, ins.b_type, (WAVES, *ins.shape("B")))
    c = small_ints(rng, ins.c_type, (WAVES, *ins.shape("C")))
    got, ref = run_regs(regs_mod, mnemonic, kernel, a, b, c, cbsz, abid, blgp)
    if cbsz or abid or blgp:  # the modifier must change the result for these inputs
        ref0 = np.matmul(decode_input(ins.a_type, encode(ins.a_type, a)),
                         decode_input(ins.b_type, encode(ins.b_type, b)))
        assert not np.array_equal(ref, ref0 + c), "test inputs do not exercise the modifier"
    np.testing.assert_array_equal(got, ref.astype(got.dtype))


# Random floats: per output the exact value is a sum of K products plus C. The emulator adds
# in float64 and rounds once; any f32 summation order stays within K+1 f32 roundings of the
# exact value, i.e. |err| <= (K+1) * 2^-24 * sum|terms|. We allow 2x that bound.
@pytest.mark.parametrize("mnemonic", [pytest.param(m) for m in (
    "v_mfma_f32_32x32x2_f32", "v_mfma_f32_16x16x16_f16", "v_mfma_f32_32x32x8_bf16",
    "v_mfma_f32_4x4x4_16b_bf16", "v_mfma_f32_16x16x8_xf32", "v_mfma_f32_16x16x32_bf8_fp8",
    "v_mfma_f64_16x16x4_f64")])
def test_mfma_random_floats(regs_mod, mnemonic):
    ins = layouts.get(mnemonic, ARCH)
    rng = np.random.default_rng(7)
    def vals(t, shape):
        x = rng.standard_normal(shape)
        if t == "bf16":  # round to bf16 through torch (RNE)
            return torch.from_numpy(x).to(torch.bfloat16).to(torch.float64).numpy()
        if t == "xf32":  # keep the inputs exact in TF32 (10 mantissa bits), see matrix.mfma
            return np.asarray(x, np.float16).astype(np.float64)
        return x
    a = vals(ins.a_type, (WAVES, *ins.shape("A")))
    b = vals(ins.b_type, (WAVES, *ins.shape("B")))
    c = rng.standard_normal((WAVES, *ins.shape("C")))
    if ins.c_type == "f32":
        c = c.astype(np.float32).astype(np.float64)
    got, ref = run_regs(regs_mod, mnemonic, mnemonic[2:], a, b, c)
    av = decode_input(ins.a_type, encode(ins.a_type, a))
    bv = decode_input(ins.b_type, encode(ins.b_type, b))
    mag = np.matmul(np.abs(av), np.abs(bv)) + np.abs(c)
    eps = 2.0**-53 if ins.d_type == "f64" else 2.0**-24
    bound = 2 * (ins.k + 1) * eps * mag
    assert (np.abs(got - ref) <= bound).all(), np.abs(got - ref).max()


def test_fp8_tables_match_torch():
    """The emulator's FNUZ decode tables agree with torch for all 256 codes (NaN = 0x80)."""
    codes = np.arange(256, dtype=np.uint8)
    for fmt, tdt in TORCH_FP8.items():
        want = torch.from_numpy(codes).view(tdt).to(torch.float64).numpy()
        np.testing.assert_array_equal(FP8_TABLES[fmt], want)
        np.testing.assert_array_equal(fp8_to_f64(codes.astype(np.uint32) | 0x100, fmt), want)
    assert np.nanmax(FP8_TABLES["float8_e4m3fnuz"]) == 240.0
    assert np.nanmax(FP8_TABLES["float8_e5m2fnuz"]) == 57344.0
    with pytest.raises(ValueError, match="float8_e4m3fn"):
        fp8_to_f64(codes, "float8_e4m3fn")


def test_zero_c_inline_constant(regs_mod):
    """C printed as the inline constant 0 (`..., 0`): D = A·B."""
    text = [i.text for i in regs_mod[ARCH].listing("mfma_zero_c") if "mfma" in i.mnemonic]
    assert text and text[0].rstrip().endswith(", 0")
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", ARCH)
    rng = np.random.default_rng(3)
    a = small_ints(rng, "bf16", (WAVES, *ins.shape("A")))
    b = small_ints(rng, "bf16", (WAVES, *ins.shape("B")))
    la, lb = pack(ins, "A", encode("bf16", a)), pack(ins, "B", encode("bf16", b))
    ld = np.full((WAVES, 64, 4), 0xDEADBEEF, np.uint32)
    launch(regs_mod, "mfma_zero_c", WAVES, 64, la.reshape(-1), lb.reshape(-1), ld.reshape(-1))
    np.testing.assert_array_equal(decode("f32", unpack(ins, "D", ld)), np.matmul(a, b))


def test_all_operands_in_agprs(regs_mod):
    """A, B, C and D as AGPR tuples (a[...]) give the same result as VGPRs."""
    mfma = [i for i in regs_mod[ARCH].listing("mfma_agpr") if "mfma" in i.mnemonic]
    assert len(mfma) == 1 and all(o.startswith("a[") for o in mfma[0].operands[:4])
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", ARCH)
    rng = np.random.default_rng(4)
    a, b, c = (small_ints(rng, "bf16", (WAVES, *ins.shape(o))) for o in "ABC")
    la, lb = pack(ins, "A", encode("bf16", a)), pack(ins, "B", encode("bf16", b))
    lc = pack(ins, "C", encode("f32", c))
    ld = np.zeros_like(lc)
    launch(regs_mod, "mfma_agpr", WAVES, 64, la.reshape(-1), lb.reshape(-1), lc.reshape(-1),
           ld.reshape(-1))
    np.testing.assert_array_equal(decode("f32", unpack(ins, "D", ld)), np.matmul(a, b) + c)


def test_accumulator_chain(regs_mod):
    """Four chained MFMAs (C = previous D, first C = inline 0) accumulate K = 64."""
    ins = layouts.get("v_mfma_f32_16x16x16_bf16", ARCH)
    rng = np.random.default_rng(5)
    a = small_ints(rng, "bf16", (WAVES, 4, *ins.shape("A")[1:]))  # [W, step, 16, 16]
    b = small_ints(rng, "bf16", (WAVES, 4, *ins.shape("B")[1:]))
    la = np.stack([pack(ins, "A", encode("bf16", a[:, s:s + 1])) for s in range(4)], 1)
    lb = np.stack([pack(ins, "B", encode("bf16", b[:, s:s + 1])) for s in range(4)], 1)
    ld = np.zeros((WAVES, 64, 4), np.uint32)
    launch(regs_mod, "mfma_chain", WAVES, 64, la.reshape(-1), lb.reshape(-1), ld.reshape(-1))
    want = np.einsum("wsik,wskj->wij", a, b)[:, None]
    np.testing.assert_array_equal(decode("f32", unpack(ins, "D", ld)), want)


def test_accvgpr_moves(regs_mod):
    """v_accvgpr_write_b32 (VGPR and inline constant), v_accvgpr_mov_b32, v_accvgpr_read_b32."""
    seen = {i.mnemonic for i in regs_mod[ARCH].listing("accvgpr_moves")}
    assert {"v_accvgpr_write_b32", "v_accvgpr_mov_b32", "v_accvgpr_read_b32"} <= seen
    x = np.arange(-64, 64 * WAVES - 64, dtype=np.int32)
    d = np.zeros((WAVES * 64, 4), np.int32)
    launch(regs_mod, "accvgpr_moves", WAVES, 64, x, d.reshape(-1))
    np.testing.assert_array_equal(d, np.stack([x, x + 1, x, np.full_like(x, 7)], 1))


def test_partial_exec_is_refused(regs_mod):
    """An MFMA reached with EXEC = lanes 0-31: the emulator refuses with a clear error rather
    than guess (no AMD source we have says what hardware does with EXEC here)."""
    a = np.ones(64, np.float32)
    d = np.zeros(64 * 4, np.float32)
    with pytest.raises(EmulatorError, match="(?i)exec"):
        launch(regs_mod, "mfma_half_exec", 1, 64, a, a.copy(), d)


# ---- catalog-independent layouts -----------------------------------------------------------------
def test_layout_i8_16x16x32(layout_mod):
    rng = np.random.default_rng(10)
    A = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    B = rng.integers(-128, 128, (32, 16)).astype(np.int8)
    C = rng.integers(-2**31, 2**31, (16, 16)).astype(np.int32)
    D = np.zeros((16, 16), np.int32)
    launch(layout_mod, "i8_16x16x32", 1, 64, A.reshape(-1), B.reshape(-1), C.reshape(-1),
           D.reshape(-1))
    want = (A.astype(np.int64) @ B.astype(np.int64) + C).astype(np.int32)  # wraps mod 2^32
    np.testing.assert_array_equal(D, want)


def _fp8(rng, fmt, shape, values):
    x = rng.choice(values, shape).astype(np.float32)
    codes = torch.from_numpy(x).to(TORCH_FP8[fmt]).view(torch.uint8).numpy()
    return codes, torch.from_numpy(codes).view(TORCH_FP8[fmt]).to(torch.float64).numpy()


def test_layout_fp8_bf8_16x16x32(layout_mod):
    rng = np.random.default_rng(11)
    # products are multiples of 2^-3 below 2^14, so every partial sum of 32 is exact in f32
    a8, av = _fp8(rng, "float8_e4m3fnuz", (16, 32), [-240, -15, -3.5, -1, 0, 0.5, 2, 16, 240])
    b8, bv = _fp8(rng, "float8_e5m2fnuz", (32, 16), [-64, -6, -1, 0, 0.25, 1, 3, 48])
    D = np.zeros((16, 16), np.float32)
    launch(layout_mod, "fp8_bf8_16x16x32", 1, 64, a8.reshape(-1), b8.reshape(-1), D.reshape(-1))
    np.testing.assert_array_equal(D, (av @ bv).astype(np.float32))


def test_layout_bf8_fp8_32x32x16_with_c(layout_mod):
    rng = np.random.default_rng(12)
    a8, av = _fp8(rng, "float8_e5m2fnuz", (32, 16), [-4, -1, -0.5, 0, 1, 2, 3])
    b8, bv = _fp8(rng, "float8_e4m3fnuz", (16, 32), [-8, -2, -1, 0, 1, 1.5, 7])
    C = rng.integers(-100, 100, (32, 32)).astype(np.float32)
    D = np.zeros((32, 32), np.float32)
    launch(layout_mod, "bf8_fp8_32x32x16", 1, 64, a8.reshape(-1), b8.reshape(-1),
           C.reshape(-1), D.reshape(-1))
    np.testing.assert_array_equal(D, (av @ bv + C).astype(np.float32))


def test_layout_xf32_16x16x8(layout_mod):
    rng = np.random.default_rng(13)
    A = rng.integers(-50, 50, (16, 8)).astype(np.float32) / 4  # exact in TF32 (10-bit mantissa)
    B = rng.integers(-50, 50, (8, 16)).astype(np.float32) / 8
    D = np.zeros((16, 16), np.float32)
    launch(layout_mod, "xf32_16x16x8", 1, 64, A.reshape(-1), B.reshape(-1), D.reshape(-1))
    np.testing.assert_array_equal(D, A @ B)


def test_layout_f64_16x16x4(layout_mod):
    rng = np.random.default_rng(14)
    A = rng.integers(-1000, 1000, (16, 4)).astype(np.float64) / 8
    B = rng.integers(-1000, 1000, (4, 16)).astype(np.float64) / 16
    C = rng.integers(-1000, 1000, (16, 16)).astype(np.float64)
    D = np.zeros((16, 16), np.float64)
    launch(layout_mod, "f64_16x16x4", 1, 64, A.reshape(-1), B.reshape(-1), C.reshape(-1),
           D.reshape(-1))
    np.testing.assert_array_equal(D, A @ B + C)


def test_layout_f32_4x4x1_16_blocks(layout_mod):
    rng = np.random.default_rng(15)
    A = rng.integers(-9, 9, (16, 4, 1)).astype(np.float32)
    B = rng.integers(-9, 9, (16, 1, 4)).astype(np.float32)
    D = np.zeros((16, 4, 4), np.float32)
    launch(layout_mod, "f32_4x4x1_16b", 1, 64, A.reshape(-1), B.reshape(-1), D.reshape(-1))
    np.testing.assert_array_equal(D, A @ B)


# ---- a small GEMM with LDS staging --------------------------------------------------------------
@pytest.mark.parametrize("m, n, k", [(64, 64, 64), (128, 128, 64)])
def test_gemm_bf16_vs_torch(gemm_mod, m, n, k):
    """bf16 GEMM (4 waves per 64x64 tile, LDS staging, 32x32x8 bf16 MFMA) vs torch.

    Random bf16 inputs; torch's CPU matmul and the emulator sum K = m products in different
    orders, each within K f32 roundings of the exact value: |err| <= 2*K*2^-24*sum|a||b|."""
    g = torch.Generator().manual_seed(m + n + k)
    A = torch.randn(m, k, generator=g).to(torch.bfloat16)
    B = torch.randn(k, n, generator=g).to(torch.bfloat16)
    C = np.zeros((m, n), np.float32)
    launch(gemm_mod, "gemm_bf16_32x32x8", (n // 64, m // 64), 256, A, B, C, m, n, k)
    Af, Bf = A.double().numpy(), B.double().numpy()
    ref = Af @ Bf
    bound = 2 * k * 2.0**-24 * (np.abs(Af) @ np.abs(Bf))
    assert (np.abs(C - ref) <= bound).all(), np.abs(C - ref).max()
    torch.testing.assert_close(torch.from_numpy(C), A.float() @ B.float(), rtol=1e-5,
                               atol=1e-5)


def test_gemm_bf16_exact_integers(gemm_mod):
    g = torch.Generator().manual_seed(1)
    A = torch.randint(-8, 9, (64, 96), generator=g).to(torch.bfloat16)
    B = torch.randint(-8, 9, (96, 128), generator=g).to(torch.bfloat16)
    C = np.zeros((64, 128), np.float32)
    launch(gemm_mod, "gemm_bf16_32x32x8", (2, 1), 256, A, B, C, 64, 128, 96)
    np.testing.assert_array_equal(C, (A.float() @ B.float()).numpy())


def test_every_emitted_mfma_is_covered():
    """The register-packed kernels cover every dense MFMA LLVM emits for gfx942 (the list the
    probe kernels produce), so a new LLVM instruction shows up here."""
    emitted = set(probes.emitted(ARCH))
    covered = {p.values[0] for p in CASES}
    assert emitted and emitted <= covered, sorted(emitted - covered)
