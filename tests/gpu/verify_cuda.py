"""Verify hipwb's GPU path on an NVIDIA GPU (CudaDevice) in one run, and print a summary.

1. correctness: the portable kernels (vector add, naive GEMM, row softmax with BLOCK 256 and,
   through a -D define, 1024) run through ``Kernel[grid, block](...)`` on torch tensors and cupy
   arrays and are compared with torch; an AMD-only kernel is refused before NVRTC.
2. timing agreement: ``wb.bench`` against ``cupyx.profiler.benchmark`` (no cache flush on
   either side) and against ``triton.testing.do_bench`` (both overwrite 256 MB before every
   launch: do_bench zeroes its 256 MB buffer, wb.bench memsets max(256 MB, 2 x L2)); all time
   the same cupy Function with the same arguments, medians compared; target within 3 %.
3. launch overhead: host time per call of ``kernel[grid, block](...)`` against the raw cupy
   ``RawKernel`` call of the same NVRTC build, many calls, sync outside the loop; target <= 5 µs.

Usage: python tests/gpu/verify_cuda.py [--carry .gpu_carry] [--out DIR] [--quick]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import sys
import time
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import modules  # noqa: E402  (tests/gpu/modules.py)
from hosttime import per_call  # noqa: E402  (tests/gpu/hosttime.py)

import workbench as wb  # noqa: E402
from workbench.runtime import Kernel  # noqa: E402
from workbench.runtime.args import bind_args, normalize_dims  # noqa: E402
from workbench.runtime.cuda import AmdOnlyError, CudaDevice, nvrtc_options, nvrtc_source  # noqa: E402

CHECKS: list[tuple[str, bool, str]] = []
LINES: list[str] = []


def say(line: str = "") -> None:
    LINES.append(line)
    print(line, flush=True)


def check(name: str, ok: bool, detail: str) -> None:
    CHECKS.append((name, bool(ok), detail))
    say(f"[{'PASS' if ok else 'FAIL'}] {name}: {detail}")


# ------------------------------------------------------------------------------- struct args

def struct_args(mods, dev) -> None:
    """A by-value struct holding device pointers (HipKittens' globals shape) on the GPU, with
    cupy arrays and with host arrays (copied in and back), against numpy."""
    from dataclasses import dataclass

    import cupy

    @dataclass
    class SaxpyArgs:
        x: "const float*"  # noqa: F722
        y: "float*"  # noqa: F722
        n: "int"  # noqa: UP037 (C types, as the struct declares them)
        alpha: "float"  # noqa: UP037

    mod = mods["struct_args"]
    n = 100_003
    x = cupy.arange(n, dtype=cupy.float32)
    y = cupy.ones(n, dtype=cupy.float32)
    Kernel(mod, "saxpy_struct", device=dev)[(n + 255) // 256, 256](SaxpyArgs(x, y, n, 2.0))
    cupy.cuda.Device().synchronize()
    check("struct of cupy pointers (saxpy_struct)", bool((y == 1 + 2 * x).all()),
          f"n={n}, y = 1 + 2x exactly")
    hx = np.arange(n, dtype=np.float32)
    hy = np.ones(n, dtype=np.float32)
    Kernel(mod, "saxpy_struct", device=dev)[(n + 255) // 256, 256](SaxpyArgs(hx, hy, n, 0.5))
    check("struct of host pointers (copied in and back)", bool((hy == 1 + 0.5 * hx).all()),
          f"n={n}, y = 1 + x/2 exactly")


# ------------------------------------------------------------------------------- correctness

def correctness(mods, dev) -> None:
    import cupy
    import torch

    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    k = Kernel(mods["vector_add"], "vector_add").on(dev)
    n = 10_000_019
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    t0 = time.perf_counter()
    k[(n + 255) // 256, 256](x, y, out, n)
    torch.cuda.synchronize()
    first = time.perf_counter() - t0
    err = (out - (x + y)).abs().max().item()
    check("vector_add (torch tensors, n=10000019)", err == 0.0,
          f"max |err| = {err:g} vs torch x + y; first launch incl. NVRTC {first * 1e3:.0f} ms")

    xh = np.random.default_rng(1).standard_normal(1000).astype(np.float32)
    oh = np.zeros_like(xh)
    res = k[4, 256](xh, xh, oh, 1000)
    check("vector_add (numpy host arrays, staged)", np.array_equal(oh, 2 * xh)
          and res.stats == {"staged": 3}, f"copied back exactly; stats {res.stats}")

    g = Kernel(mods["gemm_naive"], "gemm_naive").on(dev)
    m, nn, kk = 1000, 1003, 517
    a = cupy.random.standard_normal((m, kk), dtype=cupy.float32)
    b = cupy.random.standard_normal((kk, nn), dtype=cupy.float32)
    c = cupy.zeros((m, nn), cupy.float32)
    g[((nn + 15) // 16, (m + 15) // 16), (16, 16)](a, b, c, m, nn, kk)
    ref = torch.as_tensor(a, device="cuda") @ torch.as_tensor(b, device="cuda")
    rel = ((torch.as_tensor(c, device="cuda") - ref).abs().max() / ref.abs().max()).item()
    check(f"gemm_naive (cupy arrays, {m}x{nn}x{kk})", rel < 1e-5,
          f"max |err| / max |ref| = {rel:.2e} vs torch.matmul (fp32, TF32 off)")

    for name, block in (("softmax_row", 256), ("softmax_row_1024", 1024)):
        s = Kernel(mods[name], "softmax_row").on(dev)
        for rows, cols in ((1000, 5003), (4, 100_000), (3, 7)):
            xs = torch.randn(rows, cols, device="cuda") * 5
            ys = torch.empty_like(xs)
            s[rows, block](xs, ys, rows, cols)
            err = (ys - torch.softmax(xs, dim=1)).abs().max().item()
            check(f"softmax_row BLOCK={block} ({rows}x{cols})", err < 1e-6,
                  f"max |err| = {err:.2e} vs torch.softmax")

    try:
        Kernel(mods["mfma"], "mm").on(dev)[1, 64](cupy.zeros(256, cupy.float32),
                                                  cupy.zeros(2, cupy.float32))
        check("AMD-only kernel refused", False, "it launched")
    except AmdOnlyError as e:
        check("AMD-only kernel refused before NVRTC", "at cell line 3" in str(e), str(e))

    try:
        from cuda.bindings import driver as cu
        have = hasattr(cu, "cuFuncGetParamInfo")
    except ImportError:
        have = False
    say(f"parameter sizes checked against the AMD metadata (cuFuncGetParamInfo): {have}")


# ---------------------------------------------------------------------------- bench agreement

def _prepared(kernel, dev, grid, block, args):
    info = kernel.info()
    return dev.prepare(kernel, info, normalize_dims(grid, "grid"), normalize_dims(block, "block"),
                       bind_args(info, args))


def agreement(mods, dev, quick: bool) -> list[dict]:
    import cupy
    import cupyx.profiler
    import torch
    import triton.testing

    reps = 30 if quick else 100
    say("  cupyx.profiler.benchmark synchronizes after every rep, so each of its intervals also")
    say("  holds the host-side launch of the kernel (the GPU idles until it arrives); wb.bench")
    say("  and do_bench enqueue ahead of the GPU. Sizes are chosen so that gap (about one raw")
    say("  launch, see the overhead section) is under 1 % of the kernel time.")
    cases = []
    n = 1 << 28
    x = cupy.random.standard_normal(n, dtype=cupy.float32)
    y = cupy.random.standard_normal(n, dtype=cupy.float32)
    o = cupy.empty_like(x)
    cases.append(("vector_add", Kernel(mods["vector_add"], "vector_add").on(dev), n // 256, 256,
                  (x, y, o, n), {"bytes": 12 * n}, f"n=2^28 fp32 ({12 * n / 1e6:.0f} MB moved)"))
    s = 2048
    a = cupy.random.standard_normal((s, s), dtype=cupy.float32)
    b = cupy.random.standard_normal((s, s), dtype=cupy.float32)
    c = cupy.empty((s, s), cupy.float32)
    cases.append(("gemm_naive", Kernel(mods["gemm_naive"], "gemm_naive").on(dev),
                  (s // 16, s // 16), (16, 16), (a, b, c, s, s, s), {"flops": 2 * s**3},
                  f"{s}^3 fp32"))
    r, cc = 16384, 16384
    xs = torch.randn(r, cc, device="cuda")
    ys = torch.empty_like(xs)
    cases.append(("softmax_row", Kernel(mods["softmax_row"], "softmax_row").on(dev), r, 256,
                  (xs, ys, r, cc), {"bytes": 8 * r * cc}, f"{r}x{cc} fp32"))
    out = []
    for name, k, grid, block, args, work, size in cases:
        prep = _prepared(k, dev, grid, block, args)
        raw = prep.__call__  # the very cupy Function and argument values bench() launches
        wb1 = wb.bench(k, grid, block, *args, warmup=10, reps=reps, **work)
        cx = cupyx.profiler.benchmark(raw, n_warmup=10, n_repeat=reps)
        cx_med = float(np.median(cx.gpu_times[0]))
        wb2 = wb.bench(k, grid, block, *args, warmup=10, reps=reps, **work)
        wbf1 = wb.bench(k, grid, block, *args, warmup=10, reps=reps, flush_l2=True, **work)
        tr_med = triton.testing.do_bench(raw, warmup=25, rep=100 if quick else 300,
                                         return_mode="median") * 1e-3
        wbf2 = wb.bench(k, grid, block, *args, warmup=10, reps=reps, flush_l2=True, **work)
        nf = (wb1.median + wb2.median) / 2
        fl = (wbf1.median + wbf2.median) / 2
        d_cx, d_tr = nf / cx_med - 1, fl / tr_med - 1
        say(f"{name} [{size}], grid {wb1.grid}, block {wb1.block}:")
        say(f"  no flush : wb.bench {wb1.median * 1e6:9.2f} / {wb2.median * 1e6:9.2f} µs   "
            f"cupyx.profiler.benchmark {cx_med * 1e6:9.2f} µs   diff {100 * d_cx:+.2f} %")
        say(f"  flush    : wb.bench {wbf1.median * 1e6:9.2f} / {wbf2.median * 1e6:9.2f} µs   "
            f"triton do_bench          {tr_med * 1e6:9.2f} µs   diff {100 * d_tr:+.2f} %   "
            f"(flush {wbf1.flush_bytes / 1e6:.0f} MB)")
        say(f"  wb.bench spread (flush): min {wbf1.min * 1e6:.2f}, p20 {wbf1.p20 * 1e6:.2f}, "
            f"p80 {wbf1.p80 * 1e6:.2f}, max {wbf1.max * 1e6:.2f} µs; "
            + "; ".join(wbf1._rates()))
        check(f"{name}: wb.bench vs cupyx (no flush)", abs(d_cx) <= 0.03, f"{100 * d_cx:+.2f} %")
        check(f"{name}: wb.bench vs triton do_bench (flush)", abs(d_tr) <= 0.03,
              f"{100 * d_tr:+.2f} %")
        out.append({"kernel": name, "size": size, "wb_noflush_s": [wb1.median, wb2.median],
                    "cupyx_s": cx_med, "wb_flush_s": [wbf1.median, wbf2.median],
                    "triton_s": tr_med, "diff_cupyx": d_cx, "diff_triton": d_tr,
                    "rates": wbf1._rates()})
    say(repr(wbf1))
    rot = wb.bench(cases[0][1], cases[0][2], cases[0][3], *cases[0][4], warmup=5, reps=reps,
                   rotate=2, **cases[0][5])
    say(f"vector_add n=2^28 with rotate=2 (3 argument sets, no flush): median "
        f"{rot.median * 1e6:.2f} µs, {rot._rates()[0]}")
    # The launch gap made visible: a short kernel, where it is a large share of each interval.
    m = 1 << 20
    k0 = cases[0][1]
    xa, ya, oa = x[:m], y[:m], o[:m]
    w_small = wb.bench(k0, m // 256, 256, xa, ya, oa, m, warmup=10, reps=reps)
    c_small = float(np.median(cupyx.profiler.benchmark(
        _prepared(k0, dev, m // 256, 256, (xa, ya, oa, m)).__call__, n_warmup=10,
        n_repeat=reps).gpu_times[0]))
    say(f"short kernel (vector_add n=2^20): wb.bench {w_small.median * 1e6:.2f} µs, cupyx "
        f"{c_small * 1e6:.2f} µs: cupyx - wb.bench = {(c_small - w_small.median) * 1e6:.2f} µs "
        "(the launch gap that cupyx's per-rep sync exposes)")
    return out


# ----------------------------------------------------------------------------- launch overhead

def _per_call(fn, calls: int, trials: int, sync) -> float:
    """Seconds per call (hosttime.per_call after 1000 warm-up calls)."""
    return per_call(fn, calls, sync, trials, warmup=1000) * 1e-6


def memo_launcher(kernel, dev):
    """Measurement prototype for kernel.py/args.py (not used by hipwb): check an argument
    *type signature* fully once, then on calls with the same signature redo only the checks
    that can change per call (contiguity; integer range, via numpy's own conversion) and call
    dev.launch. Shows what memoizing the launch checks would buy."""
    from workbench.runtime.args import BoundArg

    cache = {}

    def call(grid, block, *args):
        key = (grid, block, *[(type(a), getattr(a, "dtype", None)) for a in args])
        hit = cache.get(key)
        if hit is None:
            res = kernel.launch(grid, block, *args, device=dev)
            info = kernel.info()
            specs = [(b.arg, b.kind, b.dtype, None if b.kind == "buffer" else type(b.value))
                     for b in bind_args(info, args)]
            cache[key] = (normalize_dims(grid, "grid"), normalize_dims(block, "block"), info,
                          specs)
            return res
        g3, b3, info, specs = hit
        bound = []
        for (arg, kind, dtype, conv), a in zip(specs, args):
            if kind == "buffer":
                if not (a.is_contiguous() if hasattr(a, "is_contiguous")
                        else a.flags.c_contiguous):
                    raise ValueError(f"{arg.name} is not contiguous")
                bound.append(BoundArg(arg, kind, a, dtype))
            else:
                bound.append(BoundArg(arg, kind, conv(a), dtype))
        return dev.launch(kernel, info, g3, b3, bound)

    return call


def overhead(mods, dev, quick: bool) -> dict:
    import cupy
    import torch

    mod = mods["vector_add"]
    k = Kernel(mod, "vector_add").on(dev)
    info = k.info()
    rk = cupy.RawKernel(nvrtc_source(mod), "vector_add", options=nvrtc_options(mod)[0])
    n = 256
    x, y, o = (cupy.ones(n, cupy.float32) for _ in range(3))
    xt, yt, ot = (torch.ones(n, device="cuda") for _ in range(3))
    n32 = np.int32(n)
    bound = bind_args(info, (x, y, o, n))
    memo = memo_launcher(k, dev)
    calls, trials = (5000, 3) if quick else (20000, 5)
    sync = cupy.cuda.runtime.deviceSynchronize
    t = {
        "raw cupy RawKernel call": _per_call(lambda: rk((1,), (256,), (x, y, o, n32)),
                                             calls, trials, sync),
        "kernel[1, 256](cupy arrays)": _per_call(lambda: k[1, 256](x, y, o, n),
                                                 calls, trials, sync),
        "kernel[1, 256](torch tensors)": _per_call(lambda: k[1, 256](xt, yt, ot, n),
                                                   calls, trials, sync),
        "prototype: signature memo + CudaDevice.launch": _per_call(
            lambda: memo(1, 256, x, y, o, n), calls, trials, sync),
        "  of which CudaDevice.launch (pre-bound)": _per_call(
            lambda: dev.launch(k, info, (1, 1, 1), (256, 1, 1), bound), calls, trials, sync),
        "  of which bind_args (no launch)": _per_call(lambda: bind_args(info, (x, y, o, n)),
                                                      calls, trials, lambda: None),
    }
    sync()
    raw = t["raw cupy RawKernel call"]
    for name, v in t.items():
        extra = "" if name.startswith("raw") else f"   (+{(v - raw) * 1e6:.2f} µs over raw)"
        say(f"  {name:46s} {v * 1e6:7.2f} µs/call{extra}")
    over = t["kernel[1, 256](cupy arrays)"] - raw
    check("launch overhead of kernel[grid, block](...) over raw RawKernel", over <= 5e-6,
          f"{over * 1e6:.2f} µs (target <= 5 µs)")
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(2000):
        k[1, 256](x, y, o, n)
    prof.disable()
    sync()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(8)
    say("  profile of 2000 kernel[...] calls (top 8 by own time):")
    for line in buf.getvalue().splitlines():
        if line.strip() and ("{" in line or "/" in line) and "function calls" not in line:
            say("    " + line.strip()[:150])
    return {k2: v for k2, v in t.items()}


def device_state(mods, dev) -> None:
    """__device__ variables through kernel.globals, typedef/vector scalars, and the refusal of
    a dynamic-shared-memory kernel launched without bytes (before it can corrupt the context)."""
    import cupy

    from workbench.runtime import LaunchError

    mod = mods["device_state"]
    k = Kernel(mod, "use_globals").on(dev)
    g = k.globals
    g["coef"] = [0.5, 1.0, 1.5, 2.0]
    g["counter"] = 10
    n = 1000
    out = cupy.zeros(n, cupy.float32)
    k[(n + 255) // 256, 256](out, n, 3, (0, 7))
    cupy.cuda.runtime.deviceSynchronize()
    i = np.arange(n)
    want = np.array([0.5, 1.0, 1.5, 2.0], np.float32)[i & 3] * 3 + 7
    check("kernel.globals set before a launch (hipMemcpyToSymbol) + size_t/uint/uint2 args",
          np.array_equal(out.get(), want) and g["counter"] == 11
          and np.array_equal(g["coef"], [0.5, 1.0, 1.5, 2.0]),
          f"out matches; counter 10 -> {g['counter']} after one launch")
    r = Kernel(mod, "reverse_block").on(dev)
    x = cupy.arange(512, dtype=cupy.float32)
    y = cupy.zeros(512, cupy.float32)
    try:
        r[2, 256](x, y)
        refused = "not refused"
    except LaunchError as e:
        refused = str(e)
    r[2, 256](x, y, dynamic_lds=256 * 4)
    cupy.cuda.runtime.deviceSynchronize()
    yh = y.get()
    ok = "extern __shared__ buf" in refused and np.array_equal(
        yh, np.concatenate([np.arange(255, -1, -1), np.arange(511, 255, -1)]))
    check("dynamic-LDS kernel without bytes refused before launch; context still usable", ok,
          refused[:140])


def section(name: str, fn, *args):
    """Run one part; a crash is a failed check with its traceback, and the next part runs."""
    try:
        return fn(*args)
    except Exception:
        check(f"{name} section ran", False, traceback.format_exc())
        return None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--carry", default=str(ROOT / ".gpu_carry"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true")
    opt = ap.parse_args()
    import cupy
    import torch
    import triton

    t_start = time.perf_counter()
    mods, how = modules.load(Path(opt.carry))
    dev = wb.set_device("cuda")
    assert isinstance(dev, CudaDevice)
    say("== hipwb GPU-path verification (CudaDevice) ==")
    say(f"device: {dev.name}; L2 {dev.l2_bytes() / 2**20:.0f} MiB; python "
        f"{platform.python_version()}, cupy {cupy.__version__}, torch {torch.__version__}, "
        f"triton {triton.__version__}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}")
    say(f"modules: {how}")
    say("-- correctness (Kernel[grid, block] vs torch)")
    section("correctness", correctness, mods, dev)
    say("-- device variables, argument types, refused launches")
    section("device_state", device_state, mods, dev)
    say("-- by-value structs holding device pointers")
    section("struct_args", struct_args, mods, dev)
    say("-- wb.bench vs cupyx.profiler.benchmark / triton.testing.do_bench (medians)")
    agree = section("agreement", agreement, mods, dev, opt.quick)
    say("-- launch overhead (host time per call, sync outside the loop)")
    ovh = section("overhead", overhead, mods, dev, opt.quick)
    failed = [c for c in CHECKS if not c[1]]
    say(f"== {len(CHECKS) - len(failed)}/{len(CHECKS)} checks passed "
        f"in {time.perf_counter() - t_start:.0f} s ==")
    if opt.out:
        out = Path(opt.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "verify_summary.txt").write_text("\n".join(LINES) + "\n")
        (out / "verify.json").write_text(json.dumps(
            {"checks": CHECKS, "agreement": agree, "overhead_s": ovh, "modules": how,
             "device": dev.name}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
