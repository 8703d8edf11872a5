"""Views over hipwb's model objects: rich HTML, deterministic text, and live widgets in Jupyter.

``base`` holds the shared pattern (read its docstring before adding a view). Modules:
``compile_report`` (what ``%%hipkernel`` shows), ``occupancy_view``, ``isa_view``; the layout
explorer and LDS heatmap live in their own modules. Views only draw; the numbers come from
``workbench.occupancy``, ``workbench.isa`` and friends.
"""

from .base import InteractiveView, View

__all__ = ["InteractiveView", "View"]
