"""One Wave kernel compiled by Wave (through IREE) for each arch and loaded as a hipwb Module.

``wave_compile(WaveCompileOptions(subs=hyperparams, target=arch, dump_binaries=dir), kernel)``
builds the kernel without a GPU or ROCm and writes its code object, an hsaco, into ``dir``;
``workbench.loader.load`` reads it as any code object. When Wave serves the kernel from its own
cache (``~/.wave``, ``WAVE_CACHE_DIR``) it compiles nothing and writes no hsaco, so the code
object is taken from the IREE executable (vmfb) the cache hands back, which embeds the very
same bytes (``hsaco_image`` of IREE's HIP executable flatbuffer). The result, a ``WaveModule``,
is that Module with what only the Wave build knows: the MLIR Wave generated (``.mlir``), its
launch info (grid function, workgroup size, LDS bytes) and the kernel's ABI (``abi``), with the
code object's arguments named after the Wave function's parameters.
"""

from __future__ import annotations

import dataclasses
import re
import struct
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..compile_result import Module
from ..errors import ArgumentValueError, HipwbError
from ..loader import load
from .abi import Abi, WaveAbiError, make_abi, params
from .availability import require

# WaveCompileOptions fields hipwb sets itself, and those that would build no code object here
# (a GPU runtime, a benchmark run, MLIR or assembly text only, several devices).
OWN = ("subs", "target", "dump_binaries")
OUTPUTS = ("kernel_launch_info", "kernel_usages", "kernel_hash", "kernel_sig")
NO_CODE_OBJECT = {"wave_runtime": False, "run_bench": False, "compile_to_mlir": False,
                  "compile_to_asm": False, "backend": "llvm", "device": "hip",
                  "num_devices": 1}


class WaveCompileError(HipwbError, RuntimeError):
    """Wave (or IREE's compiler under it) could not compile a kernel; the message names the
    kernel, the arch and what failed."""

    def __init__(self, message: str, arch: str | None = None):
        super().__init__(message)
        self.arch = arch


@dataclass
class WaveModule(Module):
    """The Module of one Wave kernel (``wb.wave``): every view of a compiled HIP module
    (resources, occupancy, ISA, emulation, trace, check, timing), plus ``mlir`` /
    ``mlir_for(arch)`` (the MLIR Wave generated), ``launch_info`` (Wave's KernelLaunchInfo:
    grid function, block, LDS bytes), ``abi`` (how a call's arguments reach the code object)
    and ``origin`` (per arch: "compiled", or "wave cache" when Wave's cache served it)."""

    kernel_name: str = ""
    abi: Abi | None = None
    mlir_text: dict[str, str] = field(default_factory=dict, repr=False)
    launch_info: Any = field(default=None, repr=False)
    hyperparams: dict[str, Any] = field(default_factory=dict, repr=False)
    wave_options: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)

    def add_arch_hint(self, arch: str) -> str:
        return f"give wb.wave arch='{','.join((*self.archs, arch))}'"

    @property
    def mlir(self) -> str:
        """The MLIR Wave generated for the first arch (what IREE compiled)."""
        return self.mlir_text[self.archs[0]]

    def mlir_for(self, arch: str) -> str:
        """The MLIR Wave generated for one arch."""
        return self._of_arch(self.mlir_text, arch, self.kernel_name)


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """The WaveCompileOptions keywords, refused when Wave does not know one or hipwb owns it."""
    from wave_lang.kernel.wave.compile_options import WaveCompileOptions

    known = {f.name for f in dataclasses.fields(WaveCompileOptions)}
    bad = sorted(set(options) - known)
    if bad:
        raise ArgumentValueError(f"unknown Wave option(s) {', '.join(bad)}; "
                                 f"WaveCompileOptions takes: "
                                 f"{', '.join(sorted(known - set(OWN) - set(OUTPUTS)))}")
    for k in options:
        if k in OWN:
            what = {"subs": "the hyperparams argument", "target": "arch=",
                    "dump_binaries": "hipwb (a temporary folder it reads the hsaco from)"}[k]
            raise ArgumentValueError(f"Wave option {k}= is set by {what}; leave it out")
        if k in OUTPUTS:
            raise ArgumentValueError(f"Wave option {k}= is an output of wave_compile, not an "
                                     f"input; leave it out")
        if k in NO_CODE_OBJECT and options[k] != NO_CODE_OBJECT[k]:
            raise ArgumentValueError(
                f"Wave option {k}={options[k]!r}: hipwb compiles with {k}="
                f"{NO_CODE_OBJECT[k]!r}, which builds the one-device code object it runs "
                f"(the others need a GPU runtime or produce no code object)")
    return options


