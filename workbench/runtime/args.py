"""Check launch arguments against a kernel's signature and type them exactly.

Every device shares this: pointer arguments accept numpy arrays, torch tensors and cupy arrays
whose element type matches the C pointee type; scalars become the exact C type (range-checked).
Names and C types come from clang's AST (``KernelInfo.args``), offsets and sizes from the
code-object metadata, so a mismatch is caught before anything runs.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..codeobject import KernelArg, KernelInfo
from .ctypes_map import (  # noqa: F401 - re-exported: callers import these from args
    _SCALARS,
    _VECTOR_TEMPLATES,
    _VECTORS,
    _plain,
    element_dtype,
    vector_type,
)
from .errors import LaunchError
from .structs import StructLayout, struct_layout


@dataclass
class BoundArg:
    """One checked argument: a buffer (host or device object) or an exactly typed scalar."""

    arg: KernelArg
    kind: str  # "buffer" | "scalar" | "raw"
    value: Any  # the user's object (array/tensor) or the typed numpy scalar
    dtype: str | None = None  # element dtype the kernel expects
    # A by-value struct's pointer fields, each a "buffer" BoundArg whose ``arg`` is the field
    # (name "g.x", offset in the kernarg segment); bind_args lists them after the arguments.
    fields: tuple[BoundArg, ...] = ()
    source: Any = None  # a struct's dataclass instance as the user gave it (value: its bytes)

    @property
    def name(self) -> str:
        return self.arg.name

    def scalar_bytes(self) -> bytes:
        """The scalar as it sits in the kernarg segment (little-endian, exact size)."""
        if self.kind == "raw":
            return bytes(self.value)
        raw = np.asarray(self.value).tobytes()
        return raw.ljust(self.arg.size, b"\0")[: self.arg.size]

    def host_array(self) -> np.ndarray:
        """The buffer as a numpy array sharing memory with the user's object when it is on the
        host (numpy, torch CPU); cupy/CUDA objects are copied to a new host array."""
        return to_host(self.value)

    def nbytes(self) -> int:
        return int(_nbytes(self.value))


def _module_of(x: Any) -> str:
    return _type_module(type(x))


@functools.cache
def _type_module(t: type) -> str:
    return t.__module__.split(".")[0]


def _nbytes(x: Any) -> int:
    if _module_of(x) == "torch":
        return x.numel() * x.element_size()
    return int(x.nbytes)


def array_dtype(x: Any) -> str:
    """The element dtype of an array-like as a numpy-style name ('bfloat16' for torch bf16)."""
    return _dtype_name(x.dtype)


@functools.cache
def _dtype_name(dt: Any) -> str:
    # Cached per dtype object: launches call this per pointer argument (hot path).
    s = str(dt)
    if s.startswith("torch."):
        return s[len("torch."):]
    return "bfloat16" if s == "bfloat16" else str(np.dtype(dt).name)


def is_array(x: Any) -> bool:
    """Whether x is an array object a pointer argument can take."""
    return (isinstance(x, np.ndarray) or _module_of(x) in ("torch", "cupy")
            or hasattr(x, "__cuda_array_interface__"))


def to_host(x: Any) -> np.ndarray:
    """A numpy view of host memory (shared with numpy/torch CPU objects), else a host copy."""
    if isinstance(x, np.ndarray):
        return x
    mod = _module_of(x)
    if mod == "torch":
        if x.device.type != "cpu":
            x = x.cpu()
        t = x.detach()
        if str(t.dtype) == "torch.bfloat16":
            t = t.view(_torch().int16)  # numpy has no bfloat16: share the raw bits
        elif str(t.dtype).startswith("torch.float8"):
            t = t.view(_torch().uint8)  # nor fp8 (e4m3fn, e5m2, ...fnuz): the bytes as stored
        return t.numpy()
    if mod == "cupy":
        return x.get()
    raise LaunchError(f"cannot read a {type(x).__name__} on the host")


def _torch():
    import torch

    return torch


def contiguous(x: Any) -> bool:
    """Whether an array object (numpy, torch, cupy) is C-contiguous in memory."""
    return _contiguous(x)


def _contiguous(x: Any) -> bool:
    if isinstance(x, np.ndarray):
        return x.flags.c_contiguous
    if _module_of(x) == "torch":
        return bool(x.is_contiguous())
    flags = getattr(x, "flags", None)
    return bool(flags is None or flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"] and x.ndim <= 1)


_INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1), "uint8": (0, 2**8 - 1), "int16": (-(2**15), 2**15 - 1),
    "uint16": (0, 2**16 - 1), "int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1), "uint64": (0, 2**64 - 1),
}


def _scalar(arg: KernelArg, value: Any, where: str) -> BoundArg:
    ctype = arg.ctype_canonical
    if not ctype:
        return _untyped(arg, value, where)
    vec = vector_type(ctype)
    if vec is not None:
        return _vector(arg, vec, value, where)
    dt = element_dtype(ctype)
    if dt is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return bind_struct(arg, value, where)
    if dt is None:
        # A struct or other aggregate passed by value: accept its exact bytes, as bytes, a
        # numpy structured scalar or 0-d array (np.array((1.0, 2), dtype)), or a ctypes
        # Structure; the size must be the C type's.
        raw = _aggregate_bytes(value)
        if raw is not None and len(raw) == arg.size:
            return BoundArg(arg, "raw", raw)
        spelled = arg.ctype + (f" = {arg.canonical}" if arg.canonical else "")
        got = "" if raw is None else f"; got {len(raw)} bytes"
        raise LaunchError(f"{where} has type {spelled!r} ({arg.size} bytes): pass its raw "
                          f"bytes (bytes of length {arg.size}), a numpy structured scalar, a "
                          f"ctypes Structure of that size or a dataclass instance mirroring the "
                          f"struct (fields annotated with their C types, pointer fields given "
                          f"arrays; docs/api.md){got}")
    if is_array(value):
        raise LaunchError(f"{where} is a scalar ({arg.ctype}) but got an array "
                          f"{type(value).__name__}")
    return _typed(arg, dt, value, where)


_UNTYPED_INTS = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}
_UNTYPED_FLOATS = {2: "float16", 4: "float32", 8: "float64"}


def _untyped(arg: KernelArg, value: Any, where: str) -> BoundArg:
    """A by-value argument whose C type nobody recorded (an ``extern "C"`` kernel of a loaded
    code object: the metadata gives its size only), typed by the value: a numpy scalar of the
    argument's size as its own dtype, a Python int as the integer of that size (signed, or
    unsigned above the signed range), a Python float as the float of that size, bytes (a
    struct) of that size as they are."""
    size = arg.size
    if isinstance(value, np.generic) and not isinstance(value, np.void):
        if value.dtype.itemsize != size:
            raise LaunchError(f"{where} is {size} bytes in the kernel's metadata but got a "
                              f"{value.dtype} ({value.dtype.itemsize} bytes)")
        return BoundArg(arg, "scalar", value, value.dtype.name)
    if isinstance(value, int) and not isinstance(value, bool) and size in _UNTYPED_INTS:
        dt = _UNTYPED_INTS[size]
        lo, hi = _INT_RANGES[dt][0], _INT_RANGES["u" + dt][1]
        if not lo <= value <= hi:
            raise LaunchError(f"{where} is a {size}-byte integer; {value} does not fit "
                              f"(from {lo} to {hi})")
        dt = dt if value <= _INT_RANGES[dt][1] else "u" + dt
        return BoundArg(arg, "scalar", np.dtype(dt).type(value), dt)
    if isinstance(value, float) and size in _UNTYPED_FLOATS:
        return _typed(arg, _UNTYPED_FLOATS[size], value, where)
    raw = _aggregate_bytes(value)
    if raw is not None and len(raw) == size:
        return BoundArg(arg, "raw", raw)
    raise LaunchError(
        f"{where} is a {size}-byte value whose C type the code object does not record (a "
        f"loaded extern \"C\" kernel): pass a numpy scalar of that size (np.float32(2.5), "
        f"np.uint32(7)), a Python int or float (typed as the {size}-byte integer or float), "
        f"or its raw bytes; got {type(value).__name__} {value!r:.40}")


def _aggregate_bytes(value: Any) -> bytes | None:
    """The bytes of a by-value struct argument, or None for a value that is not one."""
    import ctypes

    if isinstance(value, (bytes, bytearray, np.void)):
        return bytes(value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.tobytes()
    if isinstance(value, (ctypes.Structure, ctypes.Union, ctypes.Array)):
        return bytes(value)
    return None


def _typed(arg: KernelArg, dt: str, value: Any, where: Any) -> BoundArg:
    """One number as the exact C type ``dt`` (range-checked), as a BoundArg scalar."""
    if isinstance(value, np.generic):
        value = value.item()
    if dt == "bool":
        if not isinstance(value, (bool, int)):
            raise LaunchError(f"{where} ({arg.ctype}) needs a bool, got {value!r}")
        return BoundArg(arg, "scalar", np.bool_(value), dt)
    if dt in _INT_RANGES:
        if isinstance(value, bool) or not isinstance(value, int):
            raise LaunchError(f"{where} ({arg.ctype}) needs an integer, got {value!r}")
        lo, hi = _INT_RANGES[dt]
        if not lo <= value <= hi:
            raise LaunchError(f"{where} ({arg.ctype}) must be in [{lo}, {hi}], got {value}")
        return BoundArg(arg, "scalar", np.dtype(dt).type(value), dt)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise LaunchError(f"{where} ({arg.ctype}) needs a number, got {value!r}")
    if dt == "bfloat16":
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        # round to nearest even on the dropped 16 bits (bfloat16 = top half of float32)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return BoundArg(arg, "scalar", np.uint16(bits & 0xFFFF), dt)
    try:
        with np.errstate(over="ignore"):
            out = np.dtype(dt).type(value)
        finite = np.isfinite(value)
    except OverflowError:  # an int beyond any float
        out, finite = np.inf, True
    if finite and not np.isfinite(out):
        raise LaunchError(f"{where} ({arg.ctype}) cannot hold {value!r:.40}: it overflows to inf "
                          f"in {dt} (largest {np.finfo(dt).max:g})")
    return BoundArg(arg, "scalar", out, dt)


def _vector(arg: KernelArg, vec: tuple[str, int], value: Any, where: Any) -> BoundArg:
    """A HIP vector type by value (uint2, float4 ...) from a tuple/list of numbers or a small
    numpy array; each element typed and range-checked like a scalar, packed into the
    argument's bytes (padded to its size: int3 is 12 bytes of data in a 16-byte slot only when
    the metadata says so)."""
    dt, n = vec
    spelled = f"{arg.ctype}" + (f" = {arg.canonical}" if arg.canonical else "")
    if isinstance(value, (bytes, bytearray, np.void)) and len(bytes(value)) == arg.size:
        return BoundArg(arg, "raw", bytes(value), dt)
    if isinstance(value, np.ndarray):
        if value.shape != (n,):
            raise LaunchError(f"{where} is a {spelled} ({n} x {dt}, by value): pass {n} numbers "
                              f"(a tuple, list or numpy array of shape ({n},)), got an array of "
                              f"shape {value.shape}")
        items = value.tolist()
    elif isinstance(value, (tuple, list)):
        items = list(value)
    else:
        raise LaunchError(f"{where} is a {spelled} ({n} x {dt}, by value): pass {n} numbers as "
                          f"a tuple, list or numpy array, e.g. {tuple(range(1, n + 1))}; "
                          f"got {type(value).__name__} {value!r:.40}")
    if len(items) != n:
        raise LaunchError(f"{where} is a {spelled}: it takes {n} numbers, got {len(items)}")
    parts = [_typed(arg, dt, v, _Elem(where, i)).value for i, v in enumerate(items)]
    raw = b"".join(np.asarray(p).tobytes() for p in parts)
    if len(raw) > arg.size:
        raise LaunchError(f"{where} ({spelled}) packs to {len(raw)} bytes but the kernel's "
                          f"metadata gives it {arg.size}")
    return BoundArg(arg, "raw", raw.ljust(arg.size, b"\0"), dt)


class _Elem:
    """'argument 1 'v' of k, element 0 (.x)' for a vector element's error message."""

    __slots__ = ("where", "i")

    def __init__(self, where: Any, i: int):
        self.where, self.i = where, i

    def __str__(self) -> str:
        return f"{self.where}, element {self.i} (.{'xyzw'[self.i] if self.i < 4 else self.i})"

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731


