"""Proof by execution on the emulator: each of the 11 RDNA4 sparse WMMAs (v_swmmac_*), in wave32
and wave64, computes D = C + A·B for a 2:4 structured-sparse A, and the dense fp8/bf8 WMMAs (whose
mixes read B in another format than A) compute D = A·B + C.

As tests/emu/test_wmma_execution.py: the probe kernel (``workbench.layouts.probes``; lane t loads
its A, B, C vectors and its compression-index word from a[t], b[t], c[t], idx[t], calls the
``__builtin_amdgcn_swmmac_*`` builtin, stores D to c[t]) is compiled for gfx1201 and run on
``emulator:gfx1201``. The host draws a logical M x K A with two nonzero-capable values in every
4-group of a row, compresses it (values in k order, each with its 2-bit position in the group),
packs the stored values, the indices, B and C with ``scatter_bits`` and compares D, read with
``gather_bits``, with numpy's ``A_full @ B + C`` -- bit for bit (small integers / exact fp8
values, so every sum is exact). The emulator reads the operands through the same catalog, so this
checks clang's register placement, the index plumbing and the arithmetic per type; the layouts
themselves are checked against the calculator in tests/layouts/test_layouts_swmmac.py.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch
from mfma_values import encode

import workbench as wb
from workbench import layouts
from workbench.layouts import probes
from workbench.runtime.args import element_dtype
from workbench.runtime.kernel import Kernel

ARCH, DEV = "gfx1201", "emulator:gfx1201"
ALL = {w: [layouts.get(n, ARCH, wave_size=w) for n in layouts.names(ARCH, wave_size=w)]
       for w in (32, 64)}
SPARSE = {w: [i for i in ins if i.sparse] for w, ins in ALL.items()}
FP8 = {w: [i for i in ins if not i.sparse and i.a_type.startswith("float8")]
       for w, ins in ALL.items()}
CASES = [(w, i.name) for w in (32, 64) for i in SPARSE[w] + FP8[w]]
# OCP E4M3 / E5M2 code -> value, from torch's float8 dtypes (an encoder independent of hipwb)
OCP = {t: torch.arange(256, dtype=torch.uint8).view(dt).to(torch.float64).numpy()
       for t, dt in (("float8_e4m3fn", torch.float8_e4m3fn), ("float8_e5m2", torch.float8_e5m2))}


def _options(w: int) -> list[str]:
    return ["-mwavefrontsize64"] if w == 64 else []


@pytest.fixture(scope="module")
def modules():
    return {w: wb.compile(probes.probe_source(SPARSE[w] + FP8[w]), ARCH, _options(w))
            for w in (32, 64)}


def _values(t: str, shape, rng) -> np.ndarray:
    """Exact test values of element type t: small integers; fp8 multiples of 1/2, |x| <= 4."""
    if t in OCP:
        fin = OCP[t][np.isfinite(OCP[t])]
        return rng.choice(np.unique(fin[(np.abs(fin) <= 4) & (fin * 2 % 1 == 0)]), size=shape)
    lim = {"iu8": 128, "iu4": 8}.get(t, 4)
    return rng.integers(-lim, lim, shape).astype(np.float64)


def _encode(t: str, x: np.ndarray) -> np.ndarray:
    if t in OCP:
        return np.array([np.flatnonzero(OCP[t] == v)[0] for v in x.ravel()],
                        np.uint32).reshape(x.shape)
    if t in ("iu8", "iu4"):  # two's complement bytes / nibbles
        return (np.asarray(x, np.int64) & (0xFF if t == "iu8" else 0xF)).astype(np.uint32)
    return encode(t, x)


def _pack(ins, operand: str, bits: np.ndarray, **key) -> np.ndarray:
    """[blocks, rows, cols] element bits -> [lanes, regs] uint32 (lane t's registers)."""
    v = np.zeros((1, ins.vgprs[operand], ins.wave_size), np.uint32)
    ins.scatter_bits(v, operand, bits[None], **key)
    return np.ascontiguousarray(v[0].T)


def _decode(t: str, bits: np.ndarray) -> np.ndarray:
    if t == "f32":
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if t == "f16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if t == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return bits.astype(np.uint32).view(np.int32).astype(np.float64)


def sparse_a(ins, rng):
    """A 2:4-sparse logical A [1, M, K] and its compression: the stored values [1, M, K/2] (in
    k order within each group) and their 2-bit positions in the group."""
    _, m, kc = ins.shape("A")
    pos = np.sort(np.stack([rng.choice(4, 2, replace=False) for _ in range(m * kc // 2)]), axis=1)
    idx = pos.reshape(1, m, kc)
    stored = _values(ins.a_type, (1, m, kc), rng)
    full = np.zeros((1, m, ins.k))
    rows = np.arange(m)[:, None]
    full[0, rows, 4 * (np.arange(kc) // 2) + idx[0]] = stored[0]
    return full, stored, idx


def _args(kernel, arrays: dict) -> list:
    """The lane arrays typed as the kernel's pointer arguments declare (vector typedefs: any)."""
    args = {x.name: x for x in kernel.info(ARCH).args}
    return [arr if element_dtype(args[nm].pointee) is None
            else arr.view(np.dtype(element_dtype(args[nm].pointee))) for nm, arr in arrays.items()]


def run_case(kernel, ins, rng, index_key: int = 0):
    """Launch one wave; return (D got, D expected) as float64 [1, M, N]."""
    b_val = _values(ins.b_type, ins.shape("B"), rng)
    cmax = 2**20 if ins.c_type == "i32" else 8
    c_val = rng.integers(-cmax, cmax + 1, ins.shape("C")).astype(np.float64)
    arrays = {}
    if ins.sparse:
        a_full, a_val, idx = sparse_a(ins, rng)
        # other index sets of the index VGPR hold noise: only set ``index_key`` may be read
        noise = rng.integers(0, 2**32, ins.wave_size, dtype=np.uint64).astype(np.uint32)
        word = _pack(ins, "I", idx.astype(np.uint32), index_key=index_key)[:, 0]
        keep = _pack(ins, "I", np.full(idx.shape, 3, np.uint32), index_key=index_key)[:, 0]
        arrays_idx = ((noise & ~keep) | word).view(np.int32)
    else:
        a_full = a_val = _values(ins.a_type, ins.shape("A"), rng)
    arrays["a"] = _pack(ins, "A", _encode(ins.a_type, a_val))
    arrays["b"] = _pack(ins, "B", _encode(ins.b_type, b_val))
    arrays["c"] = _pack(ins, "C", encode("i32" if ins.c_type == "i32" else ins.c_type, c_val))
    if ins.sparse:
        arrays["idx"] = arrays_idx
    kernel[1, ins.wave_size](*_args(kernel, arrays))
    got = _decode(ins.d_type, ins.gather_bits(np.ascontiguousarray(arrays["c"].T)[None], "D"))
    return got[0], a_full @ b_val + c_val


@pytest.mark.parametrize(("wave", "name"), CASES, ids=[f"w{w}-{n}" for w, n in CASES])
def test_swmmac_and_fp8_wmma_compute_d(modules, wave, name):
    ins = layouts.get(name, ARCH, wave_size=wave)
    kernel = Kernel(modules[wave], probes.kernel_name(ins), device=DEV)
    (op,) = [i for i in kernel.isa_for(ARCH) if i.mnemonic == name]
    got, want = run_case(kernel, ins, np.random.default_rng(sum(map(ord, name)) + wave))
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{name} ({op.text}) wave{wave}: D{tuple(bad[0])} = "
                           f"{got[tuple(bad[0])]}, expected {want[tuple(bad[0])]} "
                           f"({len(bad)} differ)")


def test_all_eleven_swmmacs_are_proven_in_both_wave_sizes():
    for w in (32, 64):
        names = {n for ww, n in CASES if ww == w and n.startswith("v_swmmac")}
        assert len(names) == 11
        assert {layouts.get(n, ARCH).a_type for n in names} == {
            "f16", "bf16", "iu8", "iu4", "float8_e4m3fn", "float8_e5m2"}


# OPSEL's index sets: clang's builtins always use set 0, so inline assembly names another one
TYPES = r"""
typedef _Float16 v8h __attribute__((ext_vector_type(8)));
typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v4i __attribute__((ext_vector_type(4)));
"""
KEYED = {32: TYPES + r"""
extern "C" __global__ void f16_key1(const v8h* a, const v16h* b, v8f* c, const int* idx) {
  int t = __builtin_amdgcn_workitem_id_x();
  v8f acc = c[t];
  asm volatile("v_swmmac_f32_16x16x32_f16 %0, %1, %2, %3 index_key:1"
               : "+v"(acc) : "v"(a[t]), "v"(b[t]), "v"(idx[t]));
  c[t] = acc;
}
""", 64: TYPES + r"""
extern "C" __global__ void iu8_key3(const int* a, const v2i* b, v4i* c, const int* idx) {
  int t = __builtin_amdgcn_workitem_id_x();
  v4i acc = c[t];
  asm volatile("v_swmmac_i32_16x16x32_iu8 %0, %1, %2, %3 index_key:3 neg_lo:[1,1,0]"
               : "+v"(acc) : "v"(a[t]), "v"(b[t]), "v"(idx[t]));
  c[t] = acc;
}
"""}


@pytest.mark.parametrize(("kernel_name", "name", "wave", "key"), [
    ("f16_key1", "v_swmmac_f32_16x16x32_f16", 32, 1),
    ("iu8_key3", "v_swmmac_i32_16x16x32_iu8", 64, 3)])
def test_index_key_selects_the_index_set(kernel_name, name, wave, key):
    module = wb.compile(KEYED[wave], ARCH, _options(wave))
    kernel = Kernel(module, kernel_name, device=DEV)
    (op,) = [i for i in kernel.isa_for(ARCH) if i.mnemonic == name]
    assert f"index_key:{key}" in op.text
    ins = layouts.get(name, ARCH, wave_size=wave)
    got, want = run_case(kernel, ins, np.random.default_rng(key), index_key=key)
    assert (got == want).all()
