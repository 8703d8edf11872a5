"""The GEMM tutorial's kernels (steps.json), the helpers to run one step, and notebook 03's bench.

Why: the notebook, the tests and the timing model's calibration all run the same kernels with
the same launch geometry and inputs; this file (loadable by path, or by name with kernels/gemm on
``sys.path``: ``kernels`` is no package) keeps that in one place, and holds the notebook's
helpers (``show``, ``why``, ``summary``, the tile sweep's bench) so its cells show the lessons.
C[M][N] fp32 = A[M][K] . B[N][K]^T, A/B raw bf16 / fp8 E4M3 (OCP) bits.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
INDEX = json.loads((HERE / "steps.json").read_text())


def all_steps(extra: bool = True) -> list[dict]:
    """The tutorial's steps in order (and, with ``extra``, the blog-only rungs)."""
    return INDEX["steps"] + (INDEX["blog_extra"] if extra else [])


def step(key: int | str) -> dict:
    """One step by its number (1..), its ``step`` label ("9a") or its ``name``."""
    for s in all_steps():
        if key in (s["step"], s["name"]):
            return s
    raise KeyError(f"no GEMM step {key!r}; known: {[s['name'] for s in all_steps()]}")


def targets(s: dict) -> list[dict]:
    """The (arch, dtype) targets a step builds for (fp8 only on gfx950)."""
    return [t for t in INDEX["targets"] if t["arch"] in s["archs"]]


def source(s: dict) -> str:
    """The step's .hip source text."""
    return (HERE / s["file"]).read_text()


def compile_step(s: dict, arch: str, dtype: str):
    """``workbench.compile`` of the step's file for one target; returns the Module."""
    import workbench as wb

    target = next(t for t in INDEX["targets"] if t["arch"] == arch and t["dtype"] == dtype)
    return wb.compile(source(s), arch=arch, defines=target["defines"], include_dirs=[HERE],
                      filename=s["file"])


def kernel(s: dict, arch: str, dtype: str, device: str | None = None):
    """The step's kernel for one target as a launchable ``workbench.Kernel``.

    ``device`` as for ``wb.set_device`` (e.g. "emulator:gfx950"); None = the default device.
    """
    import workbench as wb

    return wb.Kernel(compile_step(s, arch, dtype), s["kernel"], device=device)