def _buffer(arg: KernelArg, value: Any, where: str) -> BoundArg:
    if not is_array(value):
        raise LaunchError(f"{where} is a pointer ({arg.ctype}) but got {type(value).__name__} "
                          f"{value!r:.40}; pass a numpy array, torch tensor or cupy array")
    if not _contiguous(value):
        raise LaunchError(f"{where} ({arg.ctype}) must be contiguous in memory "
                          "(use np.ascontiguousarray / tensor.contiguous())")
    if isinstance(value, np.ndarray):
        _readable_layout(arg, value, where)
    want = element_dtype(arg.pointee)
    got = array_dtype(value)
    if got.startswith("float8") and want is None and not _is_fp8_type(arg.pointee):
        raise LaunchError(f"{where} ({arg.ctype}) got a {got} {type(value).__name__}: an fp8 "
                          f"tensor goes to a pointer to an 8-bit type (__hip_fp8_e4m3, "
                          f"__hip_fp8_e5m2, their _fnuz forms, unsigned char, uint8_t)")
    if want is not None and got != want:
        ok_bits = (want in ("bfloat16", "float16") and got in ("uint16", "int16")
                   or want in ("uint8", "int8") and got.startswith("float8"))
        if not ok_bits:
            raise LaunchError(f"{where} ({arg.ctype}) expects {want} elements, got a {got} "
                              f"{type(value).__name__}")
    if not arg.is_const and isinstance(value, np.ndarray) and not value.flags.writeable:
        raise LaunchError(f"{where} ({arg.ctype}) is written by the kernel but the array is "
                          "read-only")
    return BoundArg(arg, "buffer", value, want)


