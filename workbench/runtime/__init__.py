"""Launching kernels: the Device protocol, device selection, argument checking, Kernel."""

from .args import BoundArg, bind_args
from .device import Device, LaunchResult

# The devices() function is workbench.devices(); it is not re-exported here, because the name
# would shadow the workbench.runtime.devices module that `from . import devices` must reach.
from .devices import get_device, set_device
from .errors import KernelFault, LaunchError
from .guard import GuardVerdict, LaunchRefused, set_guard
from .kernel import Kernel

__all__ = [
    "BoundArg", "Device", "GuardVerdict", "Kernel", "KernelFault", "LaunchError", "LaunchRefused",
    "LaunchResult", "bind_args", "get_device", "set_device", "set_guard",
]