def launch(s: dict, M: int, N: int, K: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(grid, block) of the step for an M x N x K problem."""
    if s["grid"] == "xy16":
        return (-(-N // 16), -(-M // 16)), tuple(s["block"])
    return (-(-M // s["bm"]) * -(-N // s["bn"]),), tuple(s["block"])


def check_shape(s: dict, dtype: str, M: int, N: int, K: int) -> None:
    """Raise ValueError when the step cannot handle this shape (K multiple, edges)."""
    km = s["k_multiple"][dtype]
    if K % km:
        raise ValueError(f"step {s['step']} ({s['name']}) needs K % {km} == 0, got K={K}")
    if not s["edges"] and (M % s["bm"] or N % s["bn"]):
        raise ValueError(f"step {s['step']} needs M % {s['bm']} == 0 and N % {s['bn']} == 0")


def inputs(M: int, N: int, K: int, dtype: str, seed: int = 0):
    """Integer-valued A (M x K) and B (N x K) in [-4, 4] as raw bits, plus their float values.

    Integers this small are exact in bf16 and fp8 E4M3, and every partial sum of K <= 2^17
    products stays exact in fp32, so the kernels must match the reference bit for bit.
    """
    import torch

    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-4, 5, (M, K), generator=g).float()
    b = torch.randint(-4, 5, (N, K), generator=g).float()
    if dtype == "bf16":
        bits = [t.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16) for t in (a, b)]
    elif dtype == "fp8":
        bits = [t.to(torch.float8_e4m3fn).view(torch.uint8).numpy() for t in (a, b)]
    else:
        raise ValueError(f"dtype must be 'bf16' or 'fp8', got {dtype!r}")
    return bits[0], bits[1], a.numpy(), b.numpy()


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C = A . B^T in float64, returned as float32 (exact for the integer inputs above)."""
    return (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)


# ------------------------------------------------------------------------ notebook 03's bench
# What the GEMM notebook calls: build a step for one target, check it on the emulator, trace its
# LDS accesses, model it at 4096^3, time it on a GPU when there is one, and show all of it.

#: The three targets by (arch, dtype), as the notebook labels them.
LABEL = {("gfx942", "bf16"): "MI300X bf16", ("gfx950", "bf16"): "MI355X bf16",
         ("gfx950", "fp8"): "MI355X fp8"}
CHIP = {"gfx942": "mi300x", "gfx950": "mi355x"}
STEPS = {s["step"]: s for s in all_steps()}
TARGETS = INDEX["targets"]
#: The emulator's two check shapes: whole tiles, and M, N that are multiples of no tile.
SHAPES = {"tiles": (256, 256, 256), "edges": (200, 136, 256)}
BIG = 4096            # the modelled (and measured) shape: BIG^3
EMU_TIMEOUT = 300     # seconds: the emulator's runaway-loop watchdog, roomy for a busy machine
#: The step each step is one change away from (what `show` diffs the instruction mix against).
PREV = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, "9a": 8, "9b": 9, 10: 9, 11: 10, 12: 10}
results: dict = {}    # (step, target label) -> the row of the closing table
MIXES: dict = {}      # (step, target label) -> instruction mix
REPORTS: dict = {}    # (step, target label) -> TimingReport at BIG^3 (the "why" views)


def label(t: dict) -> str:
    """The notebook's name of a target: "MI300X bf16", "MI355X bf16" or "MI355X fp8"."""
    return LABEL[t["arch"], t["dtype"]]


def peak(t: dict) -> float:
    """The target's dense spec peak in TFLOP/s, at the max engine clock.

    Why from ``wb.get_arch``: the one sourced table (MI300 and MI350 microarchitecture pages of
    the ROCm documentation) every hipwb number uses: 1307.4, 2516.6 and 5033.2 TFLOP/s."""
    import workbench as wb

    return wb.get_arch(t["arch"]).peak_tflops[t["dtype"]]


def build(s: dict, t: dict, text: str | None = None):
    """The step's kernel (or ``text``, an edited copy of its source) for one target, on the
    target's emulator: ``wb.compile``, the call ``%%hipkernel`` makes, then ``wb.Kernel``."""
    import workbench as wb

    module = wb.compile(source(s) if text is None else text, arch=t["arch"],
                        defines=t["defines"], include_dirs=[HERE], filename=s["file"])
    return wb.Kernel(module, s["kernel"], device=f"emulator:{t['arch']}")


def _run_exact(kernel, s: dict, t: dict, shape: str, traced: bool = False):
    M, N, K = SHAPES[shape]
    A, B, a, b = inputs(M, N, K, t["dtype"], seed=M + N)
    C = np.full((M, N), np.nan, np.float32)
    run = kernel.trace if traced else kernel
    out = run[launch(s, M, N, K)](A, B, C, M, N, K, timeout=EMU_TIMEOUT)
    assert np.array_equal(C, reference(a, b)), f"step {s['step']} {label(t)} {shape}: wrong result"
    return out


def check(kernel, s: dict, t: dict, shapes=("edges",)) -> str:
    """Run the kernel on the emulator at each shape of ``SHAPES`` named and compare with the
    exact product; "exact" per shape, or AssertionError.

    Why exact: the integer inputs make every partial sum exact in fp32 (see ``inputs``)."""
    for name in shapes:
        _run_exact(kernel, s, t, name)
    return "/".join("exact" for _ in shapes)


