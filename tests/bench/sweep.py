"""wb.sweep's machinery, measured side by side in one run, and notebook 03's full tile sweep.

    python tests/bench/sweep.py            # the 64-point comparison (about 5 minutes)
    python tests/bench/sweep.py --full     # also notebook 03's whole tile space, best rows

The 64 points are variants of the MI355X fp8 GEMM tile (kernels/gemm/sweep_tiled.hip: tile BM x
BN, WM x WN waves, KT K tiles per LDS stage, double buffering), each checked exactly on the
emulator at 256 x 256 x 512 and modelled at 4096^3: emulation plus model, 0.5-2 s a point.
Compiles are done first (and cached), so every run below measures the same work:

- a plain loop calling the public API (compile, launch, compare, timing), run as one task on
  a fresh 1-worker LocalCluster, so it runs in the same kind of process as the sweep's points
  (a process that has emulated before runs the next kernels faster: in-process caches), and,
  for reference, in this process;
- ``wb.sweep`` on a fresh LocalCluster of 1 worker, then of 2 (each cluster started and its
  workers' imports done before the clock starts; rows not cached).

It prints the wall times, the 2-worker speed-up (goal >= 1.7x on 2 cores at low load) and the
sweep's per-point overhead against the loop (goal <= 5 %), with the load average around the run.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import torch

import workbench as wb

GEMM = Path(__file__).resolve().parents[2] / "kernels" / "gemm"
SOURCE = (GEMM / "sweep_tiled.hip").read_text()
CHECK = (256, 256, 512)
REAL = (4096, 4096, 4096)
BK = 128                               # fp8 values per 128-byte K tile (gemm_common.h)


def lds_bytes(p):
    return (2 if p["SWEEP_DBUF"] else 1) * p["SWEEP_KT"] * (p["SWEEP_BM"] + p["SWEEP_BN"]) * 128


# Notebook 03's tile space and constraint ("Sweeping the tile"): 108 points, 96 kept.
WAVES = [(1, 1), (2, 2), (2, 4)]
SPACE = [dict(SWEEP_BM=bm, SWEEP_BN=bn, SWEEP_WM=wm, SWEEP_WN=wn, SWEEP_KT=kt, SWEEP_DBUF=db)
         for bm in (64, 128, 256) for bn in (64, 128, 256) for wm, wn in WAVES
         for kt in (1, 2) for db in (0, 1)]


def constraint(p):
    """gemm_tiled.h's static_asserts (tile divisible by the waves' 16-row MFMA tiles, whole
    16-byte chunks per thread) and at most 256 accumulators per lane."""
    bm, bn, wm, wn = p["SWEEP_BM"], p["SWEEP_BN"], p["SWEEP_WM"], p["SWEEP_WN"]
    nt = 64 * wm * wn
    return (bm % (16 * wm) == 0 and bn % (16 * wn) == 0 and (bm * 8) % nt == 0
            and (bn * 8) % nt == 0 and (bm // wm) * (bn // wn) // 64 <= 256)


def buildable(p):
    """The constraint, and gfx950's 160 KiB of LDS (the points that compile)."""
    return constraint(p) and lds_bytes(p) <= 160 * 1024


