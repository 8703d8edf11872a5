"""Proof by execution on the emulator: every RDNA3 (gfx1100) and RDNA4 (gfx1201) f16 / bf16 /
iu8 / iu4 WMMA of the layout catalog, in wave32 and wave64, computes D = A·B + C when its operands
are placed in registers through the catalog.

As in tests/layouts/test_layouts_execution.py: the probe kernel (``workbench.layouts.probes``; lane
t loads its A/B/C vectors from a[t], b[t], c[t], runs the builtin, stores D to c[t]) runs on
``emulator:<arch>``; the host packs A/B/C with ``scatter_bits`` (every RDNA3 replica) and reads
D with ``gather_bits``. The emulator's WMMA reads through the same catalog, so this checks
clang's register placement (order, sub-elements, counts), the wave32/wave64 plumbing, OPSEL
and the arithmetic per type -- not the formulas themselves (tests/layouts/test_layouts.py). Values
are small integers so that fp32 sums and 16-bit outputs are exact: bit-for-bit comparison.
"""
from __future__ import annotations

import numpy as np
import pytest
from mfma_values import decode, encode

import workbench as wb
from workbench import layouts
from workbench.layouts import probes
from workbench.runtime.args import element_dtype
from workbench.runtime.kernel import Kernel

TYPES = ("f16", "bf16", "iu8", "iu4")
CASES = [(arch, w, n) for arch in ("gfx1100", "gfx1201") for w in (32, 64)
         for n in layouts.names(arch, wave_size=w)
         if layouts.get(n, arch, wave_size=w).a_type in TYPES
         and not layouts.get(n, arch, wave_size=w).sparse]  # SWMMAC: test_swmmac_execution.py


@pytest.fixture(scope="module")
def modules():
    out = {}
    for arch in ("gfx1100", "gfx1201"):
        for w in (32, 64):
            ins = [layouts.get(n, arch, wave_size=w) for n in layouts.names(arch, wave_size=w)]
            ins = [i for i in ins if i.a_type in TYPES and not i.sparse]
            out[arch, w] = (wb.compile(probes.probe_source(ins), arch,
                                       ["-mwavefrontsize64"] if w == 64 else []), ins)
    return out


def _pack(ins, operand: str, bits: np.ndarray) -> np.ndarray:
    """[blocks, rows, cols] element bits -> [lanes, regs] uint32 (lane t's registers)."""
    v = np.zeros((1, ins.vgprs[operand], ins.wave_size), np.uint32)
    ins.scatter_bits(v, operand, bits[None])
    return np.ascontiguousarray(v[0].T)


def _dec(t: str, bits: np.ndarray) -> np.ndarray:
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return decode(t, bits)


def _enc(t: str, x: np.ndarray) -> np.ndarray:
    if t == "iu4":  # two's-complement nibbles
        return (np.asarray(x, np.int64) & 0xF).astype(np.uint32)
    return encode("i8" if t == "iu8" else t, x) & (0xFF if t == "iu8" else 0xFFFFFFFF)


@pytest.mark.parametrize(("arch", "wave", "name"), CASES,
                         ids=[f"{a}-w{w}-{n}" for a, w, n in CASES])
def test_wmma_computes_a_times_b_plus_c(modules, arch, wave, name):
    mod, instrs = modules[arch, wave]
    ins = next(i for i in instrs if i.name == name)
    dev = f"emulator:{arch}"
    kernel = Kernel(mod, probes.kernel_name(ins), device=dev)
    rng = np.random.default_rng(sum(map(ord, name)) + wave)
    if ins.a_type in ("iu8", "iu4"):
        lim = 128 if ins.a_type == "iu8" else 8
        a_val = rng.integers(-lim, lim, ins.shape("A")).astype(np.float64)
        b_val = rng.integers(-lim, lim, ins.shape("B")).astype(np.float64)
        c_val = rng.integers(-2**20, 2**20, ins.shape("C")).astype(np.float64)
    else:  # |D| <= 16*9 + 8 < 256: exact in fp32, f16 and bf16
        a_val = rng.integers(-3, 4, ins.shape("A")).astype(np.float64)
        b_val = rng.integers(-3, 4, ins.shape("B")).astype(np.float64)
        c_val = rng.integers(-8, 9, ins.shape("C")).astype(np.float64)
    a = _pack(ins, "A", _enc(ins.a_type, a_val))
    b = _pack(ins, "B", _enc(ins.b_type, b_val))
    c = _pack(ins, "C", encode(ins.c_type, c_val))
    (op,) = [i for i in kernel.isa_for(arch) if i.mnemonic == name]
    args = {x.name: x for x in kernel.info(arch).args}
    typed = [arr if element_dtype(args[nm].pointee) is None
             else arr.view(np.dtype(element_dtype(args[nm].pointee)))
             for nm, arr in (("a", a), ("b", b), ("c", c))]
    kernel[1, wave](*typed)
    v = np.ascontiguousarray(c.T)[None]
    got = _dec(ins.d_type, ins.gather_bits(v, "D")[0])
    want = a_val @ b_val + c_val
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{name} ({op.text}) on {dev} wave{wave}: D{tuple(bad[0])} = "
                           f"{got[tuple(bad[0])]}, expected {want[tuple(bad[0])]} "
                           f"({len(bad)} differ)")


def test_every_rdna_f16_bf16_iu8_iu4_wmma_is_proven():
    """The parametrisation covers each catalog entry of those types on both generations."""
    names = {(a, w, n) for a, w, n in CASES}
    assert len(names) == len(CASES) and len({n for _, _, n in CASES}) >= 4
    for arch in ("gfx1100", "gfx1201"):
        assert any(a == arch for a, _, _ in CASES)
