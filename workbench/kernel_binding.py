"""Binding a cell's kernels into the notebook namespace without losing the user's values.

Why one place: ``%%hipkernel`` and ``%%triton`` follow the same rule. A name that holds a kernel
(of the kinds the magic makes) is rebound: the cell ran again. Any other taken name (a user
variable, a module, a builtin such as ``sum``, a Python keyword) is kept, and the kernel goes to
``<name>_kernel``, else ``<name>_kernel2``, ``<name>_kernel3``, ..., the first not taken; one
line is printed for each. Kernels whose own name is free are bound first, so a fallback never
takes the name of another kernel of the same cell.
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Mapping
from typing import Any


def name_taken(ns: Mapping[str, Any], name: str, kinds: tuple[type, ...]) -> bool:
    """Whether binding a kernel to ``name`` would lose something: the name holds a value other
    than a kernel of ``kinds``, names a builtin, or is a Python keyword."""
    if name in ns:
        return not isinstance(ns[name], kinds)
    return keyword.iskeyword(name) or hasattr(builtins, name)


def bind_kernels(ns: dict, kernels: Mapping[str, Any], kinds: tuple[type, ...],
                 magic: str) -> dict[str, str]:
    """Bind each of ``kernels`` (name -> kernel object) in ``ns`` by the module's rule; returns
    kernel name -> bound name. ``magic`` ("%%hipkernel") starts each printed line."""
    names = list(kernels)
    bound = {n: n for n in names if not n.isidentifier() or not name_taken(ns, n, kinds)}
    used = set(bound.values())
    for name in names:
        if name in bound:
            continue
        n, alt = 1, f"{name}_kernel"
        while alt in used or alt in names or name_taken(ns, alt, kinds):
            n += 1
            alt = f"{name}_kernel{n}"
        bound[name] = alt
        used.add(alt)
        held = ns.get(name, getattr(builtins, name, None))
        what = ("is a Python keyword" if keyword.iskeyword(name) else
                f"holds your {type(held).__name__}" if name in ns else "is a Python builtin")
        print(f"{magic}: the name {name!r} {what}: kept it; kernel {name} is bound as {alt}")
    for name in names:
        ns[bound[name]] = kernels[name]
    return bound
