"""TritonKernel: a @triton.jit function launched as a Triton user writes it, on hipwb's devices.

``kern[grid](x, y, out, n, BLOCK=1024)`` does what Triton's JIT does on a GPU: bind the
arguments, derive the specialization (``specialize``), compile it if it is new (one code object
per arch, memoised), and launch ``grid`` programs of ``num_warps`` waves each (a workgroup of
``num_warps * wave_size`` threads: 64 on CDNA) with the kernel ABI of Triton's AMD launcher
(``triton/backends/amd/driver.py``): the non-constexpr arguments in order, then the global and
profile scratch pointers, each sized ``grid size * metadata.*_scratch_size`` bytes when the
kernel asks for scratch (a 16-byte placeholder otherwise: Triton passes NULL, which the kernel
never reads). ``grid`` is an int, a tuple, or a callable of the launch's parameters
(``lambda meta: (triton.cdiv(n, meta["BLOCK"]),)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentTypeError, KernelFault, LaunchError
from ..kernel_views import KernelViews
from . import specialize as sp
from . import tuning
from .build import TritonModule, build, check_options

_MAX_SPECS = 64


class TritonKernel(KernelViews):
    """A @triton.jit function made launchable by hipwb (``wb.triton`` / ``%%triton``).

    Launch: ``kern[grid](*args, **constexprs)`` (the default device: the emulator without a
    GPU), ``kern.on("emulator:gfx950")[grid](...)``, ``kern.trace[grid](...)`` -> Trace,
    ``kern.check[grid](...)`` -> CheckReport, ``kern.timing[grid](..., chip="mi300x")`` ->
    TimingReport. Inspect the last specialization built (or ``kern.specialize(*args, **kw)``
    for one): ``kern.module`` (a TritonModule), ``kern.ir["ttgir"]``, ``kern.isa``,
    ``kern.resources``, ``kern.occupancy()``, ``kern.kernel`` (the hipwb Kernel).
    """

    def __init__(self, fn: Any, *, archs: tuple[str, ...], options: dict[str, Any],
                 spec: sp.Spec | None = None, device: Any = None, config: int | None = None):
        # the @triton.jit function inside any @triton.autotune / @triton.heuristics (tuning)
        self.fn, self.wrappers = tuning.unwrap(fn)
        sp.params(self.fn)  # a @triton.jit function, else a clear error
        self.config = tuning.check_config(self.wrappers, config)
        self._reset_keys: set = set()
        self.name = self.fn.__name__
        self.archs = archs
        self.options = check_options(dict(options))
        self._spec = spec  # the user's signature, if given
        self._device = device
        self._modules: dict[tuple, TritonModule] = {}
        # the last specialization built, shared with the copies ``on(device)`` makes
        self._state: dict[str, TritonModule | None] = {"last": None}
        if spec is not None:
            self._last = self._build(spec, {})

    @property
    def _last(self) -> TritonModule | None:
        return self._state["last"]

    @_last.setter
    def _last(self, module: TritonModule | None) -> None:
        self._state["last"] = module

    # -- building --------------------------------------------------------------------------
    def _build(self, spec: sp.Spec, options: dict[str, Any]) -> TritonModule:
        opts = {**self.options, **options}
        key = (spec.key, tuple(sorted((k, repr(v)) for k, v in opts.items())))
        hit = self._modules.get(key)
        if hit is None:
            if len(self._modules) >= _MAX_SPECS:
                self._modules.clear()
            hit = self._modules[key] = build(self.fn, spec, self.archs, check_options(opts))
        return hit

    @property
    def configs(self) -> list[Any]:
        """The @triton.autotune configs (``triton.Config``); a launch uses
        ``configs[config]`` (``wb.triton(fn, config=i)``, default 0). [] without autotune."""
        return tuning.configs(self.wrappers)

    def _resolve(self, args: tuple, kwargs: dict) -> tuple[TritonModule, dict, sp.Spec, list]:
        """(module of this call's specialization, parameter values and options, spec, the
        wrappers' hooks to run before a launch)."""
        names = {p.name for p in sp.params(self.fn)}
        kwargs, hooks = tuning.apply(self.wrappers, args, kwargs, self.config,
                                     lambda k: k in names or k in sp.LAUNCH_OPTIONS,
                                     self._reset_keys)
        if self._spec is not None:  # the signature's constexprs, unless the launch gives them
            for i, (n, v) in enumerate(zip(self._spec.names, self._spec.types)):
                if v == "constexpr" and i >= len(args) and n not in kwargs:
                    kwargs[n] = dict(self._spec.constexprs)[n]
        values, options = sp.bind(self.fn, args, kwargs)
        if self._spec is not None:
            spec = sp.with_constexprs(self._spec, values)
        else:
            spec = sp.infer(self.fn, values)
        module = self._build(spec, options)
        self._last = module
        # what a grid callable reads: the parameters, and the options (num_warps, ...) too
        return module, {**self.options, **options, **values}, spec, hooks

    def specialize(self, *args: Any, **kwargs: Any) -> Any:
        """The hipwb Kernel of the specialization these arguments need (compiled if new),
        without launching: ``.isa``, ``.resources``, ``.occupancy(block)``, ``.module.ir``."""
        module = self._resolve(args, kwargs)[0]
        return module[self.name]

    warmup = specialize

    # -- the last specialization -----------------------------------------------------------
    @property
    def module(self) -> TritonModule:
        """The TritonModule of the last specialization built (launched or specialized)."""
        if self._last is None:
            raise LaunchError(f"{self.name} has not been compiled yet: launch it "
                              f"({self.name}[grid](...)), call {self.name}.specialize(...) "
                              f"with the launch's arguments, or give signature= (%%triton "
                              f"--signature)")
        return self._last

    @property
    def kernel(self) -> Any:
        """The hipwb Kernel of the last specialization."""
        return self.module[self.name]

    @property
    def ir(self):
        """The IR stages of the last specialization's first arch: ``kern.ir["ttgir"]``."""
        return self.module.ir

    def ir_for(self, arch: str):
        return self.module.ir_for(arch)

    @property
    def metadata(self) -> dict[str, Any]:
        """Triton's metadata of the last specialization (first arch)."""
        return self.module.metadata[self.module.archs[0]]

    def block(self, module: TritonModule | None = None) -> int:
        """Threads per program: num_warps waves of the arch's wave size."""
        m = module or self.module
        meta = m.metadata[m.archs[0]]
        return int(meta["num_warps"]) * int(meta["warp_size"])

    def occupancy(self, arch: str | None = None):
        """Occupancy of the last specialization at its block size (num_warps waves) and its
        LDS (Triton's kernels take theirs as dynamic LDS: metadata ``shared``)."""
        arch = arch or self.module.archs[0]
        return self.kernel.occupancy(self.block(), arch, dynamic_lds=_lds(self.module, arch))

    def on(self, device: Any) -> TritonKernel:
        """The same kernel, launching on ``device`` ("emulator:gfx950", ...); it shares the
        compiled specializations."""
        k = TritonKernel.__new__(TritonKernel)
        k.__dict__.update(self.__dict__)
        k._device = device
        return k

    def __repr__(self) -> str:
        built = "" if self._last is None else f", last built: {self._last.spec.text()}"
        return f"<TritonKernel {self.name} [{', '.join(self.archs)}]{built}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    # -- launching -------------------------------------------------------------------------
    def __getitem__(self, grid: Any) -> _Launch:
        return _Launch(self, grid, "run")

    @property
    def trace(self) -> _Modes:
        return _Modes(self, "trace")

    @property
    def check(self) -> _Modes:
        return _Modes(self, "check")

    @property
    def timing(self) -> _Modes:
        return _Modes(self, "timing")


class _Modes:
    def __init__(self, kernel: TritonKernel, mode: str):
        self.kernel, self.mode = kernel, mode

    def __getitem__(self, grid: Any) -> _Launch:
        return _Launch(self.kernel, grid, self.mode)


_TIMING_KW = ("chip", "flops", "max_rows", "budget", "timeout", "clock", "force",
              "max_emulation_seconds")


class _Launch:
    """``kern[grid]``: calling it compiles the specialization if new and launches it."""

    def __init__(self, kernel: TritonKernel, grid: Any, mode: str):
        if isinstance(grid, (list,)):
            grid = tuple(grid)
        if not (callable(grid) or isinstance(grid, (int, np.integer, tuple))):
            raise ArgumentTypeError(f"{kernel.name}[grid]: grid is an int, a tuple of 1-3 ints "
                                    f"or a callable of the launch's parameters (lambda meta: "
                                    f"(triton.cdiv(n, meta['BLOCK']),)), got "
                                    f"{type(grid).__name__} {grid!r:.40}")
        self.kernel, self.grid, self.mode = kernel, grid, mode

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        k = self.kernel
        extra = {key: kwargs.pop(key) for key in list(kwargs)
                 if key in _TIMING_KW and self.mode == "timing"}
        names = {p.name for p in sp.params(k.fn)}
        device = (kwargs.pop("device", None) if "device" not in names else None) or k._device
        module, values, spec, hooks = k._resolve(args, kwargs)
        grid = self.grid(values) if callable(self.grid) else self.grid
        grid = (grid,) if isinstance(grid, (int, np.integer)) else grid
        if (not isinstance(grid, (tuple, list)) or not 1 <= len(grid) <= 3
                or not all(isinstance(g, (int, np.integer)) and not isinstance(g, bool)
                           and g >= 1 for g in grid)):
            raise LaunchError(f"{k.name}: the grid must be 1 to 3 ints >= 1 (programs per "
                              f"axis), got {grid!r:.60}")
        grid = tuple(int(g) for g in grid)
        block = k.block(module)
        launch_args = [*sp.kernel_values(spec, values), *_scratch(module, grid)]
        kern = module[k.name]
        if device is not None:
            kern = kern.on(device)
        for hook in hooks:  # the autotune config's pre_hook, Triton's post-tuning reset
            hook()
        try:
            return self._launch(kern, module, grid, block, launch_args, device, extra)
        except KernelFault as e:
            if e.address is not None and e.address < 4096 and _uses_hostcall(kern, module):
                e.args = (f"{e.args[0]}\n{_HOSTCALL}", *e.args[1:])
            raise

    def _launch(self, kern: Any, module: TritonModule, grid: tuple, block: int,
                launch_args: list, device: Any, extra: dict) -> Any:
        # Triton's kernels take their LDS as dynamic shared memory (metadata.shared bytes,
        # hipModuleLaunchKernel's sharedMemBytes in Triton's AMD launcher)
        if self.mode == "timing":
            from ..timing import get_chip

            # default: the chip of the module's first arch (MI300X for gfx942)
            extra.setdefault("chip", next((c for c in ("mi300x", "mi355x") if get_chip(c).arch
                                           == module.archs[0]), "mi355x"))
            try:
                arch = get_chip(extra["chip"]).arch
            except ValueError:
                arch = None  # the timing launcher names the bad chip
            return kern.timing[grid, block, _lds(module, arch)](*launch_args, **extra)
        if self.mode == "run":
            return kern[grid, block, _lds(module, _run_arch(kern, device))](*launch_args)
        from ..runtime.kernel import _trace_device

        arch = _device_arch(_trace_device(kern))
        launcher = kern.trace if self.mode == "trace" else kern.check
        return launcher[grid, block, _lds(module, arch)](*launch_args)


# Triton's tl.device_print / tl.device_assert (and debug=True's overflow checks, which assert)
# print through OCKL's hostcall service (ROCm-Device-Libs ockl/src/hostcall_impl.cl): the kernel
# reads the hidden_hostcall_buffer argument and waits for a host thread to serve its packets.
_HOSTCALL = ("This kernel calls the HIP hostcall service (hidden_hostcall_buffer), through "
             "which Triton's tl.device_print and tl.device_assert print (debug=True's overflow "
             "checks too); the emulator has no host to serve it (the buffer is null), so that "
             "call faulted. Run without them (and without debug=True) on the emulator; on a "
             "GPU they print.")


def _uses_hostcall(kern: Any, module: TritonModule) -> bool:
    return any(h.kind == "hidden_hostcall_buffer" for arch in module.archs
               for h in kern.info(arch).hidden_args)


def _device_arch(device: Any) -> str | None:
    from ..runtime.devices import parse_device

    return parse_device(device).arch


def _run_arch(kern: Any, device: Any) -> str | None:
    """The arch a plain launch runs (as ``Kernel._launch`` picks the device)."""
    from ..runtime.devices import get_device
    from ..runtime.kernel import _trace_device

    if device is not None:
        return _device_arch(device)
    dev = get_device()
    if dev.name == "emulator" and dev.arch not in kern.module.archs:
        return _device_arch(_trace_device(kern))
    return dev.arch

def _lds(module: TritonModule, arch: str | None) -> int:
    """Dynamic LDS bytes of the code object for ``arch`` (the largest when unknown)."""
    meta = module.metadata.get(arch) if arch else None
    metas = [meta] if meta else list(module.metadata.values())
    return max(int(m.get("shared") or 0) for m in metas)

def _scratch(module: TritonModule, grid: tuple[int, ...]) -> list[np.ndarray]:
    """The global and profile scratch buffers of one launch, as Triton's AMD launcher sizes
    them: ``grid size * size`` bytes when the metadata asks for scratch (aligned as it says,
    the emulator's buffers start 256-byte aligned), else a small placeholder."""
    programs = int(np.prod(grid))
    out = []
    for kind in ("global", "profile"):  # one buffer serves every arch's code object
        size = max(int(m.get(f"{kind}_scratch_size") or 0) for m in module.metadata.values())
        out.append(np.zeros(max(16, programs * size), np.uint8))
    return out
