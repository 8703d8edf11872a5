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

3. on an NVIDIA GPU (cupy with CUDA; ``--gpu``), hipwb's launch against cupy's
   ``RawKernel.__call__`` of the same NVRTC build with the same arguments (cupy arrays, and the
   scalars, vector and struct packed as hipwb packs them), side by side: per round, raw / hipwb
   / raw back to back, the overhead being hipwb minus the mean of the two raw blocks, median of
   the rounds. Cases: a struct of pointers, a uint2, a bool, a size_t (each <= 5 us), a float
   that changes every call over 1000 calls (<= 5 us), and an int size that changes every call
   (<= 50 us amortised over 1000 calls, pre-flights included), the sizes falling, in random
   order and rising, on a grid that matches its buffers and on one rounded up past them.

    PYTHONPATH=$PWD .venv/bin/python tests/bench/launch_guard.py [--rounds 5]
    python tests/bench/launch_guard.py build DIR    (where LLVM runs: the GPU cases' modules,
                                                     with their ISA listings, pickled)
    python tests/bench/launch_guard.py --gpu [--carry DIR]   (on the GPU machine)
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


GPU_SRC = r"""
extern "C" __global__ void vector_add(const float* x, const float* y, float* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = x[i] + y[i];
}
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void with_uint2(float* y, uint2 v) {
  y[threadIdx.x] = (float)(v.x + v.y);
}
extern "C" __global__ void with_bool(float* y, bool on) { y[threadIdx.x] = on ? 1.0f : 2.0f; }
extern "C" __global__ void with_size(float* y, size_t n) {
  size_t i = threadIdx.x;
  if (i < n) y[i] = 3.0f;
}
struct Views { const float* x; float* y; int n; };
extern "C" __global__ void with_struct(Views v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v.n) v.y[i] = v.x[i];
}
"""
GPU_PICKLE = "launch_guard_bench.pkl"


def build(out: Path) -> Path:
    """The GPU cases' Module (gfx942 and gfx1100 builds, with their ISA listings), pickled for
    a GPU machine without LLVM."""
    import pickle

    mod = wb.compile(GPU_SRC, ["gfx942", "gfx1100"], filename="launch_guard_bench.hip")
    for co in mod.objects.values():
        assert co.elf and co.disassembly()
    out.mkdir(parents=True, exist_ok=True)
    (out / GPU_PICKLE).write_bytes(pickle.dumps(mod))
    return out / GPU_PICKLE


def _gpu_module(carry: Path):
    import pickle
    import tempfile

    try:
        mod = wb.compile(GPU_SRC, ["gfx942", "gfx1100"], filename="launch_guard_bench.hip")
        mod["gfx942"].disassembly()
        return mod
    except Exception:  # no LLVM here: the Module built elsewhere
        mod = pickle.loads((carry / GPU_PICKLE).read_bytes())
        tmp = Path(tempfile.mkdtemp(prefix="hipwb-bench-"))
        for arch, co in mod.objects.items():
            (tmp / f"{arch}.hsaco").write_bytes(co.elf)
            co.path = tmp / f"{arch}.hsaco"
        return mod


