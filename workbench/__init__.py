"""hipwb: a Jupyter-first workbench for AMD GPU HIP kernels.

``import workbench as wb``: ``wb.compile(source, arch=...)`` builds code objects and tells what
the hardware will see; ``%load_ext workbench`` adds the ``%%hipkernel`` magic. Heavy parts
(emulator, widgets, devices) load on first use so that importing the package stays fast.
"""

from __future__ import annotations

import importlib

from .codeobject import KernelArg, KernelDescriptor, KernelInfo, Resources
from .compiler import CodeObject, CompileError, Module, compile

# Imported eagerly, not lazily: a lazy `workbench.occupancy` function would be replaced by the
# submodule of the same name as soon as anything imports `workbench.occupancy` (the import
# system sets the package attribute on first load). The module is small and pure.
from .occupancy import occupancy, occupancy_table
from .toolchain import ToolchainError, find_toolchain

__version__ = "0.1.0"

# Public names that live in modules loaded on first use: name -> "module:attribute".
_LAZY = {
    "Kernel": "workbench.runtime.kernel:Kernel",
    "devices": "workbench.runtime.devices:devices",
    "set_device": "workbench.runtime.devices:set_device",
    "get_device": "workbench.runtime.devices:get_device",
    "bench": "workbench.runtime.bench:bench",
    "KernelFault": "workbench.runtime.errors:KernelFault",
    "LaunchError": "workbench.runtime.errors:LaunchError",
    "layout": "workbench.widgets.layout_explorer:layout",
    "lds_heatmap": "workbench.widgets.lds_heatmap:lds_heatmap",
}


def __getattr__(name: str):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    mod, attr = target.split(":")
    value = getattr(importlib.import_module(mod), attr)
    globals()[name] = value
    return value


def load_ipython_extension(ipython) -> None:
    """``%load_ext workbench``: register %%hipkernel, %%hipfile and %hipwb."""
    from .magics import load_ipython_extension as load

    load(ipython)


__all__ = [
    "CodeObject", "CompileError", "KernelArg", "KernelDescriptor", "KernelInfo", "Module",
    "Resources", "ToolchainError", "compile", "find_toolchain", "occupancy", "occupancy_table",
    *_LAZY,
]
