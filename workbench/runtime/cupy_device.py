"""What RocmDevice and CudaDevice share: a GPU seen through cupy, argument staging, launching.

A launch takes device arrays (cupy, torch on the GPU, ``__cuda_array_interface__``) as they
are, without copies, and runs asynchronously on cupy's current stream; host arrays (numpy,
torch on the CPU) are copied to the GPU, and the arguments the kernel may write are copied back
after it finished (which waits for it). Subclasses say how a kernel becomes a cupy Function.
"""

from __future__ import annotations

import abc
import ctypes
import sys
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from .args import DECLINE, BoundArg, contiguous, scalar_converter
from .device import Dim3, LaunchResult
from .errors import LaunchError
from .marshal import check_layout, device_pointer, launch_values, scalar_value

np_uint64 = np.uint64
_NO_STATS: Any = MappingProxyType({})


def _memo_scalar(conv, wrap):
    """A scalar converter that keeps the converted value per Python int (numpy scalars and
    cupy's CScalar holders are immutable), wrapped for cupy by ``wrap`` when given."""
    memo: dict[int, Any] = {}

    def f(v):
        if type(v) is int:
            hit = memo.get(v)
            if hit is not None:
                return hit
        r = conv(v)
        if r is DECLINE:
            return r
        if wrap is not None:
            r = wrap(r)
        if type(v) is int:
            if len(memo) >= 64:
                memo.clear()
            memo[v] = r
        return r

    return f


@dataclass
class Prepared:
    """One launch with everything computed: call it with a stream (or None) to enqueue it."""

    function: Any
    grid: Dim3
    block: Dim3
    values: tuple
    shared_mem: int
    keep: tuple  # device copies of host arrays, alive as long as this object

    def __call__(self, stream: Any = None) -> None:
        self.function(self.grid, self.block, self.values, shared_mem=self.shared_mem,
                      stream=stream)


def line_directed_source(module: Any) -> str:
    """The module's source under a ``#line`` directive naming its file and first line, so that
    the runtime compilers (hiprtc, NVRTC) cite the user's lines in their errors."""
    return (f'#line {int(getattr(module, "first_line", 1))} '
            f'"{getattr(module, "filename", "cell")}"\n{module.source}')