def _is_fp8_type(pointee: str) -> bool:
    """Whether a pointee type (no element dtype of its own) is one of HIP's 8-bit float types
    (``__hip_fp8_e4m3``, ``__hip_fp8_e5m2_fnuz``, ``__hip_fp8x4_...`` are not: 4 bytes)."""
    words = pointee.replace("const", " ").replace("volatile", " ").split()
    name = words[-1].split("::")[-1] if words else ""
    return re.fullmatch(r"__hip_(fp8|bf8)_e[45]m[23](_fnuz)?|__hip_fp8_storage_t", name) is not None


def _readable_layout(arg: KernelArg, value: np.ndarray, where: Any) -> None:
    """Refuse a numpy array whose bytes the kernel would misread: non-native byte order (a
    GPU, like this host, reads little-endian: a '>f4' array would be read as garbage), Python
    objects (pointers to PyObjects, not numbers) and masked arrays (the kernel sees the data,
    never the mask)."""
    dt = value.dtype
    if dt.hasobject:
        raise LaunchError(f"{where} ({arg.ctype}) got an array of Python objects (dtype "
                          f"{dt}): the kernel reads raw numbers; convert it, e.g. "
                          f"np.asarray(arr, dtype=np.float32)")
    if not dt.isnative:
        fix = ("arr.astype(arr.dtype.newbyteorder('='))" if dt.fields else
               f"arr.astype({dt.newbyteorder('=').str!r})")
        raise LaunchError(f"{where} ({arg.ctype}) got a {dt.str!r} array, in non-native "
                          f"(big-endian) byte order: the kernel reads it as little-endian and "
                          f"would compute garbage; convert it with {fix}")
    if isinstance(value, np.ma.MaskedArray):
        raise LaunchError(f"{where} ({arg.ctype}) got a masked array: the kernel reads its data "
                          f"and ignores the mask; pass arr.filled(value) or arr.data")


