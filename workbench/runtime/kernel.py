"""Kernel: a compiled kernel you can inspect and launch with ``kernel[grid, block](*args)``."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from ..codeobject import KernelInfo, Resources
from ..compiler import Module
from ..display import Displayable
from . import guard as _guard
from .args import bind_args, check_grid, normalize_dims
from .device import Device, LaunchResult
from .devices import current_device
from .errors import LaunchError


class Kernel(Displayable):
    """One kernel of a Module, launchable on any device.

    ``kernel[grid, block](*args)`` launches on the default device; ``kernel.trace[grid,
    block](*args)`` runs on the emulator and returns its Trace; ``kernel.on("cuda")[...]``
    picks a device for one launch. Get one with ``module["name"]``, ``module.name`` or
    ``module.get_function("name")``; displayed (or printed) it shows its resources, occupancy
    and ISA per target. On a GPU, a new launch signature is first checked by the launch guard
    (``workbench.runtime.guard``: boundary workgroups emulated, out-of-bounds launches refused);
    ``kernel.last_guard`` is the verdict of the last launch that looked one up.
    """

    def __init__(self, module: Module, name: str, device: Device | str | None = None):
        self.module = module
        self.name = name
        self._device = device
        # Launch hot-path memos: KernelInfo per device arch, configurations already checked.
        self._infos: dict[str | None, KernelInfo] = {}
        self._checked: set[tuple] = set()
        self._launchers: dict[Any, _Launcher] = {}
        # Launch guard (runtime/guard.py): verdicts per launch signature, the refusals to
        # raise again, and the verdict of the last guarded launch.
        self._verdicts: dict[tuple, dict[tuple, _guard.GuardVerdict]] = {}
        self._refusals: dict[tuple, Exception | None] = {}
        # which argument bytes can move an access, per (arch, kernel) (guard.relevance)
        self._relevance: dict[tuple, tuple | None] = {}
        self.last_guard: _guard.GuardVerdict | None = None
        self.info()  # validate the name now, with the module's error message

    # -- inspection ------------------------------------------------------------------------
    def info(self, arch: str | None = None) -> KernelInfo:
        """KernelInfo for one compiled arch (default: the first the module was built for)."""
        return self.module[arch or self.module.archs[0]].kernel(self.name)

    @property
    def resources(self) -> Resources:
        return self.info().resources

    @property
    def globals(self):
        """The module's __device__/__constant__ variables on this kernel's device (read and
        set them like hipMemcpyFromSymbol/ToSymbol): ``k.globals["coef"] = [1, 2, 3, 4]``."""
        from .globals import Globals

        return Globals(self.module, self._device)

    @property
    def signature(self) -> str:
        return self.info().signature

    def occupancy(self, block: int | tuple = 256, arch: str | None = None, dynamic_lds: int = 0):
        """Occupancy (waves/SIMD and what limits it) for a block size on one arch; in Jupyter
        it shows as a live explorer (block size and VGPR sliders)."""
        from ..occupancy import occupancy

        info = self.info(arch)
        threads = 1
        for d in normalize_dims(block, "block"):
            threads *= d
        return occupancy(info.resources, info.arch, threads, dynamic_lds=dynamic_lds)

    @property
    def isa(self):
        """The ISA listing (with source lines) of the first arch; ``print`` it or display it."""
        return self.isa_for()

    def isa_for(self, arch: str | None = None):
        """The ISA listing (with source lines) of one arch."""
        return self.module.isa(self.name, arch)

    def matrix_instructions(self, arch: str | None = None):
        """The MFMA/WMMA instructions of one arch's ISA, most used first, each with its
        register layouts from the catalog (``workbench.matrix_use.MatrixUses``: a table;
        ``[0]`` or ``["v_mfma_..."]`` is the MatrixInstruction, ``.A`` its A operand)."""
        from ..matrix_use import matrix_uses

        info = self.info(arch)
        return matrix_uses(self.isa_for(info.arch), info.arch, info.resources.wave_size,
                           self.name)

    def pressure(self, arch: str | None = None):
        """Live VGPRs, AGPRs and SGPRs at each instruction of one arch's ISA, their peaks and
        where they are, the compiler's allocation and the occupancy thresholds
        (``workbench.pressure.Pressure``; in Jupyter a chart, ``print`` gives the table)."""
        from ..pressure import pressure

        info = self.info(arch)
        return pressure(self.isa_for(info.arch), info.resources, info.arch)

    def __repr__(self) -> str:
        archs = ", ".join(self.module.archs)
        return f"<Kernel {self.signature} [{archs}]>"

    # -- launching -------------------------------------------------------------------------
    def __getitem__(self, config: tuple) -> _Launcher:
        # Launchers are kept per configuration so their prebound plans survive between calls.
        # Keyed by the exact spelling unless all plain ints: (1, 64.0) == (1, 64) as tuples,
        # and a float block must be refused, not served the valid launch's launcher.
        key = config if type(config) is tuple and all(type(c) is int for c in config) else (
            config, repr(config))
        try:
            hit = self._launchers.get(key)
        except TypeError:  # an unhashable config (lists): no memo, same checks
            return _Launcher(self, config, self._device, trace=False)
        if hit is None:
            if len(self._launchers) >= _MAX_MEMO:
                self._launchers.clear()
            hit = self._launchers[key] = _Launcher(self, config, self._device, trace=False)
        return hit

    @property
    def trace(self) -> _TraceLaunchers:
        """``kernel.trace[grid, block](*args)`` -> Trace (emulator run that records accesses)."""
        return _TraceLaunchers(self)

    @property
    def check(self) -> _CheckLaunchers:
        """``kernel.check[grid, block](*args)`` -> CheckReport: an emulator run in check mode
        (LDS races, uninitialised LDS reads, registers read before their s_waitcnt, barrier
        mismatches, spin-wait livelocks; ``workbench.emu.observers.check``)."""
        return _CheckLaunchers(self)

    @property
    def timing(self) -> _TimingLaunchers:
        """``kernel.timing[grid, block](*args, chip="mi355x")`` -> TimingReport (modelled).

        Runs the workgroups one CU holds at the kernel's occupancy on the emulator in stream
        mode (outputs are not written) and times them with ``workbench.timing``.
        """
        return _TimingLaunchers(self)

    def on(self, device: Device | str) -> Kernel:
        """The same kernel bound to one device for launches made through the returned object
        (it shares this kernel's launch-guard verdicts)."""
        k = Kernel(self.module, self.name, device)
        k._verdicts, k._refusals, k._relevance = (self._verdicts, self._refusals,
                                                  self._relevance)
        return k

    def launch(self, grid: Any, block: Any, *args: Any, device: Device | str | None = None,
               dynamic_lds: int = 0, trace: bool = False, **options: Any) -> LaunchResult:
        """Check everything the hardware would reject, then run on ``device``.

        On a GPU the launch guard (``workbench.runtime.guard``) first emulates the boundary
        workgroups of a new launch signature and refuses (``LaunchRefused``) an access outside
        a buffer; ``guard=False`` skips it for this launch.
        """
        return self._launch(grid, block, args, device, dynamic_lds, trace, options)[0]

    def _launch(self, grid, block, args, device, dynamic_lds, trace, options):
        """launch(), also returning what a prebound plan needs: (result, device, info, grid3,
        block3, bound args)."""
        from .devices import get_device, parse_device

        dev = parse_device(device) if device is not None else (
            parse_device(self._device) if self._device is not None else get_device())
        if (device is None and self._device is None and dev.name == "emulator"
                and dev.arch not in self.module.archs):
            # no device named and the default is the emulator: it runs whichever emulated ISA
            # the module was built for ("emulator:gfx1100" for a gfx1100-only build); a device
            # named on the kernel or the launch stays as asked
            dev = parse_device(_trace_device(self))
        grid3 = normalize_dims(grid, "grid")
        block3 = normalize_dims(block, "block")
        check_grid(grid3, block3)
        info = self._infos.get(dev.arch)
        if info is None:
            info = self._infos[dev.arch] = self._info_for(dev)
        guard = True
        if options:
            if "guard" in options:
                options = dict(options)
                guard = options.pop("guard")
                if not isinstance(guard, bool):
                    raise LaunchError(f"guard= takes True or False, got {guard!r}")
            _check_options(dev, options)
        key = (info.arch, block3, dynamic_lds)
        if key not in self._checked:
            self._check_config(info, block3, dynamic_lds)
            self._checked.add(key)
        bound = bind_args(info, args)
        if (guard and not trace and getattr(dev, "kind", None) in _guard.GPU_KINDS
                and _guard.guard_enabled()):
            _guard.check_launch(self, dev, info, grid3, block3, bound, args, dynamic_lds)
        t0 = time.perf_counter()
        result = dev.launch(self, info, grid3, block3, bound, dynamic_lds=dynamic_lds,
                            trace=trace, **options)
        if not result.seconds:
            result.seconds = time.perf_counter() - t0
        return result, dev, info, grid3, block3, bound

    def _info_for(self, dev: Device) -> KernelInfo:
        if dev.arch is None:  # not an AMD ISA device: any arch's metadata names the arguments
            return self.info()
        if dev.arch not in self.module.archs:
            raise LaunchError(
                f"{self.name} was compiled for {', '.join(self.module.archs)} but {dev.name} "
                f"runs {dev.arch} code objects: {self.module.add_arch_hint(dev.arch)}")
        return self.info(dev.arch)

    @staticmethod
    def _check_config(info: KernelInfo, block, dynamic_lds: int) -> None:
        from ..arch import get as get_arch

        threads = block[0] * block[1] * block[2]
        limit = info.resources.max_flat_workgroup_size
        if threads > limit:
            raise LaunchError(
                f"block {block} has {threads} threads but {info.name} allows at most {limit} "
                "(its max flat workgroup size, e.g. from __launch_bounds__)")
        if info.reqd_workgroup_size and tuple(info.reqd_workgroup_size) != tuple(block):
            raise LaunchError(f"{info.name} requires block {tuple(info.reqd_workgroup_size)}, "
                              f"got {block}")
        arch = get_arch(info.arch)
        lds = info.resources.lds_bytes + dynamic_lds
        if dynamic_lds < 0:
            raise LaunchError(f"dynamic_lds must be >= 0, got {dynamic_lds}")
        if info.dynamic_shared and not dynamic_lds:
            # Every access to the extern __shared__ array would lie past the workgroup's LDS
            # allocation: a memory fault on an AMD GPU, and on an NVIDIA GPU a corrupted CUDA
            # context; refused on every device before anything runs.
            names = ", ".join(info.dynamic_shared)
            raise LaunchError(
                f"{info.name} uses dynamic shared memory (extern __shared__ {names}) but the "
                f"launch gives it 0 bytes: launch as {info.name}[grid, block, nbytes](...)")
        if arch.lds_bytes_per_workgroup and lds > arch.lds_bytes_per_workgroup:
            raise LaunchError(
                f"{info.name} needs {lds} bytes of LDS ({info.resources.lds_bytes} static + "
                f"{dynamic_lds} dynamic) but {arch.name} allows {arch.lds_bytes_per_workgroup} "
                "per workgroup")


_MAX_MEMO = 32  # launchers per kernel / plans per launcher kept (varying grids stay bounded)
UNSET_SECONDS: Any = object()  # max_emulation_seconds not given: the emulator's setting
EMULATE_ROWS = 400_000  # kernel.timing: wave-instructions worth emulating per CU's workgroups
FORMS = ("kernel[grid, block](*args)", "kernel[grid, block, dynamic_lds_bytes](*args)",
         "kernel[grid, block](*args, dynamic_lds=bytes)")


def _check_options(dev: Device, options: dict) -> None:
    """Refuse launch keywords the device does not take, naming the accepted forms."""
    accepted = getattr(dev, "launch_options", None)
    if accepted is None:
        return
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        kws = ", ".join(f"{k}=" for k in ("dynamic_lds", *accepted, "guard"))
        raise LaunchError(
            f"unknown launch keyword(s) {', '.join(unknown)} for {dev.name}; launch as "
            f"{' or '.join(FORMS)}; keywords {dev.name} takes: {kws}")


def _lds_bytes(value: Any) -> int:
    """Dynamic LDS bytes from the launch config or the ``dynamic_lds=`` keyword."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise LaunchError(f"dynamic LDS must be a number of bytes >= 0 (the third item of "
                          f"kernel[grid, block, bytes] or dynamic_lds=bytes), got {value!r}")
    return int(value)


class _Launcher:
    """The object ``kernel[grid, block]`` returns; calling it launches."""

    def __init__(self, kernel: Kernel, config: tuple, device, trace: bool):
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise LaunchError(f"launch as {' or '.join(FORMS)}")
        self.kernel = kernel
        self.grid, self.block = config[0], config[1]
        self.dynamic_lds = _lds_bytes(config[2]) if len(config) == 3 else 0
        self.lds_in_config = len(config) == 3
        self.device = device
        self.trace = trace
        self._plans: dict[tuple, Any] = {}
        self._last: tuple[Any, Any] | None = None  # (device, plan) of the last fast launch

    def __call__(self, *args: Any, **options: Any):
        if not options and not self.trace:
            # Fast path: a plan the device prebound for this device and these argument types
            # after a fully checked launch; it re-checks what can change per call and returns
            # None (-> the full path below, with its errors) on any doubt.
            dev = self.device if self.device is not None else current_device()
            last = self._last
            if last is not None and last[0] is dev:  # the plan that served the last call
                res = last[1](args)
                if res is not None:
                    return res
            plan = self._plans.get((dev, *map(type, args)))
            if plan is not None:
                res = plan(args)
                if res is not None:
                    self._last = (dev, plan)
                    return res
        lds = self.dynamic_lds
        if "dynamic_lds" in options:
            options = dict(options)
            kw = _lds_bytes(options.pop("dynamic_lds"))
            if self.lds_in_config and kw != lds:
                raise LaunchError(f"dynamic LDS given twice: {lds} bytes in kernel[grid, block, "
                                  f"{lds}] and dynamic_lds={kw}; give it once")
            lds = kw
        res, dev, info, grid3, block3, bound = self.kernel._launch(
            self.grid, self.block, args, self.device, lds, self.trace, options)
        if self.trace:
            return res.trace
        make = getattr(dev, "plan", None)
        if make is not None and not options and lds == self.dynamic_lds:
            plan = make(self.kernel, info, grid3, block3, bound, dynamic_lds=self.dynamic_lds)
            if plan is not None and getattr(dev, "kind", None) in _guard.GPU_KINDS:
                # the plan runs only for argument signatures the guard already passed
                plan = _guard.guarded_plan(
                    plan, self.kernel._verdicts,
                    _guard.guard_prefix(dev, grid3, block3, self.dynamic_lds), bound,
                    _guard.relevance(self.kernel, dev, info))
            if plan is not None:
                if len(self._plans) >= _MAX_MEMO:
                    self._plans.clear()
                key_dev = self.device if self.device is not None else dev
                self._plans[(key_dev, *map(type, args))] = plan
                self._last = (key_dev, plan)
        return res


class _TraceLaunchers:
    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def __getitem__(self, config: tuple) -> _Launcher:
        return _Launcher(self.kernel, config, _trace_device(self.kernel), trace=True)


def _trace_device(kernel: Kernel) -> str:
    """The emulator traced launches run on: the kernel's own when it is bound to an emulator
    (``"emulator:gfx950"``), else the one for the first emulated arch the module has."""
    from ..emu.engine.launch import EMULATED_ARCHS

    dev = kernel._device
    name = dev if isinstance(dev, str) else getattr(dev, "name", None)
    if isinstance(name, str) and name.startswith("emulator"):
        return name
    arch = next((a for a in kernel.module.archs if a in EMULATED_ARCHS), EMULATED_ARCHS[0])
    return "emulator" if arch == EMULATED_ARCHS[0] else f"emulator:{arch}"


class _CheckLaunchers:
    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def __getitem__(self, config: tuple) -> _CheckLauncher:
        return _CheckLauncher(self.kernel, config)


class _CheckLauncher:
    """``kernel.check[grid, block]``: calling it returns a CheckReport."""

    def __init__(self, kernel: Kernel, config: tuple):
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise LaunchError("check a launch as kernel.check[grid, block](*args) or "
                              "kernel.check[grid, block, dynamic_lds_bytes](*args)")
        self.kernel = kernel
        self.grid, self.block = config[0], config[1]
        self.dynamic_lds = _lds_bytes(config[2]) if len(config) == 3 else 0

    def __call__(self, *args: Any, **options: Any):
        """Run the launch on the emulator in check mode; outputs are written as usual."""
        options = {**options, "check": "report"}
        res = self.kernel._launch(self.grid, self.block, args, _trace_device(self.kernel),
                                  self.dynamic_lds, False, options)[0]
        return res.check


class _TimingLaunchers:
    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def __getitem__(self, config: tuple) -> _TimingLauncher:
        return _TimingLauncher(self.kernel, config)


class _TimingLauncher:
    """``kernel.timing[grid, block]``: calling it returns a TimingReport."""

    def __init__(self, kernel: Kernel, config: tuple):
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise LaunchError("time a launch as kernel.timing[grid, block](*args, chip=...) or "
                              "kernel.timing[grid, block, dynamic_lds_bytes](*args, chip=...)")
        self.kernel = kernel
        self.grid, self.block = config[0], config[1]
        self.dynamic_lds = int(config[2]) if len(config) == 3 else 0

    def __call__(self, *args: Any, chip: str = "mi355x", flops: float | None = None,
                 max_rows: int | None = None, budget: int | None = None,
                 timeout: Any = None, clock: str = "modelled", force: bool = False,
                 max_emulation_seconds: Any = UNSET_SECONDS):
        """Modelled timing on ``chip`` ('mi300x' gfx942, 'mi355x' gfx950).

        ``flops``: useful FLOPs of the launch (default: the MFMA FLOPs it executes);
        ``clock``: 'modelled' (default: the power-limited engine clock under the kernel's MFMA
        load, from AMD's measured sustained clocks) or 'max' (the max engine clock, which the
        spec peaks assume);
        ``max_rows``: wave-instructions simulated before extrapolating; ``budget``/``timeout``:
        the emulator's limits for the recorded workgroups (default: no wall-clock limit).
        Only the workgroups one CU holds are emulated, whatever the grid; that emulation is
        bounded like any launch (``max_emulation_seconds``, memory; ``force=True``).
        """
        from ..emu.engine.launch import UNSET
        from ..timing import get_chip, predict
        from ..timing.model import DEFAULT_MAX_ROWS, parse_clock
        from .emulator import EmulatorDevice

        k = self.kernel
        try:
            ch = get_chip(chip)
        except ValueError as e:
            raise LaunchError(f"chip={chip!r}: {e}") from None
        try:
            parse_clock(clock, ch)
        except (TypeError, ValueError) as e:
            raise LaunchError(str(e)) from None
        if ch.arch not in k.module.archs:
            raise LaunchError(f"{k.name} was compiled for {', '.join(k.module.archs)} but "
                              f"{ch.name} runs {ch.arch} code objects: "
                              f"{k.module.add_arch_hint(ch.arch)}")
        info = k.info(ch.arch)
        grid3 = normalize_dims(self.grid, "grid")
        block3 = normalize_dims(self.block, "block")
        check_grid(grid3, block3)
        k._check_config(info, block3, self.dynamic_lds)
        occ = k.occupancy(block3, ch.arch, dynamic_lds=self.dynamic_lds)
        per_cu = max(1, occ.workgroups_per_cu)
        bound = bind_args(info, args)
        footprint = sum(int(b.host_array().nbytes) for b in bound if b.kind == "buffer")
        dev = EmulatorDevice(ch.arch)

        limits = {"force": force} if max_emulation_seconds is UNSET_SECONDS else {
            "force": force, "max_emulation_seconds": max_emulation_seconds}

        def record(n: int):
            return dev.launch(k, info, grid3, block3, bound, dynamic_lds=self.dynamic_lds,
                              stream=True, workgroups=n, budget=budget,
                              timeout=UNSET if timeout is None else timeout, **limits)
        # one workgroup first; the others a CU holds are emulated too when that is cheap,
        # else the model replays the first one's streams for them
        res = record(1)
        if per_cu > 1 and len(res.stream) * per_cu <= EMULATE_ROWS:
            res = record(per_cu)
        rep = predict(res.stream, ch, total_workgroups=grid3[0] * grid3[1] * grid3[2],
                      workgroups_per_cu=per_cu, footprint_bytes=footprint, flops=flops,
                      max_rows=max_rows or DEFAULT_MAX_ROWS, clock=clock)
        rep = _with_compiler_notes(rep, res.stream, info, k.module[ch.arch].command)
        # the source the listing's line numbers count in, and the header lines code was inlined
        # from (report.lines() quotes them)
        from ..timing.line_costs import header_lines

        src = "\n" * (k.module.first_line - 1) + k.module.source
        return dataclasses.replace(rep, source=src,
                                   header_text=header_lines(res.stream.instructions))


def _with_compiler_notes(rep: Any, stream: Any, info: KernelInfo, command: Any) -> Any:
    """``rep`` with the build's notes (scratch use, the LLVM that allocated the registers)
    after the model's own (``workbench.timing.compiler_notes``)."""
    import dataclasses

    from ..timing.compiler_notes import compiler_notes

    r = info.resources
    # gfx940+ and RDNA reach the private segment through flat scratch (scratch_* only)
    scratch = [i for i, ins in enumerate(stream.instructions) if ins.mnemonic.startswith(
        "scratch_")]
    spill_rows = int(np.isin(stream.index, scratch).sum()) / max(1, len(np.unique(stream.wave)))
    return dataclasses.replace(rep, notes=rep.notes + compiler_notes(
        r.scratch_bytes, spill_rows, command or (), r.vgprs, r.agprs, r.sgprs))
