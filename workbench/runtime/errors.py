"""Errors a launch can raise (defined in ``workbench.errors``, below the emulator that raises
``KernelFault`` too)."""

from __future__ import annotations

from ..errors import KernelFault, LaunchError

__all__ = ["KernelFault", "LaunchError"]
