"""The points of a parameter space: a dict of lists (their product) or a list of dicts.

A point is a dict from parameter name to value; its values become ``-D`` macros of the compile,
so each must be an int, a bool, a str or None (a bare ``-DNAME``). A constraint function keeps
the points it returns true for (a point it rejects is not a row of the result: it was never a
variant to build). Order is deterministic: the product iterates the last parameter fastest, as
``itertools.product`` does, so rows come back in the order a reader expects.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ArgumentTypeError, ArgumentValueError

__all__ = ["points"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _check_value(name: str, value: Any, where: str) -> Any:
    # numpy integers and bools arrive from np.arange / linspace: take them as Python values
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and any(c in value for c in "\0\n\r"):
            raise ArgumentValueError(f"sweep space: {where} parameter {name!r} = {value!r} holds "
                                     f"a control character; a -D value is one line")
        return value
    raise ArgumentTypeError(f"sweep space: {where} parameter {name!r} = {value!r} is a "
                            f"{type(value).__name__}; a -D macro takes an int, bool, str or None")


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ArgumentValueError(f"sweep space: parameter name {name!r} is not a C identifier "
                                 f"(it becomes a -D macro)")
    return name


def points(space: Mapping[str, Sequence[Any]] | Sequence[Mapping[str, Any]],
           constraint: Callable[[dict], Any] | None = None) -> tuple[list[dict], int]:
    """The points of ``space`` that ``constraint`` keeps, and how many it rejected."""
    if isinstance(space, Mapping):
        names = [_check_name(n) for n in space]
        lists = []
        for n in names:
            vals = space[n]
            if isinstance(vals, (str, bytes)) or not isinstance(vals, (Sequence, range)) and \
                    not hasattr(vals, "__iter__"):
                raise ArgumentTypeError(f"sweep space: parameter {n!r} needs a list of values, "
                                        f"got {type(vals).__name__} {vals!r}")
            vals = [_check_value(n, v, "") for v in vals]
            if not vals:
                raise ArgumentValueError(f"sweep space: parameter {n!r} has no values")
            lists.append(vals)
        raw = [dict(zip(names, combo)) for combo in itertools.product(*lists)]
    elif isinstance(space, Sequence) and not isinstance(space, (str, bytes)):
        raw = []
        for i, p in enumerate(space):
            if not isinstance(p, Mapping):
                raise ArgumentTypeError(f"sweep space: point {i} is a {type(p).__name__}; a list "
                                        f"space holds dicts of parameter values")
            raw.append({_check_name(n): _check_value(n, v, f"point {i}:") for n, v in p.items()})
    else:
        raise ArgumentTypeError(f"sweep space: a dict of lists or a list of dicts, got "
                                f"{type(space).__name__}")
    if not raw:
        raise ArgumentValueError("sweep space: no points")
    seen: set = set()
    unique = []
    for p in raw:
        key = tuple(sorted(p.items(), key=lambda kv: kv[0]))
        if key not in seen:
            seen.add(key)
            unique.append(p)
    if constraint is None:
        return unique, 0
    kept = []
    for p in unique:
        try:
            ok = constraint(dict(p))
        except Exception as e:  # the user's function: name the point it failed on
            raise ArgumentValueError(f"sweep constraint raised {type(e).__name__}: {e} on the "
                                     f"point {p}") from e
        if ok:
            kept.append(p)
    if not kept:
        raise ArgumentValueError(f"sweep constraint rejected all {len(unique)} points")
    return kept, len(unique) - len(kept)