class _Where:
    """'argument 2 'out' of add', formatted only when an error message needs it (hot path)."""

    __slots__ = ("i", "name", "kernel")

    def __init__(self, i: int, name: str, kernel: str):
        self.i, self.name, self.kernel = i, name, kernel

    def __str__(self) -> str:
        return f"argument {self.i} {self.name!r} of {self.kernel}"

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731


def bind_args(info: KernelInfo, args: tuple) -> list[BoundArg]:
    """Check count and types of ``args`` against ``info`` and return them typed."""
    if len(args) != len(info.args):
        sig = info.signature
        raise LaunchError(f"{info.name} takes {len(info.args)} argument(s) but {len(args)} were "
                          f"given; signature: {sig}")
    out = []
    fields: list[BoundArg] = []
    for i, (arg, value) in enumerate(zip(info.args, args)):
        where = _Where(i, arg.name, info.name)
        if arg.kind == "dynamic_shared_pointer":
            raise LaunchError(f"{where} is a dynamic shared-memory pointer; pass "
                              "dynamic_lds=<bytes> to the launch instead")
        if arg.is_pointer:
            out.append(_buffer(arg, value, where))
        else:
            b = _scalar(arg, value, where)
            out.append(b)
            fields.extend(b.fields)
    # A struct's pointer fields come after every argument, so out[i] stays argument i; each
    # is placed like a pointer argument and its address patched into the struct's bytes
    # (marshal.launch_values).
    return out + fields if fields else out


