"""A compile-cache entry as plain data: JSON for what a CodeObject knows, checked field by field
on read, next to the raw code object (whose SHA-256 the JSON holds).

Why not pickle: a cache folder may be shared (``HIPWB_CACHE_DIR`` across sweep workers), and
unpickling a crafted file runs code. JSON only ever yields dicts, lists, strings, numbers, bools
and None; ``decode`` then accepts exactly the shape ``encode`` writes (every key present, no
other key, each value of its type) and raises ``BadEntry`` naming the first thing that is not.
Every field of the dataclasses below round-trips exactly (tests/test_cache_safety.py checks a
fresh compile's Module against the cached one, field by field).
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from typing import Any

from .cache_files import BadEntry
from .codeobject import (
    DeviceVariable,
    HiddenArg,
    KernelArg,
    KernelDescriptor,
    KernelInfo,
    Resources,
)
from .compile_diagnostics import Diagnostic

# the entry's JSON shape; compile_cache.CACHE_FORMAT follows it (11: Python names of kernels
# keep a minus as m, k<-1> -> k_m1)
FORMAT = 11


class _Bad(Exception):
    """What is wrong with one value; containers add where it sits on the way up (so the fast
    path builds no location strings), decode turns it into a BadEntry."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what, self.path = what, []

    def at(self, step: str) -> _Bad:
        self.path.append(step)
        return self


class _Kind:
    """How one value is written to JSON and checked when read back. ``typ`` (scalars) or
    ``valid`` + ``conv`` (rows of scalars) give lists of them a fast check: an entry lists a
    few hundred headers."""

    def __init__(self, name, enc, dec, typ=None, valid=None, conv=None):
        self.name, self.enc, self.dec = name, enc, dec
        self.typ, self.valid, self.conv = typ, valid, conv


def _scalar(name: str, typ: type) -> _Kind:
    def dec(v):
        if type(v) is not typ:
            raise _Bad(f"is {type(v).__name__} {str(v)[:40]!r}, not {name}")
        return v
    return _Kind(name, lambda v: v, dec, typ=typ)


INT = _scalar("an int", int)  # exact types: a bool is no int here, an int no float
STR = _scalar("a string", str)
BOOL = _scalar("a bool", bool)
FLOAT = _scalar("a float", float)


def _opt(k: _Kind) -> _Kind:
    return _Kind(k.name + " or null", lambda v: None if v is None else k.enc(v),
                 lambda v: None if v is None else k.dec(v))


def _each(k: _Kind, items) -> list:
    out = []
    for i, x in items:
        try:
            out.append(k.dec(x))
        except _Bad as e:
            raise e.at(f"[{i!r}]") from None
    return out


def _tuple(k: _Kind) -> _Kind:
    def dec(v):
        if type(v) is not list:
            raise _Bad("is not a list")
        if k.typ is not None and all(type(x) is k.typ for x in v):
            return tuple(v)
        if k.valid is not None and all(map(k.valid, v)):
            return tuple(map(k.conv, v))
        return tuple(_each(k, enumerate(v)))
    return _Kind("a list", lambda v: [k.enc(x) for x in v], dec)


def _row(*ks: _Kind) -> _Kind:
    """A fixed-length list of scalars, read back as a tuple."""
    types = tuple(k.typ for k in ks)

    def dec(v):
        if type(v) is not list or len(v) != len(ks):
            raise _Bad(f"is not a list of {len(ks)}")
        out = []
        for i, (k, x) in enumerate(zip(ks, v)):
            try:
                out.append(k.dec(x))
            except _Bad as e:
                raise e.at(f"[{i}]") from None
        return tuple(out)
    return _Kind("a row", lambda v: [k.enc(x) for k, x in zip(ks, v)], dec,
                 valid=lambda v: type(v) is list and tuple(map(type, v)) == types, conv=tuple)


def _dict(k: _Kind) -> _Kind:
    def dec(v):
        if type(v) is not dict:
            raise _Bad("is not an object")
        return dict(zip(v, _each(k, v.items())))
    return _Kind("an object", lambda v: {_key(n): k.enc(x) for n, x in v.items()}, dec)


def _key(n: Any) -> str:
    if type(n) is not str:
        raise TypeError(f"a {type(n).__name__} key {n!r} cannot be a JSON object key")
    return n


def _plain(v: Any) -> Any:
    """``v`` itself when JSON holds it exactly (what the ELF's msgpack metadata decodes to:
    dicts with string keys, lists, strings, ints, finite floats, bools, None); else TypeError,
    so nothing is stored that would read back different (a tuple as a list, an int key as a
    string, bytes)."""
    if v is None or type(v) in (str, int, bool):
        return v
    if type(v) is float:
        if not math.isfinite(v):
            raise TypeError(f"{v!r} is not a finite float")
        return v
    if type(v) is list:
        return [_plain(x) for x in v]
    if type(v) is dict:
        return {_key(n): _plain(x) for n, x in v.items()}
    raise TypeError(f"a {type(v).__name__} cannot be stored as JSON exactly")


def _json_object(v):
    if type(v) is not dict:
        raise _Bad("is not an object")
    return v  # json.loads made it: only plain data inside


METADATA = _Kind("an object", _plain, _json_object)


