"""``wb.sweep``: many variants of a kernel compiled, checked and modelled offline, on Dask.

A GPU autotuner runs every variant. Without a GPU, hipwb does for each variant what it does for
one kernel, all on the CPU: compile it (the variant's parameters are ``-D`` macros), read its
resources and occupancy, run it on the emulator at a small shape against a reference, and model
its time on MI300X / MI355X at the real shapes. The points are independent, so they run on Dask
workers (``executor``); each finished point is cached by everything that decided it
(``result_cache``, ``fingerprint``), so a re-run evaluates only new or changed points. The
result is a pandas DataFrame (``frame.SweepResult``). docs/sweeps.md is the user's guide.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..argument_types import checked
from ..errors import ArgumentTypeError, ArgumentValueError
from .space import points

__all__ = ["sweep", "SWEEP_FORMAT"]

SWEEP_FORMAT = 1   # bump when a row's meaning changes: every cached row is then a miss
_SOURCE_SUFFIXES = (".hip", ".cpp", ".cu", ".cc", ".cxx", ".hpp", ".h", ".cuh")


def _read_source(source: Any, filename: str | None) -> tuple[str, str, list[str]]:
    """(text, filename, extra include folders) of a source given as text or as a file."""
    if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source and
            source.strip().endswith(_SOURCE_SUFFIXES) and len(source) < 4096):
        path = Path(source).expanduser()
        if not path.is_file():
            raise ArgumentValueError(f"sweep source: no file {str(path)!r}")
        # clang finds "quoted" includes beside the including file: so does the sweep
        return path.read_text(), filename or str(path), [str(path.resolve().parent)]
    if not isinstance(source, str):
        raise ArgumentTypeError(f"sweep source: HIP source text or a path to a .hip file, got "
                                f"{type(source).__name__}")
    return source, filename or "sweep.hip", []


def _version() -> str:
    """hipwb's installed version (its sources' hash is added beside it by the caller)."""
    from importlib import metadata

    try:
        return metadata.version("hip-workbench")
    except metadata.PackageNotFoundError:
        return "unknown"


def _shape(s: Any, what: str) -> tuple:
    if isinstance(s, int):
        return (s,)
    if isinstance(s, (tuple, list)) and all(isinstance(x, int) for x in s):
        return tuple(s)
    raise ArgumentTypeError(f"sweep {what}: a shape is an int or a tuple of ints, got {s!r}")


@checked
def sweep(source: str | os.PathLike, space: Mapping[str, Sequence] | Sequence[Mapping], *,
          launch: Callable, inputs: Callable | None = None, reference: Callable | None = None,
          targets: str | Sequence[str] = "mi355x", kernel: str | None = None,
          check_shape: Any = None, shapes: Sequence[Any] = (), flops: Callable | None = None,
          tolerance: float = 0.0, constraint: Callable[[dict], Any] | None = None,
          options: Sequence[str] = (), defines: Mapping[str, Any] | None = None,
          include_dirs: Sequence[str | os.PathLike] = (), filename: str | None = None,
          clock: str = "modelled", emulation_timeout: float = 300.0, cluster: Any = None,
          workers: int | None = None, cache: bool = True, progress: bool = True):
    """Compile, check and model every point of ``space`` on every target.

    ``source``: HIP text, or a path to a .hip file; each parameter of a point is a ``-D``
    macro (``defines`` adds fixed ones). ``space``: a dict of lists (their product) or a list of
    dicts; ``constraint(params)`` keeps a point when true. ``targets``: chips ('mi300x',
    'mi355x': timed by the model) or archs ('gfx1100': compiled and checked, not timed).
    ``launch(shape, params) -> (grid, block[, dynamic_lds_bytes])``; ``inputs(shape, params)
    -> kernel arguments``; ``reference(shape, params, args) -> expected`` (an array for the one
    writable pointer argument, or a dict by argument name/index), compared after the emulator
    ran the variant at ``check_shape``, exact unless ``tolerance`` (max absolute error) is
    given; ``shapes``: the real problem shapes the model times (``flops(shape, params)`` gives
    the useful FLOPs; default the MFMA FLOPs executed).
    ``cluster``: None (an embedded Dask LocalCluster of ``workers`` processes, default one per
    core), a scheduler address ``'tcp://host:8786'``, a ``distributed.Client``, or 'inline'
    (this process, no Dask). Returns a ``SweepResult`` (a pandas DataFrame, one row per
    point x target x shape, failed points with their error; ``.best()``, ``.view()``).
    """
    from .. import prelude, toolchain
    from . import result_cache
    from .executor import run
    from .fingerprint import digest, function_fingerprint, package_fingerprint, tree_fingerprint
    from .frame import SweepResult
    from .point import SweepSpec, Task, resolve_target
    from .progress import Progress

    text, fname, extra_dirs = _read_source(source, filename)
    pts, rejected = points(space, constraint)
    tlist = [targets] if isinstance(targets, str) else list(targets)
    if not tlist:
        raise ArgumentValueError("sweep targets: at least one chip or arch")
    labels = list(dict.fromkeys(resolve_target(t)[0] for t in tlist))
    if not callable(launch):
        raise ArgumentTypeError("sweep launch: a function (shape, params) -> (grid, block)")
    for name, fn in (("inputs", inputs), ("reference", reference), ("flops", flops)):
        if fn is not None and not callable(fn):
            raise ArgumentTypeError(f"sweep {name}: a function, got {type(fn).__name__}")
    shape_list = tuple(_shape(s, "shapes") for s in shapes)
    check = _shape(check_shape, "check_shape") if check_shape is not None else None
    if reference is not None and check is None:
        raise ArgumentValueError("sweep reference needs check_shape=: the shape the emulator "
                                 "runs each variant at")
    if inputs is None and (reference is not None or shape_list):
        raise ArgumentValueError("sweep needs inputs=(shape, params) -> kernel arguments to "
                                 "check or time the variants")
    if not isinstance(tolerance, (int, float)) or tolerance < 0:
        raise ArgumentValueError(f"sweep tolerance: a max absolute error >= 0, got {tolerance!r}")
    fixed = dict(defines or {})
    clash = sorted(set(fixed) & {n for p in pts for n in p})
    if clash:
        raise ArgumentValueError(f"sweep: {', '.join(clash)} is both a fixed define and a "
                                 f"swept parameter")
    dirs = tuple(str(Path(d).expanduser().resolve()) for d in include_dirs) + tuple(
        d for d in extra_dirs if d not in include_dirs)
    spec = SweepSpec(source=text, filename=fname, options=tuple(options), include_dirs=dirs,
                     defines=tuple(sorted(fixed.items())), kernel=kernel, launch=launch,
                     inputs=inputs, reference=reference, check_shape=check, shapes=shape_list,
                     flops=flops, tolerance=float(tolerance), clock=clock,
                     emulation_timeout=float(emulation_timeout))
    tc = toolchain.find_toolchain().identity
    model_version = package_fingerprint("timing")
    hipwb_version = f"{_version()}+{package_fingerprint()}"
    common = digest(SWEEP_FORMAT, text, fname, spec.options, dirs, tree_fingerprint(list(dirs)),
                    spec.defines, kernel, check, shape_list, function_fingerprint(launch),
                    function_fingerprint(inputs), function_fingerprint(reference),
                    function_fingerprint(flops), spec.tolerance, clock, tc,
                    prelude.prelude_hash(), hipwb_version, model_version)
    tasks, found = [], {}
    for p in pts:
        for label in labels:
            key = digest(common, sorted(p.items()), label)
            tasks.append(Task(spec=spec, params=p, target=label, key=key, toolchain=tc))
            hit = result_cache.load(key) if cache else None
            if hit is not None:
                found[len(tasks) - 1] = hit
    todo = [i for i in range(len(tasks)) if i not in found]
    bar = Progress(len(tasks), len(found), "", enabled=progress)
    results: dict[int, list[dict]] = {i: [dict(r, cached=True) for r in rows]
                                      for i, rows in found.items()}

    def on_rows(j: int, rows: list[dict]) -> None:
        i = todo[j]
        if cache:
            result_cache.store(tasks[i].key, rows)
        results[i] = [dict(r, cached=False) for r in rows]
        bar.step(failed=any(r.get("status") != "ok" for r in rows))

    how = "all from cache"
    try:
        if todo:
            bar.how = "starting" if cluster != "inline" else "inline"
            how = run([tasks[i] for i in todo], cluster, workers, on_rows,
                      str(result_cache.cache_base()), lambda h: setattr(bar, "how", h))
            bar.how = how
    except KeyboardInterrupt:
        bar.close(interrupted=True)
        print(f"sweep interrupted: {len(results)} of {len(tasks)} points finished; their rows "
              f"are cached, so running the sweep again continues from there")
        raise
    bar.close()
    rows = [r for i in range(len(tasks)) for r in results[i]]
    attrs = dict(points=len(pts), targets=labels, rejected_by_constraint=rejected,
                 evaluated=len(todo), from_cache=len(found), ran=how, hipwb=hipwb_version,
                 timing_model=model_version, toolchain=tc,
                 keys=[t.key for t in tasks])
    return SweepResult.from_rows(rows, list(dict.fromkeys(n for p in pts for n in p)), attrs,
                                 spec)
