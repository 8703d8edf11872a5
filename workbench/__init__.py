"""hipwb: a Jupyter-first workbench for AMD GPU HIP kernels — everything is ``wb.<name>``.

``import workbench as wb`` is the one front door (notebooks, scripts, the CLI use nothing
else); ``%load_ext workbench`` adds the ``%%hipkernel`` / ``%%hipfile`` / ``%%triton`` /
``%hipwb`` magics.
Objects display themselves: in Jupyter as a widget (static HTML where no widget runs), in
``print`` as text.

Compile and launch
    compile(source, arch=..., options, defines=...) -> Module (a code object per arch)
    load(code_object, name=None) -> Module from a code object built anywhere: ELF bytes, a
        .hsaco path, a clang offload bundle, a list of them (the arch from each ELF header);
        everything below works on it but the source lines (CodeObjectError: not one)
    triton(fn, signature=None, constexprs=None, arch="gfx942", num_warps=4, num_stages=2,
        **options) -> TritonKernel: a @triton.jit function compiled by Triton's AMD backend
        (optional: pip install 'hip-workbench[triton]'), launched as Triton does:
        kern[grid](x, y, out, n, BLOCK=1024); kern.module (a Module: every view below),
        kern.ir["ttgir"], kern.isa (with the Python lines); %%triton cells bind the same
    wave(kernel, hyperparams, arch="gfx942", wave_schedule=None, **options) -> WaveKernel:
        a @tkw.wave kernel compiled by Wave through IREE (optional: pip install
        'hip-workbench[wave]'), called as Wave does: kern(a, b, c); kern.module (a Module:
        every view below), kern.mlir, kern.isa, kern.trace(...), kern.check(...),
        kern.timing(..., chip="mi300x")
    module["name"] / module.name / module.get_function("name") -> Kernel (the object the
        magic binds); module["gfx942"] -> CodeObject
    kernel[grid, block](*args)      launch on the default device (GPU, else the emulator)
    kernel.trace[grid, block](*args) -> Trace (emulator run recording every LDS access)
    kernel.on(device)[grid, block](*args); devices(), get_device(), set_device(name)
    set_guard(False)                 turn off the launch guard (GPU launches are first checked
        on the emulator's boundary workgroups; kernel[...](..., guard=False) for one launch)
    bench(kernel, grid, block, *args) time a launch; Kernel, LaunchResult, Trace
    kernel.timing[grid, block](*args, chip="mi355x", flops=N) -> TimingReport (modelled time;
        .timeline(), .roofline(*others), .lines() cycles per source line, .isa() per
        instruction)
    roofline(*reports, labels=None)   the chip's ceilings and each report's modelled point per
        memory level (LDS, L2, Infinity Cache, HBM) on one log-log chart
    struct_type(kernel) -> a dataclass of a by-value struct argument (fields that are device
        pointers take arrays), laid out by clang; kernel[...](Args(x, y, n, 2.0))
    HipwbError: the base of every error hipwb raises for you (KernelFault, LaunchError,
        CompileError, ToolchainError, ...), each naming the fix; in IPython only your frames
        show (%hipwb traceback on / show_tracebacks(True) for all)

Inspect
    kernel.info(arch).args / .resources  KernelInfo, KernelArg, Resources, KernelDescriptor
    kernel.isa / kernel.isa_for(arch)    Listing: print() shows the ISA with source lines
    kernel.occupancy(block, arch)        Occupancy: waves/SIMD and the limiter (live explorer)
    kernel.matrix_instructions(arch)     the MFMA/WMMA instructions its ISA uses (what a tl.dot
        or an MFMA builtin became), counts, lines; [0].A is one's register layout
    occupancy(resources, arch, block)    the same from plain numbers
    occupancy_table(arch, vgprs=...)     OccupancyTable: resource ranges -> waves/SIMD
    register_budget(arch, vgprs)         one SIMD's VGPR file split into its waves, per wave
        size (wave32 vs wave64), and the waves/SIMD curve
    dual_issue(*listings, labels=)       VOPD (v_dual_X :: v_dual_Y) pairs of gfx11/gfx12
        listings: issue slots on one scale, the instruction stream, VGPR banks of each half
    get_arch(name) -> Arch               the arch table (CUs, clocks, LDS, peaks, sources)
    find_toolchain(), doctor()           what LLVM/ROCm/GPU hipwb found

Matrix instructions (MFMA/WMMA layouts)
    matrix_instruction(mnemonic, arch) -> MatrixInstruction (.A .B .C .D Layouts: print them;
        displayed, they open the layout explorer)
    matrix_instructions(arch)          every catalogued instruction of an arch
    layout(mnemonic, arch, operand)    interactive layout explorer

LDS bank conflicts
    trace_conflicts(trace, source=kernel) -> TraceConflicts (ranked per instruction/line)
    lds_heatmap(*traces_or_patterns)   interactive bank heatmap (``.grids()`` print as text);
        lds_heatmap(before, after, mode="all") side by side on one colour scale with a legend
    SharedTile(shape, dtype, padding=, swizzle=XorSwizzle(...)), column_access(tile, col),
    row_access(tile, row), mfma_operand_reads(instruction, operand, tile, ds_op) -> patterns
    analyzed by the same bank model

Sweeps (offline autotuning, on Dask)
    sweep(source, space, launch=, inputs=, reference=, check_shape=, shapes=, targets=)
        -> SweepResult (a pandas DataFrame: per variant compile status, resources, occupancy,
        check on the emulator, modelled time); .best(), .pareto(), .view(), .report(row)

Reading aids
    table(rows, header, title=None)  an HTML table (numbers right-aligned, sortable when long),
        aligned text in print
    code(path_or_text, language=None) source highlighted (Pygments), plain text in print

Heavy parts (emulator, widgets, devices) load on first use so that importing stays fast.
"""