def _record(cls, spec: dict[str, _Kind]) -> _Kind:
    """A dataclass as a JSON object with exactly its fields (spec names every one of them)."""
    names = [f.name for f in fields(cls)]
    if sorted(names) != sorted(spec):
        raise AssertionError(f"{cls.__name__}: the cache spec names {sorted(spec)}, the "
                             f"dataclass has {sorted(names)}")
    keys = set(names)
    kinds = [(n, spec[n]) for n in names]
    # all fields plain scalars (HiddenArg, Resources, KernelDescriptor): one type comparison
    types = tuple(spec[n].typ for n in names) if all(spec[n].typ for n in names) else None

    def enc(obj):
        return {n: spec[n].enc(getattr(obj, n)) for n in names}

    def dec(v):
        if type(v) is not dict:
            raise _Bad("is not an object")
        if v.keys() != keys:
            missing, extra = sorted(keys - set(v)), sorted(set(v) - keys)
            raise _Bad(f"({cls.__name__}) lacks {missing} / has unknown {extra}")
        if types is not None:
            values = [v[n] for n in names]
            if tuple(map(type, values)) == types:
                return cls(*values)
        args = {}
        for n, k in kinds:
            try:
                args[n] = k.dec(v[n])
            except _Bad as e:
                raise e.at(f".{n}") from None
        return cls(**args)
    return _Kind(cls.__name__, enc, dec)


OPT_STR, OPT_INT = _opt(STR), _opt(INT)
RESOURCES = _record(Resources, {
    "vgprs": INT, "agprs": INT, "sgprs": INT, "lds_bytes": INT, "scratch_bytes": INT,
    "vgpr_spills": INT, "sgpr_spills": INT, "wave_size": INT, "max_flat_workgroup_size": INT,
    "dynamic_stack": BOOL})
DESCRIPTOR = _record(KernelDescriptor, {n: INT for n in (
    "group_segment_fixed_size", "private_segment_fixed_size", "kernarg_size", "entry_offset",
    "rsrc3", "rsrc1", "rsrc2", "kernel_code_properties", "kernarg_preload")})
ARG = _record(KernelArg, {"name": STR, "ctype": STR, "offset": INT, "size": INT, "kind": STR,
                          "pointee": OPT_STR, "is_const": BOOL, "canonical": OPT_STR})
HIDDEN = _record(HiddenArg, {"kind": STR, "offset": INT, "size": INT})
KERNEL = _record(KernelInfo, {
    "name": STR, "symbol": STR, "arch": STR, "args": _tuple(ARG), "hidden_args": _tuple(HIDDEN),
    "kernarg_size": INT, "kernarg_align": INT, "resources": RESOURCES, "descriptor": DESCRIPTOR,
    "entry": INT, "code_size": INT, "llvm_occupancy": OPT_INT,
    "reqd_workgroup_size": _opt(_tuple(INT)), "metadata": METADATA,
    "dynamic_shared": _tuple(STR), "demangled": STR})
VARIABLE = _record(DeviceVariable, {"name": STR, "symbol": STR, "vaddr": INT, "size": INT,
                                    "section": STR, "ctype": OPT_STR})
DIAGNOSTIC = _record(Diagnostic, {"file": STR, "line": INT, "column": INT, "severity": STR,
                                  "message": STR})
# header_deps.read_deps: (path, size, mtime_ns, sha256) per header, or None (no list)
DEPS = _opt(_tuple(_row(STR, INT, INT, STR)))
_HEX = frozenset("0123456789abcdef")


def _sha(v):
    if type(v) is not str or len(v) != 64 or not _HEX.issuperset(v):
        raise _Bad("is not a SHA-256 hex digest")
    return v


SHA256 = _Kind("a SHA-256", lambda v: v, _sha)
ENTRY = {
    "format": INT, "key": STR, "arch": STR, "sha256": SHA256, "size": INT,
    "command": _tuple(STR), "compile_seconds": FLOAT, "deps": DEPS,
    "warnings": _tuple(DIAGNOSTIC), "variables": _dict(VARIABLE), "kernels": _dict(KERNEL),
}


def encode(co, key: str, deps, sha256: str) -> bytes:
    """The entry.json of a CodeObject ``co`` stored under ``key`` (TypeError when some value
    would not read back exactly)."""
    values = {"format": FORMAT, "key": key, "arch": co.arch, "sha256": sha256,
              "size": len(co.elf), "command": co.command,
              "compile_seconds": float(co.compile_seconds), "deps": deps,
              "warnings": co.warnings, "variables": co.variables, "kernels": co.kernels}
    doc = {n: k.enc(values[n]) for n, k in ENTRY.items()}
    return json.dumps(doc, separators=(",", ":"), allow_nan=False).encode("ascii")


def decode(doc: Any, key: str) -> dict[str, Any]:
    """The checked fields of an entry.json document stored under ``key`` (BadEntry when it is
    not exactly what ``encode`` writes for that key, naming where: ``kernels['k'].resources.
    vgprs is str '12', not an int``)."""
    if type(doc) is not dict:
        raise BadEntry("entry.json is not an object")
    if doc.get("format") != FORMAT:
        raise BadEntry(f"entry.json has format {str(doc.get('format'))[:20]}, not {FORMAT}")
    if doc.keys() != ENTRY.keys():
        missing, extra = sorted(ENTRY.keys() - set(doc)), sorted(set(doc) - ENTRY.keys())
        raise BadEntry(f"entry.json lacks {missing} / has unknown {extra}")
    out = {}
    for n, k in ENTRY.items():
        try:
            out[n] = k.dec(doc[n])
        except _Bad as e:
            raise BadEntry(n + "".join(reversed(e.path)) + " " + e.what) from None
    if out["key"] != key:
        raise BadEntry("entry.json names another key (copied from elsewhere)")
    for name, k in out["kernels"].items():
        if k.arch != out["arch"]:
            raise BadEntry(f"kernel {name!r} is for {k.arch}, the entry for {out['arch']}")
    return out
