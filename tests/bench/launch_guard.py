"""The launch guard's costs, printed side by side: its pre-flight (first launch of a signature)
and its per-launch check on the prebound fast path (every repeat).

Why: the guard runs before GPU launches (workbench/runtime/guard.py); its first-launch cost
should stay well under a second for tutorial kernels, and a repeat must add far less than the
5 us launch-overhead budget (issue 17; the GPU figure itself comes from
tests/gpu/verify_guard_cuda.py on an NVIDIA GPU).

1. pre-flight: each kernel launched on a stand-in ROCm device (no GPU here: it records the
   launch and runs nothing) whose code object is gfx942, so the guard emulates the real
   boundary workgroups; prints the verdict, the workgroups and the pre-flight's seconds next
   to a full emulator run of the same launch (where that is affordable);
2. fast path: one repeat's guard check (signature of 3 torch tensors + 1 int, dict lookup)
   against the bare plan call it wraps, in us per call (min over rounds).

    PYTHONPATH=$PWD .venv/bin/python tests/bench/launch_guard.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import time
import timeit
from pathlib import Path

import numpy as np

import workbench as wb
from workbench.runtime import guard
from workbench.runtime.args import BoundArg
from workbench.runtime.device import LaunchResult

ROOT = Path(__file__).resolve().parents[2]


class StandInGpu:
    """A ROCm-kind device that records launches and runs nothing (no GPU here)."""

    name, kind, arch = "stand-in rocm (gfx942)", "rocm", "gfx942"
    launch_options = ("stream",)

    def launch(self, kernel, info, grid, block, args, **kw):
        return LaunchResult(info.name, self.name, grid, block, 0.0)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def cases():
    """(label, module, kernel name, grid, block, args, full emulator run affordable)."""
    out = []
    src = (ROOT / "kernels/portable/vector_add.hip").read_text()
    va = wb.compile(src, "gfx942", filename="vector_add.hip")
    for n in (1 << 20, 1 << 24):
        x = np.ones(n, np.float32)
        out.append((f"vector_add n={n}", va, "vector_add", ((n + 255) // 256,), (256,),
                    (x, x, np.zeros(n, np.float32), n), n <= 1 << 20))
    gn = wb.compile((ROOT / "kernels/portable/gemm_naive.hip").read_text(), "gfx942",
                    filename="gemm_naive.hip")
    for m in (256, 1024):
        a = np.ones((m, m), np.float32)
        out.append((f"gemm_naive {m}^3", gn, "gemm_naive", ((m + 15) // 16, (m + 15) // 16),
                    (16, 16), (a, a, np.zeros((m, m), np.float32), m, m, m), m <= 256))
    G = _load("gemm_steps_guard_bench", ROOT / "kernels/gemm/steps.py")
    for key, (M, N, K) in ((4, (1024, 1024, 1024)), (9, (4096, 4096, 4096))):
        s = G.step(key)
        A, B, _, _ = G.inputs(M, N, K, "bf16", seed=1)
        grid, block = G.launch(s, M, N, K)
        mod = G.compile_step(s, "gfx942", "bf16")
        out.append((f"gemm step {key} {s['name']} {M}x{N}x{K}", mod, s["kernel"], grid, block,
                    (A, B, np.zeros((M, N), np.float32), M, N, K), False))
    sm = wb.compile((ROOT / "kernels/portable/softmax_row.hip").read_text(), "gfx942",
                    filename="softmax_row.hip")
    x = np.ones((4096, 1024), np.float32)
    out.append(("softmax_row 4096x1024", sm, "softmax_row", (4096,), (256,),
                (x, np.zeros_like(x), 4096, 1024), False))
    return out


def preflights(rounds: int) -> None:
    print(f"{'launch':46s} {'verdict':13s} {'wgs':>3s} {'pre-flight s':>12s} "
          f"{'full emu s':>10s}")
    dev = StandInGpu()
    for label, mod, name, grid, block, args, full in cases():
        times, v = [], None
        for _ in range(rounds):
            k = wb.Kernel(mod, name, device=dev)  # fresh verdicts: the pre-flight runs again
            t0 = time.perf_counter()
            try:
                k[grid, block](*args)
            except wb.LaunchError:
                pass
            times.append(time.perf_counter() - t0)
            v = k.last_guard
        emu = "-"
        if full:
            ke = wb.Kernel(mod, name, device="emulator")
            ke[grid, block](*args)  # decode once
            t0 = time.perf_counter()
            ke[grid, block](*args)
            emu = f"{time.perf_counter() - t0:.3f}"
        print(f"{label:46s} {v.status:13s} {len(v.workgroups):3d} {min(times):12.3f} "
              f"{emu:>10s}")
        if v.status != "checked":
            print(f"    {v.reason[:150]}")


def fast_path(rounds: int) -> None:
    import torch

    bound = [BoundArg(None, k, None) for k in ("buffer", "buffer", "buffer", "scalar")]
    t = torch.ones(256)
    argv = (t, t, t, 256)

    def plan(argv):
        return 1

    verdicts: dict = {}
    prefix = ("rocm", "gfx942", (1, 1, 1), (256, 1, 1), 0)
    wrapped = guard.guarded_plan(plan, verdicts, prefix, bound)
    verdicts[prefix][(1024, 1024, 1024, 256)] = guard.GuardVerdict("checked", (), None, "", 0)
    assert wrapped(argv) == 1
    n = 100_000
    bare = min(timeit.repeat(lambda: plan(argv), number=n, repeat=rounds)) / n * 1e6
    guarded = min(timeit.repeat(lambda: wrapped(argv), number=n, repeat=rounds)) / n * 1e6
    print(f"fast path per launch: bare plan call {bare:.3f} us, guarded {guarded:.3f} us, "
          f"guard adds {guarded - bare:.3f} us (3 torch tensors + 1 int)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; budget {guard.BUDGET} wave-instructions, "
          f"timeout {guard.TIMEOUT} s")
    preflights(a.rounds)
    fast_path(max(5, a.rounds))


if __name__ == "__main__":
    main()
