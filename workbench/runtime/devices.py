"""Which devices exist, and which one launches use by default.

Default (docs/architecture.md): a ROCm GPU when cupy's ROCm build sees one, else the emulator; an
NVIDIA GPU runs portable kernels only when asked for (``set_device("cuda")`` or
``HIPWB_DEVICE=cuda``), since it cannot run AMD code objects.
"""

from __future__ import annotations

import importlib
import os
import threading
from functools import cache

from ..argument_types import checked
from .device import Device
from .errors import LaunchError

_current: Device | None = None
_lock = threading.Lock()


@cache
def _cupy_backend() -> tuple[str | None, int]:
    """("rocm" | "cuda" | None, device count) as cupy sees it; None when cupy is absent."""
    try:
        import cupy
    except Exception:  # ImportError, or a cupy built for a driver that is missing
        return None, 0
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception:
        n = 0
    return ("rocm" if getattr(cupy.cuda.runtime, "is_hip", False) else "cuda"), n


_made: dict[tuple[str, int | str], Device] = {}


def _make(kind: str, index: int | str = 0) -> Device:
    """The one Device object for (kind, index): kept, so its compiled-kernel cache and any
    prebound launch plans are reused instead of rebuilt per launch."""
    dev = _made.get((kind, index))
    if dev is None:
        dev = _made[(kind, index)] = _new_device(kind, index)
    return dev


def _new_device(kind: str, index: int | str) -> Device:
    if kind == "emulator":
        mod = importlib.import_module("workbench.runtime.emulator")
        return mod.EmulatorDevice() if index == 0 else mod.EmulatorDevice(str(index))
    backend, count = _cupy_backend()
    if kind in ("rocm", "cuda"):
        if backend != kind or count == 0:
            have = f"cupy sees {count} {backend} device(s)" if backend else "cupy is not installed"
            extra = "cupy-rocm-7-0" if kind == "rocm" else "cupy-cuda12x"
            raise LaunchError(f"no {kind} device: {have} (pip install 'hip-workbench[{kind}]' "
                              f"installs {extra})")
        if not 0 <= index < count:
            raise LaunchError(f"{kind}:{index} does not exist ({count} device(s))")
        cls = "RocmDevice" if kind == "rocm" else "CudaDevice"
        return getattr(importlib.import_module(f"workbench.runtime.{kind}"), cls)(index)
    raise LaunchError(f"unknown device {kind!r}: use 'emulator[:gfx950]', 'rocm[:N]' or "
                      "'cuda[:N]'")


def parse_device(spec: str | Device) -> Device:
    """A Device from 'emulator', 'emulator:gfx950', 'rocm', 'rocm:1', 'cuda', 'cuda:0', or a
    Device itself."""
    if not isinstance(spec, str):
        return spec
    kind, _, idx = spec.strip().lower().partition(":")
    if kind == "emulator" and idx:
        return _make(kind, 0 if idx == "gfx942" else idx)
    if idx and not idx.isdigit():
        raise LaunchError(f"bad device {spec!r}: the index must be a number, e.g. 'rocm:0'")
    return _make(kind, int(idx or 0))


@checked
def devices() -> list[Device]:
    """Every device available here: GPUs cupy sees, then the emulator."""
    out: list[Device] = []
    backend, count = _cupy_backend()
    if backend is not None:
        for i in range(count):
            try:
                out.append(_make(backend, i))
            except (LaunchError, ImportError):
                pass
    out.append(_make("emulator"))
    return out


def default_device() -> Device:
    """HIPWB_DEVICE if set, else a ROCm GPU if there is one, else the emulator."""
    env = os.environ.get("HIPWB_DEVICE")
    if env:
        return parse_device(env)
    backend, count = _cupy_backend()
    if backend == "rocm" and count > 0:
        return _make("rocm", 0)
    return _make("emulator")


def current_device() -> Device | None:
    """The default device if one was chosen or made already, else None (no discovery, no
    lock: the launch fast path reads it on every call)."""
    return _current


@checked
def get_device() -> Device:
    """The device launches use when none is named."""
    global _current
    with _lock:
        if _current is None:
            _current = default_device()
        return _current


@checked
def set_device(spec: str | Device | None) -> Device:
    """Choose the default device ('emulator', 'rocm[:N]', 'cuda[:N]'); None resets to auto."""
    global _current
    with _lock:
        _current = None if spec is None else parse_device(spec)
    return get_device()


def reset() -> None:
    """Forget what was discovered (cupy backend, device objects, the default): after cupy was
    installed or replaced in this process."""
    global _current
    _cupy_backend.cache_clear()
    _made.clear()
    with _lock:
        _current = None
