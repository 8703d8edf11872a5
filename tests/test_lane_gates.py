"""Lane gates (workbench/lane_gates.py): which integer arguments only decide which lanes run.

Real clang builds for CDNA3 (v_cmp + s_and_saveexec) and RDNA3/4 (s_mov exec + v_cmpx): the
size of ``if (i < n)`` is a gate in either direction and signedness; a size that also moves
an address, bounds a loop, selects a value that escapes the gate, feeds an else branch or a
ballot is not. Also the argument-flow fix this needed: GFX10+ ``v_cmpx`` writes EXEC from both
of its operands (before, ``n`` looked irrelevant on RDNA builds).
"""
from __future__ import annotations

import pytest

import workbench as wb
from workbench.argument_flow import argument_flow
from workbench.lane_gates import Gate, lane_gates

SRC = r"""
extern "C" __global__ void add(const float* x, const float* y, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}
extern "C" __global__ void early(const float* x, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = 2.0f * x[i];
}
extern "C" __global__ void swapped(float* o, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) o[i] = 1.0f;
}
extern "C" __global__ void lower(float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) o[i] = 1.0f;
}
extern "C" __global__ void escape(float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int idx = 1000000;
  if (i < n) idx = i;
  o[idx] = 1.0f;
}
extern "C" __global__ void elsey(float* o, float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = 1.0f; else p[0] = 2.0f;
}
extern "C" __global__ void addr(float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i + n] = 1.0f;
}
extern "C" __global__ void loop(float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0; for (int k = 0; k < n; ++k) a += k;
  o[i] = a;
}
extern "C" __global__ void ballot(int* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned long long b = __ballot(1);
    o[__popcll(b & ((1ull << (threadIdx.x & 63)) - 1))] = i;
  }
}
extern "C" __global__ void minus_one(float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) o[i] = 1.0f;
}
"""
ARCHS = ("gfx942", "gfx1100", "gfx1201")
UP = Gate(increasing=True, signed=True, bits=32)
GATES = {"add": UP, "early": UP, "swapped": Gate(True, False, 32),
         "lower": Gate(increasing=False, signed=True, bits=32)}
NOT = ("escape", "elsey", "addr", "loop", "ballot", "minus_one")


@pytest.fixture(scope="module")
def mod():
    return wb.compile(SRC, list(ARCHS))


def _gates(mod, arch, name):
    info = mod[arch].kernels[name]
    return {info.args[i].name: g for i, g in lane_gates(info, getattr(mod, name).isa_for(arch))
            .items()}


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", sorted(GATES))
def test_a_size_that_only_gates_lanes_is_a_gate(mod, arch, name):
    assert _gates(mod, arch, name) == {"n": GATES[name]}


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", NOT)
def test_a_size_that_does_more_is_not(mod, arch, name):
    """n + i as an address, a loop bound, a value selected under the gate and used after it,
    an else branch (the mask saved before the gate is read), a ballot, or n - 1 (not the
    argument as loaded) each keep n in the verdict's key."""
    assert _gates(mod, arch, name) == {}


def test_size_t_gate_on_cdna():
    src = ('extern "C" __global__ void sz(float* y, size_t n) {\n'
           "  size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = 3.0f;\n}\n")
    m = wb.compile(src, "gfx942")
    assert _gates(m, "gfx942", "sz") == {"n": Gate(True, False, 64)}


@pytest.mark.parametrize("arch", ARCHS)
def test_the_size_reaches_exec_on_every_target(mod, arch):
    """GFX10+ v_cmpx has no mask operand: EXEC takes both of its sources (the size too)."""
    info = mod[arch].kernels["add"]
    flow = argument_flow(info, mod.add.isa_for(arch))
    n = info.args[3]
    assert flow.relevant(n.offset, n.size)


def test_covers_by_direction_and_signedness():
    assert UP.covers(1000, 999) and UP.covers(1000, -5) and not UP.covers(1000, 1001)
    down = Gate(increasing=False, signed=True, bits=32)
    assert down.covers(10, 11) and not down.covers(10, 9)
    u = Gate(increasing=True, signed=False, bits=32)
    assert u.covers(100, 7) and not u.covers(100, -1)  # -1 is 0xffffffff unsigned
    assert UP.covers(-1, 0xFFFFFFFE)  # 0xfffffffe is -2 signed


def test_accepts_is_the_covered_range_of_given_values():
    """The fast path's one range test agrees with covers() over the parameter's range."""
    for g in (UP, Gate(False, True, 32), Gate(True, False, 32), Gate(False, False, 64)):
        lo_p = -(1 << (g.bits - 1)) if g.signed else 0
        hi_p = (1 << (g.bits - 1)) - 1 if g.signed else (1 << g.bits) - 1
        for c in (lo_p, -3, 0, 1000, hi_p):
            if not lo_p <= c <= hi_p:
                continue
            lo, hi = g.accepts(c)
            for v in (lo_p, -1, 0, 999, 1000, 1001, hi_p):
                if lo_p <= v <= hi_p:
                    assert (lo <= v <= hi) == g.covers(c, v), (g, c, v)
            assert g.accepts(c, exact=True) == (g.canonical(c), g.canonical(c))
