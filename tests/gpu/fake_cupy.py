"""A fake ``cupy`` module for CPU-only tests of the GPU path (no AMD or NVIDIA GPU needed).

It stands in for cupy's ROCm or CUDA build (``is_hip``) with just what RocmDevice, CudaDevice
and bench() call: device properties, RawModule/Function, device arrays with fake addresses,
streams, events and memset/memcpy. A Function "runs" a kernel by calling a Python reference
implementation registered under the kernel's symbol, on the fake device memory, so tests see
whether the values a launch passes (order, C types, addresses) are the right ones. Nothing here
is timed or executed on a GPU; tests that use it say so in their names.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np


class CompileException(Exception):
    """Stands in for cupy.cuda.compiler.CompileException."""

    def get_message(self) -> str:
        return str(self)


class _Memory:
    """Fake device memory: address -> numpy byte buffer."""

    def __init__(self):
        self.next = 0x7F00_0000_0000
        self.blocks: dict[int, np.ndarray] = {}

    def alloc(self, nbytes: int) -> int:
        addr = self.next
        self.next += (max(nbytes, 1) + 255) // 256 * 256 + 256
        self.blocks[addr] = np.zeros(max(nbytes, 1), np.uint8)
        return addr

    def view(self, addr: int, dtype: Any, count: int | None = None) -> np.ndarray:
        for base, buf in self.blocks.items():
            if base <= addr < base + len(buf):
                raw = buf[addr - base:]
                arr = raw[: (len(raw) // np.dtype(dtype).itemsize) * np.dtype(dtype).itemsize]
                out = arr.view(dtype)
                return out if count is None else out[:count]
        raise AssertionError(f"kernel touched {addr:#x}, which no fake allocation contains")


class FakeCupy(types.ModuleType):
    """The fake module; ``FakeCupy(hip=True, arch='gfx942:sramecc+:xnack-')`` for ROCm."""

    def __init__(self, *, hip: bool, arch: str = "gfx942:sramecc+:xnack-",
                 name: str = "Fake GPU", devices: int = 1, cus: int = 304,
                 kernels: dict[str, Callable] | None = None, missing_symbols=(),
                 compile_error: str | None = None):
        super().__init__("cupy")
        self.mem = _Memory()
        self.kernels = dict(kernels or {})
        self.missing_symbols = set(missing_symbols)
        self.compile_error = compile_error
        self.raw_modules: list[dict] = []
        self.launches: list[dict] = []
        self.memsets: list[tuple] = []
        self.events_recorded = 0
        self.current_device = 0
        fake = self

        props = {"name": name.encode(), "l2CacheSize": 4 * 2**20, "multiProcessorCount": cus,
                 "totalGlobalMem": 64 * 2**30}
        if hip:
            props["gcnArchName"] = arch.encode()

        class Runtime(types.SimpleNamespace):
            is_hip = hip
            memcpyHostToDevice, memcpyDeviceToHost, memcpyDeviceToDevice = 1, 2, 3

            @staticmethod
            def getDeviceCount():
                return devices

            @staticmethod
            def getDeviceProperties(i):
                if not 0 <= i < devices:
                    raise RuntimeError(f"invalid device {i}")
                return dict(props)

            @staticmethod
            def getDevice():
                return fake.current_device

            @staticmethod
            def setDevice(i):
                fake.current_device = i

            @staticmethod
            def deviceSynchronize():
                pass

            @staticmethod
            def memGetInfo():
                return 60 * 2**30, 64 * 2**30

            @staticmethod
            def memcpy(dst, src, n, kind):
                fake.mem.view(dst, np.uint8, n)[:] = fake.mem.view(src, np.uint8, n)

            @staticmethod
            def memsetAsync(ptr, value, n, stream):
                fake.memsets.append((ptr, value, n))

        class Stream:
            ptr = 0

            def synchronize(self):
                pass

        class Event:
            def __init__(self, block=False, disable_timing=False):
                self.time = None

            def record(self, stream=None):
                fake.events_recorded += 1
                self.time = fake.events_recorded * 1e-3  # 1 µs per record, in ms

            def synchronize(self):
                pass

        @contextlib.contextmanager
        def device_ctx(i):
            prev = fake.current_device
            fake.current_device = i
            try:
                yield
            finally:
                fake.current_device = prev

        compiler = types.SimpleNamespace(CompileException=CompileException)
        self.func_attributes: list[tuple] = []
        driver = types.SimpleNamespace(
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES=8,
            funcSetAttribute=lambda f, a, v: fake.func_attributes.append((f, a, v)))
        self.cuda = types.SimpleNamespace(
            runtime=Runtime(), driver=driver, Device=device_ctx, Stream=Stream, Event=Event,
            get_current_stream=lambda: Stream(), compiler=compiler,
            get_elapsed_time=lambda a, b: b.time - a.time,
        )
        self.uint8 = np.uint8
        self.RawModule = self._raw_module
        self.ndarray = FakeArray

    # -- arrays ---------------------------------------------------------------------------
    def asarray(self, host: np.ndarray) -> FakeArray:
        host = np.ascontiguousarray(host)
        arr = FakeArray(self, host.shape, host.dtype)
        arr.set(host)
        return arr

    def empty(self, shape, dtype=np.float32) -> FakeArray:
        return FakeArray(self, (shape,) if isinstance(shape, int) else tuple(shape), dtype)

    # -- modules --------------------------------------------------------------------------
    def _raw_module(self, code=None, options=(), backend="nvrtc", path=None,
                    name_expressions=None, **kw):
        rec = {"code": code, "options": tuple(options), "backend": backend, "path": path,
               "name_expressions": name_expressions}
        self.raw_modules.append(rec)
        return _RawModule(self, rec)

    def install(self, monkeypatch) -> FakeCupy:
        """Put this module in sys.modules as ``cupy`` for one test, with device caches of its
        own: the memo of what cupy reports (``_cupy_backend``) is a fresh one that goes with
        the test, so a later test of the process never sees this fake's backend (it did: a
        test after a fake ROCm one made its default device rocm:0 and failed to import cupy)."""
        monkeypatch.setitem(sys.modules, "cupy", self)
        devices = importlib.import_module("workbench.runtime.devices")
        monkeypatch.setattr(devices, "_cupy_backend",
                            functools.cache(devices._cupy_backend.__wrapped__))
        monkeypatch.setattr(devices, "_current", None)
        monkeypatch.setattr(devices, "_made", {})
        return self


class FakeArray:
    """A device array of the fake module (its type's module is 'cupy', as for real arrays)."""

    __module__ = "cupy"

    def __init__(self, fake: FakeCupy, shape, dtype, device: int = 0):
        self.fake = fake
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self.data = types.SimpleNamespace(ptr=fake.mem.alloc(self.nbytes), device_id=device)
        self.device = types.SimpleNamespace(id=device)
        self.flags = {"C_CONTIGUOUS": True, "F_CONTIGUOUS": len(self.shape) <= 1}
        self.ndim = len(self.shape)

    def _view(self) -> np.ndarray:
        n = int(np.prod(self.shape, dtype=np.int64))
        return self.fake.mem.view(self.data.ptr, self.dtype, n).reshape(self.shape)

    def set(self, host: np.ndarray) -> None:
        self._view().reshape(-1).view(np.uint8)[:] = np.ascontiguousarray(host).reshape(
            -1).view(np.uint8)

    def get(self, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            return self._view().copy()
        out[...] = self._view().reshape(out.shape).view(out.dtype)
        return out


class _RawModule:
    def __init__(self, fake: FakeCupy, rec: dict):
        self.fake = fake
        self.rec = rec

    def get_function(self, name: str) -> _Function:
        if self.fake.compile_error is not None and self.rec["code"] is not None:
            raise CompileException(self.fake.compile_error)
        if name in self.fake.missing_symbols:
            raise RuntimeError(f"CUDA_ERROR_NOT_FOUND: named symbol not found ({name})")
        return _RawKernel(_Function(self.fake, name, self.rec))

    def get_global(self, name: str) -> _MemoryPointer:
        """A module variable's memory, one fake allocation per (loaded module, name); its
        size is unknown to cupy too, so 256 bytes stand in for it."""
        if name in self.fake.missing_symbols:
            raise RuntimeError(f"named symbol not found ({name})")
        table = self.rec.setdefault("globals", {})
        if name not in table:
            table[name] = self.fake.mem.alloc(256)
        return _MemoryPointer(self.fake, table[name])


class _MemoryPointer:
    """cupy.cuda.MemoryPointer's copy_to_host / copy_from_host over the fake memory."""

    def __init__(self, fake: FakeCupy, ptr: int):
        self.fake, self.ptr = fake, ptr

    def copy_to_host(self, mem, size: int) -> None:
        src = self.fake.mem.view(self.ptr, np.uint8, size)
        ctypes.memmove(mem, src.ctypes.data, size)

    def copy_from_host(self, mem, size: int) -> None:
        dst = self.fake.mem.view(self.ptr, np.uint8, size)
        ctypes.memmove(dst.ctypes.data, mem, size)


class _RawKernel:
    """What RawModule.get_function returns; ``kernel`` is the Function (takes a stream)."""

    def __init__(self, fn: _Function):
        self.kernel = fn

    def __call__(self, grid, block, args, *, shared_mem=0):
        self.kernel(grid, block, args, shared_mem=shared_mem)


class _Function:
    def __init__(self, fake: FakeCupy, name: str, rec: dict):
        self.fake = fake
        self.name = name
        self.module = rec
        self.ptr = id(self)

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        # as cupy's _pointer does: an ndarray is passed as its data pointer (8 bytes)
        args = tuple(np.uint64(a.data.ptr) if isinstance(a, FakeArray) else a for a in args)
        self.fake.launches.append({"name": self.name, "grid": grid, "block": block,
                                   "args": args, "shared_mem": shared_mem, "module": self.module})
        impl = self.fake.kernels.get(self.name)
        if impl is not None:
            impl(self.fake.mem, grid, block, *args)
