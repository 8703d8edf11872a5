"""Float atomic min/max (LDS ds_min_f32 / ds_max_f64, global_atomic_max_f64 on gfx9,
global_atomic_min_f32 on gfx11, and GFX12's *_min_num_* / *_max_num_*) on the emulator against
a reference written from the ISA pseudocode, for every (memory, data) pair of NaN, +-inf, +-0 and
ordinary values, through __hip_atomic_fetch_min/max on gfx942, gfx950, gfx1100 and gfx1201 (each
case checks that clang emitted the native instruction). Why: the emulator used numpy's fmin/fmax,
whose choice between +0 and -0 depends on the dtype (np.fmin(+0.0, -0.0) is +0 for float64 and
-0 for float32 scalars), where GFX9-GFX11 keep the memory value on a tie and GFX12 orders -0 < +0.

Sources of the reference (quoted in workbench/emu/semantics/memory/memops.py): GFX9-GFX11 -- CDNA3
ISA BUFFER_ATOMIC_MIN_F64, RDNA3 ISA DS_MIN_F64 / DS_MIN_F32: "MEM[ADDR].f64 = src < tmp ? src :
tmp" (a tie or a NaN src keeps memory); a NaN in memory takes src as LLVM models these ops
(atomicrmw fmin = llvm.minnum, "return the other operand if one operand is nan", LLVM PR
#97411). GFX12 -- RDNA4 ISA DS_MIN_NUM_F32 / GLOBAL_ATOMIC_MIN_NUM_F32: IEEE minimumNumber,
"NOTE: -0<+0 is TRUE in this comparison". Only quiet NaNs are used."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import workbench as wb
from workbench.toolchain import find_toolchain

NAN = float("nan")
VALUES = [NAN, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 3.0, 0.5]
PAIRS = list(itertools.product(VALUES, repeat=2))  # (memory value, data value)
N = 128


def _neg(x: float) -> bool:
    return math.copysign(1, x) < 0


def gfx9_11(op: str, tmp: float, src: float) -> float:
    """GFX9-GFX11: "src < tmp ? src : tmp" (max: ">"); NaN in memory -> src (LLVM's minnum)."""
    if math.isnan(tmp):
        return src
    take = src < tmp if op == "min" else src > tmp
    return src if take else tmp


def gfx12(op: str, tmp: float, src: float) -> float:
    """RDNA4 ISA *_MIN_NUM_* / *_MAX_NUM_*: NaN -> the other; -0 < +0."""
    if math.isnan(src):
        return tmp
    if math.isnan(tmp):
        return src
    if op == "min":
        take = src < tmp or (src == 0 and tmp == 0 and _neg(src) and not _neg(tmp))
    else:
        take = src > tmp or (src == 0 and tmp == 0 and not _neg(src) and _neg(tmp))
    return src if take else tmp


LDS_SRC = r"""
extern "C" __global__ void k(T* mem, const T* v, T* ret) {
  __shared__ T s[128];
  unsigned i = threadIdx.x;
  s[i] = mem[i];
  __syncthreads();
  ret[i] = __hip_atomic_fetch_@OP@(&s[i], v[i], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  mem[i] = s[i];
}
"""
GLOBAL_SRC = r"""
extern "C" __global__ void k(T* mem, const T* v, T* ret) {
  unsigned i = threadIdx.x;
  ret[i] = __hip_atomic_fetch_@OP@(&mem[i], v[i], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
"""
ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")
# (arch, space, op, type, the instruction clang emits for it)
CASES = [(a, "lds", "min", "f32", "ds_min_num_rtn_f32" if a == "gfx1201" else "ds_min_rtn_f32")
         for a in ARCHS]
CASES += [(a, "lds", "max", "f64", "ds_max_num_rtn_f64" if a == "gfx1201" else "ds_max_rtn_f64")
          for a in ARCHS]
CASES += [(a, "global", "max", "f64", "global_atomic_max_f64") for a in ("gfx942", "gfx950")]
CASES += [("gfx1100", "global", "min", "f32", "global_atomic_min_f32"),
          ("gfx1201", "global", "min", "f32", "global_atomic_min_num_f32")]


def _bits(x, dt) -> int:
    return int(np.array(x, dt).view(np.uint64 if dt == np.float64 else np.uint32))


@pytest.mark.parametrize("arch,space,op,ty,inst", CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in CASES])
def test_float_atomic_min_max_follow_isa_pseudocode(arch, space, op, ty, inst):
    dt = np.float32 if ty == "f32" else np.float64
    src = (LDS_SRC if space == "lds" else GLOBAL_SRC).replace("@OP@", op)
    src = src.replace("T*", "float*" if ty == "f32" else "double*")
    src = src.replace("T s[", "float s[" if ty == "f32" else "double s[")
    mod = wb.compile(src, arch)
    if inst not in mod[arch].disassembly():
        # LLVM 19 lowers some of these atomics to a compare-and-swap loop (its v_min/v_max are
        # covered by test_emu_minmax_nan); from LLVM 20 on the native instruction must appear
        if find_toolchain().clang_major < 20:
            pytest.skip(f"LLVM {find_toolchain().clang_major} does not emit {inst}")
        raise AssertionError(f"clang did not emit {inst}")
    mem, v = np.zeros(N, dt), np.zeros(N, dt)
    mem[:len(PAIRS)] = [p[0] for p in PAIRS]
    v[:len(PAIRS)] = [p[1] for p in PAIRS]
    before = mem.copy()
    ret = np.zeros(N, dt)
    mod.k.on(f"emulator:{arch}")[1, N](mem, v, ret)
    ref = gfx12 if arch == "gfx1201" else gfx9_11
    bad = []
    for i, (tmp, s) in enumerate(PAIRS):
        want = ref(op, tmp, s)
        ok = math.isnan(mem[i]) if math.isnan(want) else _bits(mem[i], dt) == _bits(want, dt)
        if not ok:
            bad.append(((tmp, s), float(mem[i]), want))
    assert not bad, f"{len(bad)} of {len(PAIRS)} differ, e.g. {bad[:6]}"
    # the returned value is the memory value before the op, bit for bit
    assert (ret.view(np.uint8) == before.view(np.uint8)).all()


def test_reference_cases_from_the_sources():
    """GFX9-GFX11 keep memory on a +-0 tie and on a NaN operand; GFX12 orders -0 < +0."""
    assert not _neg(gfx9_11("min", 0.0, -0.0)) and _neg(gfx9_11("max", -0.0, 0.0))
    assert gfx9_11("min", 2.0, NAN) == 2.0 and gfx9_11("min", NAN, 2.0) == 2.0
    assert _neg(gfx12("min", 0.0, -0.0)) and not _neg(gfx12("max", -0.0, 0.0))
    assert gfx12("max", NAN, -1.0) == -1.0 and math.isnan(gfx12("min", NAN, NAN))
