"""GFX12's fused IEEE 754-2019 min/max pairs on the emulator: v_maximumminimum_{f32,f16}
(minimum(maximum(S0, S1), S2)) and v_minimummaximum_{f32,f16} (maximum(minimum(S0, S1), S2)),
what clang 22 emits on gfx1201 for nested __builtin_elementwise_minimum/maximum. Every triple
of NaN, ±inf, ±0 and ordinary values, per lane, against a reference written from IEEE
754-2019 minimum()/maximum() (NaN if either operand is NaN; -0 < +0), with lanes whose EXEC
bit is off left untouched. These instructions exist on GFX12 only (llvm-mc -mcpu=gfx950 /
gfx1100 reject them), so gfx1201 wave32 and wave64 are the targets.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from ieee754_ref import VALUES, maximum, minimum

import workbench as wb

TRIPLES = np.array(list(itertools.product(VALUES, repeat=3)))  # 729 x 3
SRC = """
#define K(name, T, inner, outer)                                          \\
  extern "C" __global__ void name(const T* x, const int* on, T* o) {       \\
    int t = blockIdx.x * blockDim.x + threadIdx.x;                         \\
    if (on[t]) o[t] = __builtin_elementwise_##outer(                       \\
        __builtin_elementwise_##inner(x[3 * t], x[3 * t + 1]), x[3 * t + 2]); }
K(maxmin32, float, maximum, minimum)
K(minmax32, float, minimum, maximum)
K(maxmin16, _Float16, maximum, minimum)
K(minmax16, _Float16, minimum, maximum)
"""


CASES = {  # kernel -> (mnemonic clang emits, dtype, reference)
    "maxmin32": ("v_maximumminimum_f32", np.float32, lambda a, b, c: minimum(maximum(a, b), c)),
    "minmax32": ("v_minimummaximum_f32", np.float32, lambda a, b, c: maximum(minimum(a, b), c)),
    "maxmin16": ("v_maximumminimum_f16", np.float16, lambda a, b, c: minimum(maximum(a, b), c)),
    "minmax16": ("v_minimummaximum_f16", np.float16, lambda a, b, c: maximum(minimum(a, b), c)),
}


@pytest.fixture(scope="module", params=[False, True], ids=["wave32", "wave64"])
def mod(request):
    try:
        return wb.compile(SRC, "gfx1201", ["-mwavefrontsize64"] if request.param else [])
    except wb.CompileError as e:  # clang 19 has no __builtin_elementwise_minimum/maximum
        if "undeclared identifier '__builtin_elementwise_" in str(e):
            pytest.skip(f"this clang lacks the IEEE minimum/maximum builtins: {e}".split("\n")[0])
        raise


@pytest.mark.parametrize("name", sorted(CASES))
def test_fused_ieee_minmax_per_lane(mod, name):
    mnem, dt, ref = CASES[name]
    kern = getattr(mod, name)
    assert any(i.text.startswith(mnem) for i in kern.isa_for("gfx1201")), mnem
    n = 768  # 729 triples, padded
    trip = np.resize(TRIPLES, (n, 3)).astype(dt)
    on = (np.arange(n) % 5 != 2).astype(np.int32)  # every fifth lane: EXEC off
    out = np.full(n, 7.0, dt)
    kern.on("emulator:gfx1201")[n // 64, 64](trip.reshape(-1), on, out)
    want = np.array([ref(*map(float, t)) for t in trip], dtype=dt)
    for i in range(n):
        g, w = out[i], want[i]
        if not on[i]:
            ok = g == 7.0
        elif np.isnan(w):
            ok = bool(np.isnan(g))
        else:
            ok = g == w and np.signbit(g) == np.signbit(w)
        assert ok, (f"{mnem} lane {i}: args {trip[i].tolist()}, EXEC {'on' if on[i] else 'off'}:"
                    f" got {g!r}, want {w!r}")
