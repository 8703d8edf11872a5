"""One variant of a sweep, start to finish: compile, resources, occupancy, check, modelled time.

``evaluate(task)`` runs where the sweep sends it (a Dask worker, or the calling process) and
never raises for what the variant or the user's functions do: each stage that fails ends the
point with a row whose ``status`` names the stage (compile error, input error, launch error,
wrong result, reference error, timing error) and whose ``error`` holds the message. The rows are
plain dicts of plain values, so they pickle, cache as JSON and become a DataFrame as they are.
One row per real shape (``shape`` column); a point that stops before timing gets one row per
shape too, with the modelled columns empty, so every (point, target, shape) has its row.
"""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ArgumentValueError
from ..sweep_rules import shape_label

__all__ = ["Task", "SweepSpec", "build", "evaluate", "resolve_target"]


@dataclass(frozen=True)
class SweepSpec:
    """What every point of one sweep shares (the parameters and the target are per point)."""

    source: str
    filename: str
    options: tuple[str, ...]
    include_dirs: tuple[str, ...]
    defines: tuple[tuple[str, Any], ...]
    kernel: str | None
    launch: Any                  # (shape, params) -> (grid, block) | (grid, block, lds bytes)
    inputs: Any                  # (shape, params) -> tuple of kernel arguments
    reference: Any               # (shape, params, args) -> expected output(s), or None
    check_shape: tuple | None
    shapes: tuple[tuple, ...]
    flops: Any                   # (shape, params) -> useful FLOPs, or None (MFMA FLOPs)
    tolerance: float
    clock: str
    emulation_timeout: float


@dataclass(frozen=True)
class Task:
    """One (point, target) to evaluate; ``module`` is a shipped build (workers without the
    driver's cache folder), ``cache_base`` the shared ``HIPWB_CACHE_DIR`` otherwise."""

    spec: SweepSpec
    params: dict
    target: str
    key: str
    toolchain: str = ""
    module: Any = None
    cache_base: str | None = None
    extra: dict = field(default_factory=dict)


def resolve_target(target: str) -> tuple[str, str, str | None]:
    """(label, arch, chip) of a target given as a chip ('mi355x') or an arch ('gfx950')."""
    from ..arch import get as get_arch
    from ..timing import get_chip
    from ..timing.chips import CHIPS

    t = str(target).strip()
    if t.lower() in CHIPS:
        ch = get_chip(t.lower())
        return ch.name, ch.arch, ch.name
    try:
        arch = get_arch(t).name
    except (KeyError, ValueError):
        raise ArgumentValueError(
            f"sweep target {target!r} is neither a modelled chip ({', '.join(CHIPS)}) nor an "
            f"AMD arch (gfx942, gfx950, gfx1100, ...)") from None
    chip = next((c.name for c in CHIPS.values() if c.arch == arch), None)
    return arch, arch, chip