def check_schedule(schedule: Any, options: dict[str, Any]) -> None:
    """A manual schedule is a ``@wave_schedule.wave_schedule()`` function (a WaveSchedule),
    which Wave runs with ``schedule=SchedulingType.MANUAL`` only (``LaunchableWave.
    _trace_and_get_kernel_signature``) and needs there."""
    from wave_lang.kernel.wave.scheduling.schedule_enums import SchedulingType
    from wave_lang.kernel.wave.wave_schedule import WaveSchedule

    manual = options.get("schedule") == SchedulingType.MANUAL
    if schedule is None:
        if manual:
            raise ArgumentValueError("wb.wave: schedule=SchedulingType.MANUAL needs the manual "
                                     "schedule: give it as wave_schedule=")
        return
    if not isinstance(schedule, WaveSchedule):
        raise ArgumentValueError(
            f"wb.wave: wave_schedule must be a manual schedule (a function decorated with "
            f"@wave_schedule.wave_schedule()), got {type(schedule).__name__}; a scheduling "
            f"strategy is the option schedule=SchedulingType...")
    if not manual:
        raise ArgumentValueError("wb.wave: Wave runs a wave_schedule only with "
                                 "schedule=SchedulingType.MANUAL; give that option too")


def build(kernel: Any, hyperparams: dict, archs: tuple[str, ...],
          options: dict[str, Any], schedule: Any = None) -> WaveModule:
    """Compile ``kernel`` with ``hyperparams`` (and a manual ``schedule``) for each arch and
    load the code objects as one module, their arguments named after the Wave function's
    parameters."""
    require()
    from wave_lang.kernel.wave.compile import wave_compile
    from wave_lang.kernel.wave.compile_options import WaveCompileOptions

    name = kernel._name
    parameters = params(kernel)
    hsacos, mlir, origin, infos = [], {}, {}, {}
    usages: Any = None
    t0 = time.perf_counter()
    for arch in archs:
        with tempfile.TemporaryDirectory(prefix="hipwb-wave-") as d:
            opts = WaveCompileOptions(subs=dict(hyperparams), target=arch, dump_binaries=d,
                                      **options)
            try:
                with kept_address_spaces(kernel):
                    compiled = wave_compile(opts, kernel, schedule)
            except Exception as e:  # Wave raises from sympy, its passes, and iree-compile
                raise compile_error(name, arch, e, hyperparams, options) from None
            dumped = sorted(Path(d).glob("*.hsaco"))
            if dumped:
                hsacos.append(dumped[0].read_bytes())
                origin[arch] = "compiled"
            else:  # Wave's cache served it: compiled.executable is the cached vmfb
                hsacos.append(hsaco_from_vmfb(compiled.executable, name, arch))
                origin[arch] = "wave cache"
        mlir[arch] = compiled.asm
        infos[arch] = opts.kernel_launch_info
        usages = opts.kernel_usages
    seconds = time.perf_counter() - t0
    first = infos[archs[0]]
    for arch in archs[1:]:
        i = infos[arch]
        if list(i.blocks) != list(first.blocks) or i.grid_str != first.grid_str:
            raise ArgumentValueError(
                f"{name}: Wave launches it with block {list(first.blocks)}, grid "
                f"{first.grid_str} on {archs[0]} but block {list(i.blocks)}, grid "
                f"{i.grid_str} on {arch}; compile them as two wb.wave kernels")
    dynamic = tuple(str(s) for s in options.get("dynamic_symbols", ()))
    abi = make_abi(kernel, parameters, usages, hyperparams, dynamic, first)
    loaded = load(hsacos, name=name)
    symbol = first.func_name or name  # the kernel's name in the code object (Wave's launch)
    objects = {}
    for a, co in loaded.objects.items():
        if symbol not in co.kernels:
            raise WaveAbiError(f"{name} ({a}): Wave launches kernel {symbol!r} but the code "
                               f"object holds {', '.join(co.kernels) or 'no kernel'}")
        kernels = {n: replace(info, args=abi.named_args(info.args, a)) if n == symbol else info
                   for n, info in co.kernels.items()}
        objects[a] = replace(co, kernels=kernels, compile_seconds=seconds / len(archs))
    # the file the Wave function is defined in names the module (its code object has no line
    # tables, so the ISA shows no source lines)
    filename = Path(kernel._f.__code__.co_filename).name
    return WaveModule(source="", archs=tuple(objects), objects=objects, filename=filename,
                      kernel_name=symbol, abi=abi, mlir_text=mlir, launch_info=first,
                      hyperparams={str(k): v for k, v in hyperparams.items()},
                      wave_options=dict(options), origin=origin)