def conflicts(kernel, s: dict, t: dict):
    """The LDS bank conflicts of one traced launch at the "tiles" shape (its result checked
    too), from the bank model of notebook 02: ``wb.trace_conflicts``."""
    import workbench as wb

    return wb.trace_conflicts(_run_exact(kernel, s, t, "tiles", traced=True), source=kernel)


def model(kernel, s: dict, t: dict, M: int = BIG, N: int = BIG, K: int = BIG):
    """The timing model's report (``kernel.timing``) of one M x N x K launch on the target's
    chip; modelled, not measured. The inputs are zeros: the model's time does not depend on
    the values."""
    A = np.zeros((M, K), np.uint8 if t["dtype"] == "fp8" else np.uint16)
    B = np.zeros((N, K), A.dtype)
    C = np.zeros((M, N), np.float32)
    return kernel.timing[launch(s, M, N, K)](A, B, C, M, N, K, chip=CHIP[t["arch"]],
                                              flops=2.0 * M * N * K)


def measure(kernel, s: dict, t: dict, M: int = BIG, N: int = BIG, K: int = BIG):
    """``wb.bench`` of the step on an AMD GPU of the target's arch (device events, warm-up, L2
    flushed), or None where there is none: the measured counterpart of ``model``."""
    import workbench as wb

    gpu = next((d for d in _gpus() if d.arch == t["arch"]), None)
    if gpu is None:
        return None
    A, B, _, _ = inputs(M, N, K, t["dtype"])
    C = np.zeros((M, N), np.float32)
    grid, block = launch(s, M, N, K)
    return wb.bench(kernel, grid, block, A, B, C, M, N, K, flops=2.0 * M * N * K,
                    flush_l2=True, device=gpu)


@lru_cache(maxsize=1)
def _gpus() -> tuple:
    import workbench as wb

    return tuple(d for d in wb.devices() if d.kind == "rocm")


def mix(kernel, arch: str) -> Counter:
    """Static instruction mix of the kernel's ISA: MFMAs, LDS reads/writes, global/buffer loads
    and stores, waits (by counter), barriers and priorities; what a step changes."""
    groups = Counter()
    for ins in kernel.isa_for(arch):
        m = ins.mnemonic
        key = ("MFMA" if m.startswith("v_mfma") else
               m if m.startswith(("ds_read", "ds_write", "global_load", "buffer_load",
                                  "global_store", "s_waitcnt", "s_barrier", "s_setprio"))
               else None)
        if key == "s_waitcnt":
            key = "s_waitcnt " + " ".join(sorted(o.split("(")[0] for o in ins.operands))
        if key and m.startswith("buffer_load") and "lds" in ins.operands:
            key += " lds"
        if key:
            groups[key] += 1
    return groups


def short(limiter: str) -> str:
    """The limiter's name without its explanation: "VMEM-bound", "latency-bound", ..."""
    return limiter.split(":")[0].split(" (")[0]


STEP_HEADER = ("target", "check", "VGPR", "AGPR", "LDS KiB", "waves/SIMD", "by", "WG/CU",
               "LDS conflict cycles", "TFLOP/s", "GHz", "% peak", "MFMA eff", "limiter")