from __future__ import annotations

import importlib

from . import compiler as _compiler
from . import display as _display
from .codeobject import KernelArg, KernelDescriptor, KernelInfo, Resources
from .compiler import CodeObject, CompileError, Module, compile

# Imported eagerly, for the same reason as occupancy below: `%hipwb doctor` and the CLI import
# `workbench.doctor`, which would otherwise replace a lazy `wb.doctor` with that module.
from .doctor import doctor

# Imported eagerly, not lazily: a lazy `workbench.occupancy` function would be replaced by the
# submodule of the same name as soon as anything imports `workbench.occupancy` (the import
# system sets the package attribute on first load). The module is small and pure.
from .occupancy import Occupancy, OccupancyTable, occupancy, occupancy_table
from .toolchain import ToolchainError, find_toolchain

__version__ = "0.1.0"

# Public names that live in modules loaded on first use: name -> "module:attribute".
_LAZY = {
    "load": "workbench.loader:load",
    "triton": "workbench.triton_front:triton",
    "TritonKernel": "workbench.triton_front.kernel:TritonKernel",
    "wave": "workbench.wave_front:wave",
    "WaveKernel": "workbench.wave_front.kernel:WaveKernel",
    "CodeObjectError": "workbench.codeobject:CodeObjectError",
    "Kernel": "workbench.runtime.kernel:Kernel",
    "LaunchResult": "workbench.runtime.device:LaunchResult",
    "devices": "workbench.runtime.devices:devices",
    "set_device": "workbench.runtime.devices:set_device",
    "set_guard": "workbench.runtime.guard:set_guard",
    "get_device": "workbench.runtime.devices:get_device",
    "bench": "workbench.runtime.bench:bench",
    "struct_type": "workbench.runtime.structs:struct_type",
    "KernelFault": "workbench.errors:KernelFault",
    "LaunchError": "workbench.errors:LaunchError",
    "HipwbError": "workbench.errors:HipwbError",
    "show_tracebacks": "workbench.errors:show_tracebacks",
    "Trace": "workbench.emu.observers.trace:Trace",
    "Listing": "workbench.isa:Listing",
    "Arch": "workbench.arch:Arch",
    "get_arch": "workbench.arch:get",
    "MatrixInstruction": "workbench.layouts:MatrixInstruction",
    "matrix_instruction": "workbench.layouts:get",
    "matrix_instructions": "workbench.layouts:instructions",
    "layout": "workbench.widgets.layout_explorer:layout",
    "lds_heatmap": "workbench.widgets.lds_heatmap:lds_heatmap",
    "register_budget": "workbench.widgets.register_budget:register_budget",
    "dual_issue": "workbench.widgets.dual_issue_view:dual_issue",
    "trace_conflicts": "workbench.lds:trace_conflicts",
    "SharedTile": "workbench.lds:SharedTile",
    "XorSwizzle": "workbench.lds:XorSwizzle",
    "column_access": "workbench.lds:column_access",
    "row_access": "workbench.lds:row_access",
    "mfma_operand_reads": "workbench.lds:mfma_operand_reads",
    "roofline": "workbench.timing.roofline:roofline",
    "sweep": "workbench.sweeps:sweep",
    "table": "workbench.widgets.table_view:table",
    "code": "workbench.widgets.table_view:code",
    "SweepResult": "workbench.sweeps.frame:SweepResult",
}


def __getattr__(name: str):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    mod, attr = target.split(":")
    value = getattr(importlib.import_module(mod), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


def _kernel(module: Module, name: str):
    from .runtime.kernel import Kernel

    return Kernel(module, name)


def _view(obj):
    from .widgets.views import view_for

    return view_for(obj)


# The front door wires the layers together (docs/architecture.md: a layer imports only layers below
# it): the compiler's Module builds the runtime's Kernel, and model objects find their views.
_compiler.set_kernel_factory(_kernel)
_display.set_view_factory(_view)


def load_ipython_extension(ipython) -> None:
    """``%load_ext workbench``: register %%hipkernel, %%hipfile, %%triton and %hipwb."""
    from .magics import load_ipython_extension as load

    load(ipython)


__all__ = [
    "CodeObject", "CompileError", "KernelArg", "KernelDescriptor", "KernelInfo", "Module",
    "Occupancy", "OccupancyTable", "Resources", "ToolchainError", "compile", "find_toolchain",
    "occupancy", "occupancy_table", "doctor", *_LAZY,
]
