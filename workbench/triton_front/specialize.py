"""Which kernel a Triton launch needs: its signature, constexprs and attributes, as Triton's JIT
derives them from the call's arguments, or as the user gave them.

A ``Spec`` is one specialization (what ``triton.compile`` builds one code object of): a type per
parameter (``*fp32``, ``i32``, ``constexpr``), the constexpr values, and the divisibility /
pointer-range attributes. Inferred from a call the way ``triton.runtime.jit`` does
(``create_function_from_signature``, ``native_specialize_impl``): a tensor's element type and
whether its address is a multiple of 16 (``tt.divisibility``) and it spans < 2 GiB
(``tt.pointer_range``, buffer instructions on AMD); an int as ``i32``/``i64``/``u64`` (1 is a
constexpr), 16 | n as divisible; a float as ``fp32``; a bool as ``u1``; None as a constexpr.
numpy arrays are viewed as torch tensors (same memory) to get the same answer.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentTypeError, ArgumentValueError, LaunchError

# Triton scalar type -> the C type hipwb's launches type a value by (workbench/runtime/ctypes_map):
# Triton's "Types" (triton/language/core.py dtype names), with the sizes of the AMDGPU data
# layout. fp8 elements have no C scalar: a pointer to them takes uint8 or torch float8 tensors.
C_TYPES = {
    "i1": "bool", "u1": "bool", "i8": "signed char", "i16": "short", "i32": "int", "i64": "long",
    "u8": "unsigned char", "u16": "unsigned short", "u32": "unsigned int", "u64": "unsigned long",
    "fp16": "_Float16", "bf16": "__bf16", "fp32": "float", "fp64": "double",
    "fp8e4nv": "unsigned char", "fp8e5": "unsigned char", "fp8e4b8": "unsigned char",
    "fp8e5b16": "unsigned char", "fp8e4b15": "unsigned char",
}
# launch keywords that are compile options (triton.backends.amd.compiler.HIPOptions)
LAUNCH_OPTIONS = ("num_warps", "num_stages", "waves_per_eu", "matrix_instr_nonkdim", "kpack",
                  "enable_fp_fusion", "num_ctas", "debug", "sanitize_overflow",
                  "allow_flush_denorm", "schedule_hint", "instrumentation_mode")


@dataclass(frozen=True)
class Spec:
    """One specialization of a @triton.jit function: per parameter its type, attribute
    string ("D": divisible by 16, "S": within 2 GiB; Triton's ``parse_attr``) and, for a
    constexpr, its value."""

    names: tuple[str, ...]
    types: tuple[str, ...]          # "*fp32", "i32", "constexpr", ...
    attrs: tuple[str, ...]          # "", "D", "DS" (constexprs: "")
    constexprs: tuple[tuple[str, Any], ...]

    @property
    def key(self) -> tuple:
        return (self.names, self.types, self.attrs,
                tuple((n, _hashable(v)) for n, v in self.constexprs))

    def args(self) -> list[tuple[str, str]]:
        """(name, type) of the kernel's arguments: the parameters that are not constexprs."""
        return [(n, t) for n, t in zip(self.names, self.types) if t != "constexpr"]

    def text(self) -> str:
        """``x_ptr: *fp32 (D), n: i32, BLOCK=1024`` for reports and errors."""
        ce = dict(self.constexprs)
        parts = [f"{n}={ce[n]!r}" if t == "constexpr" else
                 f"{n}: {t}" + (f" ({a})" if a else "")
                 for n, t, a in zip(self.names, self.types, self.attrs)]
        return ", ".join(parts)

    def source_args(self, backend: Any) -> tuple[dict, dict, dict]:
        """(signature, constexprs, attrs) as ``triton.compiler.ASTSource`` takes them."""
        ce = dict(self.constexprs)
        sig = dict(zip(self.names, self.types))
        consts = {(i,): ce[n] for i, (n, t) in enumerate(zip(self.names, self.types))
                  if t == "constexpr"}
        attrs = {(i,): backend.parse_attr(a) for i, a in enumerate(self.attrs) if a}
        return sig, consts, attrs


def _hashable(v: Any) -> Any:
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def params(fn: Any) -> list[Any]:
    """The KernelParams of a JITFunction (``triton.runtime.jit``), checked to be one."""
    if not hasattr(fn, "params") or not hasattr(fn, "arg_names"):
        raise ArgumentTypeError(f"wb.triton(fn): fn must be a @triton.jit function, got "
                                f"{type(fn).__name__} {fn!r:.60}")
    return list(fn.params)


def bind(fn: Any, args: tuple, kwargs: dict) -> tuple[dict[str, Any], dict[str, Any]]:
    """(parameter values by name with defaults applied, compile options among the keywords),
    as Triton's binder splits a launch's arguments."""
    names = [p.name for p in params(fn)]
    options = {k: kwargs.pop(k) for k in list(kwargs) if k in LAUNCH_OPTIONS and k not in names}
    try:
        bound = fn.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise LaunchError(f"{fn.__name__}({', '.join(names)}): {e}; compile options "
                          f"({', '.join(LAUNCH_OPTIONS[:3])}, ...) are keywords too") from None
    bound.apply_defaults()
    return dict(bound.arguments), options


def infer(fn: Any, values: dict[str, Any]) -> Spec:
    """The specialization Triton's JIT would compile for these argument values."""
    from triton._C.libtriton import native_specialize_impl
    from triton.backends.amd.compiler import HIPBackend

    names, types, attrs, consts = [], [], [], []
    for p in params(fn):
        v = values[p.name]
        names.append(p.name)
        if p.is_constexpr:
            types.append("constexpr")
            attrs.append("")
            consts.append((p.name, v))
            continue
        ty, attr = _specialize(native_specialize_impl, HIPBackend, p, v)
        if ty == "constexpr":
            consts.append((p.name, v))
            attr = ""
        types.append(ty)
        attrs.append(attr or "")
    return Spec(tuple(names), tuple(types), tuple(attrs), tuple(consts))


def _specialize(native: Any, backend: Any, p: Any, v: Any) -> tuple[str, str | None]:
    if isinstance(v, np.ndarray):
        v = _torch_view(v, p.name)
    elif isinstance(v, np.bool_):
        v = bool(v)
    elif isinstance(v, np.integer):
        v = int(v)
    elif isinstance(v, np.floating):
        v = float(v)
    if isinstance(v, (tuple, list)):
        raise LaunchError(f"argument {p.name!r}: tuple arguments are not supported by wb.triton "
                          f"yet; pass their items as separate arguments")
    try:
        ty, attr = native(backend, v, p.is_const, not p.do_not_specialize,
                          not p.do_not_specialize_on_alignment)
    except Exception as e:
        raise LaunchError(f"argument {p.name!r}: Triton cannot take a {type(v).__name__} "
                          f"({e}); pass a torch tensor or numpy array for a pointer, an int, "
                          f"float or bool for a scalar") from None
    ann = p.annotation_type
    if ann and isinstance(ann, str):  # an annotated parameter keeps its type (jit.py)
        if ann == "u1" or ann[:2] in ("fp", "bf"):
            return ann, None
        return ann, attr
    return ty, attr


def _torch_view(a: np.ndarray, name: str) -> Any:
    import torch

    try:
        return torch.from_numpy(a)
    except (TypeError, ValueError) as e:
        raise LaunchError(f"argument {name!r}: a numpy {a.dtype} array has no Triton element "
                          f"type ({e}); pass a torch tensor") from None


def explicit(fn: Any, signature: Any, constexprs: dict[str, Any] | None) -> Spec:
    """A Spec from the user's signature: a dict ``{name: "*fp32", ...}`` or a string of the
    non-constexpr parameters' types in order (``"*fp32, *fp32, *fp32, i32"``); a pointer type
    may carry ``:16`` (its address divisible by 16, as Triton's AOT compiler spells it).
    ``constexprs``: ``{name: value}``; constexpr parameters missing there take their default."""
    ps = params(fn)
    consts = dict(constexprs or {})
    unknown = sorted(set(consts) - {p.name for p in ps})
    if unknown:
        raise ArgumentValueError(f"constexprs: {fn.__name__} has no parameter "
                                 f"{', '.join(map(repr, unknown))} (parameters: "
                                 f"{', '.join(p.name for p in ps)})")
    if isinstance(signature, str):
        items = [s.strip() for s in signature.split(",") if s.strip()]
        plain = [p for p in ps if not p.is_constexpr and p.name not in consts]
        if len(items) != len(plain):
            raise ArgumentValueError(
                f"signature {signature!r} gives {len(items)} type(s) but {fn.__name__} has "
                f"{len(plain)} non-constexpr parameter(s): {', '.join(p.name for p in plain)}")
        sig = dict(zip((p.name for p in plain), items))
    elif isinstance(signature, dict):
        sig = {k: str(v) for k, v in signature.items()}
    else:
        raise ArgumentTypeError(f"signature: a dict {{name: type}} or a string such as "
                                f"'*fp32, *fp32, i32', got {type(signature).__name__}")
    names, types, attrs, cvals = [], [], [], []
    for p in ps:
        names.append(p.name)
        ty = sig.get(p.name, "constexpr" if p.is_constexpr or p.name in consts else None)
        if ty is None:
            raise ArgumentValueError(f"signature: no type for parameter {p.name!r} of "
                                     f"{fn.__name__} (e.g. '*fp32', 'i32', 'fp32')")
        ty, _, hint = ty.partition(":")
        ty = ty.strip()
        if ty == "constexpr":
            if p.name not in consts and not p.has_default:
                raise ArgumentValueError(f"constexprs: give a value for {p.name!r}, e.g. "
                                         f"constexprs={{{p.name!r}: 1024}}")
            cvals.append((p.name, consts.get(p.name, p.default)))
        elif ty.lstrip("*") not in C_TYPES:
            raise ArgumentValueError(f"signature: {p.name}: unknown Triton type {ty!r} (known: "
                                     f"{', '.join(sorted(C_TYPES))}, '*' before a pointer's)")
        types.append(ty)
        attrs.append("D" if hint.strip() == "16" else "")
    return Spec(tuple(names), tuple(types), tuple(attrs), tuple(cvals))


def with_constexprs(spec: Spec, values: dict[str, Any]) -> Spec:
    """``spec`` with the constexpr values of a launch (a launch may change ``BLOCK``)."""
    ce = dict(spec.constexprs)
    for n, t in zip(spec.names, spec.types):
        if t == "constexpr" and n in values and values[n] is not None:
            ce[n] = values[n]
    return Spec(spec.names, spec.types, spec.attrs, tuple(ce.items()))


def kernel_values(spec: Spec, values: dict[str, Any]) -> list[Any]:
    """The launch's kernel arguments in order, constexprs left out: arrays as given, scalars as
    Python numbers (the launch types and range-checks them by the argument's C type)."""
    out = []
    for n, t in spec.args():
        v = values[n]
        if not t.startswith("*"):
            if isinstance(v, np.generic):
                v = v.item()
            elif isinstance(v, np.ndarray) or hasattr(v, "data_ptr"):
                raise LaunchError(f"argument {n!r} is a {t} scalar in this specialization but "
                                  f"got an array")
        else:
            v = span_view(v, n)
        out.append(v)
    return out


def span_view(v: Any, name: str) -> Any:
    """A strided tensor (``b.T``, a slice) as the memory it spans from its first element: a 1-D
    view of the same memory, as Triton passes only ``data_ptr()`` and the kernel walks the
    strides it is given. Contiguous arrays and other objects come back unchanged."""
    is_torch = hasattr(v, "data_ptr") and hasattr(v, "is_contiguous")
    if not (is_torch or isinstance(v, np.ndarray)):
        return v
    if (v.is_contiguous() if is_torch else v.flags.c_contiguous) or v.ndim == 0:
        return v
    strides = v.stride() if is_torch else tuple(s // v.itemsize for s in v.strides)
    if any(s < 0 for s in strides) or (not is_torch and any(s % v.itemsize
                                                            for s in v.strides)):
        raise LaunchError(f"argument {name!r}: a tensor with negative or unaligned strides "
                          f"{tuple(strides)} cannot be passed as a pointer; pass "
                          f"tensor.contiguous()")
    if 0 in v.shape:
        return v.reshape(-1)[:0] if is_torch else v.reshape(-1)[:0]
    span = 1 + sum((d - 1) * s for d, s in zip(v.shape, strides))
    if is_torch:
        import torch

        return torch.as_strided(v, (span,), (1,))
    return np.lib.stride_tricks.as_strided(v, (span,), (v.itemsize,))


_SIG_ITEM = re.compile(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$", re.S)


def parse_cell_signature(text: str) -> tuple[str, str, dict[str, Any]]:
    """``"add(*fp32, *fp32, *fp32, i32, BLOCK=1024)"`` -> ("add", "*fp32, *fp32, *fp32, i32",
    {"BLOCK": 1024}): the form ``%%triton --signature`` takes."""
    m = _SIG_ITEM.match(text)
    if not m:
        raise ValueError(f"--signature {text!r}: write it as "
                         f"'kernel(*fp32, *fp32, i32, BLOCK=1024)'")
    types, consts = [], {}
    for item in _split(m.group(2)):
        name, eq, value = item.partition("=")
        if eq:
            try:
                consts[name.strip()] = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError):
                raise ValueError(f"--signature {text!r}: {name.strip()}={value.strip()} is "
                                 f"not a Python literal") from None
        else:
            types.append(item)
    return m.group(1), ", ".join(types), consts


def _split(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out
