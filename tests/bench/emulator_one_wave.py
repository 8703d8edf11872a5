"""Single-wave emulation speed, old tree vs this one, side by side (companion of
tests/bench/emulator.py, which measures many-wave GEMMs).

Kernels of one wave (64 threads): a spin loop on a global flag — the runaway-loop case, scalar
and EXEC bookkeeping — and a loop of float math, LDS round trips and global loads. Prints
wave-instructions per second. With ``--baseline REV`` the same measurement also runs on the
hipwb tree of git revision REV (``git archive`` to a temporary folder, run in a subprocess),
alternating old and new ``--rounds`` times (best of each), and prints both with the ratio and
the machine's load average. Target: >= 4x the rate of 462dd26 (issue 17).

Measured 2026-11-24 on the shared 2-CPU machine, 3 rounds, load average 3.1:
spin loop 165,606 -> 880,218/s (5.3x), float/LDS/global loop 151,128 -> 696,175/s (4.6x).
What made it faster: the one-wave fast paths (``state.solo``: one wave, all 64 lanes in EXEC,
no observer) — dword global/flat/LDS accesses as one fancy index after one OR reduction
(``memops.solo_dwords`` / ``solo_lds``), VALU row stores without the EXEC copy, v_cmp masks and
branch conditions as Python ints, cached lane-mask rows — and one countdown for the budget and
the watchdog in the engine loop.

    .venv/bin/python tests/bench/emulator_one_wave.py [--baseline 462dd26] [--rounds 3]
"""
from __future__ import annotations

import argparse
import inspect
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

ONE_WAVE = r'''
extern "C" __global__ void spin(const int* flag, int* out) {
    int k = 0;
    while (*(volatile const int*)flag == 0) k++;
    out[threadIdx.x] = k;
}
extern "C" __global__ void mix(const float* x, float* y, int iters) {
    __shared__ float t[64];
    int i = threadIdx.x;
    float a = x[i], acc = 0.f;
    for (int k = 0; k < iters; ++k) {
        t[i] = a * (float)k;
        __syncthreads();
        acc += t[(i + k) & 63] * 0.5f + x[(i + k) & 63];
        if (acc > 1e6f) acc -= 1e6f;
        __syncthreads();
    }
    y[i] = acc;
}
'''


def measure() -> dict[str, float]:
    """Wave-instructions per second of each kernel on the workbench importable here (older
    trees too: only compile, Kernel and launch budgets are used)."""
    import workbench as wb
    from workbench.emu import BudgetExceeded
    from workbench.emu.engine.launch import execute
    from workbench.runtime.kernel import Kernel

    mod = wb.compile(ONE_WAVE, "gfx942")
    extra = {"timeout": None} if "timeout" in inspect.signature(execute).parameters else {}
    out = {}
    spin = Kernel(mod, "spin", device="emulator")
    o = np.zeros(64, np.int32)
    spin[1, 64](np.ones(1, np.int32), o)  # warm: decode and caches
    t0 = time.perf_counter()
    try:
        spin.launch(1, 64, np.zeros(1, np.int32), o, budget=60_000, **extra)
    except BudgetExceeded:
        pass
    out["spin loop (global flag)"] = 60_000 / (time.perf_counter() - t0)
    mix = Kernel(mod, "mix", device="emulator")
    x = np.linspace(0, 1, 64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    mix[1, 64](x, y, 4)
    t0 = time.perf_counter()
    res = mix.launch(1, 64, x, y, 1500, **extra)
    out["float/LDS/global loop"] = res.stats["wave_instructions"] / (time.perf_counter() - t0)
    return out


def compare(baseline: str, rounds: int) -> None:
    root = Path(__file__).resolve().parents[2]
    tmp = Path(tempfile.mkdtemp(prefix="hipwb-base-"))
    tar = subprocess.run(["git", "-C", str(root), "archive", baseline, "workbench"],
                         capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        tf.extractall(tmp, filter="data")
    me = [sys.executable, str(Path(__file__).resolve()), "--json"]
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for _ in range(rounds):
        for who, path in (("old", tmp), ("new", root)):
            env = {**os.environ, "PYTHONPATH": str(path)}
            p = subprocess.run(me, capture_output=True, text=True, env=env, check=True)
            runs[who].append(json.loads(p.stdout.strip().splitlines()[-1]))
    load = os.getloadavg()
    print(f"single-wave emulation: {baseline} (old) vs this tree (new), best of {rounds} "
          f"alternating runs each; load average {load[0]:.1f} on {os.cpu_count()} CPUs")
    for name in runs["old"][0]:
        old = max(r[name] for r in runs["old"])
        new = max(r[name] for r in runs["new"])
        print(f"  {name:26s} old {old:8,.0f}/s ({1e6 / old:5.1f} us/inst)   "
              f"new {new:8,.0f}/s ({1e6 / new:5.1f} us/inst)   new/old {new / old:4.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", help="git revision to compare with, e.g. 462dd26")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.baseline:
        compare(a.baseline, a.rounds)
    elif a.json:
        print(json.dumps(measure()))
    else:
        for name, rate in measure().items():
            print(f"{name:26s} {rate:9,.0f} wave-instructions/s")


if __name__ == "__main__":
    main()
