"""How model objects show themselves — a widget in Jupyter, text in ``print`` — without
importing the views, which sit above them.

Why: docs/architecture.md's layers put models, the compiler, the emulator and the runtime below
``workbench.widgets``, so an ``Occupancy``, a ``Listing``, a ``Trace`` or a ``Kernel`` cannot
import its view. The package's front door (``workbench/__init__``, the top layer) hands this
module one function, object -> view (``set_view_factory``); ``Displayable`` objects ask it when
IPython displays them or ``str()`` prints them. Without a factory (never the case once
``workbench`` is imported) they fall back to ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_factory: Callable[[Any], Any] | None = None


def set_view_factory(factory: Callable[[Any], Any] | None) -> None:
    """Install the function that builds a view (an object with ``text()``, ``html()`` and,
    for live views, ``_repr_mimebundle_``) for a model object, or returns None."""
    global _factory
    _factory = factory


def view_of(obj: Any) -> Any:
    """The view of ``obj`` from the installed factory, or None."""
    return _factory(obj) if _factory is not None else None


class Displayable:
    """Mixin: display through the view ``view_of(self)`` (widget + static HTML + text)."""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        view = view_of(self)
        if view is None:
            return {"text/plain": repr(self)}
        bundle = getattr(view, "_repr_mimebundle_", None)
        if bundle is not None:
            return bundle(include, exclude)
        return {"text/plain": view.text(), "text/html": view.html()}

    def __str__(self) -> str:
        view = view_of(self)
        return view.text() if view is not None else repr(self)
