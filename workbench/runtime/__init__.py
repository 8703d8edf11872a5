"""Launching kernels: the Device protocol, device selection, argument checking, Kernel."""

from .args import BoundArg, bind_args
from .device import Device, LaunchResult
from .devices import devices, get_device, set_device
from .errors import KernelFault, LaunchError
from .kernel import Kernel

__all__ = [
    "BoundArg", "Device", "Kernel", "KernelFault", "LaunchError", "LaunchResult", "bind_args",
    "devices", "get_device", "set_device",
]
