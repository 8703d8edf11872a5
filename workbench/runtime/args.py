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
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..codeobject import KernelArg, KernelInfo
from .errors import LaunchError

# C scalar type -> numpy dtype (LP64 / the AMDGPU data layout: long is 64-bit; AMDGPUUsage
# "Data types": char 8, short 16, int 32, long 64, float 32, double 64, half 16).
_SCALARS: dict[str, str] = {
    "bool": "bool", "_Bool": "bool",
    "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "short": "int16", "unsigned short": "uint16", "short int": "int16",
    "int": "int32", "signed int": "int32", "unsigned int": "uint32", "unsigned": "uint32",
    "long": "int64", "long int": "int64", "unsigned long": "uint64",
    "long long": "int64", "unsigned long long": "uint64", "unsigned long int": "uint64",
    "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16",
    "int32_t": "int32", "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64",
    "size_t": "uint64", "ptrdiff_t": "int64", "intptr_t": "int64", "uintptr_t": "uint64",
    "float": "float32", "double": "float64",
    "_Float16": "float16", "__half": "float16", "half": "float16", "__fp16": "float16",
    "__bf16": "bfloat16", "__hip_bfloat16": "bfloat16", "hip_bfloat16": "bfloat16",
}
# Vector types (HIP's float4 etc.): element type and count.
_VECTORS = {f"{b}{n}": (e, n) for b, e in (
    ("float", "float32"), ("double", "float64"), ("int", "int32"), ("uint", "uint32"),
    ("short", "int16"), ("ushort", "uint16"), ("char", "int8"), ("uchar", "uint8"),
    ("long", "int64"), ("ulong", "uint64"), ("half", "float16"),
) for n in (1, 2, 3, 4)}


# Class templates behind the vector typedefs: ROCm's hip_vector_type.h (HIP_vector_type<T, n>)
# and hipwb's offline prelude (include/hipwb/vector_types.h: __hipwb_vec<T, n>).
_VECTOR_TEMPLATES = ("HIP_vector_type<", "__hipwb_vec<")


def _plain(ctype: str) -> str:
    """A C type without qualifiers, ``struct``, and ``std::``/``::`` namespace prefixes."""
    t = " ".join(w for w in ctype.replace("struct ", "").split()
                 if w not in ("const", "volatile", "__restrict", "__restrict__"))
    for ns in ("::std::", "std::", "::"):
        if t.startswith(ns):
            t = t[len(ns):]
    return t


@functools.cache
def vector_type(ctype: str | None) -> tuple[str, int] | None:
    """(element dtype, count) of a HIP vector type (uint2, float4, HIP_vector_type<T, n>,
    the prelude's __hipwb_vec<T, n>), else None."""
    if ctype is None:
        return None
    t = _plain(ctype)
    if t in _VECTORS:
        return _VECTORS[t]
    for tpl in _VECTOR_TEMPLATES:
        if t.startswith(tpl) and t.endswith(">"):
            elem, _, n = t[len(tpl):-1].rpartition(",")
            dt = _SCALARS.get(_plain(elem))
            if dt is not None and n.strip().isdigit():
                return dt, int(n)
    return None


@functools.cache
def element_dtype(ctype: str | None) -> str | None:
    """numpy dtype name of a C element type, or None when any element type is acceptable."""
    if ctype is None:
        return None
    t = _plain(ctype)
    if t in ("void", ""):
        return None
    if t in _SCALARS:
        return _SCALARS[t]
    vec = vector_type(t)
    return vec[0] if vec is not None else None


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
    vec = vector_type(ctype)
    if vec is not None:
        return _vector(arg, vec, value, where)
    dt = element_dtype(ctype)
    if dt is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _struct(arg, value, where)
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
    return BoundArg(arg, "scalar", np.dtype(dt).type(value), dt)


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
    if want is not None and got != want:
        ok_bits = want in ("bfloat16", "float16") and got in ("uint16", "int16")
        if not ok_bits:
            raise LaunchError(f"{where} ({arg.ctype}) expects {want} elements, got a {got} "
                              f"{type(value).__name__}")
    if not arg.is_const and isinstance(value, np.ndarray) and not value.flags.writeable:
        raise LaunchError(f"{where} ({arg.ctype}) is written by the kernel but the array is "
                          "read-only")
    return BoundArg(arg, "buffer", value, want)


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
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) for d in dims):
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
    if bound.kind != "scalar" or dt in ("bool", "bfloat16", None):
        return None
    ctor = np.dtype(dt).type
    if dt in _INT_RANGES:
        lo, hi = _INT_RANGES[dt]

        def conv_int(v, ctor=ctor, lo=lo, hi=hi):
            return ctor(v) if type(v) is int and lo <= v <= hi else DECLINE

        return conv_int

    def conv_float(v, ctor=ctor):
        t = type(v)
        return ctor(v) if t is float or t is int else DECLINE

    return conv_float


# ---------------------------------------------------------------------------------------------
# By-value structs whose fields include device pointers (HipKittens' ``globals``, Composable
# Kernel's ``kargs``): a dataclass mirrors the struct, each field annotated with its C type.

