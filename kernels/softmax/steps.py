"""The softmax tutorial's kernels (steps.json), helpers to run one step, and notebook 04's bench.

Why: the notebook's claims and the tests run the same kernels with the same launch geometry and
the same awkward inputs (rows of -inf, huge values, lengths that are not a multiple of 8); this
file (loadable by path, or by name with kernels/softmax on ``sys.path``: ``kernels`` is no
package) keeps that in one place, and holds the notebook's helpers (``show``, ``why``, the
sweep's bench and tables) so its cells show the lessons.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
INDEX = json.loads((HERE / "steps.json").read_text())


def all_steps() -> list[dict]:
    """The tutorial's softmax steps in order (step 7, attention, is separate: attention.hip)."""
    return INDEX["steps"]


def step(key: int | str) -> dict:
    """One step by its number, its label ("3s") or its name."""
    for s in all_steps():
        if key in (s["step"], s["name"]):
            return s
    raise KeyError(f"no softmax step {key!r}; known: {[s['name'] for s in all_steps()]}")


def compile_file(file: str, arch: str):
    """``workbench.compile`` of one file of kernels/softmax for one arch."""
    import workbench as wb

    return wb.compile((HERE / file).read_text(), arch=arch, include_dirs=[HERE], filename=file)


def inputs(rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """fp32 rows x cols: normal values x 4, plus the awkward rows the tutorial checks.

    Row 0 all -inf (softmax is NaN, as in torch), row 1 half -inf, row 2 values near 1e30 and
    -1e30 (exp of x - max must not overflow), row 3 one huge value (3e38) among small ones.
    """
    g = np.random.default_rng(seed)
    x = (g.standard_normal((rows, cols)) * 4).astype(np.float32)
    if rows > 3:
        x[0] = -np.inf
        x[1, ::2] = -np.inf
        x[2] = np.where(g.random(cols) < 0.5, 1e30, -1e30).astype(np.float32) + x[2]
        x[3, cols // 3] = 3e38
    return x


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """fp32 -> bf16 raw bits (round to nearest even, via torch)."""
    import torch

    return torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    """bf16 raw bits -> fp32."""
    return (b.astype(np.uint32) << 16).view(np.float32)


def reference(x: np.ndarray, dtype: str) -> np.ndarray:
    """torch.softmax over rows in fp32 (of the bf16-rounded input for bf16 steps), as fp32."""
    import torch

    t = torch.from_numpy(from_bf16_bits(to_bf16_bits(x)) if dtype == "bf16" else x)
    y = torch.softmax(t, dim=1)
    if dtype == "bf16":
        y = y.to(torch.bfloat16).float()
    return y.numpy()


def launches(s: dict, kernels: dict, x: np.ndarray, y: np.ndarray, wave: int = 64) -> list:
    """[(kernel, grid, block, args)] of one softmax of x into y (both already in the step's
    dtype): three launches for the three-pass step, one for the others."""
    rows, cols = x.shape
    block = s["block"]
    if s["name"] == "three_pass":
        m, sm = np.zeros(rows, np.float32), np.zeros(rows, np.float32)
        g = -(-rows // block)
        return [(kernels["row_max"], g, block, (x, m, rows, cols)),
                (kernels["row_expsum"], g, block, (x, m, sm, rows, cols)),
                (kernels["normalise"], -(-rows * cols // block), block, (x, m, sm, y, rows, cols))]
    (name,) = s["kernels"]
    grid = rows if s["grid"] == "rows" else -(-rows // (block // wave))
    return [(kernels[name], grid, block, (x, y, rows, cols))]


def run(s: dict, kernels: dict, x: np.ndarray, wave: int = 64) -> np.ndarray:
    """Launch step ``s`` (its kernels by name in ``kernels``) on x; returns y as fp32."""
    if s["dtype"] == "bf16":
        xin = to_bf16_bits(x)
        y = np.zeros(x.shape, np.uint16)
    else:
        xin = np.ascontiguousarray(x)
        y = np.full(x.shape, np.nan, np.float32)
    for k, grid, block, args in launches(s, kernels, xin, y, wave):
        k[grid, block](*args)
    return from_bf16_bits(y) if s["dtype"] == "bf16" else y


def max_error(y: np.ndarray, ref: np.ndarray) -> float:
    """Largest |y - ref| where ref is finite; inf if NaNs disagree (NaN rows must stay NaN)."""
    if not np.array_equal(np.isnan(y), np.isnan(ref)):
        return float("inf")
    ok = ~np.isnan(ref)
    return float(np.max(np.abs(y[ok] - ref[ok]))) if ok.any() else 0.0


# Tolerances: fp32 steps differ from torch only by expf's and the summation order's rounding;
# bf16 steps by one bf16 rounding of the output (half an ulp of values <= 1: 2^-9).
TOL = {"f32": 1e-5, "bf16": 2.0 ** -8}


# ------------------------------------------------------------------------ notebook 04's bench
# What the softmax notebook calls: compile a step for one arch, check it on the emulator against
# the exact softmax, count its instructions, model one softmax, and show all of it per target.
CHIP = {"gfx942": "mi300x", "gfx950": "mi355x"}
NAME = {"gfx942": "MI300X", "gfx950": "MI355X"}
STEPS = {s["step"]: s for s in all_steps()}
MODEL_SHAPE = (8192, 1024)    # rows x cols of the modelled launches
#: FLOPs per element, counted by hand for the roofline: max, subtract, exp, add, divide in a
#: fused kernel (5); the three-pass kernels split them (and recompute the exponential).
FLOPS = {"row_max": 1, "row_expsum": 3, "normalise": 3}
results: dict = {}            # (step, arch[, "long"]) -> the modelled row (``model``)


def hbm(arch: str) -> float:
    """The chip's HBM peak in bytes/s (``wb.get_arch``: MI300X 5.3 TB/s HBM3, MI355X 8 TB/s
    HBM3E, from AMD's MI300 and MI350 microarchitecture pages in the ROCm documentation)."""
    import workbench as wb

    return wb.get_arch(arch).memory_bandwidth_gbs * 1e9


def kernels(s: dict, arch: str) -> dict:
    """The step's kernels by name, compiled for ``arch``, on that arch's emulator."""
    import workbench as wb

    mod = compile_file(s["file"], arch)
    return {k: wb.Kernel(mod, k, device=f"emulator:{arch}") for k in s["kernels"]}


def exact(x: np.ndarray, dtype: str) -> np.ndarray:
    """The exact softmax in float64 (an all -inf row gives NaN, as torch does), rounded once to
    the step's type.

    Why not torch's: torch.softmax's vectorised fp32 ``exp`` differs in the last bit from one
    CPU to another, so the notebook's printed errors would too."""
    x64 = (from_bf16_bits(to_bf16_bits(x)) if dtype == "bf16" else x).astype(np.float64)
    with np.errstate(invalid="ignore"):
        e = np.exp(x64 - x64.max(axis=1, keepdims=True))
        y = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return from_bf16_bits(to_bf16_bits(y)) if dtype == "bf16" else y


def check(s: dict, ks: dict, shapes=((6, 203), (5, 64), (4, 1000))) -> float:
    """Run the step on the emulator at each shape (awkward rows included) against ``exact``;
    returns the largest error. Raises if the NaN rows differ or the error exceeds ``TOL``."""
    worst = 0.0
    for rows, cols in shapes:
        x = inputs(rows, cols, seed=cols)
        y, ref = run(s, ks, x), exact(x, s["dtype"])
        assert np.array_equal(np.isnan(y), np.isnan(ref)), f"{rows}x{cols}: NaN rows differ"
        worst = max(worst, float(np.abs(y - ref)[~np.isnan(ref)].max()))
    assert worst <= TOL[s["dtype"]], f"step {s['step']}: max error {worst}"
    return worst


def kind(m: str) -> str:
    """The class of an instruction in the dynamic mix (MFMA, VALU+DPP, loads, LDS, ...)."""
    if m.startswith("v_mfma"):
        return "MFMA"
    if "_dpp" in m:
        return "VALU+DPP"
    if m.startswith(("v_exp", "v_log", "v_rcp")):
        return "v_exp/rcp"
    if m.startswith("global_load"):
        return "load x4" if m.endswith("x4") else "load"
    if m.startswith("global_store"):
        return "store x4" if m.endswith("x4") else "store"
    if m.startswith(("ds_bpermute", "ds_swizzle", "ds_permute")):
        return "lane shuffle (ds)"
    if m.startswith("ds_"):
        return "LDS"
    if m in ("s_barrier", "s_waitcnt"):
        return m
    return "VALU" if m.startswith("v_") else "SALU/branch" if m.startswith("s_") else m


def _operands(s: dict, x: np.ndarray):
    bf = s["dtype"] == "bf16"
    return (to_bf16_bits(x) if bf else x), np.zeros(x.shape, np.uint16 if bf else np.float32)


def mix(s: dict, ks: dict, rows: int = 16, cols: int = 1024) -> dict:
    """Dynamic instruction mix of a traced launch, in wave-instructions per 1024 elements."""
    xin, y = _operands(s, inputs(rows, cols, seed=1))
    c = Counter()
    for k, g, b, args in launches(s, ks, xin, y):
        for m, n in k.trace[g, b](*args).mnemonic_counts.items():
            c[kind(m)] += n
    return {key: n * 1024 / (rows * cols) for key, n in c.most_common()}


def model(s: dict, ks: dict, arch: str, shape=MODEL_SHAPE) -> dict:
    """Modelled time of one softmax (all its launches) on the arch's chip: us, GB/s and % of
    HBM peak counting the useful bytes (read x once, write y once: Triton's fused-softmax
    metric), the limiter of the longest launch, and the launches' timing reports."""
    rows, cols = shape
    xin, y = _operands(s, np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    reps = [k.timing[g, b](*args, chip=CHIP[arch], flops=FLOPS.get(k.name, 5) * rows * cols)
            for k, g, b, args in launches(s, ks, xin, y)]
    sec = sum(r.seconds for r in reps)
    useful = 2 * rows * cols * xin.itemsize
    return dict(us=sec * 1e6, gbs=useful / sec / 1e9, pct=100 * useful / sec / hbm(arch),
                limiter=max(reps, key=lambda r: r.seconds).limiter.split(" (")[0], reports=reps)


def show(n, shape=MODEL_SHAPE) -> dict:
    """Compile, check, trace and model step ``n`` on both targets and display one table row per
    target (the modelled row is kept in ``results``); returns {arch: instruction mix}."""
    from IPython.display import display

    import workbench as wb

    s = STEPS[n]
    mixes, rows = {}, []
    for arch in CHIP:
        ks = kernels(s, arch)
        err = check(s, ks)
        k = ks[s["kernels"][-1]]
        r = k.info(arch).resources
        occ = k.occupancy(s["block"], arch)
        t = results[n, arch] = model(s, ks, arch, shape)
        mixes[arch] = mix(s, ks)
        rows.append([NAME[arch], f"{err:.1e}", r.vgprs, r.sgprs, r.lds_bytes,
                     occ.waves_per_simd, occ.limiter, f"{t['us']:.1f}", f"{t['gbs']:.0f}",
                     f"{t['pct']:.1f}", t["limiter"]])
    display(wb.table(rows, ("target", "max err", "VGPR", "SGPR", "LDS B", "waves/SIMD", "by",
                            "us", "GB/s", "% HBM", "limiter"),
                     title=f"step {n}: {s['title']} ({s['file']}); all modelled, "
                           f"{shape[0]}x{shape[1]} {s['dtype']}",
                     notes=["instruction mix, MI300X, wave-instructions per 1024 elements "
                            "(emulator trace): " + ", ".join(
                                f"{key} {v:.1f}" for key, v in mixes["gfx942"].items())]))
    return mixes


def why(n, before=None, arch: str = "gfx942", shape: str = "", top: int = 3):
    """Where step ``n``'s modelled cycles go (the costliest source lines of its longest launch),
    and its roofline points beside step ``before``'s (each launch a report); all modelled."""
    from IPython.display import display

    import workbench as wb

    def key(m):
        return (m, arch, shape) if shape else (m, arch)

    reps = results[key(n)]["reports"]
    display(max(reps, key=lambda r: r.seconds).lines(top=top))
    shown = [(m, r) for m in ([before] if before else []) + [n] for r in results[key(m)]["reports"]]
    return wb.roofline(*[r for _, r in shown], labels=[f"step {m} {r.kernel}" for m, r in shown])


# ------------------------------------------------------------------- the block x width sweep
# wb.sweep's bench for step 6 (kernels/softmax/step6_long_rows.hip) over SOFTMAX_BLOCK and
# SOFTMAX_VEC: launch, inputs and reference, each a function of (shape, params).
CHECK_SHAPE = (6, 203)
ROW_SHAPES = [(8192, 1024), (4096, 4096), (1024, 32768)]


def sweep_launch(shape, p: dict):
    """Step 6's launch: one workgroup of SOFTMAX_BLOCK threads per row."""
    return shape[0], p["SOFTMAX_BLOCK"]


def sweep_inputs(shape, p: dict):
    """x and y as bf16 bits, rows, cols: the awkward rows at the check shape, else normal
    values (the modelled shapes)."""
    rows, cols = shape
    x = inputs(rows, cols, seed=cols) if tuple(shape) == CHECK_SHAPE else \
        np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    return to_bf16_bits(x), np.zeros(shape, np.uint16), rows, cols


def sweep_reference(shape, p: dict, args):
    """torch.softmax of the inputs the factory made, as bf16 bits; a NaN matches any NaN."""
    import torch

    x, y = args[0], args[1]
    want = to_bf16_bits(torch.softmax(torch.from_numpy(from_bf16_bits(x)), dim=1).numpy())
    return np.where(np.isnan(from_bf16_bits(want)) & np.isnan(from_bf16_bits(y)), y, want)


def sweep_rates(res) -> None:
    """Add to the sweep's rows what the bench reports: ``gbs`` and ``pct`` (one read of x and
    one write of y in bf16 per modelled time, against the HBM peak) and a short limiter."""
    import math

    arch = {CHIP[a]: a for a in CHIP}
    res["gbs"] = [2 * 2 * math.prod(map(int, s.split("x"))) / (us * 1e3)
                  for s, us in zip(res["shape"], res["modelled_us"])]
    res["pct"] = [100 * g * 1e9 / hbm(arch[t]) for g, t in zip(res["gbs"], res["target"])]
    res["lim"] = [s.replace("-bound", "").replace("latency", "lat.")
                  for s in res["modelled_limiter"]]


def _best(res) -> dict:
    labels = [f"{r}x{c}" for r, c in ROW_SHAPES]
    return {(t, s): res.best(by="gbs", target=t, shape=s).iloc[0]
            for t in CHIP.values() for s in labels}


def sweep_grid(res):
    """Modelled GB/s and limiter of every point, per chip and row length; * marks the best of
    each column (``sweep_rates`` first)."""
    import workbench as wb

    best = _best(res)
    labels = [f"{r}x{c}" for r, c in ROW_SHAPES]
    rows = []
    for (b, v), g in res.groupby(["SOFTMAX_BLOCK", "SOFTMAX_VEC"], sort=False):
        row = [b, v]
        for t in CHIP.values():
            for s in labels:
                r = g[(g["target"] == t) & (g["shape"] == s)].iloc[0]
                mark = "*" if (b, v) == (best[t, s].SOFTMAX_BLOCK, best[t, s].SOFTMAX_VEC) else ""
                row.append(f"{r.gbs:.0f} {r.lim}{mark}")
        rows.append(row)
    header = ["block", "vec"] + [f"{NAME[a]} {s}" for a in CHIP for s in labels]
    return wb.table(rows, header, title="modelled GB/s and limiter of step 6 by SOFTMAX_BLOCK x "
                    "SOFTMAX_VEC (* = best of the column; lat. = latency)")


def sweep_best(res):
    """The best point per chip and row length beside step 6 as written (1024, 8); modelled."""
    import workbench as wb

    arch = {CHIP[a]: a for a in CHIP}
    rows = []
    for (t, s), r in _best(res).items():
        d = res[(res["target"] == t) & (res["shape"] == s) & (res["SOFTMAX_BLOCK"] == 1024)
                & (res["SOFTMAX_VEC"] == 8)].iloc[0]
        rows.append([NAME[arch[t]], s, r.SOFTMAX_BLOCK, r.SOFTMAX_VEC, r.status, r.registers,
                     r.waves_per_simd, f"{r.gbs:.0f}", f"{r.pct:.1f}", r.modelled_limiter,
                     f"{d.gbs:.0f}", f"{d.pct:.1f}", d.modelled_limiter])
    return wb.table(rows, ("target", "shape", "block", "vec", "status", "regs", "waves/SIMD",
                           "GB/s", "% HBM", "limiter", "(1024, 8) GB/s", "(1024, 8) % HBM",
                           "(1024, 8) limiter"),
                    title="the best point per chip and row length, and step 6 as written "
                          "(1024, 8); all modelled")