class CupyDevice(abc.ABC):
    """Base of the cupy-backed devices; ``kind``/``arch``/``name`` are set by subclasses."""

    kind = "gpu"
    arch: str | None = None
    name = "gpu"

    def __init__(self, index: int = 0):
        import cupy

        self.cupy = cupy
        self.index = int(index)
        self._functions: dict[tuple[int, str], tuple[Any, Any]] = {}
        self._lock = threading.Lock()
        self._ndarray = cupy.ndarray
        self._multi_gpu = cupy.cuda.runtime.getDeviceCount() > 1
        torch = sys.modules.get("torch")  # only if the user already imported it
        self._tensor = getattr(torch, "Tensor", None)
        # cupy's own by-value argument holders: its launcher takes a CPointer subclass as it is
        # (cupy/cuda/function.pyx _pointer), skipping the per-call conversion of a numpy
        # scalar; absent from old cupys and from the stand-in: numpy scalars then.
        fmod = getattr(getattr(cupy, "cuda", None), "function", None)
        self._cintptr = getattr(fmod, "CIntptr", None)
        smod = getattr(getattr(cupy, "_core", None), "_scalar", None)
        self._cscalar = getattr(smod, "CScalar", None)
        self._pointer_values: dict[int, Any] = {}

    # -- subclass hooks ---------------------------------------------------------------------
    @abc.abstractmethod
    def _load_function(self, kernel: Any, info: Any) -> Any:
        """A cupy Function for this kernel on this device (compiled/loaded once)."""

    # -- functions --------------------------------------------------------------------------
    def function(self, kernel: Any, info: Any) -> Any:
        """The cached cupy Function of one kernel of ``kernel.module``."""
        key = (id(kernel.module), info.symbol)
        hit = self._functions.get(key)
        if hit is not None and hit[0]() is kernel.module:
            return hit[1]
        with self._lock:
            check_layout(info)
            with self.cupy.cuda.Device(self.index):
                fn = self._load_function(kernel, info)
            # RawModule.get_function gives a RawKernel; its Function takes a stream argument
            fn = getattr(fn, "kernel", fn)
            self._functions[key] = (weakref.ref(kernel.module), fn)
        return fn

    # -- __device__ / __constant__ variables (workbench.runtime.globals) ---------------------
    def _global(self, module: Any, var: Any) -> Any:
        """cupy MemoryPointer of a device variable in the module as loaded on this GPU (the
        RawModule whose functions the launches use)."""
        raise LaunchError(f"{self.name} cannot read or write __device__ variables")

    def read_global(self, module: Any, var: Any) -> bytes:
        host = np.empty(var.size, np.uint8)
        with self.cupy.cuda.Device(self.index):
            self._global(module, var).copy_to_host(host.ctypes.data_as(ctypes.c_void_p),
                                                   var.size)
        return host.tobytes()

    def write_global(self, module: Any, var: Any, data: bytes) -> None:
        host = np.frombuffer(bytes(data), np.uint8).copy()
        with self.cupy.cuda.Device(self.index):
            self._global(module, var).copy_from_host(host.ctypes.data_as(ctypes.c_void_p),
                                                     var.size)
            self.cupy.cuda.runtime.deviceSynchronize()

    # -- arguments --------------------------------------------------------------------------
    def pointers(self, args: Sequence[BoundArg]) -> tuple[list[int | None], list[tuple]]:
        """Device addresses of the buffer arguments (None for scalars) and the staged copies
        of host arrays as (bound arg, host view, device array)."""
        ptrs: list[int | None] = []
        staged: list[tuple] = []
        for i, b in enumerate(args):
            ptrs.append(None if b.kind != "buffer" else self._pointer_of(i, b, staged))
        return ptrs, staged

    def _pointer_of(self, i: int, b: BoundArg, staged: list) -> int:
        """The device address for buffer argument ``i``; a host array is copied to the GPU
        (and the copy appended to ``staged``)."""
        dp = device_pointer(b.value)
        if dp is None:
            host = b.host_array()
            dev_arr = self.cupy.asarray(host.reshape(-1).view("uint8"))
            staged.append((b, host, dev_arr))
            return int(dev_arr.data.ptr)
        if dp.device is not None and dp.device != self.index:
            raise LaunchError(f"argument {i} {b.name!r} is on GPU {dp.device} ({dp.source}) "
                              f"but {self.name} is GPU {self.index}: move it first")
        return dp.address

    @staticmethod
    def copy_back(staged: Sequence[tuple]) -> None:
        """Copy every staged argument the kernel may write back into the user's host array."""
        for b, host, dev_arr in staged:
            if not b.arg.is_const:
                dev_arr.get(out=host.reshape(-1).view("uint8"))

    def prepare(self, kernel: Any, info: Any, grid: Dim3, block: Dim3,
                args: Sequence[BoundArg], *, dynamic_lds: int = 0) -> Prepared:
        """Everything one launch needs, computed once (bench() replays it); host arrays are
        copied to the GPU once and stay there for the Prepared's lifetime."""
        fn = self.function(kernel, info)
        ptrs, staged = self.pointers(args)
        self.set_dynamic_lds(fn, dynamic_lds)
        values = launch_values(info, args, ptrs)
        return Prepared(fn, grid, block, values, int(dynamic_lds), tuple(staged))

    def set_dynamic_lds(self, fn: Any, dynamic_lds: int) -> None:  # noqa: B027
        """Allow ``dynamic_lds`` bytes of dynamic shared memory for this function.

        Deliberately a no-op here: HIP takes any dynamic LDS up to the arch limit per launch
        (checked before launching); CudaDevice overrides it to opt in above 48 KiB.
        """

    # -- Device protocol --------------------------------------------------------------------
    launch_options = ("stream",)  # kernel[grid, block](*args, stream=cupy_stream)

    def launch(self, kernel: Any, info: Any, grid: Dim3, block: Dim3, args: list[BoundArg], *,
               dynamic_lds: int = 0, trace: bool = False, stream: Any = None,
               **options: Any) -> LaunchResult:
        """Enqueue the kernel on ``stream`` (default: cupy's current stream). Device arrays are
        used in place and the call returns at once; with host arrays it waits and copies back."""
        if trace or options:
            self._bad_options(trace, options)
        hit = self._functions.get((id(kernel.module), info.symbol))
        fn = hit[1] if hit is not None and hit[0]() is kernel.module else self.function(kernel,
                                                                                       info)
        if len(args) != len(info.args):  # a by-value struct's pointer fields follow the args
            ptrs, staged = self.pointers(args)
            values = launch_values(info, args, ptrs)
        else:
            values, staged = self._values(args)
        if dynamic_lds:
            self.set_dynamic_lds(fn, dynamic_lds)
        if self._multi_gpu:
            with self.cupy.cuda.Device(self.index):
                fn(grid, block, values, dynamic_lds, stream)
        else:
            fn(grid, block, values, dynamic_lds, stream)  # positional: cheapest cython call
        if staged:
            (stream or self.cupy.cuda.get_current_stream()).synchronize()
            self.copy_back(staged)
            return LaunchResult(info.name, self.name, grid, block, 0.0, None,
                                {"staged": len(staged)})
        return LaunchResult(info.name, self.name, grid, block, 0.0, None, {})

    def plan(self, kernel: Any, info: Any, grid: Dim3, block: Dim3, args: Sequence[BoundArg],
             *, dynamic_lds: int = 0) -> Any:
        """A prebound launcher for one kernel, configuration and set of argument types, made
        after a fully checked launch (Kernel keeps it per launcher and argument types).

        Per call it only re-checks what can change: each array's dtype object, contiguity and
        GPU residence, each scalar's type and range; on any doubt it returns None and the
        caller takes the full path, whose errors are unchanged. Host arrays (staged copies)
        and several GPUs always take the full path.
        """
        hit = self._functions.get((id(kernel.module), info.symbol))
        n_args = len(info.args)
        fields = [f for b in args[:n_args] for f in b.fields]
        if (self._multi_gpu or hit is None or hit[0]() is not kernel.module
                or list(args[n_args:]) != fields):  # the bound list: arguments, then fields
            return None
        fn = hit[1]
        convs = []
        for b in args[:n_args]:
            if b.fields:  # a struct of pointers: its bytes with the addresses patched in
                conv = self._struct_converter(b)
                if conv is None:
                    return None
                convs.append(conv)
                continue
            if b.kind != "buffer":
                conv = scalar_converter(b)
                if conv is None:
                    return None
                # a vector's packed V<size> array goes to cupy as it is (not a CScalar)
                convs.append(_memo_scalar(conv, None if b.kind == "raw" else self._cscalar))
                continue
            t = type(b.value)
            arrays = self._array_check(b.value)
            if arrays is None:
                return None
            # cupy passes its own arrays as their data pointer; a CUDA tensor goes as its
            # (cached) address value
            convs.append(self._tensor_converter(t, b.value.dtype) if t is self._tensor
                         else arrays[0])
        convs_t, n = tuple(convs), len(convs)
        # An asynchronous GPU launch reports nothing per call: one immutable result serves all.
        result = LaunchResult(info.name, self.name, grid, block, 0.0, None, _NO_STATS)

        def run(argv: tuple) -> LaunchResult | None:
            if len(argv) != n:
                return None
            vals = []
            for conv, a in zip(convs_t, argv):
                v = conv(a)
                if v is DECLINE:
                    return None
                vals.append(v)
            fn(grid, block, tuple(vals), dynamic_lds, None)
            return result

        return run

    def _array_check(self, value: Any):
        """For GPU arrays like ``value`` (cupy arrays of its dtype, contiguous; CUDA torch
        tensors of its dtype, contiguous): (``a -> a``, or DECLINE for any other array; ``a ->
        its device address``); None for other kinds. The one test of "the same kind of GPU
        array" for plain pointer arguments and for a struct's pointer fields."""
        t, dt = type(value), getattr(value, "dtype", None)
        if t is self._ndarray and hasattr(t, "_c_contiguous"):  # cupy keeps it as an attribute
            return (lambda a: a if (type(a) is t and a.dtype is dt and a._c_contiguous)
                    else DECLINE, lambda a: a.data.ptr)
        if t is self._ndarray:
            return (lambda a: a if (type(a) is t and a.dtype is dt and contiguous(a))
                    else DECLINE, lambda a: int(a.data.ptr))
        if t is self._tensor and value.is_cuda:
            return (lambda a: a if (type(a) is t and a.dtype is dt and a.is_cuda
                                    and a.is_contiguous()) else DECLINE,
                    lambda a: int(a.data_ptr()))
        return None

    def _struct_converter(self, b: BoundArg):
        """A prebound converter for a struct of pointers given as the same dataclass (nested
        dataclasses for nested structs): the struct's bytes with each pointer field's device
        address patched in, as ``launch_values`` makes them. Declines when any other field
        changed since the first launch (the full path packs those) or a pointer field is not
        a GPU array of its first type and dtype."""
        import dataclasses
        import operator

        v0 = b.source
        if not dataclasses.is_dataclass(v0) or isinstance(v0, type):
            return None
        cls, size, base = type(v0), b.arg.size, b.arg.offset
        ptr_paths = {".".join(f.name.split(".")[1:]) for f in b.fields}
        getters = []
        for f in b.fields:
            check = self._array_check(f.value)
            if check is None:
                return None
            path = ".".join(f.name.split(".")[1:])
            getters.append((operator.attrgetter(path), f.arg.offset - base, *check))
        leaves = []
        todo = [(v0, "")]
        while todo:  # every non-pointer field, by attribute path
            obj, pre = todo.pop()
            for fld in dataclasses.fields(obj):
                val, path = getattr(obj, fld.name), pre + fld.name
                if path in ptr_paths:
                    continue
                if dataclasses.is_dataclass(val):
                    todo.append((val, path + "."))
                elif isinstance(val, (int, float, bool, type(None))) or (
                        isinstance(val, tuple) and all(isinstance(e, (int, float))
                                                       for e in val)):
                    leaves.append(path)
                else:  # arrays, dicts, lists: the full path compares and packs them
                    return None
        snap = operator.attrgetter(*leaves) if leaves else (lambda v: ())
        try:
            first = snap(v0)
            getters_ok = all(get(v0) is not None for get, *_ in getters)
        except AttributeError:
            return None
        if not getters_ok:
            return None
        template = bytes(b.scalar_bytes())
        offsets = [off for _, off, _, _ in getters]
        memo: dict[tuple, Any] = {}  # the packed value per set of field addresses

        def conv(v):
            if type(v) is not cls:
                return DECLINE
            try:
                if snap(v) != first:
                    return DECLINE
                key = []
                for get, _, same, ptr in getters:
                    a = get(v)
                    if same(a) is DECLINE:
                        return DECLINE
                    key.append(ptr(a))
            except (AttributeError, TypeError):
                return DECLINE
            key_t = tuple(key)
            hit = memo.get(key_t)
            if hit is None:
                raw = bytearray(template)
                for off, p in zip(offsets, key_t):
                    raw[off:off + 8] = int(p).to_bytes(8, "little")
                if len(memo) >= 64:
                    memo.clear()
                hit = memo[key_t] = np.frombuffer(bytes(raw), dtype=f"V{size}").copy()
            return hit

        return conv

    def _tensor_converter(self, t: type, dt: Any):
        """A prebound converter for CUDA torch tensors of one dtype: the data pointer as the
        value cupy takes cheapest, reused while the tensor's storage is the same."""
        cache, mk = self._pointer_values, self._pointer_value

        def conv(a):
            if type(a) is t and a.dtype is dt and a.is_cuda and a.is_contiguous():
                p = a.data_ptr()
                v = cache.get(p)
                return v if v is not None else mk(p)
            return DECLINE

        return conv

    def _pointer_value(self, p: int) -> Any:
        """A device address as a launch value: cupy's CIntptr (taken as-is by its launcher)
        when this cupy has it, else an np.uint64; kept for the next launch with that address."""
        cache = self._pointer_values
        if len(cache) >= 256:
            cache.clear()
        v = cache[p] = self._cintptr(p) if self._cintptr is not None else np_uint64(p)
        return v

    def _values(self, args: Sequence[BoundArg]) -> tuple[tuple, list]:
        """The launch values and staged host copies: cupy arrays as themselves (cupy passes their
        data pointer), other buffers as np.uint64 addresses, scalars exactly typed; cupy arrays
        and GPU torch tensors take a fast path (this runs on every launch)."""
        values = []
        staged: list = []
        for i, b in enumerate(args):
            if b.kind != "buffer":
                values.append(scalar_value(b))
                continue
            v = b.value
            t = type(v)
            if t is self._ndarray:
                if v.data.device_id == self.index:
                    values.append(v)  # cupy passes an ndarray as its data pointer (8 bytes)
                    continue
            elif t is self._tensor and v.is_cuda and v.get_device() == self.index:
                p = v.data_ptr()
                values.append(self._pointer_values.get(p) or self._pointer_value(p))
                continue
            values.append(np_uint64(self._pointer_of(i, b, staged)))  # the general path
        return tuple(values), staged

    def _bad_options(self, trace: bool, options: dict) -> None:
        if trace:
            raise LaunchError(f"{self.name} cannot trace: a trace records the emulator's run "
                              "(kernel.trace[grid, block](...))")
        raise LaunchError(f"unknown launch option(s) {', '.join(sorted(options))} for "
                          f"{self.name}")

    # -- timing support (bench) -------------------------------------------------------------
    def synchronize(self) -> None:
        with self.cupy.cuda.Device(self.index):
            self.cupy.cuda.runtime.deviceSynchronize()

    @abc.abstractmethod
    def l2_bytes(self) -> int:
        """The GPU's L2 size in bytes as the runtime reports it."""

    def flush_bytes(self) -> int:
        """Bytes to overwrite between timed launches so no input stays in a cache."""
        # 256 MiB, as triton.testing.do_bench's cache-clearing buffer, or twice the L2.
        return max(256 * 2**20, 2 * self.l2_bytes())

    def memory_free(self) -> int:
        with self.cupy.cuda.Device(self.index):
            return int(self.cupy.cuda.runtime.memGetInfo()[0])

    def describe(self) -> dict[str, Any]:
        """Facts about this GPU for reports: name, arch, L2, memory."""
        return {"name": self.name, "kind": self.kind, "arch": self.arch,
                "l2_bytes": self.l2_bytes()}

