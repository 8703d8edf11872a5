"""Float32 accuracy helpers shared by the prelude math tests (host C build and gfx942 emulator),
so that their ulp bounds measure the same thing."""

from __future__ import annotations

import numpy as np


def ulp_error(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|got - ref| in units of the float32 spacing at the (float64) reference value."""
    spacing = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - ref) / spacing


def signed_log_uniform(rng: np.random.Generator, lo: float, hi: float, n: int) -> np.ndarray:
    """``n`` values with magnitudes log-uniform in [lo, hi] and random signs."""
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n)) * rng.choice([-1.0, 1.0], n)
