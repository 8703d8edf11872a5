"""C types as numpy sees them: scalar and HIP vector types (what a launch types values by).

Shared by ``args`` (arguments) and ``structs`` (struct fields); ``args`` re-exports them.
"""

from __future__ import annotations

import functools

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
