"""Which view shows which model object: the factory ``workbench.display`` asks when a
``Kernel``, ``Listing``, ``Occupancy``, ``OccupancyTable``, ``Trace``, ``MatrixInstruction`` or
``Layout`` is displayed or printed.

Why one table here: the models sit below the widgets (docs/architecture.md) and may not import them;
the package's front door installs :func:`view_for` into ``workbench.display``. View modules are
imported on first use, so ``import workbench`` stays light.
"""

from __future__ import annotations

from typing import Any


def _kernel(k: Any) -> Any:
    from .compile_report import CompileReport

    m = k.module
    source = "\n" * (m.first_line - 1) + m.source
    return CompileReport(m, source=source, kernels=[k.name])


def _listing(li: Any) -> Any:
    from .isa_view import IsaView

    return IsaView(li, li.source, title=li.title or li.symbol, open=True)


def _occupancy(occ: Any) -> Any:
    from .occupancy_view import OccupancyExplorer, OccupancyView

    if occ.resources is None:
        return OccupancyView(occ)
    return OccupancyExplorer(occ.resources, occ.arch, occ.block_size, occ.dynamic_lds)


def _occupancy_table(tab: Any) -> Any:
    from .occupancy_view import OccupancyTableView

    return OccupancyTableView(tab, **{k: tab.marks.get(k) for k in ("vgprs", "sgprs")},
                              lds_bytes=tab.marks.get("lds"))


def _matrix(ins: Any) -> Any:
    from .layout_explorer import LayoutExplorer

    return LayoutExplorer(ins, "A")


def _layout(lay: Any) -> Any:
    from .layout_data import Modifiers
    from .layout_explorer import LayoutExplorer

    if lay.matrix is None:
        return None
    return LayoutExplorer(lay.matrix, lay.operand, Modifiers(opsel=lay.opsel))


def _trace(trace: Any) -> Any:
    from .base import View, esc, wrap
    from .lds_heatmap import lds_heatmap

    if len(trace.ds):
        return lds_heatmap(trace)

    class TraceSummary(View):
        def text(self) -> str:
            return trace.summary()

        def html(self) -> str:
            return wrap(f"<div>{esc(trace.summary())}</div>")

    return TraceSummary()


def _matrix_uses(uses: Any) -> Any:
    from .table_view import TableView

    return TableView(uses.rows(), uses.header, title=uses.summary(), sortable=False,
                     notes=["counts are instructions in the code, not executions; "
                            "[0] (or [mnemonic]) is the instruction: its .A, .B, .C are the "
                            "register layouts"]
                     if uses.uses else ())


_BY_CLASS = {
    "workbench.matrix_use.MatrixUses": _matrix_uses,
    "workbench.runtime.kernel.Kernel": _kernel,
    "workbench.isa.Listing": _listing,
    "workbench.occupancy.Occupancy": _occupancy,
    "workbench.occupancy.OccupancyTable": _occupancy_table,
    "workbench.emu.observers.trace.Trace": _trace,
    "workbench.layouts.instruction.MatrixInstruction": _matrix,
    "workbench.layouts.layout.Layout": _layout,
}


def view_for(obj: Any) -> Any:
    """The view of a model object (by its class or a base class), or None."""
    for cls in type(obj).__mro__:
        make = _BY_CLASS.get(f"{cls.__module__}.{cls.__qualname__}")
        if make is not None:
            return make(obj)
    return None