def normalize_dims(value: Any, what: str) -> tuple[int, int, int]:
    """(x, y, z) from an int or a 1-3 tuple, each >= 1."""
    if type(value) is int and value >= 1:  # the common case, kept cheap (launch hot path)
        return (value, 1, 1)
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        dims = (value,)
    elif isinstance(value, (tuple, list)):  # a dim3-like object would need its own rule
        dims = tuple(value)
    else:
        raise LaunchError(f"{what} must be an int or a tuple of 1-3 ints, got "
                          f"{type(value).__name__} {value!r:.40}")
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer))
                                          and not isinstance(d, (bool, np.bool_)) for d in dims):
        raise LaunchError(f"{what} must be an int or a tuple of 1-3 ints, got {value!r}")
    dims = tuple(int(d) for d in dims) + (1,) * (3 - len(dims))
    if any(d < 1 for d in dims):
        raise LaunchError(f"{what} dimensions must be >= 1, got {dims}")
    return dims  # type: ignore[return-value]


# The AQL dispatch packet holds the grid size in work-items as one uint32 per dimension (HSA
# Platform System Architecture spec, hsa_kernel_dispatch_packet_t grid_size_x/y/z), so no AMD
# launch can have more than 2**32 - 1 work-items along a dimension.
MAX_WORK_ITEMS_PER_DIM = 2**32 - 1


