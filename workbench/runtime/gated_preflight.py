"""The pre-flight of a launch whose sizes only gate lanes (``workbench.lane_gates``): tried at
the sizes that let every lane through first.

Why: a verdict checked at a size covers every size that runs a subset of its lanes. Checked at
the widest size (``INT_MAX`` for ``i < n``), the boundary workgroups run every lane the gate
can let through, so a "checked" verdict then covers every size: a size that changes every call
costs one pre-flight, not one per new maximum. Where the widest size faults (a grid rounded up
past the buffers' end, as is usual), it is not the user's launch. For one increasing gate on a
one-dimensional launch, the first faulting thread's global index is then tried as the size
(``i < n`` with ``i`` that index lets every thread before it through): if that passes, the
verdict covers every size up to it, so sizes in any order up to the buffers' end cost two
pre-flights in all. The guess only picks which size to check; the check alone decides. Else,
or when the launch's own size lies past it, the pre-flight runs with the launch's own sizes, and
that verdict (checked, or the refusal) is the one kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np


def gated_preflight(preflight: Any, gates: list, args: tuple, bound: list, run: tuple,
                    key: tuple) -> tuple[Any, Any]:
    """(verdict with its ``bounds``, the LaunchRefused to raise or None). ``preflight``:
    the guard's, called as ``preflight(*run[:5], bound, run[5])`` (kernel, device, info, grid,
    block; dynamic LDS); ``gates``: (argument index, Gate) pairs; ``key``: the verdict's key
    (its sizes left out), under which a widest try that did not pass is not tried again."""
    # kept with the kernel's verdicts (and cleared with them)
    failed = run[0]._verdicts.setdefault(("widest sizes not checked",), set())
    wide = None if key in failed else Tried(bound, "widest")
    for i, g in gates if wide is not None else ():
        dt = np.asarray(bound[i].value).dtype
        if dt.kind not in "iu" or dt.itemsize * 8 != g.bits:
            wide = None  # a size typed unlike its compare: checked as given only
            break
        raw = np.array(g.widest() & ((1 << g.bits) - 1), dtype=f"u{dt.itemsize}")
        wide[i] = replace(bound[i], value=raw.view(dt)[()])
    if wide is not None:
        v, err = preflight(*run[:5], wide, run[5])
        if v.status == "checked":
            return replace(v, bounds=tuple((i, g, g.widest()) for i, g in gates),
                           reason=f"{v.reason}; with every lane a size lets through, so any "
                                  f"size is covered"), None
        failed.add(key)
        guessed = _first_fault_index(err, gates, args, run[3], run[4])
        if guessed is not None:
            (i, g), = gates
            at = Tried(bound, "guess")
            at[i] = replace(bound[i], value=np.asarray(bound[i].value).dtype.type(guessed))
            v, _ = preflight(*run[:5], at, run[5])
            if v.status == "checked":
                return replace(v, bounds=((i, g, guessed),),
                               reason=f"{v.reason}; at size {guessed}, so every size up to "
                                      f"it is covered"), None
    v, err = preflight(*run[:5], bound, run[5])
    return replace(v, bounds=tuple((i, g, int(args[i])) for i, g in gates)), err


class Tried(list):
    """The argument list of a pre-flight this module adds, saying which (``purpose``: "widest"
    or "guess"), so a caller counting pre-flights can tell them from the launch's own."""

    def __init__(self, bound: list, purpose: str):
        super().__init__(bound)
        self.purpose = purpose


def _first_fault_index(err: Any, gates: list, args: tuple, grid: tuple,
                       block: tuple) -> int | None:
    """The global index of the thread the widest try faulted in, when that is a size worth
    checking: one increasing gate, a one-dimensional launch, and past the launch's own size."""
    if err is None or len(gates) != 1 or getattr(err, "thread", None) is None:
        return None
    (i, g), = gates
    if not g.increasing or tuple(grid[1:]) != (1, 1) or tuple(block[1:]) != (1, 1):
        return None
    index = int(err.workgroup[0]) * int(block[0]) + int(err.thread[0])
    lo, hi = g.limits()
    if not lo <= index <= hi or not g.covers(index, int(args[i])):
        return None  # the launch's own size lies past it: only its own check can tell
    return index
