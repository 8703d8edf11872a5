"""By-value struct arguments whose fields include device pointers (HipKittens' ``globals``,
Composable Kernel's ``kargs``).

A dataclass mirrors the struct, each field annotated with its C type (or a nested dataclass);
``struct_layout`` lays it out by the C rules, ``args.bind_struct`` packs scalar fields with their C
types and binds pointer fields exactly like pointer arguments (``BoundArg.fields``; bind_args
lists them after the arguments and marshal patches their addresses into the struct's bytes).
``struct_type(kernel, arg)`` builds the mirror from clang's own record layout.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..argument_types import checked
from ..errors import ArgumentTypeError
from .ctypes_map import _plain, element_dtype, vector_type
from .errors import LaunchError

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
        raise ArgumentTypeError(
            f"field {name!r} of {cls.__name__} is annotated {t!r}: annotate it with "
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
            raise ArgumentTypeError(
                f"field {name!r} of {cls.__name__}: {ctype!r} is an array of a type "
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
        raise ArgumentTypeError(
            f"field {name!r} of {cls.__name__}: C type {ctype!r} is not one hipwb "
            f"lays out (pointers, numeric scalars, HIP vector types, arrays of "
            f"scalars, nested dataclasses){hint}")
    es = _dtype_size(dt)
    return StructField(name, ctype, 0, es, es, "scalar", dt)


@functools.cache
def struct_layout(cls: type) -> StructLayout:
    """The C layout of a dataclass mirroring a struct: fields in declaration order, each at
    the next multiple of its alignment; the size rounded up to the largest alignment. A
    dataclass without fields is an empty C++ class: 1 byte (ISO C++ [intro.object]: a complete
    object has nonzero size; HipKittens' ``gl`` holds one, its TMA-descriptor dictionary)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ArgumentTypeError(f"{cls!r} is not a dataclass")
    fields, off, align = [], 0, 1
    for f in dataclasses.fields(cls):
        sf = _field_of(cls, f.name, f.type)
        off = -(-off // sf.align) * sf.align
        fields.append(dataclasses.replace(sf, offset=off))
        off += sf.size
        align = max(align, sf.align)
    return StructLayout(cls.__name__, tuple(fields), max(1, -(-off // align) * align), align)


# ---------------------------------------------------------------------------------------------
# The mirror made for you: clang's own layout of a kernel's struct argument.

_MIRRORS: dict[tuple, tuple[Any, dict[str, type]]] = {}


@checked
def struct_type(kernel: Any, arg: int | str = 0, arch: str | None = None) -> type:
    """A dataclass mirroring the by-value struct argument ``arg`` (index or name) of
    ``kernel``, built from clang's own layout of the struct (``-fdump-record-layouts``, run on
    the module's source with its options): field names, canonical C types and nested structs
    as declared. Each field's offset and the size are checked against clang's and the code
    object's, so an instance is laid out exactly as the kernel reads it:
    ``Args = struct_type(m.saxpy); m.saxpy[g, b](Args(x=x, y=y, n=n, alpha=2.0))``."""
    if not callable(getattr(kernel, "info", None)):
        raise ArgumentTypeError(f"wb.struct_type: argument 'kernel' takes a Kernel "
                                f"(module.name, module['name'] or a %%hipkernel name), got "
                                f"{type(kernel).__name__}")
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
        inner = (ctype.split(" ", 1)[1] if ctype.split(" ", 1)[0] in ("struct", "class")
                 and not ctype.rstrip().endswith("*") else None)  # not `struct ihipStream_t *`
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
