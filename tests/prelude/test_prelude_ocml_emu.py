"""HIP library math from AMD's ocml (hipwb/math_ocml.h), executed on the gfx942 emulator.

What runs is ocml's own code as LLVM compiled it for gfx942 (linked with
-mlink-builtin-bitcode, workbench/devlib.py), so these checks cover ocml's algorithms, the
compiler and the emulator together. References: float functions against float64 numpy/math/
torch; double functions against 40-digit mpmath. The bounds are the largest errors measured here
with Debian's rocm-device-libs 5.2.3 ocml over these fixed samples, rounded up by half an ulp:
they document what hipwb delivers, and catch a broken link or a wrong instruction semantic
(which shows as thousands of ulp). As for the prelude's own math (test_prelude_math_emu.py),
the emulator rounds v_exp/v_log/v_rcp/v_rsq/v_sqrt correctly where hardware is within ~1 ulp.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from ulp import ulp_error

import workbench
from workbench.devlib import find_ocml
from workbench.runtime import Kernel

pytestmark = pytest.mark.skipif(find_ocml() is None,
                                reason="no ocml.bc installed (rocm-device-libs)")
SRC = Path(__file__).parents[1] / "kernels" / "prelude" / "ocml_math.hip"
F, D = np.float32, np.float64
N = 2048


@pytest.fixture(scope="module")
def mod() -> workbench.Module:
    return workbench.compile(SRC.read_text(), "gfx942")


def _run(mod, name: str, *xs: np.ndarray) -> np.ndarray:
    y = np.zeros_like(xs[0])
    Kernel(mod, name, "emulator")[(xs[0].size + 255) // 256, 256](*xs, y, xs[0].size)
    return y


def _u(lo, hi, n=N, seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, n)


def _vec(f):
    return lambda *a: np.array([f(*v) for v in zip(*(x.astype(D) for x in a))])


def _erfinv(x):
    import torch

    return torch.special.erfinv(torch.from_numpy(x.astype(D))).numpy()


# name, inputs (float64 samples, cast to float32), float64 reference, bound (ulp)
FLOAT_CASES = [
    ("m_log1pf", [(-0.99, 100)], np.log1p, 1.0),
    ("m_expm1f", [(-20, 20)], np.expm1, 1.5),
    ("m_erfinvf", [(-0.999, 0.999)], _erfinv, 3.5),
    ("m_erff", [(-4, 4)], _vec(math.erf), 1.5),
    ("m_erfcf", [(-4, 9)], _vec(math.erfc), 2.5),
    ("m_tgammaf", [(0.1, 30)], _vec(math.gamma), 8.0),
    ("m_lgammaf", [(0.1, 1000)], _vec(math.lgamma), 2.5),
    ("m_acosf", [(-1, 1)], np.arccos, 1.5),
    ("m_asinf", [(-1, 1)], np.arcsin, 2.5),
    ("m_atanf", [(-100, 100)], np.arctan, 2.0),
    ("m_sinhf", [(-80, 80)], np.sinh, 1.0),
    ("m_coshf", [(-80, 80)], np.cosh, 1.0),
    ("m_cbrtf", [(-1e6, 1e6)], np.cbrt, 1.0),
    ("m_atanhf", [(-0.999, 0.999)], np.arctanh, 1.0),
    ("m_atan2f", [(-10, 10), (-10, 10)], np.arctan2, 2.5),
    ("m_hypotf", [(-1e3, 1e3), (-1e3, 1e3)], np.hypot, 1.0),
    ("m_fmodf", [(-1e3, 1e3), (0.1, 10)], np.fmod, 0.0),  # exact by definition
]


@pytest.mark.parametrize("name,ranges,ref,bound", FLOAT_CASES, ids=[c[0] for c in FLOAT_CASES])
def test_float_library_function_within_its_ulp_bound(mod, name, ranges, ref, bound):
    xs = [_u(lo, hi, seed=i).astype(F) for i, (lo, hi) in enumerate(ranges)]
    got = _run(mod, name, *xs)
    err = ulp_error(got, np.asarray(ref(*(x.astype(D) for x in xs)), D))
    assert float(np.max(err)) <= bound, (name, float(np.max(err)))


DOUBLE_CASES = [("m_exp", "exp", (-700, 700)), ("m_log", "log", (1e-300, 1e300)),
                ("m_sin", "sin", (-1e5, 1e5)), ("m_cos", "cos", (-1e5, 1e5)),
                ("m_tanh", "tanh", (-20, 20)), ("m_log1p", "log1p", (-0.99, 1e10))]


@pytest.mark.parametrize("name,fn,rng", DOUBLE_CASES, ids=[c[0] for c in DOUBLE_CASES])
def test_double_library_function_within_one_ulp(mod, name, fn, rng):
    """Double precision, which the prelude had refused before ocml: within 1 ulp of 40 digits."""
    mpmath = pytest.importorskip("mpmath")
    x = _u(*rng, n=256)
    got = _run(mod, name, x)
    f = getattr(mpmath, fn)
    with mpmath.workdps(40):
        worst = max(abs(mpmath.mpf(float(g)) - f(mpmath.mpf(float(v))))
                    / mpmath.mpf(float(np.spacing(abs(float(f(mpmath.mpf(float(v))))))))
                    for g, v in zip(got, x))
    assert float(worst) <= 1.0, (name, float(worst))


def test_double_pow(mod):
    x, y = _u(0.01, 100, n=256, seed=3), _u(-20, 20, n=256, seed=4)
    got = _run(mod, "m_pow", x, y)
    np.testing.assert_allclose(got, np.power(x, y), rtol=4e-16)
