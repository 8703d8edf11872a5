"""``__device__`` / ``__constant__`` variables of a compiled module, read and written from Python.

What ``hipMemcpyToSymbol`` / ``hipMemcpyFromSymbol`` do in HIP: ``kernel.globals["coef"] =
[1, 2, 3, 4]`` before a launch, ``kernel.globals["counter"]`` after one. Names and C types come
from the code object's symbol table and clang's AST (``CodeObject.variables``); values are
typed by that C type (``float[4]`` -> a float32 array of shape (4,)). Each device keeps the
module as loaded there: the emulator keeps the code object's writable segments between
launches (``workbench.emu.machine.elfmap``), cupy devices use ``RawModule.get_global``.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..codeobject import DeviceVariable
from ..errors import ArgumentKeyError
from .args import element_dtype, vector_type
from .errors import LaunchError


def variable_dtype(var: DeviceVariable) -> tuple[np.dtype, tuple[int, ...]]:
    """numpy dtype and shape of a variable from its C type; raw bytes when not a number type
    (structs, bfloat16 is read as its uint16 bits)."""
    t = var.ctype or ""
    dims = tuple(int(d) for d in re.findall(r"\[(\d+)\]", t))
    base = re.sub(r"\s*\[\d*\]", "", t).strip()
    vec = vector_type(base)
    name = vec[0] if vec else element_dtype(base)
    if name is not None:
        dt = np.dtype("uint16" if name == "bfloat16" else name)
        shape = dims + ((vec[1],) if vec else ())
        if int(np.prod(shape, dtype=np.int64)) * dt.itemsize == var.size:
            return dt, shape
    return np.dtype(np.uint8), (var.size,)


class Globals:
    """The device variables of one module on one device (default: the current device)."""

    def __init__(self, module: Any, device: Any = None):
        self.module = module
        self._device = device

    # -- which device / arch ---------------------------------------------------------------
    @property
    def device(self) -> Any:
        from .devices import get_device, parse_device

        return parse_device(self._device) if self._device is not None else get_device()

    def on(self, device: Any) -> Globals:
        """The same variables as loaded on ``device`` ("emulator", "cuda", "rocm:1", ...)."""
        return Globals(self.module, device)

    def _variables(self, dev: Any) -> dict[str, DeviceVariable]:
        arch = getattr(dev, "arch", None)
        if arch is not None and arch not in self.module.archs:
            raise LaunchError(f"the module was compiled for {', '.join(self.module.archs)} but "
                              f"{dev.name} runs {arch}: compile with --arch {arch}")
        return self.module[arch or self.module.archs[0]].variables

    # -- mapping ---------------------------------------------------------------------------
    def names(self) -> list[str]:
        return list(self.module[self.module.archs[0]].variables)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __contains__(self, name: object) -> bool:
        return name in self.names()

    def info(self, name: str) -> DeviceVariable:
        return self._lookup(self.module[self.module.archs[0]].variables, name)

    def _lookup(self, table: dict[str, DeviceVariable], name: str) -> DeviceVariable:
        if name in table:
            return table[name]
        for v in table.values():
            if name == v.symbol:
                return v
        known = ", ".join(f"{v.name} ({v.ctype or '?'})" for v in table.values()) or "none"
        raise ArgumentKeyError(f"no __device__/__constant__ variable {name!r} in the module "
                               f"(variables: {known})")

    def __getitem__(self, name: str) -> Any:
        dev = self.device
        var = self._lookup(self._variables(dev), name)
        raw = _access(dev, "read_global")(self.module, var)
        dt, shape = variable_dtype(var)
        arr = np.frombuffer(bytes(raw), dt).reshape(shape).copy()
        return arr[()] if shape == () else arr

    def __setitem__(self, name: str, value: Any) -> None:
        dev = self.device
        var = self._lookup(self._variables(dev), name)
        _access(dev, "write_global")(self.module, var, to_bytes(var, value))

    def __repr__(self) -> str:
        items = ", ".join(f"{v.ctype or '?'} {v.name}"
                          for v in self.module[self.module.archs[0]].variables.values())
        return f"<Globals {{{items}}}>"


def _access(dev: Any, what: str) -> Any:
    fn = getattr(dev, what, None)
    if fn is None:
        raise LaunchError(f"{dev.name} cannot read or write __device__ variables")
    return fn


def to_bytes(var: DeviceVariable, value: Any) -> bytes:
    """``value`` as the variable's exact bytes, checked against its C type and shape."""
    where = f"{var.name} ({var.ctype or f'{var.size} bytes'})"
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        if len(data) != var.size:
            raise LaunchError(f"{where} is {var.size} bytes, got {len(data)} bytes")
        return data
    dt, shape = variable_dtype(var)
    arr = np.asarray(value)
    if arr.shape != shape:
        raise LaunchError(f"{where} has shape {shape}, got a value of shape {arr.shape}")
    if arr.dtype.kind == "f" and dt.kind in "iub":
        raise LaunchError(f"{where} holds {dt.name}, got floating-point values")
    if arr.dtype.kind in "iub" and dt.kind in "iu":
        info = np.iinfo(dt)
        if arr.size and (int(arr.min()) < info.min or int(arr.max()) > info.max):
            raise LaunchError(f"{where}: values must be in [{info.min}, {info.max}]")
    if arr.dtype.kind not in "iubf":
        raise LaunchError(f"{where} holds {dt.name}, got {arr.dtype} values")
    return np.ascontiguousarray(arr, dt).tobytes()