_ARRAY_FIELD = re.compile(r"^(.*?)\s*\[\s*(\d+)\s*\]$")


@dataclass(frozen=True)
class StructField:
    """One field of a mirrored struct, laid out by the C rules (AMDGPU / LP64 data layout)."""

    name: str
    ctype: str  # as annotated, e.g. "const float*", "int", "float[3]", or the nested class name
    offset: int  # from the start of the struct
    size: int
    align: int
    kind: str  # "pointer" | "scalar" | "vector" | "array" | "struct"
    dtype: str | None = None  # scalar/array element dtype; vector element dtype
    count: int = 1  # array elements / vector lanes
    pointee: str | None = None
    is_const: bool = False
    sub: StructLayout | None = None  # a nested struct's layout


@dataclass(frozen=True)
class StructLayout:
    """A dataclass's fields at their C offsets; ``size`` padded to ``align`` as C does."""

    name: str
    fields: tuple[StructField, ...]
    size: int
    align: int

    def describe(self) -> str:
        return ", ".join(f"{f.name} ({f.ctype}, offset {f.offset})" for f in self.fields)


def _dtype_size(dt: str) -> int:
    return 2 if dt == "bfloat16" else np.dtype(dt).itemsize


def _resolve_nested(cls: type, t: Any) -> type | None:
    """A nested dataclass named by an annotation (the class, or its name as a string as
    ``from __future__ import annotations`` leaves it, looked up in the class's module)."""
    if isinstance(t, type) and dataclasses.is_dataclass(t):
        return t
    if isinstance(t, str) and t.strip().isidentifier():
        hit = getattr(sys.modules.get(cls.__module__), t.strip(), None)
        if isinstance(hit, type) and dataclasses.is_dataclass(hit):
            return hit
    return None


def _field_of(cls: type, name: str, t: Any) -> StructField:
    """A field's kind, size and alignment from its annotation (offset filled by the caller)."""
    if isinstance(t, str):  # under `from __future__ import annotations`, "int" reads "'int'"
        t = t.strip()
        if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
            t = t[1:-1].strip()
    nested = _resolve_nested(cls, t)
    if nested is not None:
        sub = struct_layout(nested)
        return StructField(name, nested.__name__, 0, sub.size, sub.align, "struct", sub=sub)
    if not isinstance(t, str):
        raise TypeError(f"field {name!r} of {cls.__name__} is annotated {t!r}: annotate it with "
                        f"its C type as a string (\"const float*\", \"int\", \"float[4]\") or a "
                        f"nested dataclass")
    ctype = t.strip()
    from ..clang_ast import pointee as _pointee

    pt, is_const = _pointee(ctype)
    if pt is not None:  # 64-bit global/flat pointers (AMDGPUUsage "Address Spaces")
        return StructField(name, ctype, 0, 8, 8, "pointer", element_dtype(pt), 1, pt, is_const)
    m = _ARRAY_FIELD.match(ctype)
    if m is not None:
        dt = element_dtype(m.group(1))
        if dt is None or vector_type(m.group(1)) is not None:
            raise TypeError(f"field {name!r} of {cls.__name__}: {ctype!r} is an array of a type "
                            f"hipwb does not lay out (arrays of numeric scalars only)")
        n, es = int(m.group(2)), _dtype_size(dt)
        return StructField(name, ctype, 0, n * es, es, "array", dt, n)
    vec = vector_type(ctype)
    if vec is not None:
        dt, n = vec
        es = _dtype_size(dt)
        size = n * es  # HIP vector types: float3 is 12 bytes aligned to 4, float4 16 to 16
        align = min(size, 16) if size & (size - 1) == 0 else es
        return StructField(name, ctype, 0, size, align, "vector", dt, n)
    dt = element_dtype(ctype)
    if dt is None:
        hint = (f"; if {ctype} is a nested dataclass, define it at module level (a string "
                f"annotation is looked up in {cls.__module__})" if ctype.isidentifier() else "")
        raise TypeError(f"field {name!r} of {cls.__name__}: C type {ctype!r} is not one hipwb "
                        f"lays out (pointers, numeric scalars, HIP vector types, arrays of "
                        f"scalars, nested dataclasses){hint}")
    es = _dtype_size(dt)
    return StructField(name, ctype, 0, es, es, "scalar", dt)


