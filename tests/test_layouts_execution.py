"""Proof by execution: every gfx942 MFMA that LLVM emits computes D = A·B + C exactly when its
operands are placed in registers through the layout catalog.

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
are checked against independent reference data in ``tests/test_layouts.py``.
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

ARCH = "gfx942"
EMITTED = probes.emitted(ARCH)


def _cases() -> list:
    """(instruction, device) pairs: the emulator, plus every gfx942 GPU cupy's ROCm build sees
    (there the test is a hardware proof of the catalog)."""
    gpus = [d for d in wb.devices() if getattr(d, "kind", "") == "rocm" and d.arch == ARCH]
    out = []
    for name in EMITTED:
        out.append(pytest.param(name, "emulator", id=f"{name}-emulator"))
        out += [pytest.param(name, d, id=f"{name}-{d.name.split()[0]}", marks=pytest.mark.gpu)
                for d in gpus]
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
    Float8E5M2FNUZ: no infinities, no -0, the single NaN is 0x80; amd_hw_facts §1.2)."""
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

    Exactness: |A|,|B| <= 128 integers, K <= 16 for 16-bit types -> sums < 2**18; 8-bit floats
    are drawn from codes with |x| in [1/8, 8] (4-bit significands: every product is a multiple
    of 2**-12 below 64, so a K=32 sum spans < 2**24 and fp32 holds it exactly)."""
    n = int(np.prod(shape))
    if t in ("bf16", "f16", "f32", "xf32", "f64") and n <= 256:
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
def module():
    instrs = [layouts.get(n, ARCH) for n in EMITTED]
    return wb.compile(probes.probe_source(instrs), ARCH)


def test_llvm_emits_the_whole_gfx942_catalog():
    assert sorted(EMITTED) == sorted(layouts.names(ARCH))


@pytest.mark.parametrize(("name", "device"), _cases())
def test_mfma_computes_a_times_b_plus_c(module, name, device):
    ins = layouts.get(name, ARCH)
    kernel = Kernel(module, probes.kernel_name(ins), device=device)
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
    (mfma,) = [i for i in kernel.isa_for(ARCH) if i.mnemonic == name]
    d_op, a_op, b_op, c_op = mfma.operands[:4]
    assert [_regs(x) for x in (a_op, b_op, c_op, d_op)] == [ins.vgprs[o] for o in "ABCD"], \
        mfma.text

    args = {x.name: x for x in kernel.info().args}
    kernel[1, 64](*(_typed(arr, args[nm].pointee) for nm, arr in (("a", a), ("b", b), ("c", c))))

    got = decode(ins.d_type, unpack(ins, "D", c[None])[0])
    want = a_val @ b_val + c_val
    if ins.d_type == "i32":
        want = want.astype(np.int64)
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{name} on {device}: D{tuple(bad[0])} = {got[tuple(bad[0])]}, "
                           f"expected {want[tuple(bad[0])]} ({len(bad)} elements differ)")
