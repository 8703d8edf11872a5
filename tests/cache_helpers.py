"""Shared by the cache tests (test_cache_damage.py, test_cache_safety.py): a one-line kernel
whose factor names its cache entry, a launch that checks it, and a pickle that would create a
marker file if anything ever unpickled it."""
from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np

from workbench import compiler
from workbench.cache_files import CacheWarning
from workbench.runtime.kernel import Kernel

TWICE = """extern "C" __global__ void twice(const float* x, float* y) {
    y[threadIdx.x] = K * x[threadIdx.x];
}
"""


def twice(k: int) -> str:
    return TWICE.replace("K", f"{k}.0f")


def run_twice(mod, k: int) -> None:
    """Launch ``twice`` on the emulator and check y == k * x (the object really works)."""
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    Kernel(mod, "twice", device="emulator")[1, 64](x, y)
    np.testing.assert_array_equal(y, k * x)


def cache_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


class Bait:
    """Unpickling this creates ``marker``: proof that something was unpickled."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def bait(marker: Path) -> bytes:
    return pickle.dumps({"format": compiler.CACHE_FORMAT, "kernels": Bait(marker)})