@contextmanager
def kept_address_spaces(kernel: Any):
    """Restore the address space of each ``Memory`` parameter of ``kernel`` after a compile.

    Why: Wave 3.9.1's shared-memory promotion sets the parameter's memory type to global in
    place (``wave_lang/kernel/wave/promotion.py``: ``custom_node.memory_type.address_space =
    GLOBAL_ADDRESS_SPACE``), and that type object belongs to the kernel's signature: a second
    compile of the same kernel (another arch, other hyperparameters) would read A and B from
    global memory with no LDS at all, and Wave's cache, whose key leaves the address space out,
    would keep that kernel under the first one's key."""
    import inspect

    types = [p.annotation for p in inspect.signature(kernel._f).parameters.values()
             if hasattr(p.annotation, "address_space")]
    saved = [t.address_space for t in types]
    try:
        yield
    finally:
        for t, space in zip(types, saved):
            t.address_space = space


def hsaco_from_vmfb(vmfb: bytes | None, name: str, arch: str) -> bytes:
    """The code object inside an IREE HIP executable: IREE's HIP executable flatbuffer
    (IREE runtime/src/iree/schemas/hip_executable_def.fbs, ``ModuleDef.hsaco_image``) holds it
    as a flatbuffers string, its uint32 length right before its bytes (FlatBuffers' binary
    format: a vector is prefixed by its 32-bit element count)."""
    data = bytes(vmfb or b"")
    starts = [m.start() for m in re.finditer(rb"\x7fELF", data)]
    if len(starts) != 1 or starts[0] < 4:
        raise WaveCompileError(
            f"{name} ({arch}): Wave's cache served the kernel but its IREE executable holds "
            f"{len(starts)} code objects (one expected); clear the cache (WAVE_CACHE_DIR, "
            f"default ~/.wave) or set WAVE_CACHE_ON=0 to compile afresh", arch)
    i = starts[0]
    n = struct.unpack_from("<I", data, i - 4)[0]
    elf = data[i:i + n]
    # the section headers end the ELF (e_shoff + e_shnum * e_shentsize, ELF64 header)
    shoff = struct.unpack_from("<Q", elf, 0x28)[0] if len(elf) >= 0x40 else 0
    entsize, count = struct.unpack_from("<HH", elf, 0x3A) if len(elf) >= 0x40 else (0, 0)
    if len(elf) != n or shoff + entsize * count != n:
        raise WaveCompileError(
            f"{name} ({arch}): the code object in the IREE executable Wave's cache served is "
            f"cut short ({len(elf)} of {n} bytes, section headers end at "
            f"{shoff + entsize * count}); clear the cache (WAVE_CACHE_DIR, default ~/.wave)",
            arch)
    return elf


def compile_error(name: str, arch: str, e: Exception, hyperparams: dict,
                  options: dict[str, Any]) -> WaveCompileError:
    """A Wave failure as a WaveCompileError naming the kernel, the arch and what failed."""
    text = str(e)
    if type(e).__name__ == "CompilerToolError":  # iree.compiler.tools.binaries
        errors = [ln.strip() for ln in text.splitlines() if "error:" in ln]
        shown = list(dict.fromkeys(errors))[:6]  # IREE repeats one error per op
        body = "\n  ".join(shown) or text.strip().splitlines()[0]
        return WaveCompileError(f"Wave could not compile {name} for {arch}: IREE's compiler "
                                f"(iree-compile) failed:\n  {body}", arch)
    first = text.strip().splitlines()[0] if text.strip() else ""
    msg = f"Wave could not compile {name} for {arch}: {type(e).__name__}: {first}"
    if "Relational" in text or "truth value" in text:
        # sympy cannot compare an expression with a symbol that has no value
        given = {str(k) for k in hyperparams} | {str(s) for s in
                                                 options.get("dynamic_symbols", ())}
        words = dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", first.split(":")[-1]))
        unset = [w for w in words if w not in given]
        if unset:
            msg += (f" ({', '.join(unset)} {'has' if len(unset) == 1 else 'have'} no value: "
                    f"give {'it' if len(unset) == 1 else 'them'} in hyperparams, or in "
                    f"dynamic_symbols=[...] to read it from the arrays at launch)")
    return WaveCompileError(msg, arch)
