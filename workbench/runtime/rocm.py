"""RocmDevice: an AMD GPU through cupy's ROCm build, running the very code object hipwb built.

Default backend ``"module"``: ``cupy.RawModule(path=co.path)`` loads the .hsaco that the ISA view,
the occupancy table and the emulator read, so what is analysed is what runs (cupy ignores
``options`` for ``path=`` modules by design: https://github.com/cupy/cupy/issues/3558). Backend
``"hiprtc"`` recompiles the Module's source through hiprtc instead (``RawModule(code=...,
backend="nvrtc")``, which cupy maps to hiprtc on ROCm in its cupy/cuda/compiler.py), for when
ROCm's own headers are wanted; that binary is not the one hipwb analysed, and LaunchResult says so.
The GPU's ``gcnArchName`` (e.g. ``gfx942:sramecc+:xnack-``) is the device's target: a code object
built for another processor, or with an incompatible xnack/sramecc setting, is refused before
anything is loaded.

Not yet run on AMD hardware: everything here that needs a GPU is exercised by tests with a fake
cupy module (tests/runtime/test_rocm_path.py) and the shared cupy launch path runs on CudaDevice.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..amdgpu_elf import ElfTarget
from ..amdgpu_elf import elf_target as _elf_target
from ..arch import ARCHS, normalize_name
from ..codeobject import CodeObjectError
from .cupy_device import CupyDevice, line_directed_source
from .errors import LaunchError

BACKENDS = ("module", "hiprtc")


@dataclass(frozen=True)
class TargetId:
    """A target ID as ROCm spells it: processor plus optional feature settings."""

    processor: str  # e.g. "gfx942"
    features: Mapping[str, str]  # feature -> "on" | "off" (absent: any)

    @classmethod
    def parse(cls, text: str) -> TargetId:
        """'gfx942:sramecc+:xnack-' -> TargetId('gfx942', {'sramecc': 'on', 'xnack': 'off'})."""
        parts = text.strip().split(":")
        feats = {}
        for p in parts[1:]:
            if p.endswith(("+", "-")) and len(p) > 1:
                feats[p[:-1]] = "on" if p.endswith("+") else "off"
        return cls(normalize_name(parts[0]), feats)

    def __str__(self) -> str:
        feats = "".join(f":{k}{'+' if v == 'on' else '-'}" for k, v in self.features.items())
        return self.processor + feats


def elf_target(elf: bytes) -> ElfTarget:
    """What a code object's ELF header says it was built for (``workbench.amdgpu_elf``);
    LaunchError when the bytes are not a 64-bit AMDGPU ELF."""
    try:
        return _elf_target(elf)
    except CodeObjectError as e:
        raise LaunchError(str(e)) from None


def check_code_object(arch: str, elf: bytes, target: TargetId, what: str = "kernel") -> None:
    """Refuse (LaunchError) a code object that this GPU cannot run, naming why."""
    if normalize_name(arch) != target.processor:
        raise LaunchError(
            f"{what} was compiled for {arch} but this GPU is {target}: compile with "
            f"arch='{target.processor}' (%%hipkernel --arch {target.processor}); "
            "a code object for another processor is never launched")
    et = elf_target(elf)
    known = ARCHS.get(target.processor)
    if known is not None and et.mach != known.elf_mach:
        raise LaunchError(
            f"{what}: the code object's ELF header names processor {et.mach:#x}, not "
            f"{target.processor} ({known.elf_mach:#x}); it was labelled {arch} but built for "
            "another target")
    for feat, setting in (("xnack", et.xnack), ("sramecc", et.sramecc)):
        dev = target.features.get(feat)
        if dev is not None and setting in ("on", "off") and setting != dev:
            raise LaunchError(
                f"{what} was built with {feat}{'+' if setting == 'on' else '-'} but this GPU "
                f"runs {target} ({feat}{'+' if dev == 'on' else '-'}): compile for "
                f"'{target.processor}' without a {feat} setting, or with "
                f"'{target.processor}:{feat}{'+' if dev == 'on' else '-'}'")


def hiprtc_options(module: Any, target: TargetId | str, opt_level: str = "-O3") -> tuple[str, ...]:
    """hiprtc options that rebuild ``module`` for ``target``: arch, -O, defines, include dirs,
    then the module's own options (hiprtc takes clang options: ROCm HIP documentation,
    "Programming for HIP runtime compiler (RTC)", docs/sources.md: HIPRTC)."""
    opts = [f"--offload-arch={target}"]
    user = tuple(getattr(module, "options", ()))
    if not any(o.startswith("-O") for o in user):
        opts.append(opt_level)
    for k, v in (getattr(module, "defines", None) or {}).items():
        opts.append(f"-D{k}" if v is None else f"-D{k}={v}")
    for d in getattr(module, "include_dirs", ()):
        opts.append(f"-I{d}")
    opts.extend(user)
    return tuple(opts)


hiprtc_source = line_directed_source  # hiprtc takes the module's source as it is


class RocmDevice(CupyDevice):
    """An AMD GPU via cupy (ROCm build). ``backend``: "module" (our code object) or "hiprtc"."""

    kind = "rocm"

    def __init__(self, index: int = 0, backend: str = "module"):
        super().__init__(index)
        if backend not in BACKENDS:
            raise LaunchError(f"unknown RocmDevice backend {backend!r}: use one of {BACKENDS}")
        runtime = self.cupy.cuda.runtime
        if not getattr(runtime, "is_hip", False):
            raise LaunchError("this cupy is built for CUDA, not ROCm: install cupy-rocm-7-0 "
                              "for AMD GPUs (NVIDIA GPUs use CudaDevice, 'cuda')")
        props = runtime.getDeviceProperties(self.index)
        raw = props.get("gcnArchName", b"")
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        if not text.startswith("gfx"):
            raise LaunchError(f"rocm:{self.index}: the runtime reports no gfx target "
                              f"(gcnArchName={text!r})")
        self.backend = backend
        self.target = TargetId.parse(text)
        self.arch = self.target.processor
        self.props = props
        suffix = "" if backend == "module" else ", hiprtc"
        self.name = f"rocm:{self.index} ({self.target}{suffix})"
        self._raw: dict[int, tuple[Any, Any]] = {}

    def _load_function(self, kernel: Any, info: Any) -> Any:
        module = kernel.module
        if info.arch != self.arch:
            raise LaunchError(f"{info.name} metadata is for {info.arch}, but {self.name} runs "
                              f"{self.arch} code objects")
        try:
            co = module[self.arch]
        except (KeyError, ValueError) as e:
            raise LaunchError(f"{info.name}: {e}; compile with arch='{self.arch}'") from None
        check_code_object(co.arch, co.elf, self.target, what=info.name)
        return self.raw_module(module).get_function(info.symbol)

    def raw_module(self, module: Any) -> Any:
        """The cupy RawModule of one Module on this GPU, loaded once: its kernels and its
        __device__ variables live in that one loaded module (as with hipModuleLoad)."""
        hit = self._raw.get(id(module))
        if hit is not None and hit[0]() is module:
            return hit[1]
        co = module[self.arch]
        if self.backend == "module":
            raw = self.cupy.RawModule(path=str(co.intact_path()))
        else:
            raw = self.cupy.RawModule(code=hiprtc_source(module),
                                      options=hiprtc_options(module, self.target),
                                      backend="nvrtc")
        self._raw[id(module)] = (weakref.ref(module), raw)
        return raw

    def _global(self, module: Any, var: Any) -> Any:
        # a code object loaded by path names variables by their ELF symbol (mangled for C++)
        name = var.symbol if self.backend == "module" else var.name
        return self.raw_module(module).get_global(name)

    def launch(self, kernel, info, grid, block, args, **kw):
        """Refuse any code object for another target even when called directly, then launch."""
        if info.arch != self.arch:
            raise LaunchError(
                f"{info.name} was compiled for {info.arch} but {self.name} runs {self.arch}: "
                f"compile with arch='{self.arch}'")
        res = super().launch(kernel, info, grid, block, args, **kw)
        res.stats["code_object"] = "hipwb" if self.backend == "module" else "hiprtc rebuild"
        return res

    def l2_bytes(self) -> int:
        return int(self.props.get("l2CacheSize", 0))

    def flush_bytes(self) -> int:
        # CDNA3/4 put a 256 MB MALL (Infinity Cache) behind L2 (AMD CDNA 3 white paper; the
        # ROCm GPU specifications' 256 MiB L3 for MI300X and MI355X): overwrite twice that, so
        # no input survives in either cache.
        return max(2 * 256 * 2**20, 2 * self.l2_bytes())

    def compute_units(self) -> int:
        return int(self.props.get("multiProcessorCount", 0))


__all__: Sequence[str] = ("RocmDevice", "TargetId", "check_code_object", "elf_target",
                          "hiprtc_options", "hiprtc_source")
