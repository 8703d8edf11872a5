"""``@checked``: a public function's arguments checked against its own type annotations.

Why: a wrong type passed to ``wb.*`` would otherwise surface deep inside hipwb as a bare
``TypeError``/``AttributeError`` from some internal line. Checked at the door, it is an
``ArgumentTypeError`` (a ``HipwbError`` and a ``TypeError``) naming the function, the argument,
what it takes and what it got. The annotations are the contract, so the check cannot drift
from the signature.

Rules: ``Any``/``object`` take anything; ``int`` takes Python and numpy integers but not
``bool``; ``float`` takes any real number but not ``bool``; ``bool`` takes Python and numpy
bools; ``Sequence[X]`` takes a list or tuple (not one string: ``include_dirs="/x"`` is a
mistake); ``Mapping[K, V]`` a mapping; ``tuple[X, ...]`` / ``tuple[X, Y]`` a tuple or list of
that shape; ``Literal[...]`` its values; a Protocol or an annotation that cannot be resolved
(a name imported only for type checkers) takes anything. Wrong arity is reported the same way.
"""

from __future__ import annotations

import collections.abc as cabc
import functools
import inspect
import os
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from .errors import ArgumentTypeError

F = TypeVar("F", bound=Callable[..., Any])
_ANY = object()  # an annotation taken as Any


def checked(fn: F | None = None, *, public: str | None = None,
            own: tuple[str, ...] = ()) -> Any:
    """Decorate a public function: its arguments are checked against its annotations.
    ``@checked(public="get_arch")`` names it as ``wb`` exports it; ``own=("block_size",)``
    leaves those arguments to the function's own check (one that also names their range)."""
    if fn is None:
        return functools.partial(checked, public=public, own=own)
    sig = inspect.signature(fn)
    hints: dict[str, Any] = {}
    resolved = False
    name = f"wb.{public or fn.__name__}"

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal hints, resolved
        if not resolved:  # lazily: annotations may name classes defined after the function
            hints, resolved = _hints(fn, sig), True
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            takes = ", ".join(sig.parameters)
            raise ArgumentTypeError(f"{name}: {e} (its arguments: {takes})") from None
        for pname, value in bound.arguments.items():
            hint = hints.get(pname, _ANY)
            if hint is _ANY or pname in own:
                continue
            kind = sig.parameters[pname].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                items = [(f"{pname}[{i}]", v) for i, v in enumerate(value)]
            elif kind is inspect.Parameter.VAR_KEYWORD:
                items = [(k, v) for k, v in value.items()]
            else:
                items = [(pname, value)]
            for label, v in items:
                if not matches(v, hint):
                    hint_text = ("; one str was given: put it in a list" if isinstance(v, str)
                                 and "list or tuple" in describe(hint) else "")
                    raise ArgumentTypeError(
                        f"{name}: argument {label!r} takes {describe(hint)}, got "
                        f"{type(v).__name__} {_short(v)}{hint_text}")
        return fn(*args, **kwargs)

    return typing.cast(F, wrapper)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _hints(fn: Callable[..., Any], sig: inspect.Signature) -> dict[str, Any]:
    """The resolvable annotations of ``fn``'s parameters (unresolvable ones: Any)."""
    try:
        return {k: v for k, v in typing.get_type_hints(fn).items() if k in sig.parameters}
    except Exception:  # a name only imported under TYPE_CHECKING: resolve one by one
        out = {}
        for pname, p in sig.parameters.items():
            ann = p.annotation
            if ann is inspect.Parameter.empty:
                continue
            if isinstance(ann, str):
                try:
                    ann = eval(ann, dict(vars(typing)) | fn.__globals__)  # noqa: S307
                except Exception:
                    ann = _ANY
            out[pname] = ann
        return out


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_real(v: Any) -> bool:
    return (isinstance(v, (int, float, np.integer, np.floating))
            and not isinstance(v, (bool, np.bool_)))


def matches(v: Any, hint: Any) -> bool:
    """Whether ``v`` is a value of the annotation ``hint`` (the module's rules)."""
    if hint is Any or hint is object or hint is _ANY or isinstance(hint, (str, TypeVar)):
        return True
    if hint is None or hint is type(None):
        return v is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(matches(v, a) for a in args)
    if origin is typing.Literal:
        return any(v == a and type(v) is type(a) for a in args)
    if hint is int:
        return _is_int(v)
    if hint is float:
        return _is_real(v)
    if hint is bool:
            return isinstance(v, (bool, np.bool_))
    if hint is os.PathLike:
        return isinstance(v, os.PathLike)
    if origin in (tuple,):
        if not isinstance(v, (tuple, list)):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(matches(x, args[0]) for x in v)
        return not args or (len(v) == len(args) and all(map(matches, v, args)))
    if origin in (list, cabc.Sequence, cabc.Iterable, cabc.Collection):
        if isinstance(v, (str, bytes)) or not isinstance(v, (list, tuple)):
            return False
        return not args or all(matches(x, args[0]) for x in v)
    if origin in (dict, cabc.Mapping):
        if not isinstance(v, cabc.Mapping):
            return False
        return not args or all(matches(k, args[0]) and matches(x, args[1])
                               for k, x in v.items())
    if origin in (type,):
        return isinstance(v, type)
    if origin is cabc.Callable or hint is cabc.Callable:
        return callable(v)
    if origin is not None:
        hint = origin
    if isinstance(hint, type):
        if getattr(hint, "_is_protocol", False) and not getattr(hint, "_is_runtime_protocol",
                                                                False):
            return True  # a structural type: the function checks what it uses
        return isinstance(v, hint)
    return True


def describe(hint: Any) -> str:
    """An annotation in words: ``int``, ``str or a sequence of str``, ``None``."""
    if hint is None or hint is type(None):
        return "None"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        parts = list(dict.fromkeys(describe(a) for a in args))
        if len(parts) > 2:  # "str, int or None"
            return ", ".join(parts[:-1]) + " or " + parts[-1]
        return " or ".join(parts)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of {describe(args[0])}"
        return f"a tuple ({', '.join(describe(a) for a in args)})" if args else "a tuple"
    if origin in (list, cabc.Sequence, cabc.Iterable, cabc.Collection):
        if not args:
            return "a list or tuple"
        inner = describe(args[0])
        return f"a list or tuple of {f'({inner})' if ' or ' in inner else inner}"
    if origin in (dict, cabc.Mapping):
        if not args:
            return "a mapping"
        value = describe(args[1])
        return f"a mapping of {describe(args[0])} to {f'({value})' if ' or ' in value else value}"
    if hint is os.PathLike:
        return "a path"
    if hint is float:
        return "a number"
    return getattr(hint, "__name__", str(hint))
