"""The argument-flow analysis (workbench/argument_flow.py) on kernels of our own, compiled by
the real clang for CDNA and RDNA: which scalar arguments can move an access or a branch. For
each kernel the truth is known by construction; a scalar found irrelevant is also checked on
the emulator: other values of it run exactly the same instructions."""
from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.argument_flow import argument_flow

SRC = r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void strided(float* y, float a, int stride) {
  y[threadIdx.x * stride] = a;
}
extern "C" __global__ void branch_on_float(float* y, float a, int n) {
  if (a > 0.5f) y[threadIdx.x] = a;
}
extern "C" __global__ void loop_count(float* y, float a, int k) {
  float s = 0.0f;
  for (int j = 0; j < k; ++j) s += a * j;
  y[threadIdx.x] = s;
}
extern "C" __global__ void read_back(float* y, int* idx, float a, int v) {
  // v is stored, then read back as an index by a later wave: memory carries it
  idx[threadIdx.x] = v;
  y[idx[(threadIdx.x + 1) & 63]] = a;
}
extern "C" __global__ void lds_index(float* y, float a, int sh) {
  __shared__ float s[256];
  s[threadIdx.x] = a;
  __syncthreads();
  y[threadIdx.x] = s[(threadIdx.x + sh) & 255];
}
extern "C" __global__ void m0_from_arg(float* y, int m) {
  unsigned r;
  asm volatile("s_mov_b32 m0, %1\n\ts_nop 0\n\ts_mov_b32 %0, m0" : "=s"(r) : "s"(m));
  y[threadIdx.x] = (float)r;
}
struct P { float* y; float a; int n; };
extern "C" __global__ void fields(P p) {
  int i = threadIdx.x;
  if (i < p.n) p.y[i] = p.a;
}
'''

# (kernel, argument name -> relevant?), the truth by construction
TRUTH = {
    "axpy": {"a": False, "n": True},
    "strided": {"a": False, "stride": True},
    "branch_on_float": {"a": True, "n": False},
    "loop_count": {"a": False, "k": True},
    "read_back": {"a": True, "v": True},  # a is stored: y may alias idx, read back
    "lds_index": {"sh": True},
    "m0_from_arg": {"m": True},
}
ARCHS = ["gfx942", "gfx950", "gfx1100", "gfx1201"]


@pytest.fixture(scope="module")
def modules():
    return {a: wb.compile(SRC, a) for a in ARCHS}


def _flow(mod, arch, name):
    k = mod[name]
    return k.info(arch), argument_flow(k.info(arch), k.isa_for(arch))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", sorted(TRUTH))
def test_relevance_matches_the_kernels_construction(modules, arch, name):
    info, flow = _flow(modules[arch], arch, name)
    assert not flow.all_relevant, flow.why
    for a in info.args:
        if a.name in TRUTH[name]:
            assert flow.relevant(a.offset, a.size) == TRUTH[name][a.name], (arch, name, a.name)
        if a.is_pointer:
            assert flow.relevant(a.offset, a.size), (arch, name, a.name)  # they address


@pytest.mark.parametrize("arch", ARCHS)
def test_struct_fields_are_judged_byte_by_byte(modules, arch):
    info, flow = _flow(modules[arch], arch, "fields")
    p = info.args[0]  # {float* y @0, float a @8, int n @12}
    assert flow.relevant(p.offset, 8) and flow.relevant(p.offset + 12, 4)
    assert not flow.relevant(p.offset + 8, 4)


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_an_irrelevant_scalar_runs_the_same_instructions_for_any_value(modules, arch):
    """On the emulator: other values of a scalar found irrelevant execute exactly as many
    wave-instructions and touch the same addresses (no fault with a tight buffer)."""
    k = modules[arch].axpy.on(f"emulator:{arch}")
    x = np.arange(100, dtype=np.float32)
    counts = set()
    for a in (0.0, -3.5, 1e30, float("nan")):
        y = np.zeros(100, np.float32)
        counts.add(k[2, 64](x, y, a, 100).stats["wave_instructions"])
    assert len(counts) == 1
    ks = modules[arch].loop_count.on(f"emulator:{arch}")
    runs = {ks[1, 64](np.zeros(64, np.float32), 2.0, kk).stats["wave_instructions"]
            for kk in (1, 7)}
    assert len(runs) == 2  # k is relevant, and indeed changes what runs


def test_what_the_analysis_cannot_place_makes_everything_relevant(modules):
    src = r'''
    __device__ __noinline__ float twice(float v) { return 2 * v; }
    extern "C" __global__ void calls(float* y, float a) { y[threadIdx.x] = twice(a); }
    '''
    m = wb.compile(src, "gfx942")
    info, flow = _flow(m, "gfx942", "calls")
    if m.calls.isa_for("gfx942").callees:
        assert flow.all_relevant and "calls functions" in flow.why
        assert flow.relevant(info.args[1].offset, 4)