def show(n, only=None, text: str | None = None) -> dict:
    """Build, check, trace and model step ``n`` on each of its targets (those in ``only``) and
    display one table row per target, its LDS conflicts and what its instruction mix changed
    since the step before; returns {target label: kernel}.

    Why one call per step: every step of the notebook is judged by the same numbers. ``text``
    is an edited source to try (its results are not recorded for the closing table)."""
    from IPython.display import display

    import workbench as wb

    s = STEPS[n]
    kernels, traced, rows, notes = {}, {}, [], []
    for t in targets(s):
        name = label(t)
        if only and name not in only:
            continue
        k = kernels[name] = build(s, t, text)
        tc = traced[name] = conflicts(k, s, t)
        ok = "exact/" + check(k, s, t)
        r = k.info(t["arch"]).resources
        occ = k.occupancy(s["block"], t["arch"])
        tm = model(k, s, t)
        pct = 100 * tm.tflops / peak(t)
        if text is None:
            results[n, name] = dict(tflops=tm.tflops, ghz=tm.clock_ghz, pct=pct, vgpr=r.vgprs,
                                    agpr=r.agprs, waves=occ.waves_per_simd,
                                    conflicts=tc.conflict_cycles)
            MIXES[n, name] = mix(k, t["arch"])
            REPORTS[n, name] = tm
        rows.append([name, ok, r.vgprs, r.agprs, f"{r.lds_bytes / 1024:.1f}",
                     occ.waves_per_simd, occ.limiter, occ.workgroups_per_cu,
                     f"{tc.conflict_cycles:,d}", f"{tm.tflops:.1f}", f"{tm.clock_ghz:.2f}",
                     f"{pct:.1f}", f"{tm.mfma_efficiency:.2f}", short(tm.limiter)])
        bench = measure(k, s, t)
        if bench is not None:
            notes.append(f"{name} measured on {bench.device}: {bench}")
    # LDS conflicts and instruction mix of one target: fp8 where the step has it
    name = "MI355X fp8" if "MI355X fp8" in kernels else next(iter(kernels))
    arch = "gfx950" if name.startswith("MI355X") else "gfx942"
    tc = traced[name]
    notes.append(f"LDS ({name}): {tc.headline().split(': ', 1)[1]}")
    if tc.conflict_cycles:
        top = tc[0]
        notes.append(f"most conflicted: {top.mnemonic}, worst {top.worst.describe()}")
        notes += [line for line in top.summary().splitlines()
                  if line.startswith("ASSUMPTION")] or ["phases: measured table"]
    display(wb.table(rows, STEP_HEADER, notes=notes,
                     title=f"step {n}: {s['title']} ({s['file']}, kernel {s['kernel']}); "
                           f"TFLOP/s, GHz, MFMA eff and limiter modelled at {BIG}^3"))
    now = mix(kernels[name], arch)
    prev = n if text is not None else (5 if (n == 7 and arch == "gfx942") else PREV.get(n))
    before = MIXES.get((prev, name))
    keys = [key for key in sorted(set(now) | set(before or {}))
            if before is None or now[key] != before.get(key, 0)]
    title = f"instruction mix ({name}, static count in the ISA)"
    if before is None:
        display(wb.table([[key, now[key]] for key in keys], ("instruction", f"step {n}"),
                         title=title))
    elif keys:
        display(wb.table([[key, before.get(key, 0), now[key]] for key in keys],
                         ("instruction", f"step {prev}", f"step {n}"),
                         title=f"{title}: what changed since step {prev}"))
    else:
        print(f"{title}: none of these counts changed since step {prev}")
    return kernels


def why(n, name: str = "MI355X fp8", top: int = 3):
    """Where step ``n``'s modelled cycles go (its costliest source lines), and its roofline
    points beside those of the step before it; all modelled, at 4096^3."""
    from IPython.display import display

    import workbench as wb

    display(REPORTS[n, name].lines(top=top))
    shown = [m for m in (PREV.get(n), n) if (m, name) in REPORTS]
    return wb.roofline(*[REPORTS[m, name] for m in shown], labels=[f"step {m}" for m in shown])


# ------------------------------------------------------------------- the closing table and chart
#: The CDNA4 FP8 GEMM blog's ladder on MI355X, fp8 at 4096^3, TFLOP/s: published measurements of
#: its kernels, not of these (ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture",
#: rocm.blogs.amd.com/software-tools-optimization/cdna4-gemm-kernels, Table 5).
BLOG_FP8_4096 = {1: 1.15, 2: 4.80, 3: 30.05, 5: 336.9, 6: 506.7, 7: 497.4, 8: 1166.4,
                 "9a": 1828.7, 9: 2288.2, "9b": 2228.0, 10: 2680.3}