def _message(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    from ..errors import HipwbError

    if isinstance(e, HipwbError):
        return text
    # the user's own function (input factory, reference, launch) raised: say where
    tb = traceback.extract_tb(e.__traceback__)
    inside = [f for f in tb if "workbench" not in f.filename.replace(os.sep, "/").split("/")[-2:-1]
              and "/workbench/" not in f.filename]
    where = f" ({inside[-1].name}, line {inside[-1].lineno})" if inside else ""
    return f"{type(e).__name__}: {text}{where}"


def _config(spec: SweepSpec, shape: tuple, params: dict) -> tuple:
    cfg = spec.launch(shape, dict(params))
    if not isinstance(cfg, (tuple, list)) or len(cfg) not in (2, 3):
        raise ArgumentValueError(f"sweep launch({shape}, params) returned {cfg!r}; it must "
                                 f"return (grid, block) or (grid, block, dynamic_lds_bytes)")
    return tuple(cfg)


def _outputs(info: Any, args: tuple, expected: Any) -> dict[int, Any]:
    """Which arguments the reference's expectation is for: a dict by index or name, or the one
    writable pointer argument."""
    names = {a.name: i for i, a in enumerate(info.args)}
    if isinstance(expected, dict):
        out = {}
        for k, v in expected.items():
            i = names.get(k, k) if isinstance(k, str) else k
            if not isinstance(i, int) or not 0 <= i < len(args):
                raise ArgumentValueError(f"sweep reference: {k!r} is not an argument of the "
                                         f"kernel ({', '.join(names)})")
            out[i] = v
        return out
    writable = [i for i, a in enumerate(info.args) if a.is_pointer and not a.is_const]
    if len(writable) != 1:
        raise ArgumentValueError(
            f"sweep reference returned one array but the kernel has {len(writable)} writable "
            f"pointer arguments; return a dict {{argument name or index: expected}}")
    return {writable[0]: expected}


def _as_numpy(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):                       # torch
        x = x.detach().cpu()
        if str(x.dtype) in ("torch.bfloat16",) or "float8" in str(x.dtype):
            x = x.float()
        return x.numpy()
    if hasattr(x, "get") and type(x).__module__.startswith("cupy"):
        return x.get()
    return np.asarray(x)


def _compare(info: Any, args: tuple, expected: Any, tol: float) -> tuple[bool, float, str]:
    worst, where, exact = 0.0, "", True
    for i, want in _outputs(info, args, expected).items():
        got, want = _as_numpy(args[i]).astype(np.float64), _as_numpy(want).astype(np.float64)
        if got.size != want.size:
            raise ArgumentValueError(f"sweep reference for {info.args[i].name}: {want.size} "
                                     f"values, the argument holds {got.size}")
        got, want = got.reshape(want.shape), want
        both_nan = np.isnan(got) & np.isnan(want)
        diff = np.where(both_nan, 0.0, np.abs(got - want))
        diff = np.where(np.isnan(diff), np.inf, diff)
        exact &= bool((diff == 0).all())
        if diff.size and float(diff.max()) > worst:
            worst = float(diff.max())
            idx = np.unravel_index(int(np.argmax(diff)), diff.shape)
            where = (f"{info.args[i].name}{list(map(int, idx))}: got {got[idx]!r}, "
                     f"want {want[idx]!r}")
    return (worst <= tol), worst, where


def evaluate(task: Task) -> list[dict]:
    """Rows for one (point, target): see the module docstring."""
    t0 = time.perf_counter()
    spec = task.spec
    label, arch, chip = resolve_target(task.target)
    base: dict[str, Any] = dict(task.params)
    base.update(target=label, arch=arch, status="ok", error=None, compiled=False, exact=None,
                max_error=None)
    shapes = spec.shapes or ((),)
    rows: list[dict] = []

    def finish(status: str | None = None, error: str | None = None) -> list[dict]:
        if status:
            base.update(status=status, error=error)
        if not rows:    # stopped before timing: one row per shape all the same
            rows.extend(dict(base, shape=shape_label(s)) for s in shapes)
        seconds, worker = round(time.perf_counter() - t0, 4), _worker_name()
        for r in rows:
            r.update(seconds=seconds, worker=worker)
        return rows

    if task.cache_base:
        os.environ["HIPWB_CACHE_DIR"] = task.cache_base
    # compile (or take the shipped build)
    try:
        if task.module is not None:
            module = task.module
        else:
            from .. import toolchain as _tc

            if task.toolchain:
                here = _tc.find_toolchain().identity
                if here != task.toolchain:
                    return finish("compile error", f"this worker's LLVM ({here}) is not the "
                                  f"sweep's ({task.toolchain}): run workers with the same LLVM")
            module = build(spec, arch, task.params)
    except Exception as e:
        return finish("compile error", _message(e))
    base["compiled"] = True
    try:
        from ..runtime.kernel import Kernel

        names = module.kernel_names()
        name = spec.kernel or (names[0] if len(names) == 1 else None)
        if name is None:
            raise ArgumentValueError(f"the source has {len(names)} kernels "
                                     f"({', '.join(names)}); name one: wb.sweep(..., kernel=)")
        kernel = Kernel(module, name, device=f"emulator:{arch}")
        r = kernel.info(arch).resources
        base.update(kernel=name, registers=r.vgprs + r.agprs, vgprs=r.vgprs, agprs=r.agprs,
                    sgprs=r.sgprs,
                    lds_bytes=r.lds_bytes, scratch_bytes=r.scratch_bytes)
        first = spec.check_shape if spec.check_shape is not None else shapes[0]
        cfg = _config(spec, first, task.params)
        occ = kernel.occupancy(cfg[1], arch, dynamic_lds=int(cfg[2]) if len(cfg) == 3 else 0)
        base.update(block=_dims(cfg[1]), waves_per_simd=occ.waves_per_simd,
                    occupancy_limiter=occ.limiter, workgroups_per_cu=occ.workgroups_per_cu)
    except Exception as e:
        return finish("launch error", _message(e))
    # the check at the small shape
    if spec.reference is not None and spec.check_shape is not None:
        try:
            args = tuple(spec.inputs(spec.check_shape, dict(task.params)))
        except Exception as e:
            return finish("input error", _message(e))
        try:     # cfg is the check shape's: occupancy above was read at it
            kernel[cfg](*args, timeout=spec.emulation_timeout)
        except Exception as e:
            return finish("launch error", _message(e))
        try:
            expected = spec.reference(spec.check_shape, dict(task.params), args)
            ok, worst, where = _compare(kernel.info(arch), args, expected, spec.tolerance)
        except Exception as e:
            return finish("reference error", _message(e))
        base.update(exact=worst == 0.0, max_error=worst)
        if not ok:
            return finish("wrong result", f"max |error| {worst:.6g} > tolerance "
                          f"{spec.tolerance:g} at {where}")
    # the modelled time at each real shape
    for s in spec.shapes:
        row = dict(base, shape=shape_label(s))
        if chip is None:     # compiled and checked; the timing model has no chip for this arch
            row.update(modelled_limiter=f"not modelled (no modelled chip runs {arch})")
            rows.append(row)
            continue
        try:
            args = tuple(spec.inputs(s, dict(task.params)))
            cfg = _config(spec, s, task.params)
            flops = float(spec.flops(s, dict(task.params))) if spec.flops else None
            rep = kernel.timing[cfg](*args, chip=chip, flops=flops, clock=spec.clock)
            row.update(modelled_us=rep.seconds * 1e6,
                       modelled_tflops=rep.tflops if rep.flops else None,
                       modelled_gbs=rep.gbs, modelled_clock_ghz=rep.clock_ghz,
                       modelled_limiter=rep.limiter.split(":")[0],
                       # what SweepResult.roofline() places the row by (modelled)
                       modelled_flops=rep.flops, modelled_dtype=rep.dtype,
                       modelled_lds_bytes=rep.traffic.get("LDS", 0.0),
                       modelled_l2_bytes=rep.traffic.get("L2", 0.0),
                       modelled_hbm_bytes=rep.traffic.get("HBM", 0.0))
        except Exception as e:
            row.update(status="timing error", error=_message(e))
        rows.append(row)
    return finish()


def build(spec: SweepSpec, arch: str, params: dict) -> Any:
    """The Module of one variant: the sweep's source with its fixed defines and the point's
    parameters as -D macros (a bool as 0/1). Evaluating, shipping and re-opening a row all
    build through here, so they compile the same thing (the compile cache then serves it)."""
    from ..compiler import compile as _compile

    defines = dict(spec.defines, **{k: int(v) if isinstance(v, bool) else v
                                    for k, v in params.items()})
    return _compile(spec.source, arch, spec.options, defines=defines,
                    include_dirs=spec.include_dirs, filename=spec.filename)


def _dims(d: Any) -> str:
    if isinstance(d, (tuple, list)):
        return "x".join(str(int(x)) for x in d)
    return str(int(d))


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().name if isinstance(get_worker().name, str) else \
            str(get_worker().address)
    except Exception:
        return f"pid {os.getpid()}"