def launch(shape, p):
    m, n, _ = shape
    return (-(-m // p["SWEEP_BM"]) * -(-n // p["SWEEP_BN"]),), (64 * p["SWEEP_WM"] * p["SWEEP_WN"],)


def inputs(shape, p):
    m, n, k = shape
    if (m, n, k) != CHECK:           # the modelled shape: only sizes matter
        return (np.zeros((m, k), np.uint8), np.zeros((n, k), np.uint8),
                np.zeros((m, n), np.float32), m, n, k)
    g = torch.Generator().manual_seed(7)
    a = torch.randint(-4, 5, (m, k), generator=g).float()
    b = torch.randint(-4, 5, (n, k), generator=g).float()
    return (a.to(torch.float8_e4m3fn).view(torch.uint8).numpy(),
            b.to(torch.float8_e4m3fn).view(torch.uint8).numpy(),
            np.full((m, n), np.nan, np.float32), m, n, k)


def reference(shape, p, args):
    a, b = (torch.from_numpy(x).view(torch.float8_e4m3fn).float() for x in args[:2])
    return (a @ b.T).numpy()           # small integers: every sum is exact in fp32


def flops(shape, p):
    return 2.0 * shape[0] * shape[1] * shape[2]


def points(n=None, keep=buildable):
    from workbench.sweeps.space import points as expand

    pts, _ = expand(SPACE, keep)
    return pts[:n] if n else pts


def compile_point(p):
    return wb.compile(SOURCE, "gfx950", defines=dict(p, GEMM_FP8=1), include_dirs=[GEMM],
                      filename="sweep_tiled.hip")


def plain_loop(pts):
    """The same work as a sweep, as a user would write it without one."""
    for p in pts:
        k = compile_point(p)["gemm_sweep"].on("emulator:gfx950")
        args = inputs(CHECK, p)
        k[launch(CHECK, p)](*args)
        assert np.array_equal(args[2], reference(CHECK, p, args))
        k.timing[launch(REAL, p)](*inputs(REAL, p), chip="mi355x", flops=flops(REAL, p))


def run_sweep(pts, workers):
    return wb.sweep(SOURCE, pts, launch=launch, inputs=inputs, reference=reference,
                    check_shape=CHECK, shapes=[REAL], flops=flops, targets="mi355x",
                    defines={"GEMM_FP8": 1}, include_dirs=[GEMM], filename="sweep_tiled.hip",
                    workers=workers, cache=False, progress=False)


def _warm():
    # the imports a worker's first task would otherwise pay (this process paid them already)
    import torch  # noqa: F401

    import workbench  # noqa: F401
    import workbench.emu.engine.launch  # noqa: F401
    import workbench.runtime.emulator  # noqa: F401
    import workbench.runtime.kernel  # noqa: F401
    import workbench.timing.model  # noqa: F401
    return os.getpid()


def started(workers):
    from workbench.sweeps.executor import local_client

    client = local_client(workers)
    client.wait_for_workers(workers)
    client.run(_warm)
    return client


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=64)
    ap.add_argument("--full", action="store_true", help="also run notebook 03's whole space")
    args = ap.parse_args()
    from workbench.sweeps.executor import close_local_clusters

    pts = points(args.points)
    print(f"{len(pts)} points of the {len(points())} that compile in notebook 03's tile space; "
          f"load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    t = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(compile_point, pts))
    print(f"compiles (cached for the runs below): {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    plain_loop(pts)
    here = time.perf_counter() - t
    client = started(1)
    t = time.perf_counter()
    client.submit(plain_loop, pts, pure=False).result()
    loop = time.perf_counter() - t
    close_local_clusters()
    walls = {}
    for n in (1, 2):
        started(n)
        t = time.perf_counter()
        res = run_sweep(pts, n)
        walls[n] = time.perf_counter() - t
        assert (res["status"] == "ok").all(), res[res["status"] != "ok"][["status", "error"]]
        close_local_clusters()
    per = loop / len(pts)
    print(f"\n{'run':42s} {'wall s':>8s} {'s/point':>8s}")
    print(f"{'plain loop, this process':42s} {here:8.1f} {here / len(pts):8.2f}")
    print(f"{'plain loop, one task on a 1-worker cluster':42s} {loop:8.1f} {per:8.2f}")
    for n, w in walls.items():
        label = f"wb.sweep, LocalCluster of {n} worker{'s' if n > 1 else ''}"
        print(f"{label:42s} {w:8.1f} {w / len(pts):8.2f}")
    print(f"\nspeed-up 2 workers / 1 worker: {walls[1] / walls[2]:.2f}x (goal >= 1.7x)")
    over = (walls[1] - loop) / loop
    print(f"sweep overhead per point against the loop (both on a fresh worker): "
          f"{100 * over:+.1f} % ({(walls[1] - loop) / len(pts) * 1e3:+.0f} ms a point; "
          f"goal <= 5 %)")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")

    if args.full:
        allp = points(keep=constraint)     # as the notebook: LDS overflows are error rows
        t = time.perf_counter()
        res = wb.sweep(SOURCE, allp, launch=launch, inputs=inputs, reference=reference,
                       check_shape=CHECK, shapes=[REAL], flops=flops, targets="mi355x",
                       defines={"GEMM_FP8": 1}, include_dirs=[GEMM], filename="sweep_tiled.hip")
        print(f"\nnotebook 03's full tile sweep: {len(allp)} points "
              f"({(res['status'] == 'ok').sum()} ok) in "
              f"{time.perf_counter() - t:.0f} s ({res.attrs['ran']}); the best (modelled):")
        cols = list(SPACE[0]) + ["registers", "lds_bytes", "waves_per_simd", "modelled_tflops",
                              "modelled_limiter"]
        print(res.best(n=8)[cols].to_string(index=False))
        close_local_clusters()


if __name__ == "__main__":
    main()
