"""The pre-flight of a launch whose sizes only gate lanes (``workbench.lane_gates``): tried at
the sizes that let every lane through first.

Why: a verdict checked at a size covers every size that runs a subset of its lanes. Checked at
the widest size (``INT_MAX`` for ``i < n``), the boundary workgroups run every lane the gate
can let through, so a "checked" verdict then covers every size: a size that changes every call
costs one pre-flight, not one per new maximum. Where the widest size faults (a grid rounded up
past the buffers' end, as is usual), it is not the user's launch: the pre-flight runs again
with the launch's own sizes, and that verdict (checked, or the refusal) is the one kept.
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
    wide = None if key in failed else list(bound)
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
    v, err = preflight(*run[:5], bound, run[5])
    return replace(v, bounds=tuple((i, g, int(args[i])) for i, g in gates)), err
