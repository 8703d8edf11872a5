"""Host time per call of a launch, for the GPU verification scripts (verify_cuda.py,
verify_guard_cuda.py, overhead_old_new.py)."""
from __future__ import annotations

import time

import numpy as np


def per_call(fn, calls: int, sync, trials: int = 7, warmup: int = 500) -> float:
    """Median over ``trials`` of the host time per call of ``fn``, in µs, after ``warmup``
    calls; ``sync`` runs after each timed loop, outside the timing."""
    for _ in range(warmup):
        fn()
    sync()
    ts = []
    for _ in range(trials):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        sync()
        ts.append((t1 - t0) / calls)
    return float(np.median(ts)) * 1e6