def check_grid(grid: tuple[int, int, int], block: tuple[int, int, int]) -> None:
    """Refuse a grid whose work-items along a dimension (grid x block) overflow the dispatch
    packet's uint32."""
    for axis, g, b in zip("xyz", grid, block):
        if g * b > MAX_WORK_ITEMS_PER_DIM:
            raise LaunchError(
                f"grid {grid} x block {block} has {g * b:,} work-items along {axis}; a dispatch "
                f"allows at most {MAX_WORK_ITEMS_PER_DIM:,} (2**32 - 1) per dimension (the HSA "
                f"dispatch packet's grid size is a uint32): spread the grid over y and z, or "
                f"launch fewer workgroups")


# ---------------------------------------------------------------------------------------------
# Prebound launches: cheap per-call checks for a signature that already passed bind_args.

DECLINE = object()  # a converter's answer when the value needs the full check (bind_args)


def scalar_converter(bound: BoundArg):
    """For a scalar that passed bind_args: value -> exactly typed scalar, or DECLINE.

    Only plain Python ints/floats take the fast path (range-checked like bind_args); anything
    else declines, so the full check runs and reports any error exactly as before.
    """
    dt = bound.dtype
    if bound.kind == "raw" and (dt in _INT_RANGES or dt in ("float32", "float64")):
        return _vector_converter(bound)
    if bound.kind == "scalar" and dt == "bool":
        return lambda v: np.bool_(v) if type(v) is bool else DECLINE
    if bound.kind != "scalar" or dt in ("bool", "bfloat16", None):
        return None
    ctor = np.dtype(dt).type
    if dt in _INT_RANGES:
        lo, hi = _INT_RANGES[dt]

        def conv_int(v, ctor=ctor, lo=lo, hi=hi):
            return ctor(v) if type(v) is int and lo <= v <= hi else DECLINE

        return conv_int

    big = float(np.finfo(dt).max)

    def conv_float(v, ctor=ctor, big=big):
        t = type(v)
        return ctor(v) if (t is float or t is int) and -big <= v <= big else DECLINE

    return conv_float


def _vector_converter(bound: BoundArg):
    """For a HIP vector type by value (uint2, float4 ...) given as a tuple of plain numbers:
    the packed ``V<size>`` value cupy passes, kept per tuple; anything else declines."""
    vec = vector_type(bound.arg.ctype_canonical)
    if vec is None:
        return None
    dt, n = vec
    size = bound.arg.size
    lo, hi = _INT_RANGES.get(dt, (None, None))
    big = float(np.finfo(dt).max) if lo is None else None
    memo: dict[tuple, Any] = {}

    def ok(e: Any) -> bool:
        t = type(e)
        if lo is not None:
            return t is int and lo <= e <= hi
        return (t is float or t is int) and -big <= e <= big

    def conv(v):
        hit = memo.get(v) if type(v) is tuple else None
        if hit is not None:
            return hit
        if type(v) is not tuple or len(v) != n or not all(ok(e) for e in v):
            return DECLINE
        raw = np.array(v, dtype=dt).tobytes().ljust(size, b"\0")
        r = np.frombuffer(raw, dtype=f"V{size}").copy()
        if len(memo) >= 64:
            memo.clear()
        memo[v] = r
        return r

    return conv


# ---------------------------------------------------------------------------------------------
# By-value structs whose pointer fields take arrays: the mirror's layout is structs.py's.

def bind_struct(arg: KernelArg, value: Any, where: Any) -> BoundArg:
    """A dataclass instance for a by-value struct argument: scalar fields packed with their C
    types, pointer fields bound like pointer arguments (``BoundArg.fields``)."""
    try:
        layout = struct_layout(type(value))
    except TypeError as e:
        raise LaunchError(f"{where} ({arg.ctype}): {e}") from None
    if layout.size != arg.size:
        raise LaunchError(f"{where} has type {arg.ctype!r} of {arg.size} bytes in the kernel's "
                          f"metadata, but {layout.name} lays out to {layout.size} bytes "
                          f"({layout.describe()}): its fields must be the struct's, in order, "
                          f"with the same C types")
    raw = bytearray(arg.size)
    buffers: list[BoundArg] = []
    _pack_struct(arg, layout, value, where, "", 0, raw, buffers)
    return BoundArg(arg, "raw", bytes(raw), None, tuple(buffers), value)


