"""``@triton.autotune`` and ``@triton.heuristics`` around a ``@triton.jit`` function.

Why: most Triton kernels users bring are wrapped: ``@triton.autotune(configs=[...], key=[...])``
over ``@triton.heuristics({...})`` over ``@triton.jit``. ``wb.triton`` launches the jit function
inside and applies the wrappers as ``triton/runtime/autotuner.py`` does at each launch:

- ``Heuristics.run``: each value is computed from the launch's arguments (positional ones by
  name, keywords, and what outer wrappers added) and passed as a keyword.
- ``Autotuner.run``: Triton times every config on the GPU and launches the fastest. Emulated
  seconds say nothing of a GPU's, so hipwb launches one config: the first, or the one
  ``wb.triton(fn, config=i)`` names (``kern.configs`` lists them). Its ``kwargs`` (constexprs,
  and AMD options such as ``waves_per_eu`` or ``matrix_instr_nonkdim``) and ``num_warps`` /
  ``num_stages`` / ``num_ctas`` join the launch, a name given both ways is an error (Triton's
  "Conflicting meta-parameters"), and the config's ``pre_hook`` runs before the launch. Options
  Triton's AMD backend does not take (``maxnreg``, ``ir_override``) are left out, as its option
  parser drops them. With several configs Triton benchmarks at the first launch of a tuning
  key and then calls the autotuner's pre_hook with ``reset_only=True`` (``reset_to_zero``
  arguments zeroed) before the real launch; hipwb does that reset at the first launch of a key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ArgumentValueError, LaunchError


def is_jit(fn: Any) -> bool:
    """A ``triton.runtime.jit.JITFunction`` (what ``@triton.jit`` makes)."""
    return hasattr(fn, "params") and hasattr(fn, "arg_names") and hasattr(fn, "cache_key")


def _kind(fn: Any) -> str | None:
    """"autotune" / "heuristics" for Triton's two wrappers (duck-typed on their fields)."""
    if hasattr(fn, "configs") and hasattr(fn, "keys") and hasattr(fn, "fn"):
        return "autotune"
    if hasattr(fn, "values") and hasattr(fn, "arg_names") and hasattr(fn, "fn") \
            and isinstance(fn.values, dict):
        return "heuristics"
    return None


def unwrap(fn: Any) -> tuple[Any, tuple[Any, ...]]:
    """(the @triton.jit function inside, the wrappers around it, outermost first)."""
    layers = []
    while not is_jit(fn) and _kind(fn) is not None:
        layers.append(fn)
        fn = fn.fn
    return fn, tuple(layers)


def configs(layers: tuple[Any, ...]) -> list[Any]:
    """The configs of the (outermost) autotuner, [] without one."""
    return next((list(w.configs) for w in layers if _kind(w) == "autotune"), [])


def check_config(layers: tuple[Any, ...], index: int | None) -> int | None:
    if index is None:
        return None
    n = len(configs(layers))
    if not n:
        raise ArgumentValueError("config= picks one of an @triton.autotune kernel's configs; "
                                 "this kernel has no autotuner")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise ArgumentValueError(f"config= must be an index 0..{n - 1} into the autotuner's "
                                 f"{n} configs, got {index!r}")
    return index


def apply(layers: tuple[Any, ...], args: tuple, kwargs: dict[str, Any], index: int | None,
          accepted: Callable[[str], bool], seen: set
          ) -> tuple[dict[str, Any], list[Callable[[], Any]]]:
    """(the launch's keywords as the wrappers pass them on, the hooks to run before the
    launch). ``accepted(name)``: whether the jit function or the backend takes a keyword;
    ``seen``: the kernel's (autotuner, tuning key) pairs already launched."""
    kwargs = dict(kwargs)
    hooks: list[Callable[[], Any]] = []
    for w in layers:
        names = list(getattr(w, "arg_names", ()))
        if _kind(w) == "heuristics":
            for name, heur in w.values.items():
                kwargs[name] = heur({**dict(zip(names, args)), **kwargs})
            continue
        cfg = w.configs[index or 0]
        conflicts = sorted(kwargs.keys() & cfg.kwargs.keys())
        if conflicts:
            raise LaunchError(f"Conflicting meta-parameters: {', '.join(conflicts)} are given "
                              f"at the launch and by the autotuner's config {cfg}; Triton "
                              f"rejects this too (do not re-define auto-tuned symbols)")
        tuned = {k: v for k, v in cfg.all_kwargs().items() if v is not None and accepted(k)}
        given = {**dict(zip(names, args)), **kwargs}
        full = {**given, **tuned}
        if len(w.configs) > 1 and w.reset_to_zero:
            hooks.append(_first_of_key(w, given, full, seen))
        if cfg.pre_hook is not None:
            hooks.append(lambda hook=cfg.pre_hook, full=full: hook(full))
        kwargs.update(tuned)
    return kwargs, hooks


def _first_of_key(w: Any, given: dict[str, Any], full: dict[str, Any],
                  seen: set) -> Callable[[], Any]:
    """The reset Triton does after benchmarking a new tuning key (the key's argument values
    and the dtypes of the arguments, as ``Autotuner.run`` forms it), once per key."""
    named = {k: v for k, v in given.items() if k in w.arg_names}
    key = (id(w), tuple([named[k] for k in w.keys if k in named]
                        + [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]))

    def reset():
        if key not in seen:
            seen.add(key)
            w.pre_hook(full, reset_only=True)
    return reset