#: Libraries and kernels measured at 4096^3 (published): the same blog (hipBLASLt), and
#: HipKittens' benchmark data (github.com/HazyResearch/HipKittens analysis/, arXiv:2511.08083).
PUBLISHED_4096 = [
    "MI355X fp8 : hipBLASLt ~2750 (CDNA4 FP8 GEMM blog); HipKittens 2741, hipBLASLt 2749 "
    "(HipKittens)",
    "MI355X bf16: HipKittens 1413, hipBLASLt 1433 (HipKittens)",
    "MI325X bf16: HipKittens 714, PyTorch 753 (HipKittens; MI325X, the nearest published CDNA3)"]
ORDER = [1, 2, 3, 4, 5, 6, 7, 8, "9a", 9, "9b", 10, 11, 12]
COLS = ("MI300X bf16", "MI355X bf16", "MI355X fp8")


def summary():
    """Every step on every target (from ``results``): the closing table, one row per step and
    target, the best modelled row of each target highlighted, the blog's published fp8 ladder
    beside the MI355X fp8 rows."""
    import workbench as wb

    best = {c: max((r["tflops"], str(n)) for (n, cc), r in results.items() if cc == c)[1]
            for c in COLS if any(cc == c for _, cc in results)}
    rows, hot = [], []
    for n in ORDER:
        for c in COLS:
            r = results.get((n, c))
            if r is None:
                continue
            pub = BLOG_FP8_4096.get(n) if c == "MI355X fp8" else None
            if best.get(c) == str(n):
                hot.append(len(rows))
            rows.append([n, STEPS[n]["name"], c, f"{r['tflops']:.1f}", f"{r['ghz']:.2f}",
                         f"{r['pct']:.1f}", r["vgpr"] + r["agpr"], r["waves"],
                         f"{r['conflicts']:,d}", "" if pub is None else f"{pub:g}"])
    header = ("step", "kernel", "target", "TFLOP/s", "GHz", "% peak", "VGPR+AGPR",
              "waves/SIMD", "LDS conflict cycles", "blog fp8 (published)")
    return wb.table(rows, header, hot=hot,
                    title=f"All steps: modelled at {BIG}^3 (the best of each target "
                          "highlighted), beside the CDNA4 FP8 blog's measured ladder",
                    notes=["published references at 4096^3 (measured, not these kernels):"]
                    + [f"  {line}" for line in PUBLISHED_4096])


def chart():
    """Modelled TFLOP/s per step for the three targets (log scale) with the blog's published
    fp8 points: an inline SVG line chart (``ladder_chart.py``), no JavaScript needed."""
    lc = _sibling("ladder_chart")
    series = {c: {str(n): results[n, c]["tflops"] for n in ORDER if (n, c) in results}
              for c in COLS}
    return lc.LadderChart([str(n) for n in ORDER],
                          {f"{c} (modelled)": v for c, v in series.items()},
                          {"MI355X fp8, CDNA4 FP8 blog (published, measured)":
                           {str(n): v for n, v in BLOG_FP8_4096.items()}},
                          title=f"GEMM steps at {BIG}^3: modelled (lines) and published "
                                "(diamonds)", x_label="step", y_label="TFLOP/s (log scale)")


def _sibling(name: str):
    """A .py file beside this one as a module (``kernels`` is no package)."""
    import importlib.util
    import sys

    key = f"hipwb_gemm_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, HERE / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[key] = mod
    return sys.modules[key]


# ------------------------------------------------------------------------- the tile sweep
# wb.sweep's bench for sweep_tiled.hip (MI355X fp8): launch, inputs, reference and flops, each a
# function of (shape, params); the notebook keeps the space and the constraint in view.
TILE_CHECK = (320, 192, 512)      # the emulator's check: partial tiles for every BM and BN
TILE_SHAPES = [(BIG, BIG, BIG)]   # the modelled shape