_MISSING = object()


def _field_values(layout: StructLayout, value: Any, where: Any, path: str) -> list[Any]:
    """The values of a struct's fields, in order, from a dataclass instance, a dict (keys
    checked against the fields) or a tuple/list."""
    names = [f.name for f in layout.fields]
    spelled = "; fields: " + ", ".join(f"{f.name} ({f.ctype})" for f in layout.fields)
    at = f"{where}, field {path!r}" if path else str(where)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__name__ != layout.name and path:
            raise LaunchError(f"{at} is a {layout.name}, got a {type(value).__name__}")
        return [getattr(value, n, _MISSING) for n in names]
    if isinstance(value, dict):
        unknown = [k for k in value if k not in names]
        if unknown:
            raise LaunchError(f"{at} ({layout.name}) has no field {unknown[0]!r}{spelled}")
        return [value.get(n, _MISSING) for n in names]
    if isinstance(value, (tuple, list)):
        if len(value) != len(names):
            raise LaunchError(f"{at} ({layout.name}) takes {len(names)} field values, got "
                              f"{len(value)}{spelled}")
        return list(value)
    raise LaunchError(f"{at} is a struct {layout.name}: pass a {layout.name} instance, a dict "
                      f"or a tuple of its fields, got {type(value).__name__}{spelled}")


def _pack_struct(arg: KernelArg, layout: StructLayout, value: Any, where: Any, prefix: str,
                 base: int, raw: bytearray, buffers: list[BoundArg]) -> None:
    for f, v in zip(layout.fields, _field_values(layout, value, where, prefix.rstrip("."))):
        path = prefix + f.name
        fwhere = f"{where}, field {path!r}"
        if v is _MISSING and f.kind == "struct" and f.sub is not None and not f.sub.fields:
            continue  # an empty member (HipKittens' descriptor_dict<>): no bytes to give
        if v is None and f.kind == "pointer":
            continue  # an explicit None is a null pointer (an unused stream, an absent bias)
        if v is _MISSING or v is None:
            raise LaunchError(f"{fwhere} ({f.ctype}) is missing: "
                              + ("pass an array (numpy, torch, cupy)" if f.kind == "pointer"
                                 else "give it a value"))
        off = base + f.offset
        farg = KernelArg(name=f"{arg.name}.{path}", ctype=f.ctype, offset=arg.offset + off,
                         size=f.size, kind="global_buffer" if f.kind == "pointer" else "by_value",
                         pointee=f.pointee, is_const=f.is_const)
        if f.kind == "pointer":
            buffers.append(_buffer(farg, v, fwhere))
        elif f.kind == "struct":
            assert f.sub is not None
            _pack_struct(arg, f.sub, v, where, path + ".", off, raw, buffers)
        elif f.kind == "vector":
            raw[off:off + f.size] = _vector(farg, (f.dtype, f.count), v, fwhere).value
        elif f.kind == "array":
            items = v.tolist() if isinstance(v, np.ndarray) else v
            if not isinstance(items, (tuple, list)) or len(items) != f.count:
                raise LaunchError(f"{fwhere} ({f.ctype}) takes {f.count} numbers, got "
                                  f"{type(v).__name__} {v!r:.40}")
            es = f.size // f.count
            for k, item in enumerate(items):
                b = _typed(farg, f.dtype, item, f"{fwhere}[{k}]")
                raw[off + k * es:off + (k + 1) * es] = np.asarray(b.value).tobytes()
        else:
            if is_array(v):
                raise LaunchError(f"{fwhere} is a scalar ({f.ctype}) but got an array "
                                  f"{type(v).__name__}")
            b = _typed(farg, f.dtype, v, fwhere)
            raw[off:off + f.size] = np.asarray(b.value).tobytes()