def _side_by_side(ours, raw, sync, calls: int, rounds: int) -> tuple[float, float]:
    """(median over rounds of hipwb minus the mean of the raw blocks around it, raw median),
    in us per call (one block of ``calls`` each: tests/gpu/hosttime.py's ``per_call``)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "gpu"))
    from hosttime import per_call

    def block(fn) -> float:
        return per_call(fn, calls, sync, trials=1, warmup=0)

    for fn in (raw, ours):
        per_call(fn, 200, sync, trials=1, warmup=0)  # warm-up, not counted
    d, raws = [], []
    for _ in range(rounds):
        r1, o, r2 = block(raw), block(ours), block(raw)
        d.append(o - (r1 + r2) / 2)
        raws.append((r1 + r2) / 2)
    return float(np.median(d)), float(np.median(raws))


def gpu(carry: Path, rounds: int) -> int:
    """Part 3: hipwb against raw cupy on an NVIDIA GPU; returns 1 if a target is missed."""
    import dataclasses
    import random

    import cupy

    from workbench.runtime import Kernel
    from workbench.runtime.cuda import nvrtc_options, nvrtc_source

    mod = _gpu_module(carry)
    dev = wb.set_device("cuda")
    sync = cupy.cuda.runtime.deviceSynchronize
    src, opts = nvrtc_source(mod), nvrtc_options(mod)[0]
    raw = {n: cupy.RawKernel(src, n, options=opts) for n in (
        "vector_add", "axpy", "with_uint2", "with_bool", "with_size", "with_struct")}
    m = 256
    x, y = cupy.arange(m, dtype=cupy.float32), cupy.zeros(m, cupy.float32)

    def packed(data: bytes) -> np.ndarray:  # a by-value vector or struct, as hipwb passes it
        return np.frombuffer(data, dtype=f"V{len(data)}").copy()

    @dataclasses.dataclass
    class Views:  # by hand: the mirror wb.struct_type would make (it asks clang)
        x: "const float*"  # noqa: F722
        y: "float*"  # noqa: F722
        n: int

    views = Views(x=x, y=y, n=m)
    views_raw = packed(x.data.ptr.to_bytes(8, "little") + y.data.ptr.to_bytes(8, "little")
                       + m.to_bytes(4, "little") + bytes(4))
    k = {n: getattr(mod, n) for n in raw}
    print(f"== on {dev.name}: hipwb kernel[grid, block](...) against cupy RawKernel.__call__ "
          f"with the same arguments, guard on ==")
    worst, failed = {}, False
    fixed = {
        "struct of pointers": (lambda: k["with_struct"][1, 256](views),
                               lambda: raw["with_struct"]((1,), (256,), (views_raw,))),
        "uint2": (lambda: k["with_uint2"][1, 256](y, (1, 2)),
                  lambda: raw["with_uint2"]((1,), (256,), (y, packed(
                      np.array([1, 2], np.uint32).tobytes())))),
        "bool": (lambda: k["with_bool"][1, 256](y, True),
                 lambda: raw["with_bool"]((1,), (256,), (y, np.bool_(True)))),
        "size_t": (lambda: k["with_size"][1, 256](y, m),
                   lambda: raw["with_size"]((1,), (256,), (y, np.uint64(m)))),
    }
    for label, (ours, rk) in fixed.items():
        over, r = _side_by_side(ours, rk, sync, 2000, rounds)
        worst[label] = over
        print(f"RESULT {label:<40} +{over:6.2f} us per call (raw call {r:.2f} us)  target <= 5")
    floats = np.linspace(0.5, 2.0, 1000)
    it_f = iter(np.tile(floats, 10_000).tolist())
    it_r = iter(np.tile(floats.astype(np.float32), 10_000))
    over, r = _side_by_side(lambda: k["axpy"][1, 256](x, y, next(it_f), m),
                            lambda: raw["axpy"]((1,), (256,), (x, y, next(it_r), np.int32(m))),
                            sync, 1000, rounds)
    worst["float changing every call"] = over
    print(f"RESULT {'float changing every call (1000)':<40} +{over:6.2f} us per call "
          f"(raw call {r:.2f} us)  target <= 5")
    failed |= any(v > 5 for v in worst.values())
    big = 1 << 20
    rng = random.Random(1)
    for buf, grid in ((big, big // 256), (big - 100, (big - 100 + 255) // 256)):
        xb, yb, ob = (cupy.ones(buf, cupy.float32) for _ in range(3))
        for order in ("falling", "random", "rising"):
            sizes = list(range(buf - 1000, buf))
            sizes = (sizes[::-1] if order == "falling" else sizes if order == "rising"
                     else rng.sample(sizes, len(sizes)))
            bufs = (xb, yb, ob)
            for start in ("cold", "warm"):
                # cold: the kernel's first launch is the first size (its ISA read, its
                # pre-flight); warm: it was launched once before, with a smaller size
                kern = Kernel(mod, "vector_add", device=dev)  # no verdicts yet
                if start == "warm":
                    kern[grid, 256](*bufs, buf // 2)
                    sync()
                t_raw = _timed(lambda s, g=grid, b=bufs, r=raw["vector_add"]: r(
                    (g,), (256,), (*b, np.int32(s))), sizes, sync)
                t_ours = _timed(lambda s, g=grid, b=bufs, kk=kern: kk[g, 256](*b, s), sizes,
                                sync)
                over = t_ours - t_raw
                failed |= over > 50
                print(f"RESULT int size, every call new, {order:<7} {start} (buffers {buf}, "
                      f"grid {grid}x256): +{over:8.1f} us per call amortised over "
                      f"{len(sizes)} calls, pre-flights included  target <= 50  "
                      f"(last verdict: {kern.last_guard})")
    return 1 if failed else 0


def _timed(fn, sizes: list, sync) -> float:
    """Host time per call of ``fn(size)`` over ``sizes``, in us (sync after)."""
    import time

    t0 = time.perf_counter()
    for s in sizes:
        fn(s)
    t1 = time.perf_counter()
    sync()
    return (t1 - t0) / len(sizes) * 1e6


def main() -> int:
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "build":
        print(build(Path(sys.argv[2])))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--gpu", action="store_true", help="part 3 only, on an NVIDIA GPU")
    ap.add_argument("--carry", default=str(ROOT / ".gpu_carry"))
    a = ap.parse_args()
    if a.gpu:
        return gpu(Path(a.carry), max(7, a.rounds))
    print(f"load average {os.getloadavg()[0]:.1f}; budget {guard.BUDGET} wave-instructions, "
          f"timeout {guard.TIMEOUT} s")
    preflights(a.rounds)
    fast_path(max(5, a.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