def tile_lds(p: dict) -> int:
    """Bytes of LDS a point needs: what sweep_tiled.hip static_asserts against 160 KiB."""
    return (2 if p["SWEEP_DBUF"] else 1) * p["SWEEP_KT"] * (p["SWEEP_BM"] + p["SWEEP_BN"]) * 128


def tile_launch(shape, p: dict):
    """(grid, block) of a point: one workgroup of 64 x WM x WN threads per BM x BN tile."""
    M, N, K = shape
    return ((-(-M // p["SWEEP_BM"]) * -(-N // p["SWEEP_BN"]),),
            (64 * p["SWEEP_WM"] * p["SWEEP_WN"],))


def tile_inputs(shape, p: dict):
    """The kernel's arguments: at TILE_CHECK the integer fp8 inputs of ``check`` (C starts as
    NaN); at the modelled shape zeros, as ``model`` uses (the time does not depend on them)."""
    M, N, K = shape
    if tuple(shape) == TILE_CHECK:
        A, B, _, _ = inputs(M, N, K, "fp8", seed=M + N)
        return A, B, np.full((M, N), np.nan, np.float32), M, N, K
    return (np.zeros((M, K), np.uint8), np.zeros((N, K), np.uint8),
            np.zeros((M, N), np.float32), M, N, K)


def tile_reference(shape, p: dict, args):
    """The exact product of ``tile_inputs``' values (integer products, exact in fp32)."""
    M, N, K = shape
    _, _, a, b = inputs(M, N, K, "fp8", seed=M + N)
    return reference(a, b)


def tile_flops(shape, p: dict) -> float:
    """2 M N K: the FLOPs a GEMM counts."""
    M, N, K = shape
    return 2.0 * M * N * K


SWEEP_NAMES = {"SWEEP_BM": "BM", "SWEEP_BN": "BN", "SWEEP_WM": "WM", "SWEEP_WN": "WN",
               "SWEEP_KT": "KT", "SWEEP_DBUF": "DBUF"}


def compact(df):
    """The deterministic columns of sweep rows (no wall times, workers or cache flags), renamed
    short: tile, status, registers, LDS, occupancy, the check and the modelled rate."""
    t = df[list(SWEEP_NAMES)].rename(columns=SWEEP_NAMES)
    t["status"] = df["status"]
    for col, name in (("registers", "VGPR+AGPR"), ("agprs", "AGPR"), ("scratch_bytes", "scratch"),
                      ("waves_per_simd", "waves/SIMD"), ("workgroups_per_cu", "WG/CU")):
        t[name] = df[col].astype("Int64")
    t.insert(t.columns.get_loc("waves/SIMD"), "LDS KiB", (df["lds_bytes"] / 1024).astype("Int64"))
    t["occupancy by"] = df["occupancy_limiter"]
    t["exact"] = df["exact"]
    t["TFLOP/s"] = df["modelled_tflops"].round(1)
    t["limiter"] = df["modelled_limiter"]
    return t.astype(object).where(t.notna(), "-")


def sweep_table(df, title: str, hot=()):
    """``compact(df)`` as a ``wb.table``; rows that did not compile get the compiler's reason
    (the static_assert and the value it evaluated) as a note."""
    import workbench as wb

    t = compact(df)
    notes = []
    for _, r in df[df["status"] != "ok"].iterrows():
        lines = r["error"].splitlines()
        why = next(ln for ln in lines if "error: " in ln).split("error: ", 1)[1]
        value = next(ln for ln in lines if "evaluates to" in ln).split("evaluates to ", 1)[1]
        notes.append(f"{r['SWEEP_BM']}x{r['SWEEP_BN']}, KT={r['SWEEP_KT']}, "
                     f"DBUF={r['SWEEP_DBUF']}: {r['status']}: "
                     + f"{why} (evaluates to {value})")
    return wb.table(t.values.tolist(), list(t.columns), title=title, hot=hot, notes=notes)