@functools.cache
def struct_layout(cls: type) -> StructLayout:
    """The C layout of a dataclass mirroring a struct: fields in declaration order, each at
    the next multiple of its alignment; the size rounded up to the largest alignment."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"{cls!r} is not a dataclass")
    fields, off, align = [], 0, 1
    for f in dataclasses.fields(cls):
        sf = _field_of(cls, f.name, f.type)
        off = -(-off // sf.align) * sf.align
        fields.append(dataclasses.replace(sf, offset=off))
        off += sf.size
        align = max(align, sf.align)
    return StructLayout(cls.__name__, tuple(fields), -(-off // align) * align, align)


def _struct(arg: KernelArg, value: Any, where: Any) -> BoundArg:
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
    return BoundArg(arg, "raw", bytes(raw), None, tuple(buffers))


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


# ---------------------------------------------------------------------------------------------
# The mirror made for you: clang's own layout of a kernel's struct argument.

_MIRRORS: dict[tuple, tuple[Any, dict[str, type]]] = {}


def struct_type(kernel: Any, arg: int | str = 0, arch: str | None = None) -> type:
    """A dataclass mirroring the by-value struct argument ``arg`` (index or name) of
    ``kernel``, built from clang's own layout of the struct (``-fdump-record-layouts``, run on
    the module's source with its options): field names, canonical C types and nested structs
    as declared. Each field's offset and the size are checked against clang's and the code
    object's, so an instance is laid out exactly as the kernel reads it:
    ``Args = struct_type(m.saxpy); m.saxpy[g, b](Args(x=x, y=y, n=n, alpha=2.0))``."""
    info = kernel.info(arch)
    try:
        a = info.args[arg] if isinstance(arg, int) else next(x for x in info.args
                                                              if x.name == arg)
    except (IndexError, StopIteration):
        names = ", ".join(x.name for x in info.args)
        raise LaunchError(f"{info.name} has no argument {arg!r} (arguments: {names})") from None
    ctype = a.ctype_canonical
    if a.is_pointer or element_dtype(ctype) is not None or vector_type(ctype) is not None:
        raise LaunchError(f"argument {a.name!r} of {info.name} is a {a.ctype}, not a struct "
                          f"passed by value")
    records = _record_layouts(kernel.module, info.arch)
    cls = _mirror(records, _plain(ctype), {})
    lay = struct_layout(cls)
    if lay.size != a.size:
        raise LaunchError(f"{info.name}: clang lays {a.ctype} out in {lay.size} bytes but the "
                          f"code object's metadata gives argument {a.name!r} {a.size}")
    return cls


def _record_layouts(module: Any, arch: str) -> dict[str, dict[str, Any]]:
    """clang's layouts of the records of ``module``'s source for ``arch`` (one clang run per
    module and arch, kept while the module lives)."""
    import subprocess
    import tempfile
    import weakref
    from pathlib import Path

    from .. import clang_ast, clang_driver
    from ..toolchain import find_toolchain

    key = (id(module), arch)
    hit = _MIRRORS.get(key)
    if hit is not None and hit[0]() is module:
        return hit[1]
    tc = find_toolchain()
    flags = clang_driver.clang_flags(tc, tuple(module.options), dict(module.defines),
                                     tuple(module.include_dirs), 3)
    with tempfile.TemporaryDirectory(prefix="hipwb-layout-") as work:
        src = Path(work) / "source.hip"
        src.write_text(module.source)
        cmd = [*clang_driver.ast_command(tc, arch, flags)[:-2], "-Xclang",
               "-fdump-record-layouts-canonical", str(src)]
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    if run.returncode != 0:
        raise LaunchError(f"clang could not lay out the module's structs for {arch}: "
                          f"{(run.stderr.strip().splitlines() or ['?'])[0]}")
    records = clang_ast.record_layouts(run.stdout)
    _MIRRORS[key] = (weakref.ref(module), records)
    return records


def _mirror(records: dict[str, dict[str, Any]], name: str, made: dict[str, type]) -> type:
    """The dataclass for record ``name`` (nested records first), its offsets checked."""
    if name in made:
        return made[name]
    rec = records.get(name)
    if rec is None:
        raise LaunchError(f"clang did not lay out struct {name!r}")
    if rec["kind"] == "union":
        raise LaunchError(f"{name} is a union: pass its raw bytes instead")
    fields: list[tuple[str, Any]] = []
    offsets: list[int] = []
    for row in rec["fields"]:
        if row["depth"] != 1:
            continue
        fname, ctype = row["name"], row["ctype"]
        if row["bits"] or fname.startswith("(") or not fname.isidentifier():
            what = "a bit-field" if row["bits"] else "a base class or vtable pointer"
            raise LaunchError(f"struct {name} has {what} ({ctype} {fname}): pass its raw bytes "
                              f"(a numpy structured scalar or ctypes Structure) instead")
        inner = ctype.split(" ", 1)[1] if ctype.split(" ", 1)[0] in ("struct", "class") else None
        if inner is not None and vector_type(inner) is None:
            fields.append((fname, _mirror(records, inner, made)))
        else:
            fields.append((fname, inner if inner is not None else ctype))
        offsets.append(row["offset"])
    cls = dataclasses.make_dataclass(re.sub(r"\W+", "_", name.rsplit("::", 1)[-1]).strip("_")
                                     or "Struct", fields)
    cls.__module__ = __name__
    cls.__qualname__ = name
    lay = struct_layout(cls)
    for f, want in zip(lay.fields, offsets):
        if f.offset != want:
            raise LaunchError(f"struct {name}: clang puts field {f.name!r} ({f.ctype}) at offset "
                              f"{want}, the C rules hipwb applies at {f.offset} (alignas or "
                              f"packed?): pass its raw bytes instead")
    if rec["size"] is not None and lay.size != rec["size"]:
        raise LaunchError(f"struct {name}: clang's size is {rec['size']} bytes, hipwb's "
                          f"layout {lay.size}")
    made[name] = cls
    return cls
