"""Proof by execution: every gfx942 MFMA that LLVM emits, and every gfx950 one with f32, f16,
bf16, i8 or f64 inputs (the new shapes and the gfx942 MFMAs gfx950 keeps), computes
D = A·B + C exactly when its operands are placed in registers through the layout catalog.

For each instruction in ``probes.emitted("gfx942")`` the probe kernel (lane ``t`` loads its
A/B/C register vectors from ``a[t]``, ``b[t]``, ``c[t]``, runs the builtin, stores D to
``c[t]``) is launched with ``Kernel[1, 64]`` on every available device. The host packs A and B
with ``MatrixInstruction.scatter_bits`` and reads D with ``gather_bits``; the expected D is
numpy's ``A @ B + C`` on the logical matrices, in values chosen so that fp32 accumulation is
exact, so the comparison is bit-for-bit.

What this proves depends on the device. On a real gfx942 (``rocm``) it checks the catalog's
lane formulas against the hardware. On the emulator, whose MFMA reads operands through the same
catalog, it checks everything around the formulas: that clang's builtin vector arguments land
in the registers the catalog numbers (register order, sub-element order, register counts), the
emulator's operand/AGPR plumbing, and its arithmetic per element type against independent
encoders/decoders (``tests/mfma_values.py``, the FNUZ tables below) -- but it cannot catch a
wrong formula shared by both. The formulas themselves
are checked against independent reference data in ``tests/layouts/test_layouts.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from mfma_values import decode, encode, pack, unpack

import workbench as wb
from workbench import layouts
from workbench.layouts import probes
from workbench.runtime.args import element_dtype
from workbench.runtime.kernel import Kernel
from workbench.toolchain import find_toolchain

ARCH = "gfx942"
EMITTED = probes.emitted(ARCH)
EMULATOR = {"gfx942": "emulator", "gfx950": "emulator:gfx950"}


def _gfx950_instrs() -> list:
    """The gfx950 MFMAs a gfx950 code object runs whose element types this test encodes: the
    new f16/bf16 shapes (LLVM >= 20 emits them) and the gfx942 MFMAs gfx950 keeps, all compiled
    for gfx950. (Their fp8 forms, OCP on gfx950, and the f8f6f4 MFMAs are proven in
    tests/emu/test_emu_f8f6f4.py.)"""
    if find_toolchain().clang_major < 20:
        return []
    own = [layouts.get(n, "gfx950") for n in probes.emitted("gfx950")]
    return [i for i in own if i.a_type in ("f32", "f16", "bf16", "i8", "f64")]


INSTRS = {"gfx942": [layouts.get(n, ARCH) for n in EMITTED], "gfx950": _gfx950_instrs()}


def _cases() -> list:
    """(arch, instruction, device) triples: the emulator, plus every GPU of that arch cupy's
    ROCm build sees (there the test is a hardware proof of the catalog)."""
    out = []
    for arch, instrs in INSTRS.items():
        gpus = [d for d in wb.devices() if getattr(d, "kind", "") == "rocm" and d.arch == arch]
        for ins in instrs:
            out.append(pytest.param(arch, ins.name, EMULATOR[arch],
                                    id=f"{arch}-{ins.name}-emulator"))
            out += [pytest.param(arch, ins.name, d, id=f"{arch}-{ins.name}-{d.name.split()[0]}",
                                 marks=pytest.mark.gpu) for d in gpus]
    return out


def _regs(operand: str) -> int:
    """VGPRs/AGPRs an ISA register operand names: 'v[4:5]' -> 2, 'a0' -> 1."""
    if "[" in operand:
        lo, hi = operand[operand.index("[") + 1:-1].split(":")
        return int(hi) - int(lo) + 1
    return 1


# -- independent element encoders (fp8 from a code table; the rest: tests/mfma_values.py) ---------
def _fnuz_table(exp_bits: int, bias: int) -> np.ndarray:
    """float64 value of each 8-bit code of an FNUZ float (LLVM APFloat Float8E4M3FNUZ /
    Float8E5M2FNUZ: no infinities, no -0, the single NaN is 0x80; FNUZ on gfx942 per ROCm's
    HIP "FP8 numbers" page)."""
    man = 7 - exp_bits
    vals = np.empty(256)
    for code in range(256):
        e, m = (code >> man) & ((1 << exp_bits) - 1), code & ((1 << man) - 1)
        mag = m * 2.0 ** (1 - bias - man) if e == 0 else (1 + m / 2**man) * 2.0 ** (e - bias)
        vals[code] = -mag if code & 0x80 else mag
    vals[0x80] = np.nan
    return vals


_FNUZ = {"float8_e4m3fnuz": _fnuz_table(4, 8), "float8_e5m2fnuz": _fnuz_table(5, 16)}


def _encode(values: np.ndarray, t: str) -> np.ndarray:
    """Logical values -> raw element bits (right-aligned) of type ``t``; values are exact."""
    if t == "f16":
        h = values.astype(np.float16)
        assert (h.astype(np.float64) == values).all()
    if t in _FNUZ:
        table = _FNUZ[t]
        codes = np.array([int(np.flatnonzero(table == v)[0]) for v in values.ravel()])
        return codes.reshape(values.shape).astype(np.uint32)
    return encode(t, values)


def _values(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Test values for an input operand: element-unique small integers where the type has
    room (so a misplaced element changes D), else random exact values of the type.

    Exactness: |A|,|B| <= 128 integers, K <= 16 for 16-bit types -> sums < 2**18 (gfx950's
    512-element operands: |x| <= 256, every integer of which bf16's 8-bit significand holds,
    K = 32 -> sums < 2**22); 8-bit floats
    are drawn from codes with |x| in [1/8, 8] (4-bit significands: every product is a multiple
    of 2**-12 below 64, so a K=32 sum spans < 2**24 and fp32 holds it exactly)."""
    n = int(np.prod(shape))
    if t in ("bf16", "f16", "f32", "xf32", "f64") and n <= 512:
        return (rng.permutation(n) - n // 2).astype(np.float64).reshape(shape)
    if t == "i8":
        return rng.integers(-128, 128, size=shape).astype(np.float64)
    if t in _FNUZ:
        table = _FNUZ[t]
        ok = table[np.isfinite(table) & (np.abs(table) >= 0.125) & (np.abs(table) <= 8)]
        return rng.choice(ok, size=shape)
    raise AssertionError(f"no test values for {t} x {n}")


def _typed(words: np.ndarray, pointee: str | None) -> np.ndarray:
    """The same bytes as the element type the kernel argument declares (float, long, ...), so
    the launcher's exact C type check accepts them; vector typedefs take any element type."""
    want = element_dtype(pointee)
    return words if want is None else words.view(np.dtype(want))


@pytest.fixture(scope="module")
def modules():
    return {arch: wb.compile(probes.probe_source(instrs), arch)
            for arch, instrs in INSTRS.items() if instrs}


def test_llvm_emits_the_whole_gfx942_catalog():
    assert sorted(EMITTED) == sorted(layouts.names(ARCH))


def test_gfx950_f16_bf16_shapes_are_emitted_and_proven():
    """With LLVM >= 20 the four new gfx950 f16/bf16 shapes are among the proven ones, and so is
    every gfx942 MFMA gfx950 keeps except the fp8 ones (tests/emu/test_emu_f8f6f4.py)."""
    if find_toolchain().clang_major < 20:
        pytest.skip("gfx950 needs LLVM >= 20")
    new = {f"v_mfma_f32_{s}_{t}" for s in ("16x16x32", "32x32x16") for t in ("f16", "bf16")}
    new |= {"v_mfma_i32_16x16x64_i8", "v_mfma_i32_32x32x32_i8"}  # and the two int8 shapes
    proven = {i.name for i in INSTRS["gfx950"]}
    assert new <= proven
    kept = {n for n in layouts.names(ARCH) if n in layouts.names("gfx950")
            and "fp8" not in n and "bf8" not in n}
    assert len(kept) == 22 and kept <= proven


@pytest.mark.parametrize(("arch", "name", "device"), _cases())
def test_mfma_computes_a_times_b_plus_c(modules, arch, name, device):
    ins = next(i for i in INSTRS[arch] if i.name == name)
    kernel = Kernel(modules[arch], probes.kernel_name(ins), device=device)
    rng = np.random.default_rng(sum(map(ord, name)))
    a_val = _values(ins.a_type, ins.shape("A"), rng)
    b_val = _values(ins.b_type, ins.shape("B"), rng)
    blocks, m, n = ins.shape("C")
    c_val = (rng.permutation(blocks * m * n) - blocks * m * n // 2).reshape(blocks, m, n)
    c_val = c_val.astype(np.float64)
    a = pack(ins, "A", _encode(a_val, ins.a_type)[None])[0]  # one wave: [64, regs]
    b = pack(ins, "B", _encode(b_val, ins.b_type)[None])[0]
    c = pack(ins, "C", _encode(c_val, ins.c_type)[None])[0]
    # the compiled instruction names as many registers per operand as the catalog counts
    (mfma,) = [i for i in kernel.isa_for(arch) if i.mnemonic == name]
    d_op, a_op, b_op, c_op = mfma.operands[:4]
    assert [_regs(x) for x in (a_op, b_op, c_op, d_op)] == [ins.vgprs[o] for o in "ABCD"], \
        mfma.text

    args = {x.name: x for x in kernel.info(arch).args}
    kernel[1, 64](*(_typed(arr, args[nm].pointee) for nm, arr in (("a", a), ("b", b), ("c", c))))

    got = decode(ins.d_type, unpack(ins, "D", c[None])[0])
    want = a_val @ b_val + c_val
    if ins.d_type == "i32":
        want = want.astype(np.int64)
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{name} on {device}: D{tuple(bad[0])} = {got[tuple(bad[0])]}, "
                           f"expected {want[tuple(bad[0])]} ({len(bad)} elements differ)")
